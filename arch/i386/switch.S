/*
 * switch.S - switch_to(): the moment one thread stops and another runs.
 *
 *   void switch_to(unsigned long *prev_esp, unsigned long next_esp);
 *
 * The arguments arrive in %eax and %edx (the kernel's -mregparm=3, as
 * Linux's __switch_to_asm takes prev and next).  The C calling
 * convention says a called function may clobber %eax, %ecx and %edx
 * but must preserve %ebx, %esi, %edi, %ebp (and %esp).
 * schedule() calls us like any function, so only those four - plus the
 * return address already on the stack - make up a thread's saved CPU
 * state.  We push them on the old stack, remember where that stack
 * ended, and pop the same four from the new stack.  The final ret
 * returns into whatever called switch_to() on the NEW stack - normally
 * schedule(), or kthread_entry() for a thread that never ran (see
 * prepare_stack() in kernel/sched.c, which fakes this layout).
 *
 * EFLAGS is not saved here: schedule() runs with interrupts off, and
 * each thread restores its own IF on the way out (local_irq_restore()
 * in schedule(), or iret when the switch happened inside an interrupt).
 *
 * Saved stack, lowest address first (what *prev_esp points at):
 *     edi, esi, ebx, ebp, return address
 */
#include "nokprobe.h"

	.text
	.globl switch_to
	.type switch_to, @function
switch_to:
	/* %eax = prev_esp: where to store the old %esp; %edx = next_esp */
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)

	/* From here on we are running on the next thread's stack. */
	movl %edx, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size switch_to, . - switch_to
	NOKPROBE_ASM(switch_to)
