/*
 * nmi_backtrace.c - "what is every CPU doing?", asked with NMIs.
 *
 * A CPU stuck with interrupts off (spinning on a lock, looping in a
 * handler) will never take an ordinary IPI.  An NMI it cannot refuse:
 * cli does not mask it.  So, like Linux's sysrq-l
 * (trigger_all_cpu_backtrace()), we mark every other online CPU in
 * backtrace_mask and send each an NMI through its local APIC; do_nmi()
 * there finds its bit, prints its registers and backtrace from the
 * pt_regs the NMI saved, and clears the bit.  One lock keeps the CPUs'
 * reports from interleaving.
 *
 * An oops or a panic uses the same NMI to stop the others
 * (smp_send_stop()): each prints what it was doing, then halts inside
 * its NMI handler for good - a further NMI stays blocked until an iret
 * that never comes.  The dying CPU's report names it; these show the
 * rest.
 */
#include "kernel.h"
#include "smp.h"
#include <asm/apic.h>
#include "spinlock.h"
#include <asm/ptrace.h>
#include "kallsyms.h"
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "nokprobe.h"

/*
 * How long to wait for the reports, in pause loops rather than time:
 * the caller may be an oops with interrupts off, where jiffies (and so
 * ktime_get()) stand still.  Some seconds under QEMU.
 */
#define BACKTRACE_WAIT_SPINS	200000000L

static volatile unsigned long backtrace_mask;	/* CPUs yet to report */
static volatile bool stopping;			/* ...then halt (oops, panic) */
static spinlock_t backtrace_lock = __SPIN_LOCK_UNLOCKED(backtrace_lock);

static void print_cpu_state(int cpu, struct pt_regs *regs)
{
	printk("NMI backtrace for CPU %d (APIC id %d)%s\n", cpu, cpu_apic_id[cpu],
	       stopping ? ", stopping it" : "");
	show_regs(regs);
	printk("Call Trace:\n");
	show_backtrace(regs, 0);
}

/* From do_nmi(): true when this NMI was our request (and is handled). */
bool nmi_cpu_backtrace(struct pt_regs *regs)
{
	int cpu = smp_processor_id();

	if (!(READ_ONCE(backtrace_mask) & (1UL << cpu)))
		return false;
	arch_spin_lock(&backtrace_lock);
	print_cpu_state(cpu, regs);
	arch_spin_unlock(&backtrace_lock);
	__asm__ __volatile__("lock btrl %1, %0"
			     : "+m" (backtrace_mask) : "r" (cpu) : "memory");
	if (stopping)
		for (;;)
			__asm__ __volatile__("cli; hlt");
	return true;
}

/* NMI every other online CPU and wait (bounded) for each report. */
static void nmi_other_cpus(void)
{
	int me = smp_processor_id(), cpu;
	long spins = BACKTRACE_WAIT_SPINS;

	backtrace_mask = cpu_online_mask & ~(1UL << me);
	for_each_online_cpu(cpu)
		if (cpu != me)
			apic_icr_write(APIC_DM_NMI, cpu_apic_id[cpu]);
	while (READ_ONCE(backtrace_mask) && spins--)
		cpu_relax();
	if (READ_ONCE(backtrace_mask))
		printk("NMI backtrace: no answer from CPU mask %#lx\n", backtrace_mask);
}

/* The console's "cpus -b": this CPU's trace, then every other's. */
void trigger_all_cpu_backtrace(void)
{
	unsigned long bp;

	preempt_disable();
	printk("NMI backtrace for CPU %d (APIC id %d), the one asking:\n",
	       smp_processor_id(), cpu_apic_id[smp_processor_id()]);
	__asm__ __volatile__("movl %%ebp, %0" : "=r"(bp));
	show_backtrace(NULL, bp);
	if (num_online_cpus() > 1)
		nmi_other_cpus();
	preempt_enable();
}

/*
 * From die() and panic(), interrupts off: show what the others were
 * doing, and stop them, so nothing runs on after the report.
 */
void smp_send_stop(void)
{
	if (num_online_cpus() < 2 || !lapic_present)
		return;
	stopping = true;
	printk("Stopping the other CPUs (NMI); what each was doing:\n");
	nmi_other_cpus();
}

NOKPROBE_SYMBOL(nmi_cpu_backtrace);
NOKPROBE_SYMBOL(print_cpu_state);
NOKPROBE_SYMBOL(smp_send_stop);
NOKPROBE_SYMBOL(nmi_other_cpus);
