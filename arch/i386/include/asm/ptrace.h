/*
 * ptrace.h - struct pt_regs: the register frame every trap builds.
 *
 * The layout is Linux's i386 one.  Reading upward from the address the
 * C dispatcher receives, the entry stub pushed bx..gs, the error code
 * went into orig_ax, and the CPU itself pushed ip, cs and flags.
 *
 * The CPU pushes sp and ss ONLY when the trap changes privilege level
 * (ring 3 -> ring 0): then it has switched to the kernel stack TSS.esp0
 * names, and the user's ss:esp are the frame's last two words.  A trap
 * from ring 0 stays on the same stack and pushes neither: those two
 * words are whatever lay on the interrupted stack, and the interrupted
 * stack pointer is the address of the sp field itself - the first byte
 * the CPU did not touch.  user_mode(regs) tells the two apart;
 * kernel_stack_pointer() is for a frame from ring 0, as Linux's, and
 * user_stack_pointer() for one from ring 3.
 *
 * A trap from virtual-8086 mode is a third shape: also a privilege
 * change (vm86 code runs at CPL 3), and the CPU pushes the real-mode
 * es, ds, fs and gs above ss, then loads null selectors into all four
 * (SDM vol. 3, "8086 Emulation"): struct kernel_vm86_regs.
 *
 * Every segment register sits in a 32-bit stack slot but is 16 bits
 * wide, and the CPU is not obliged to fill the rest of the slot: a
 * "pushl %ds" in 32-bit code, and the CPU's own push of cs and ss on a
 * trap, may write only the low two bytes and leave the upper two as
 * the stack held them (SDM vol. 2, PUSH: "the processor ... only writes
 * 2 bytes"; Bochs models it, QEMU's TCG zero-extends).  So, as Linux's
 * i386 struct pt_regs does, each selector is an unsigned short with
 * its upper half named __dsh, __csh, ... - padding no one may read.
 *
 * Below the frame, Linux's accessors (regs_get_register(), ...): probe
 * handlers read the probed code's registers and arguments through them
 * instead of poking at fields, so a handler reads the same way on every
 * architecture.  Linux keeps both halves in asm/ptrace.h, as here.
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <asm/processor.h>
#include <asm/segment.h>

struct pt_regs {
	unsigned long bx;
	unsigned long cx;
	unsigned long dx;
	unsigned long si;
	unsigned long di;
	unsigned long bp;
	unsigned long ax;
	unsigned short ds;
	unsigned short __dsh;   /* the upper half of each selector's slot: junk */
	unsigned short es;
	unsigned short __esh;
	unsigned short fs;
	unsigned short __fsh;
	unsigned short gs;
	unsigned short __gsh;
	unsigned long orig_ax;  /* error code (0 when the CPU pushes none) */
	unsigned long ip;       /* pushed by the CPU */
	unsigned short cs;      /* pushed by the CPU */
	unsigned short __csh;
	unsigned long flags;    /* pushed by the CPU */
	unsigned long sp;       /* only on a privilege change (from ring 3) */
	unsigned short ss;      /* only on a privilege change (from ring 3) */
	unsigned short __ssh;
};

/* Is the field at this byte offset a selector: 16 bits of a 32-bit slot? */
static inline bool pt_regs_offset_is_selector(unsigned long offset)
{
	return offset == offsetof(struct pt_regs, ds) ||
	       offset == offsetof(struct pt_regs, es) ||
	       offset == offsetof(struct pt_regs, fs) ||
	       offset == offsetof(struct pt_regs, gs) ||
	       offset == offsetof(struct pt_regs, cs) ||
	       offset == offsetof(struct pt_regs, ss);
}

/*
 * The register at a byte offset into pt_regs, as a handler or a fetcharg
 * reads it: a selector is 16 bits of its slot, the upper half being
 * whatever the stack held before the push.
 */
static inline unsigned long pt_regs_read(const struct pt_regs *regs, unsigned long offset)
{
	const char *slot = (const char *)regs + offset;
	unsigned short selector;
	unsigned long word;

	if (pt_regs_offset_is_selector(offset)) {
		__builtin_memcpy(&selector, slot, sizeof(selector));
		return selector;
	}
	__builtin_memcpy(&word, slot, sizeof(word));
	return word;
}

