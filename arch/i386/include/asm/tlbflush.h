/*
 * tlbflush.h - keeping TLBs true to the page tables (Linux's
 * arch/x86/include/asm/tlbflush.h; arch/i386/tlb.c).
 */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

#include <asm/percpu.h>
#include <asm/atomic.h>

struct mm_struct;

/*
 * The address space whose directory is in this CPU's CR3 (NULL:
 * kernel_pgdir), set by switch_mm(): the CPUs whose TLB may hold a
 * process's translations (Linux's cpu_tlbstate.loaded_mm).
 */
DECLARE_PER_CPU(struct mm_struct *, cpu_loaded_mm);

/*
 * A PTE of mm in [start, end) changed: drop the old translations here
 * if mm is loaded, and on every other CPU that has it loaded (an IPI:
 * a TLB shootdown).  With interrupts on the caller waits for them;
 * with interrupts off (under a page_table_lock) it cannot, and the
 * other CPUs flush as soon as they take the IPI.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Shootdown IPIs flush_tlb_mm_range() sent (Linux's NR_TLB_REMOTE_FLUSH). */
extern atomic_t nr_tlb_remote_flush;

#endif
