/*
 * nokprobe.h - NOKPROBE_SYMBOL(fn): "never put a probe on fn".
 *
 * An int3 inside the code that handles int3 would recurse forever, so
 * the trap path, the notifier chain, kprobes itself and everything a
 * handler invocation touches are listed here.  The macro records the
 * function's address in the _kprobe_blacklist section; register_kprobe()
 * refuses any address inside a listed function (sizes come from kallsyms).
 */
#ifndef NOKPROBE_H
#define NOKPROBE_H

#ifdef __ASSEMBLER__
#define NOKPROBE_ASM(sym)                    \
	.pushsection "_kprobe_blacklist", "a"; \
	.balign 4;                             \
	.long sym;                             \
	.popsection
#else
#define NOKPROBE_SYMBOL(fname)                                       \
	static unsigned long __attribute__((used, section("_kprobe_blacklist"))) \
	_kbl_addr_##fname = (unsigned long)(fname)

extern unsigned long __start_kprobe_blacklist[], __stop_kprobe_blacklist[];
#endif

#endif
