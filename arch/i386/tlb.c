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
 */
#include "kernel.h"
#include "mm.h"
#include <asm/processor.h>
#include "smp.h"

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
