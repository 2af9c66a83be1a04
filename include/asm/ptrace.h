/*
 * asm/ptrace.h - Linux's accessors for struct pt_regs on i386.
 *
 * Probe handlers read the probed code's registers and arguments through
 * these instead of poking at fields, so the same handler reads the same
 * way on every architecture.  The frame itself, and user_mode(), which
 * tells a process's frame from the kernel's, are include/ptrace.h.
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <stddef.h>
#include <stdbool.h>
#include "../ptrace.h"
#include "../sched.h"
#include "../segment.h"

#define MAX_REG_OFFSET	(offsetof(struct pt_regs, ss))

static inline void instruction_pointer_set(struct pt_regs *regs, unsigned long val)
{
	regs->ip = val;
}

/* What a kretprobe handler may change the probed function's result to. */
static inline void regs_set_return_value(struct pt_regs *regs, unsigned long rc)
{
	regs->ax = rc;
}

/*
 * The register at a byte offset into pt_regs (offsetof(struct pt_regs, ax)),
 * a selector 16 bits wide as in Linux's i386 one (pt_regs_read()); 0 for
 * an offset that names no register.
 */
static inline unsigned long regs_get_register(struct pt_regs *regs, unsigned int offset)
{
	if (offset > MAX_REG_OFFSET || offset % sizeof(unsigned long))
		return 0;
	return pt_regs_read(regs, offset);
}

/* Is addr on the stack the probed code was running on? */
static inline bool regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr)
{
	return addr >= kernel_stack_pointer(regs) && addr < current_stack_top();
}

/* The n-th word up from the stack pointer at the trap; 0 past the stack's top. */
static inline unsigned long regs_get_kernel_stack_nth(struct pt_regs *regs, unsigned int n)
{
	unsigned long addr = kernel_stack_pointer(regs) + n * sizeof(unsigned long);

	return regs_within_kernel_stack(regs, addr) ? *(unsigned long *)addr : 0;
}

/*
 * The n-th argument (from 0) of the function whose first instruction was
 * probed, as Linux's: the kernel is built with -mregparm=3, so the first
 * three are in ax, dx, cx and the rest on the stack above the return
 * address (include/ptrace.h).  Only meaningful at a function's entry,
 * before the function reuses those registers, and only for the kernel's
 * own functions: asmlinkage ones (the sys_* calls) and user programs
 * take every argument on the stack.
 */
static inline unsigned long regs_get_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	if (n < NR_REG_ARGUMENTS)
		return regs_get_register(regs, regs_argument_offset(n));
	return regs_get_kernel_stack_nth(regs, regs_argument_stack_nth(n));
}

#endif
