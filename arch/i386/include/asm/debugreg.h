/*
 * asm/debugreg.h - the debug registers DR0-DR3, DR6 and DR7: their bits
 * and the instructions that read and write them (Linux's
 * arch/x86/include/asm/debugreg.h and its uapi half).
 *
 * The generic hardware-breakpoint API built on them is
 * include/hw_breakpoint.h (docs/hw-breakpoints.md).
 */
#ifndef ASM_DEBUGREG_H
#define ASM_DEBUGREG_H

#include "kernel.h"
#include <asm/percpu.h>

#define HBP_NUM 4	/* DR0-DR3: the CPU has four address registers */

/* The debug registers by number, as get_debugreg()/set_debugreg() take them. */
#define DR_FIRSTADDR	0
#define DR_LASTADDR	3
#define DR_STATUS	6
#define DR_CONTROL	7

/*
 * DR6, the status: what caused this #DB.  The CPU sets these bits and
 * never clears BD, BS or BT (B0-B3 maybe), so the handler clears DR6
 * after reading it, or the next #DB would seem to have old causes too.  The reserved bits
 * read as 1; writing DR6_RESERVED is "no cause".
 */
#define DR_TRAP0	0x0001	/* B0: DR0's condition matched */
#define DR_TRAP1	0x0002	/* B1 */
#define DR_TRAP2	0x0004	/* B2 */
#define DR_TRAP3	0x0008	/* B3 */
#define DR_TRAP_BITS	(DR_TRAP0 | DR_TRAP1 | DR_TRAP2 | DR_TRAP3)
#define DR_BD		0x2000	/* BD: a mov to a debug register while DR7.GD was set */
#define DR_STEP		0x4000	/* BS: single-step, EFLAGS.TF (kprobes' step) */
#define DR_SWITCH	0x8000	/* BT: a task switch into a TSS with its T bit set */
#define DR6_RESERVED	0xffff0ff0UL

/*
 * DR7, the control.  Bits 0-7: an enable pair per slot, Ln (local, the
 * CPU clears it on a hardware task switch) and Gn (global).  Bits 16-31:
 * a 4-bit field per slot, R/W in its low two bits, LEN in its high two.
 *
 *   31 30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10  9  8  7  6  5  4  3  2  1  0
 *   [LEN3][R/W3][LEN2][R/W2][LEN1][R/W1][LEN0][R/W0]  0  0 GD  0  0  1 GE LE G3 L3 G2 L2 G1 L1 G0 L0
 */
#define DR_LOCAL_ENABLE		0x1	/* Ln, shifted by 2 * n */
#define DR_GLOBAL_ENABLE	0x2	/* Gn, shifted by 2 * n */
#define DR_ENABLE_SIZE		2	/* bits per slot in the enable byte */
#define DR_LOCAL_ENABLE_MASK	0x55	/* every Ln */
#define DR_GLOBAL_ENABLE_MASK	0xaa	/* every Gn */
#define DR_LOCAL_SLOWDOWN	0x100	/* LE: exact data breakpoints (ignored since the P6) */
#define DR_GLOBAL_SLOWDOWN	0x200	/* GE: the same */
#define DR_GENERAL_DETECT	0x2000	/* GD: #DB (BD) on any mov to a debug register */
#define DR_CONTROL_SHIFT	16	/* slot n's R/W+LEN field is at 16 + 4 * n */
#define DR_CONTROL_SIZE		4

/* R/W: what the CPU compares. */
#define DR_RW_EXECUTE	0x0	/* an instruction fetch: a fault, before it runs */
#define DR_RW_WRITE	0x1	/* a data write: a trap, after it */
#define DR_RW_READ	0x3	/* a data read or write (there is no read-only) */
/* LEN, already in place above R/W. */
#define DR_LEN_1	0x0	/* execute breakpoints must use this */
#define DR_LEN_2	0x4
#define DR_LEN_4	0xc

/*
 * Linux's native_get_debugreg()/native_set_debugreg().  mov to or from
 * a debug register names the register in the instruction, so regno
 * must be a constant: each call compiles to one mov.
 */
#define DEBUGREG_CASE_GET(n) \
	case n: __asm__ __volatile__("movl %%dr" #n ", %0" : "=r"(val)); break
#define DEBUGREG_CASE_SET(n) \
	case n: __asm__ __volatile__("movl %0, %%dr" #n : : "r"(value) : "memory"); break

static __always_inline unsigned long get_debugreg(int regno)
{
	unsigned long val = 0;

	switch (regno) {
	DEBUGREG_CASE_GET(0); DEBUGREG_CASE_GET(1);
	DEBUGREG_CASE_GET(2); DEBUGREG_CASE_GET(3);
	DEBUGREG_CASE_GET(6); DEBUGREG_CASE_GET(7);
	default: break;	/* DR4/DR5 alias DR6/DR7 only with CR4.DE clear: not used */
	}
	return val;
}

static __always_inline void set_debugreg(unsigned long value, int regno)
{
	switch (regno) {
	DEBUGREG_CASE_SET(0); DEBUGREG_CASE_SET(1);
	DEBUGREG_CASE_SET(2); DEBUGREG_CASE_SET(3);
	DEBUGREG_CASE_SET(6); DEBUGREG_CASE_SET(7);
	default: break;
	}
}

/*
 * This CPU's DR7 as the kernel set it (Linux's cpu_dr7): the wide
 * breakpoints' bits and the running thread's.  Non-zero: some
 * breakpoint is armed here.
 */
DECLARE_PER_CPU(unsigned long, cpu_dr7);

/*
 * Linux's local_db_save()/local_db_restore(): DR7 off while a
 * breakpoint's #DB is handled (arch/i386/traps.c), so a breakpoint on
 * something the handlers touch cannot raise #DB inside #DB.  Nothing to
 * do when no slot is on here.  The restore writes cpu_dr7 as it is
 * then: an IPI taken during the handler may have changed it.
 */
static __always_inline unsigned long local_db_save(void)
{
	unsigned long dr7 = this_cpu_read(cpu_dr7);

	if (dr7)
		set_debugreg(0, DR_CONTROL);
	return dr7;
}

static __always_inline void local_db_restore(unsigned long dr7)
{
	if (dr7)
		set_debugreg(this_cpu_read(cpu_dr7), DR_CONTROL);
}

/* What the last #DB's DR6 said on this CPU (Linux's thread.debugreg6), for the narrator. */
DECLARE_PER_CPU(unsigned long, debug_dr6);

/* DR6 read, then reset to "no cause" (the CPU does not clear it for us). */
static __always_inline unsigned long debug_read_clear_dr6(void)
{
	unsigned long dr6 = get_debugreg(DR_STATUS);

	set_debugreg(DR6_RESERVED, DR_STATUS);
	this_cpu_write(debug_dr6, dr6);
	return dr6;
}

#endif
