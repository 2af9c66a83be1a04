/*
 * sysenter.c - the fast system call: sysenter in, sysexit out (Linux's
 * enable_sep_cpu() in arch/x86/kernel/cpu/common.c and do_SYSENTER_32()
 * in arch/x86/entry/common.c; docs/vdso.md).
 *
 * int $0x80 is an interrupt: the CPU reads the IDT gate, checks its
 * privilege, reads TSS.esp0, pushes five words and loads two segments
 * from the GDT, all by the book of protected mode.  sysenter (Pentium
 * II) skips the book: it loads %cs, %eip and %esp from three MSRs that
 * the kernel wrote once, with flat segments assumed, and pushes
 * nothing.  sysexit is its mirror: %eip from %edx, %esp from %ecx,
 * ring 3's flat segments.  Fast, and forgetful: the kernel does not
 * learn where the call came from.  That is why it needs the vDSO
 * (arch/i386/vdso/system_call.S): the call always comes from there,
 * the return always goes to int80_landing_pad there, and the user's
 * stack pointer arrives in %ebp.
 *
 * The MSRs are per CPU.  SYSENTER_CS and SYSENTER_EIP are the same on
 * every CPU, written at its start; SYSENTER_ESP is the running task's
 * kernel stack top, written with TSS.esp0 at every switch
 * (sysenter_load_sp0()), so sysenter lands exactly where int $0x80
 * would and the entry builds the same pt_regs.  (Linux points it at a
 * per-CPU entry stack instead and moves to the task's stack in the
 * entry: that saves the MSR write per switch, at the cost of a stack
 * switch per call.)
 */
#include "kernel.h"
#include "sched.h"
#include "syscalls.h"
#include "uaccess.h"
#include "errno.h"
#include "signal.h"
#include "process.h"
#include "nokprobe.h"
#include "pseudofs.h"
#include "seq_buf.h"
#include "smp.h"
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <asm/ptrace.h>
#include <asm/desc.h>
#include <asm/sysenter.h>
#include <asm/vdso.h>

#define CPUID_SEP		(1u << 11)	/* sysenter/sysexit */
#define CPUID_FAMILY(sig)	(((sig) >> 8) & 0xf)
#define CPUID_MODEL(sig)	(((sig) >> 4) & 0xf)
#define CPUID_STEPPING(sig)	((sig) & 0xf)
#define FAMILY_P6		6
#define PPRO_SEP_FIXED		3	/* model and stepping from which a Pentium Pro's SEP works */

static bool sep_on;

/* System calls that came through sysenter on this CPU (a subset of syscall_count). */
DEFINE_PER_CPU(unsigned long, sysenter_count);

bool sysenter_enabled(void)
{
	return sep_on;
}

/*
 * CPUID says SEP; the first Pentium Pros (family 6, model and stepping
 * under 3) say it too and have no working sysenter, so Linux ignores
 * the bit there, and so do we.  "nosep" turns it off by hand: every
 * process then gets the int $0x80 vDSO.
 */
static bool sep_works(void)
{
	uint32_t sig, b, c, d;

	cpuid(CPUID_LEAF_FEATURES, &sig, &b, &c, &d);
	if (!(d & CPUID_SEP) || cmdline_has("nosep"))
		return false;
	return !(CPUID_FAMILY(sig) == FAMILY_P6 && CPUID_MODEL(sig) < PPRO_SEP_FIXED &&
		 CPUID_STEPPING(sig) < PPRO_SEP_FIXED);
}

void enable_sep_cpu(void)
{
	if (smp_processor_id() == 0)
		sep_on = sep_works();
	if (!sep_on)
		return;
	wrmsr(MSR_IA32_SYSENTER_CS, __SYSENTER_CS, 0);
	wrmsr(MSR_IA32_SYSENTER_ESP, this_cpu_tss()->esp0, 0);
	wrmsr(MSR_IA32_SYSENTER_EIP, (unsigned long)entry_SYSENTER_32, 0);
}

/*
 * The pt_regs entry.S built has what sysenter could not give: ip, which
 * becomes the landing pad (the return address the vDSO expects), and
 * sp, which the vDSO passed in %ebp; so the user's %ebp - the sixth
 * argument - is read from the top of that stack, where the vDSO pushed
 * it.  IF was set in ring 3 (sysenter cleared it).  Then the call is
 * an int $0x80's: a restart moves ip two bytes back, onto the vDSO's
 * int $0x80.  sysexit may return only to what sysenter left: the
 * landing pad, ring 3's flat segments, no TF or RF to honour (the
 * entry loads the flags with popfl before sysexit, where a TF would
 * trap in the kernel and RF cannot be set; iret loads them as it
 * returns).  A signal handler, execve or sigreturn changed the frame,
 * and then the way out is iret.
 */
long do_SYSENTER_32(struct pt_regs *regs)
{
	unsigned long landing_pad = vdso_symbol(current->mm, vdso_image()->sym_int80_landing_pad);

	regs->ip = landing_pad;
	regs->flags |= X86_EFLAGS_IF;
	local_irq_enable();
	this_cpu_inc(sysenter_count);
	if (copy_from_user(&regs->bp, (const void __user *)regs->sp, sizeof(regs->bp)))
		regs->ax = -EFAULT;	/* not the vDSO's stack: no call made */
	else
		do_int80_syscall_32(regs);
	exit_to_user_mode(regs);
	local_irq_disable();
	return regs->cs == __USER_CS && regs->ss == __USER_DS && regs->ip == landing_pad &&
	       !(regs->flags & (X86_EFLAGS_RF | X86_EFLAGS_TF | X86_EFLAGS_VM));
}
NOKPROBE_SYMBOL(do_SYSENTER_32);

/*
 * /sys/kernel/debug/x86/sysenter_count: the system calls that came in
 * by sysenter, on every CPU together (Linux has no such file; here it
 * shows a student - and the busybox stage - that glibc's calls take
 * the fast way: cat it twice).
 */
static int sysenter_count_show(struct seq_buf *s, void *data)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(sysenter_count, cpu);
	seq_buf_printf(s, "%lu\n", n);
	return 0;
}

static const struct pseudo_file_spec sysenter_files[] = {
	{ "sysenter_count", sysenter_count_show, NULL },
};

int sysenter_debugfs_init(void)
{
	return pseudofs_create_files("/sys/kernel/debug/x86", sysenter_files,
				     ARRAY_SIZE(sysenter_files));
}
