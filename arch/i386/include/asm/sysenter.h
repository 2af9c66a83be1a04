/*
 * asm/sysenter.h - the fast system call (arch/i386/sysenter.c, the
 * entry in arch/i386/entry.S; docs/vdso.md).
 */
#ifndef ASM_SYSENTER_H
#define ASM_SYSENTER_H

#include <stdbool.h>
#include <asm/msr.h>
#include <asm/percpu.h>

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
/* entry.S: where sysenter lands; calls that came in by it, per CPU. */
extern char entry_SYSENTER_32[];
DECLARE_PER_CPU(unsigned long, sysenter_count);
/* A #DB on the entry's first instructions: the user's TF, to ignore (Linux's). */
bool is_sysenter_singlestep(const struct pt_regs *regs);
/* /sys/kernel/debug/x86/sysenter_count (at tracefs' start, with the other debugfs files). */
int sysenter_debugfs_init(void);

#endif
