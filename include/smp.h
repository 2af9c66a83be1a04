/*
 * smp.h - which CPU am I, and which CPUs are there.
 *
 * CPU numbers are dense (0 = the boot CPU, then each application
 * processor in the order it answered); the local APIC id the hardware
 * gave a CPU is kept apart in cpu_apic_id.
 */
#ifndef SMP_H
#define SMP_H

#include <asm/percpu.h>

struct pt_regs;

DECLARE_PER_CPU(int, cpu_number);

/* One %fs-relative load: the number of the CPU this code runs on. */
#define smp_processor_id()	this_cpu_read(cpu_number)
#define raw_smp_processor_id()	smp_processor_id()

extern unsigned int nr_online_cpus;
extern unsigned long cpu_online_mask;	/* bit n: CPU n runs the kernel */

static inline unsigned int num_online_cpus(void)
{
	return READ_ONCE(nr_online_cpus);
}

static inline bool cpu_online(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS && (READ_ONCE(cpu_online_mask) >> cpu) & 1;
}

#define for_each_online_cpu(cpu) \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) if (!cpu_online(cpu)) {} else

/* Give the boot CPU its per-CPU area and %fs (arch/i386/percpu.c). */
void setup_per_cpu_areas(void);

/* Each CPU's local APIC id, by CPU number (arch/i386/smpboot.c). */
extern int cpu_apic_id[NR_CPUS];

/* Find the CPUs (before paging), then start them (arch/i386/smpboot.c). */
void detect_cpus(void);
void smp_boot_cpus(void);
const char *cpu_running_name(int cpu);	/* its current thread (idle/N: none) */

/*
 * Inter-processor calls (arch/i386/smp.c).  func runs in the target's
 * interrupt handler, interrupts off: it must be short and never sleep.
 * wait: return only once func has returned on every target.
 */
typedef void (*smp_call_func_t)(void *info);
void smp_call_function_many(unsigned long mask, smp_call_func_t func,
			    void *info, bool wait);
void smp_call_function(smp_call_func_t func, void *info, int wait);
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
void on_each_cpu(smp_call_func_t func, void *info, int wait);
void smp_send_reschedule(int cpu);

/* The IPI handlers, from smp_apic_interrupt(). */
void generic_smp_call_function_interrupt(void);
void smp_reschedule_interrupt(void);
DECLARE_PER_CPU(unsigned long, irq_call_count);
DECLARE_PER_CPU(unsigned long, irq_resched_count);

/*
 * NMIs to the other CPUs (arch/i386/nmi_backtrace.c): every CPU prints
 * its registers and backtrace (Linux's sysrq-l); or, from an oops or
 * panic, prints them and stops for good.
 */
void trigger_all_cpu_backtrace(void);
void smp_send_stop(void);
bool nmi_cpu_backtrace(struct pt_regs *regs);	/* from do_nmi() */

#endif
