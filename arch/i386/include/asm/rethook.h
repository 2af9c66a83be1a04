/*
 * asm/rethook.h - the x86 half of rethook (Linux's
 * arch/x86/kernel/rethook.c): which word holds the return address (the
 * trampoline is arch/i386/rethook_32.S).  Included by include/rethook.h,
 * whose rethook_hook() inlines it.
 *
 * At a function's first byte - an int3 there, or ftrace's call site - the
 * return address is the word at the top of the stack, which on i386 is
 * &regs->sp (a frame from ring 0 has no sp of its own, ptrace.h).
 */
#ifndef _ASM_RETHOOK_H
#define _ASM_RETHOOK_H

#include <stdbool.h>
#include <asm/ptrace.h>

/*
 * Only kernel functions are hooked (a ring-3 frame has its own sp and
 * never reaches here): the slot is &regs->sp itself, no test of the ring.
 */
static __always_inline void arch_rethook_prepare(struct rethook_node *node,
						 struct pt_regs *regs, bool mcount)
{
	unsigned long *slot = &regs->sp;
	unsigned long ret_addr = *slot;

	*slot = (unsigned long)arch_rethook_trampoline;
	node->ret_addr = ret_addr;	/* stored last: a caller reads them back */
	node->frame = (unsigned long)slot;
}

#endif
