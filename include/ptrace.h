/*
 * ptrace.h - struct pt_regs: the register frame every trap builds.
 *
 * The layout is Linux's i386 one.  Reading upward from the address the
 * C dispatcher receives, the entry stub pushed bx..gs, the error code
 * went into orig_ax, and the CPU itself pushed ip, cs and flags.
 *
 * The CPU pushes sp and ss ONLY when the trap changes privilege level
 * (ring 3 -> ring 0).  This kernel runs everything in ring 0, so those
 * two words are never written: they are whatever happened to be on the
 * interrupted stack.  The interrupted stack pointer is therefore the
 * address of the sp field itself - the first byte the CPU did not touch.
 * kernel_stack_pointer() computes exactly that, as Linux does.
 */
#ifndef PTRACE_H
#define PTRACE_H

#include <stdint.h>

struct pt_regs {
	unsigned long bx;
	unsigned long cx;
	unsigned long dx;
	unsigned long si;
	unsigned long di;
	unsigned long bp;
	unsigned long ax;
	unsigned long ds;
	unsigned long es;
	unsigned long fs;
	unsigned long gs;
	unsigned long orig_ax;  /* error code (0 when the CPU pushes none) */
	unsigned long ip;       /* pushed by the CPU */
	unsigned long cs;       /* pushed by the CPU */
	unsigned long flags;    /* pushed by the CPU */
	unsigned long sp;       /* only on a privilege change: never here */
	unsigned long ss;       /* only on a privilege change: never here */
};

/* The stack pointer at the moment of the trap (ring 0 -> ring 0). */
static inline unsigned long kernel_stack_pointer(struct pt_regs *regs)
{
	return (unsigned long)&regs->sp;
}

static inline unsigned long regs_return_value(struct pt_regs *regs)
{
	return regs->ax;
}

static inline unsigned long instruction_pointer(struct pt_regs *regs)
{
	return regs->ip;
}

/* Print every register in the fixed format tests and students read. */
void show_regs(struct pt_regs *regs);

#endif
