/*
 * exec_trace_asm.S - call a function with EFLAGS.TF set.
 *
 *	unsigned long exec_trace_tf_call(unsigned long (*fn)(void));
 *
 * popf is the only way to set TF in ring 0.  The CPU looks at TF
 * before each instruction: the popf that sets it does not trap, every
 * instruction after it does (SDM vol. 3, 18.3.1.4), up to and including
 * the popf that clears it again.
 */
#include <asm/processor.h>

	.text
	.globl exec_trace_tf_call
exec_trace_tf_call:
	movl %eax, %ecx			/* fn (-mregparm=3: in %eax) */
	pushfl
	orl $X86_EFLAGS_TF, (%esp)
	popfl				/* from the next instruction on: #DB after each */
	call *%ecx
	pushfl
	andl $~X86_EFLAGS_TF, (%esp)
	popfl				/* the last instruction traced */
	ret