/*
 * Linux's struct kernel_vm86_regs: the frame of a trap from vm86 mode,
 * pt_regs and then the four segment registers the CPU saved for it.
 */
struct kernel_vm86_regs {
	struct pt_regs pt;
	unsigned short es, __esh;   /* pushed by the CPU, from vm86 only */
	unsigned short ds, __dsh;
	unsigned short fs, __fsh;
	unsigned short gs, __gsh;
};

/*
 * Did the trap come from virtual-8086 mode?  Its cs is a real-mode
 * paragraph number, not a selector, so its low bits mean nothing: only
 * the saved EFLAGS.VM tells.
 */
static inline bool v8086_mode(struct pt_regs *regs)
{
	return (regs->flags & X86_EFLAGS_VM) != 0;
}

/*
 * Did the trap come from a process, at CPL 3?  In protected mode the
 * saved %cs's low two bits are the privilege level the CPU was running
 * at.  In vm86 mode they are whatever the process put in cs - 0 looks
 * like ring 0 - while the CPU ran at CPL 3: Linux's i386 user_mode()
 * ORs in EFLAGS.VM for that reason.  A user frame, and only a user
 * frame, holds the process's sp and ss.
 */
static inline bool user_mode(struct pt_regs *regs)
{
	return v8086_mode(regs) || (regs->cs & SEGMENT_RPL_MASK) >= USER_RPL;
}

/*
 * The kernel's stack pointer at the moment of the trap.  From ring 0,
 * the first word the CPU's frame did not cover.  From ring 3 the kernel
 * stack was empty - the CPU started the frame at TSS.esp0 - so it is
 * the end of the whole frame, user sp and ss included (and a vm86
 * frame's four segment registers).
 */
static inline unsigned long kernel_stack_pointer(struct pt_regs *regs)
{
	if (v8086_mode(regs))
		return (unsigned long)((struct kernel_vm86_regs *)regs + 1);
	if (user_mode(regs))
		return (unsigned long)(regs + 1);
	return (unsigned long)&regs->sp;
}

/* The process's stack pointer at the trap (a frame from ring 3 only). */
static inline unsigned long user_stack_pointer(struct pt_regs *regs)
{
	return regs->sp;
}

/*
 * Where a function finds its arguments at its first instruction.  The
 * kernel is built with -mregparm=3, as Linux's i386 is: the first three
 * in %eax, %edx, %ecx, the rest on the stack above the return address
 * (the word sp points at), the fourth right above it.  An argument of
 * 64 bits takes two of these places, the low half first; one that no
 * longer fits the registers goes on the stack whole.
 */
#define NR_REG_ARGUMENTS	3

/* The pt_regs offset of register argument n (from 0, n < NR_REG_ARGUMENTS). */
static inline unsigned long regs_argument_offset(unsigned int n)
{
	static const unsigned long argument_offs[NR_REG_ARGUMENTS] = {
		offsetof(struct pt_regs, ax),
		offsetof(struct pt_regs, dx),
		offsetof(struct pt_regs, cx),
	};

	return argument_offs[n];
}

/* The stack word, counted up from sp at entry, of argument n >= NR_REG_ARGUMENTS. */
static inline unsigned int regs_argument_stack_nth(unsigned int n)
{
	return n - NR_REG_ARGUMENTS + 1;	/* word 0 is the return address */
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

/* ---- Linux's accessors ---------------------------------------------- */

unsigned long current_stack_top(void);	/* kernel/sched.c: the running thread's */

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
 * address.  Only meaningful at a function's entry, before the function
 * reuses those registers, and only for the kernel's own functions:
 * asmlinkage ones (the sys_* calls) and user programs take every
 * argument on the stack.
 */
static inline unsigned long regs_get_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	if (n < NR_REG_ARGUMENTS)
		return regs_get_register(regs, regs_argument_offset(n));
	return regs_get_kernel_stack_nth(regs, regs_argument_stack_nth(n));
}

#endif
