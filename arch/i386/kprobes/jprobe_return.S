/*
 * jprobe_return.S - the two ways out of a jprobe handler, each an int3
 * at an address longjmp_break_handler (jprobes.c) knows.
 *
 * jprobe_return(): step 2 of the article.  The handler's own frames lie
 * below the stack pointer the probed function had at the hit; throw them
 * away by loading that pointer back (jprobe_ctlblk.saved_sp), then trap.
 * The trap frame the CPU pushes now sits exactly where the one from the
 * first hit did, so the break handler can restore registers and stack
 * bytes and let the probed instruction be single-stepped.
 *
 * saved_sp is 0 when no jprobe handler is running: a stray call then
 * traps on its own stack and the kernel oopses at jprobe_return_break
 * with a readable backtrace, instead of jumping to a stale stack.
 *
 * jprobe_handler_returned: setjmp_pre_handler() wrote this address over
 * the probed function's return address, so a handler that ends with a
 * plain "ret" arrives here, its stack pointer one word above saved_sp
 * (ret popped the slot).  Step back over that word and trap: the break
 * handler sees the same stack pointer as from jprobe_return, reports the
 * missing jprobe_return() and recovers the same way.
 *
 * Neither int3 is ever executed past: the break handler sends the CPU to
 * the probed function.  ud2 after each makes any other outcome loud.
 */
#include "nokprobe.h"
#include <asm/calling.h>

#define JCB_SAVED_SP	0	/* offsetof(struct jprobe_ctlblk, saved_sp), asserted in jprobes.c */

	.text

	.globl jprobe_return
	.type jprobe_return, @function
jprobe_return:
	movl %fs:jprobe_ctlblk + JCB_SAVED_SP, %eax	/* this CPU's copy */
	testl %eax, %eax
	jz 1f			/* no jprobe running: trap where we stand */
	movl %eax, %esp		/* back to the stack as it was at the hit */
1:
	.globl jprobe_return_break
jprobe_return_break:
	int3
	ud2
	.size jprobe_return, . - jprobe_return
	NOKPROBE_ASM(jprobe_return)

	.globl jprobe_handler_returned
	.type jprobe_handler_returned, @function
jprobe_handler_returned:
	leal -STACK_WORD(%esp), %esp	/* undo ret's pop (lea: the flags stay as they are) */
	.globl jprobe_handler_returned_break
jprobe_handler_returned_break:
	int3
	ud2
	.size jprobe_handler_returned, . - jprobe_handler_returned
	NOKPROBE_ASM(jprobe_handler_returned)
