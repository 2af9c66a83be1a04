/* TEMPORARY (lead): weak fallbacks while subsystems are being written. Removed before commit to main. */
void __attribute__((weak)) scheduler_tick(void) {}
void __attribute__((weak)) sched_init(void) {}
void __attribute__((weak)) kprobes_init(void) {}
void __attribute__((weak)) bench_run(void) {}
