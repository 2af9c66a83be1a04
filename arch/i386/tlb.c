/*
 * tlb.c - keeping every CPU's TLB true to the page tables.
 *
 * Each CPU caches translations in its own TLB, and the hardware does
 * not watch the page tables: after a PTE changes, a CPU that used the
 * page before goes on using the old translation until it drops it
 * (invlpg, or a CR3 write).  invlpg only drops this CPU's entry.  So a
 * change that takes a permission away (a guard page made not-present, a
 * module's code made read-only) must reach every CPU: an IPI asks each
 * one to run invlpg itself, and the caller waits until all have - Linux
 * calls this a TLB shootdown (flush_tlb_kernel_range()).
 *
 * Giving a permission (present again, writable again) would not need
 * it - a stale, stricter entry only costs a fault that finds the PTE
 * fine - but one rule for every change is simpler to trust.
 *
 * A process's pages are another matter: only the CPUs that have its
 * directory in CR3 can hold its translations (switch_mm() writes CR3,
 * which flushes them), so flush_tlb_mm_range() asks only those - fork
 * write-protecting the parent's pages, a copy-on-write break, a
 * uprobe's copy of a page made while the process runs on another CPU.
 */
#include "kernel.h"
#include "mm.h"
#include <asm/processor.h>
#include "smp.h"
#include "sched.h"
#include <asm/tlbflush.h>
#include <asm/irqflags.h>

struct flush_range {
	unsigned long start, end;	/* page-aligned, end exclusive */
};

static void flush_range_here(void *info)
{
	const struct flush_range *r = info;

	for (unsigned long a = r->start; a < r->end; a += PAGE_SIZE)
		invlpg(a);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_range r = {
		.start = ALIGN_DOWN(start, PAGE_SIZE),
		.end = ALIGN_UP(end, PAGE_SIZE),
	};

	flush_range_here(&r);
	if (num_online_cpus() > 1)
		smp_call_function(flush_range_here, &r, 1);
}

DEFINE_PER_CPU(struct mm_struct *, cpu_loaded_mm);
atomic_t nr_tlb_remote_flush;

/* More pages than this: one CR3 write flushes them all, cheaper than an invlpg each. */
#define FLUSH_ALL_PAGES 32

static void flush_mm_range_here(unsigned long start, unsigned long end)
{
	if ((end - start) / PAGE_SIZE > FLUSH_ALL_PAGES) {
		write_cr3(read_cr3());
		return;
	}
	for (unsigned long a = start; a < end; a += PAGE_SIZE)
		invlpg(a);
}

/*
 * On a CPU the shootdown reached: flush all if it still runs mm.  It
 * looks only at the mm pointer, which a sender that did not wait may
 * not keep alive: a stale one never matches a running mm.
 */
static void flush_tlb_func(void *mm)
{
	if (this_cpu_read(cpu_loaded_mm) == mm)
		write_cr3(read_cr3());
}

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long mask = 0;
	int cpu, me;

	preempt_disable();
	me = smp_processor_id();
	if (this_cpu_read(cpu_loaded_mm) == mm)
		flush_mm_range_here(ALIGN_DOWN(start, PAGE_SIZE), ALIGN_UP(end, PAGE_SIZE));
	for_each_online_cpu(cpu)
		if (cpu != me && per_cpu(cpu_loaded_mm, cpu) == mm)
			mask |= 1UL << cpu;
	if (mask) {
		atomic_inc(&nr_tlb_remote_flush);
		smp_call_function_many(mask, flush_tlb_func, mm, !irqs_disabled());
	}
	preempt_enable();
}
