/*
 * smp.h - which CPU am I, and which CPUs are there.
 *
 * CPU numbers are dense (0 = the boot CPU, then each application
 * processor in the order it answered); the local APIC id the hardware
 * gave a CPU is kept apart in cpu_apic_id.
 */
#ifndef SMP_H
#define SMP_H

#include "percpu.h"

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

#endif
