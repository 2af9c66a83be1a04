/*
 * percpu.c - the per-CPU areas (see arch/i386/include/asm/percpu.h).
 *
 * The boot CPU uses the .data..percpu template itself: its per-CPU
 * segment has base 0, so %fs:var is the template's var.  Every other
 * CPU gets a copy of the template and a per-CPU segment in its own GDT
 * whose base is the copy's offset from the template (gdt.c).
 *
 * A copy must start as the template was at link time - every per-CPU
 * variable at its initial value - not as CPU 0 has changed it since.
 * So the first thing setup_per_cpu_areas() does, before anyone writes
 * a per-CPU variable, is save the template into __per_cpu_pristine
 * (space the linker script reserves in .bss, exactly the template's
 * size).  The copies for the APs are made from that, when they boot.
 */
#include "kernel.h"
#include "smp.h"
#include "mm.h"
#include "string.h"
#include "errno.h"

extern char __per_cpu_start[], __per_cpu_end[], __per_cpu_pristine[];

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(unsigned long, this_cpu_off);

unsigned int nr_online_cpus;
unsigned long cpu_online_mask;

static size_t per_cpu_size(void)
{
	return __per_cpu_end - __per_cpu_start;
}

static unsigned int per_cpu_pages(void)
{
	return ALIGN_UP(per_cpu_size(), PAGE_SIZE) / PAGE_SIZE;
}

void setup_per_cpu_areas(void)
{
	memcpy(__per_cpu_pristine, __per_cpu_start, per_cpu_size());
	__per_cpu_offset[0] = 0;
	this_cpu_write(cpu_number, 0);
	this_cpu_write(this_cpu_off, 0);
	nr_online_cpus = 1;
	cpu_online_mask = 1UL << 0;
}

/* A fresh area for CPU cpu (not 0), its offset, its own number in it. */
int per_cpu_area_alloc(int cpu)
{
	char *area = alloc_pages(per_cpu_pages());

	if (!area)
		return -ENOMEM;
	memcpy(area, __per_cpu_pristine, per_cpu_size());
	__per_cpu_offset[cpu] = area - __per_cpu_start;
	per_cpu(cpu_number, cpu) = cpu;
	per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
	return 0;
}

/* Give back the area of a CPU that never came up. */
void per_cpu_area_free(int cpu)
{
	free_pages(__per_cpu_start + __per_cpu_offset[cpu], per_cpu_pages());
	__per_cpu_offset[cpu] = 0;
}
