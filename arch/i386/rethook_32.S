/*
 * rethook_32.S - where a rethooked function returns to (Linux's
 * arch_rethook_trampoline, arch/x86/kernel/rethook.c).
 *
 * rethook_hook() replaced the function's return address with
 * arch_rethook_trampoline.  The function's "ret" pops it and jumps
 * here, %eax:%edx holding the return value and %esp one word above the
 * slot the address came from (call that S).  As kretprobe_trampoline.S:
 * a frame record over the slot for unwinders, a struct pt_regs below it,
 * the C half (arch_rethook_trampoline_callback, regparm(3): regs in
 * %eax) gives back the real address, written into the slot for ret.
 *
 *     S-4    arch_rethook_trampoline  \ a frame record, as "push %ebp"
 *     S-8    caller's %ebp            /  makes
 *     S-12   flags  \
 *            ...     | struct pt_regs, up to flags
 *            bx     /  <- %esp
 */
#include "nokprobe.h"
#include <asm/calling.h>

#define PT_SLOT		(PT_SP + 4)	/* the word above: the return-address slot */
#define PT_SKIP		(PT_FLAGS - PT_DS)	/* ds, es, fs, gs, orig_ax, ip, cs */

	.text

	.globl arch_rethook_trampoline
	.type arch_rethook_trampoline, @function
arch_rethook_trampoline:
	pushl $arch_rethook_trampoline	/* S-4: the slot, for unwinders */
	pushl %ebp			/* S-8 */
	pushfl				/* regs->flags */
	pushl %cs			/* regs->cs */
	pushl $arch_rethook_trampoline	/* regs->ip (the C side sets the real one) */
	pushl $0			/* regs->orig_ax */
	pushl %gs
	pushl %fs
	pushl %es
	pushl %ds
	PUSH_GENERAL_REGS		/* %eax:%edx is the return value */
	leal PT_SP(%esp), %ebp		/* %ebp -> the frame record */
	movl %esp, %eax			/* arg 1 (regparm(3)): the regs */
	call arch_rethook_trampoline_callback
	movl %eax, PT_SLOT(%esp)	/* ret below goes to the real caller */
	POP_GENERAL_REGS
	addl $PT_SKIP, %esp		/* segments are unchanged; ip was ours */
	popfl
	leal STACK_WORD(%esp), %esp	/* the frame record's %ebp (already restored) */
	ret				/* pops the real return address: %esp = S */
	.size arch_rethook_trampoline, . - arch_rethook_trampoline
	NOKPROBE_ASM(arch_rethook_trampoline)
