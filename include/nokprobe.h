/*
 * nokprobe.h - NOKPROBE_SYMBOL(fn): "never put a probe on fn".
 *
 * An int3 inside the code that handles int3 would recurse forever, so
 * the trap path, the notifier chain, kprobes itself and everything a
 * handler invocation touches are listed here.  The macro records the
 * function's address in the _kprobe_blacklist section; register_kprobe()
 * refuses any address inside a listed function (sizes come from kallsyms).
 *
 * A small static helper of blacklisted code need not be listed itself:
 * declared nokprobe_inline it is always inlined, its instructions are
 * part of its callers and covered by their entries.  Listing it instead
 * would keep an out-of-line copy alive just for the list to point at.
 * Only functions that must stay symbols - called through a pointer, big,
 * or called from more than the blacklist - get NOKPROBE_SYMBOL().
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
#include "kernel.h"

/* As Linux defines it with kprobes built in (here they always are). */
#define nokprobe_inline	__always_inline

#define NOKPROBE_SYMBOL(fname)                                       \
	static unsigned long __attribute__((used, section("_kprobe_blacklist"))) \
	_kbl_addr_##fname = (unsigned long)(fname)

extern unsigned long __start_kprobe_blacklist[], __stop_kprobe_blacklist[];
#endif

#endif
