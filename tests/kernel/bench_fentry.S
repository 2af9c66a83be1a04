/*
 * bench_fentry.S - functions that start as gcc -pg -mfentry starts a
 * kernel function: "call __fentry__", listed in __mcount_loc, so
 * ftrace_init() makes it the 5-byte nop and ftrace can turn it into a
 * call (tests/kernel/bench.c, the ftrace rows).  The suites are built
 * without -pg; these few sites are written by hand instead, with the
 * same body as the emulated rows' targets.  BENCH_FENTRY_FUNCS of them,
 * for the fprobe row on many functions (bench.h).
 */
#include "bench.h"

	.text

.macro FENTRY_FUNC n
	.globl bench_fentry_\n
	.type bench_fentry_\n, @function
bench_fentry_\n:
1:	call __fentry__			/* the site: 5 bytes, a nop after boot */
	movl bench_asm_calls, %eax
	addl $1, %eax
	movl %eax, bench_asm_calls
	ret
	.size bench_fentry_\n, . - bench_fentry_\n
	.pushsection __mcount_loc, "a"
	.long 1b
	.popsection
.endm

	.altmacro
.macro FENTRY_FUNCS from, to
	FENTRY_FUNC %from
	.if \to - \from
	FENTRY_FUNCS %(\from + 1), \to
	.endif
.endm

	FENTRY_FUNCS 0, %(BENCH_FENTRY_FUNCS - 1)
