/*
 * rethook.c - the x86 half of rethook (Linux's arch/x86/kernel/rethook.c):
 * which word holds the return address (the trampoline is rethook_32.S).
 *
 * At a function's first byte - an int3 there, or ftrace's call site - the
 * return address is the word at the top of the stack, which on i386 is
 * &regs->sp (a frame from ring 0 has no sp of its own, ptrace.h).
 */
#include "kernel.h"
#include <asm/ptrace.h>
#include "rethook.h"
#include "nokprobe.h"

/*
 * Only kernel functions are hooked (a ring-3 frame has its own sp and
 * never reaches here): the slot is &regs->sp itself, no test of the ring.
 */
void arch_rethook_prepare(struct rethook_node *node, struct pt_regs *regs, bool mcount)
{
	unsigned long *slot = &regs->sp;

	node->ret_addr = *slot;
	node->frame = (unsigned long)slot;
	*slot = (unsigned long)arch_rethook_trampoline;
}
NOKPROBE_SYMBOL(arch_rethook_prepare);
