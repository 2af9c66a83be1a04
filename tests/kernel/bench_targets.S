/*
 * bench_targets.S - a probed function whose first instruction is a jmp,
 * for the benchmark's "emulated (jmp)" row (tests/kernel/bench.c).
 *
 * After the jmp it does what gcc makes of bench_target(): load, add,
 * store a counter, ret.  With a probe on the jmp the int3 stands in for
 * it and the handler emulates it, so a probed call runs the same
 * instructions as a probed bench_target() does outside the probe: the
 * row compares with "no probe" like every other.
 */
	.text
	.globl bench_target_jmp
	.type bench_target_jmp, @function
bench_target_jmp:
	jmp 1f				/* the probed instruction: eb 00 */
1:	movl bench_jmp_calls, %eax
	addl $1, %eax
	movl %eax, bench_jmp_calls
	ret
	.size bench_target_jmp, . - bench_target_jmp

	.data
	.balign 4
	.globl bench_jmp_calls
bench_jmp_calls:
	.long 0
