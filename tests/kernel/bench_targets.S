/*
 * bench_targets.S - probed functions whose first instruction is one the
 * int3 handler emulates, for the benchmark's "emulated" rows
 * (tests/kernel/bench.c): a jmp, a push %ebp (the usual function entry)
 * and a call.  Each row also times its function unprobed, and reports
 * the difference.
 */
	.text

/* jmp to the next instruction, then what gcc makes of bench_target(). */
	.globl bench_target_jmp
	.type bench_target_jmp, @function
bench_target_jmp:
	jmp 1f				/* the probed instruction: eb 00 */
1:	movl bench_asm_calls, %eax
	addl $1, %eax
	movl %eax, bench_asm_calls
	ret
	.size bench_target_jmp, . - bench_target_jmp

/* The same with a frame, as gcc builds one: the probe on push %ebp. */
	.globl bench_target_push
	.type bench_target_push, @function
bench_target_push:
	pushl %ebp			/* the probed instruction: 55 */
	movl %esp, %ebp
	movl bench_asm_calls, %eax
	addl $1, %eax
	movl %eax, bench_asm_calls
	popl %ebp
	ret
	.size bench_target_push, . - bench_target_push

/* A call of the jmp one: the probe on the call rel32. */
	.globl bench_target_call
	.type bench_target_call, @function
bench_target_call:
	call bench_target_jmp		/* the probed instruction: e8 rel32 */
	ret
	.size bench_target_call, . - bench_target_call

	.data
	.balign 4
	.globl bench_asm_calls
bench_asm_calls:
	.long 0
