/*
 * bench.h - what the two benchmark boot modes share: which hit path a
 * row wants, and the check that the probe really took it.
 *
 * "bench" (bench.c) measures one CPU under icount; "bench_smp"
 * (bench_smp.c) measures every CPU at once under multi-threaded TCG.
 */
#ifndef TESTS_BENCH_H
#define TESTS_BENCH_H

/* bench_fentry.S: functions with a call site, for the ftrace rows. */
#define BENCH_FENTRY_FUNCS	64

#ifndef __ASSEMBLER__
#include <stdbool.h>

/*
 * Which hit path a row measures.  Boosting and jump optimization are on
 * by default and would turn every pre-handler-only kprobe into one of the
 * fast rows, so each row says which it wants (docs/optprobes.md).
 */
enum bench_mode {
	BENCH_CLASSIC,		/* int3 + single-step: no boost, no jump */
	BENCH_BOOSTED,		/* int3, then the slot's jmp back: no #DB */
	BENCH_OPTIMIZED,	/* a jmp to the detour: no exception */
	BENCH_EMULATED,		/* int3, the instruction emulated: no #DB */
	BENCH_FTRACE,		/* a call site made a call: no exception */
};

extern const char *const bench_mode_names[];

/* Emulation, boosting and optimization as the mode wants them; BENCH_OPTIMIZED: all on (the defaults). */
void bench_set_mode(enum bench_mode mode);
/* Did the probe at addr (if any) really take the mode's path? */
bool bench_mode_taken(void *addr, enum bench_mode mode);

#endif /* __ASSEMBLER__ */

#endif
