/*
 * df_entry.S - the code of the double-fault TASK (see doublefault.c).
 *
 * We get here through a task gate, not an interrupt gate: the CPU saved
 * every register of the faulting thread into this CPU's cpu_tss, loaded ours from
 * df_tss (fresh stack, interrupts off), set EFLAGS.NT and linked our TSS
 * back to cpu_tss.  Because #DF has an error code, the CPU pushed it
 * (always 0) on OUR stack.
 *
 * iret with NT set is a task switch back to the linked task.  That
 * switch saves this task's state into df_tss - including EIP, which then
 * points just past the iret.  The next #DF resumes us there, not at
 * double_fault_task, so the code after iret must jump back to the start.
 * Popping the error code before iret keeps our stack balanced, so every
 * #DF starts with the same %esp.
 */
#include "nokprobe.h"
#include <asm/calling.h>

	.text
	.globl double_fault_task
	.type double_fault_task, @function
double_fault_task:
	/* do_double_fault(error): the argument in %eax (-mregparm=3). */
	movl (%esp), %eax
	call do_double_fault
	addl $STACK_WORD, %esp  /* drop the error code */
	iret                    /* NT=1: task switch back to cpu_tss */
	jmp double_fault_task   /* the next #DF resumes here */
	.size double_fault_task, . - double_fault_task
	NOKPROBE_ASM(double_fault_task)
