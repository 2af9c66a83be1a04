/*
 * bench_target.S - the probed function of the "kprobe", "optimized" and
 * "kretprobe" rows, for the Linux module (kprobe_bench.c).
 *
 * The same bytes gcc makes of this kernel's bench_target() in
 * tests/kernel/bench.c (bench_calls++ in a leaf with no frame), so both
 * kernels put the probe on the same instruction: the 5-byte load of
 * bench_calls.  Written in assembly because Debian's kernel is built with
 * frame pointers and -mfentry: gcc would give a C function a push %ebp
 * and a call __fentry__ first, and the probe would sit on ftrace's site.
 */
	.text
	.globl bench_target
	.type bench_target, @function
bench_target:
	movl bench_calls, %eax		/* the probed instruction: a1 abs32 */
	incl %eax
	movl %eax, bench_calls
	ret
	.size bench_target, . - bench_target

	.data
	.balign 4
	.globl bench_calls
bench_calls:
	.long 0
