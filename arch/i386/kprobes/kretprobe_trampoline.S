/*
 * kretprobe_trampoline.S - where a kretprobed function returns to.
 *
 * pre_handler_kretprobe() replaced the function's return address with
 * kretprobe_trampoline.  The function's "ret" pops it and jumps here,
 * %eax holding the return value and %esp one word above the slot the
 * address came from (call that S).  We build a struct pt_regs, let C find
 * the instance for this slot and run the handler, then return to the
 * real caller with every register as the function left it (or as the
 * handler changed it: a handler may rewrite regs->ax).
 *
 * The stack while trampoline_handler runs, highest address first:
 *
 *     S      ...                 the caller's stack, untouched
 *     S-4    kretprobe_trampoline   \ a frame record, as "push %ebp" makes:
 *     S-8    caller's %ebp          / %ebp points here, and the unwinder
 *                                     asks kretprobe_find_ret_addr() about
 *                                     the trampoline it finds in the slot
 *     S-12   flags  \
 *            cs      |  struct pt_regs, up to flags (its sp and ss words
 *            ip      |  are the frame record above)
 *            ...     |
 *            bx     /   <- %esp, the pt_regs pointer
 *
 * The slot is written again rather than trusted to still hold the
 * trampoline's address: after ret, an interrupt may have used it.
 */
#include "nokprobe.h"
#include <asm/calling.h>

#define PT_SLOT		(PT_SP + 4)	/* the word above: the return-address slot */
#define PT_SKIP		(PT_FLAGS - PT_DS)	/* ds, es, fs, gs, orig_ax, ip, cs */

	.text

	.globl kretprobe_trampoline
	.type kretprobe_trampoline, @function
kretprobe_trampoline:
	pushl $kretprobe_trampoline	/* S-4: the slot, for unwinders */
	pushl %ebp			/* S-8 */
	pushfl				/* regs->flags */
	pushl %cs			/* regs->cs */
	pushl $kretprobe_trampoline	/* regs->ip (the C side sets the real one) */
	pushl $0			/* regs->orig_ax */
	pushl %gs
	pushl %fs
	pushl %es
	pushl %ds
	PUSH_GENERAL_REGS		/* %eax is the return value */
	leal PT_SP(%esp), %ebp		/* %ebp -> the frame record */
	movl %esp, %eax			/* trampoline_handler(regs): -mregparm=3 */
	call trampoline_handler
	movl %eax, PT_SLOT(%esp)	/* ret below goes to the real caller */
	POP_GENERAL_REGS
	addl $PT_SKIP, %esp		/* segments are unchanged; ip was ours */
	popfl
	leal STACK_WORD(%esp), %esp	/* the frame record's %ebp (already restored) */
	ret				/* pops the real return address: %esp = S */
	.size kretprobe_trampoline, . - kretprobe_trampoline
	NOKPROBE_ASM(kretprobe_trampoline)
