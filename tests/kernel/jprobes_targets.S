/*
 * jprobes_targets.S - a probed function for the "jprobes" suite whose
 * first instruction is neither a push nor a branch (gcc starts every C
 * function here with push %ebp, which the int3 handler emulates): a
 * register move, which kprobes steps once and boosts from then on.
 *
 *	int jpt_load(int v) - returns v * 3 + 1, v in %eax as C passes it
 *	(-mregparm=3): a jprobe handler must find it there too
 */
	.text
	.globl jpt_load
	.type jpt_load, @function
jpt_load:
	movl %eax, %ecx			/* the probed instruction: a move */
	leal 1(%ecx,%ecx,2), %eax
	ret
	.size jpt_load, . - jpt_load
