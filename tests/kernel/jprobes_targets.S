/*
 * jprobes_targets.S - a probed function for the "jprobes" suite whose
 * first instruction is neither a push nor a branch (gcc starts every C
 * function here with push %ebp, which the int3 handler emulates): a
 * load, which kprobes steps once and boosts from then on.
 *
 *	int jpt_load(int v) - returns v * 3 + 1, v on the stack as C passes it
 */
	.text
	.globl jpt_load
	.type jpt_load, @function
jpt_load:
	movl 4(%esp), %eax		/* the probed instruction: a load */
	leal 1(%eax,%eax,2), %eax
	ret
	.size jpt_load, . - jpt_load
