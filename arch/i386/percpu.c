/*
 * percpu.c - the per-CPU areas (see include/percpu.h).
 *
 * The boot CPU uses the .data..percpu template itself: its %fs is the
 * flat kernel data segment (base 0), so %fs:var is the template's var.
 * Each CPU brought up later gets a copy of the template and a data
 * segment of its own whose base is the copy's offset.
 */
#include "kernel.h"
#include "smp.h"

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(unsigned long, this_cpu_off);

unsigned int nr_online_cpus;
unsigned long cpu_online_mask;

void setup_per_cpu_areas(void)
{
	__per_cpu_offset[0] = 0;
	this_cpu_write(cpu_number, 0);
	this_cpu_write(this_cpu_off, 0);
	nr_online_cpus = 1;
	cpu_online_mask = 1UL << 0;
}
