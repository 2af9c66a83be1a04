/*
 * pgtable.c - page directories for processes (include/mm_types.h).
 *
 * A process's directory is a copy of kernel_pgdir's entries that map
 * the kernel (the identity-mapped RAM below USER_BASE, the local APIC
 * and text_poke()'s slots above TASK_SIZE): the same page tables, so a
 * change to a kernel PTE - a guard page, a text_poke() alias - is seen
 * in every address space at once.  Those entries lack PTE_USER, and the
 * CPU ANDs U/S over both levels: ring 3 cannot touch the kernel even
 * though the kernel is mapped.  Only the entries in between are the
 * process's own, and only they are freed with it.
 *
 * A copy is only complete if the kernel adds no page table of its own
 * later: it does not - paging_init() maps all RAM and makes the
 * text_poke() table, the local APIC's page is mapped at boot, and
 * modules and the heap live in RAM.  (Linux i386 had to copy late
 * vmalloc page tables into every directory on a fault; we have none.)
 */
#include "kernel.h"
#include "mm_types.h"
#include <asm/processor.h>
#include "string.h"
#include "nokprobe.h"
#include <asm/tlbflush.h>

#define USER_PGD_FIRST (USER_BASE >> PGDIR_SHIFT)
#define USER_PGD_END   (TASK_SIZE >> PGDIR_SHIFT)
#define USER_PDE_FLAGS (PTE_PRESENT | PTE_WRITE | PTE_USER)

_Static_assert(USER_BASE % (PAGE_SIZE * PTRS_PER_TABLE) == 0 &&
	       TASK_SIZE % (PAGE_SIZE * PTRS_PER_TABLE) == 0,
	       "user space must start and end on a page-directory entry");
_Static_assert(TEXT_POKE_ADDR >= TASK_SIZE, "text_poke()'s slots lie in user space");

static bool user_pgd_index(unsigned long i)
{
	return i >= USER_PGD_FIRST && i < USER_PGD_END;
}

unsigned long *pgd_alloc(void)
{
	unsigned long *pgd = alloc_pages(1);	/* zeroed: no user entry */
	unsigned long i;

	if (!pgd)
		return NULL;
	for (i = 0; i < PTRS_PER_TABLE; i++)
		if (!user_pgd_index(i))
			pgd[i] = kernel_pgdir[i];
	return pgd;
}

static unsigned long *pde_table(unsigned long pde)
{
	return (unsigned long *)(pde & PAGE_MASK);	/* identity-mapped */
}

/* Every user page (one reference: the frame goes with the last), then every user page table, then the directory. */
void pgd_free(unsigned long *pgd)
{
	unsigned long i, j;

	for (i = USER_PGD_FIRST; i < USER_PGD_END; i++) {
		unsigned long *table;

		if (!(pgd[i] & PTE_PRESENT))
			continue;
		table = pde_table(pgd[i]);
		for (j = 0; j < PTRS_PER_TABLE; j++)
			if (table[j] & PTE_PRESENT)
				put_page((void *)(table[j] & PAGE_MASK));	/* fork may share it */
		free_pages(table, 1);
	}
	free_pages(pgd, 1);
}

unsigned long *user_pte(unsigned long *pgd, unsigned long vaddr, bool create)
{
	unsigned long *pde = &pgd[vaddr >> PGDIR_SHIFT];

	if (vaddr < USER_BASE || vaddr >= TASK_SIZE)
		return NULL;
	if (!(*pde & PTE_PRESENT)) {
		void *table = create ? alloc_pages(1) : NULL;

		if (!table)
			return NULL;
		*pde = (unsigned long)table | USER_PDE_FLAGS;
	}
	return &pde_table(*pde)[(vaddr >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1)];
}
NOKPROBE_SYMBOL(user_pte);

/*
 * Linux's switch_mm(), called by the scheduler before every switch.
 * Writing CR3 also flushes the TLB (no page is global here), so the
 * next task sees none of the previous one's user translations.  Kernel
 * threads have no mm and run on kernel_pgdir: a process's directory may
 * be freed as soon as it has exited, whatever CPU it last ran on.
 */
void switch_mm(struct mm_struct *next)
{
	unsigned long cr3 = (unsigned long)(next ? next->pgd : kernel_pgdir);

	this_cpu_write(cpu_loaded_mm, next);	/* before: a shootdown from now on reaches us */
	if (read_cr3() != cr3)
		write_cr3(cr3);
}
NOKPROBE_SYMBOL(switch_mm);
