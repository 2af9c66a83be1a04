/*
 * asm/sysenter.h - the fast system call (arch/i386/sysenter.c, the
 * entry in arch/i386/entry.S; docs/vdso.md).
 */
#ifndef ASM_SYSENTER_H
#define ASM_SYSENTER_H

#include <stdbool.h>
#include <asm/msr.h>
#include <asm/percpu.h>
#include <asm/ptrace.h>

struct pt_regs;

/* Does this kernel use sysenter (the CPU has it, and no "nosep" on the command line)? */
bool sysenter_enabled(void);
/* On each CPU at its start: where sysenter goes (the boot CPU decides for all). */
void enable_sep_cpu(void);
/*
 * The stack sysenter lands on: the running task's, as TSS.esp0 is for
 * int $0x80 - written at every context switch (load_sp0()).
 */
static inline void sysenter_load_sp0(unsigned long sp0)
{
	if (sysenter_enabled())
		wrmsr(MSR_IA32_SYSENTER_ESP, sp0, 0);
}
/* entry.S's C half: true if sysexit may return (Linux's do_SYSENTER_32()). */
long do_SYSENTER_32(struct pt_regs *regs);
/* entry.S: where sysenter lands, and where the entry has cleared TF; calls that came in by it, per CPU. */
extern char entry_SYSENTER_32[], sysenter_flags_fixed[];
DECLARE_PER_CPU(unsigned long, sysenter_count);

/*
 * sysenter keeps the user's EFLAGS.TF: with it set, the entry's first
 * instructions each raise a #DB, in ring 0, until the entry clears TF
 * (after saving the user's flags, TF included).  Those steps are the
 * user's, not a kernel bug: exc_debug() drops them (Linux's
 * is_sysenter_singlestep()), and the user gets its SIGTRAP after the
 * return, which iret makes (TF in the saved flags rules out sysexit).
 * The popfl that clears TF still traps, reported at sysenter_flags_fixed.
 * Inline: the #DB path calls no function before it knows whose step it is.
 */
static inline bool is_sysenter_singlestep(const struct pt_regs *regs)
{
	return regs->ip - (unsigned long)entry_SYSENTER_32 <=
	       (unsigned long)sysenter_flags_fixed - (unsigned long)entry_SYSENTER_32;
}
/* /sys/kernel/debug/x86/sysenter_count (at tracefs' start, with the other debugfs files). */
int sysenter_debugfs_init(void);

#endif
