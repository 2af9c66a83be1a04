/*
 * paging.c - the kernel's one address space.
 *
 * i386 two-level paging (Intel SDM vol. 3, 4.3): CR3 holds the physical
 * address of a page directory of 1024 entries; each entry points to a
 * page table of 1024 entries; each of those maps one 4 KiB page.  So a
 * virtual address splits 10 / 10 / 12 bits: directory index, table
 * index, offset in the page.
 *
 * We identity-map RAM (virtual == physical) with 4 KiB pages rather than
 * 4 MiB ones because we want per-page permissions:
 *   - page 0 is not present, so a NULL dereference raises #PF;
 *   - kernel .text, .rodata and the symbol table are read-only, and with
 *     CR0.WP set even ring 0 faults when it writes them.  A stray pointer
 *     cannot corrupt code; kprobes must go through text_poke().
 *   - helper code can unmap single pages (guard pages below stacks).
 *
 * Every page-directory entry is writable: the effective permission is
 * the AND of both levels, so the page-table entry alone decides.
 */
#include "kernel.h"
#include "mm.h"
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "nokprobe.h"
#include "module.h"

#define PTE_FRAME_MASK  PAGE_MASK

/*
 * The page directory must be page aligned: CR3 keeps only bits 31..12.
 * Kernel threads run on it; every process's directory copies its
 * entries outside [USER_BASE, TASK_SIZE) (arch/i386/pgtable.c).
 */
unsigned long kernel_pgdir[PTRS_PER_TABLE] __aligned(PAGE_SIZE);

static unsigned long pgdir_index(unsigned long vaddr)
{
	return vaddr >> PGDIR_SHIFT;
}

static unsigned long table_index(unsigned long vaddr)
{
	return (vaddr >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1);
}

unsigned long *lookup_pte(unsigned long vaddr)
{
	unsigned long pde = kernel_pgdir[pgdir_index(vaddr)];

	if (!(pde & PTE_PRESENT))
		return NULL;
	/* Page tables live in identity-mapped RAM: physical == virtual. */
	unsigned long *table = (unsigned long *)(pde & PTE_FRAME_MASK);
	return &table[table_index(vaddr)];
}
NOKPROBE_SYMBOL(lookup_pte);

/* The page table covering vaddr, allocated (empty) on first use. */
static unsigned long *get_table(unsigned long vaddr)
{
	unsigned long *pde = &kernel_pgdir[pgdir_index(vaddr)];

	if (!(*pde & PTE_PRESENT)) {
		void *table = alloc_pages(1);          /* zeroed: nothing present */
		if (!table)
			panic("paging: out of memory for page tables");
		*pde = (unsigned long)table | PTE_PRESENT | PTE_WRITE;
	}
	return (unsigned long *)(*pde & PTE_FRAME_MASK);
}

static bool in_range(unsigned long addr, char *start, char *end)
{
	return addr >= (unsigned long)start && addr < (unsigned long)end;
}

/* The kernel's code, or a loaded module's (kernel/module.c). */
int kernel_text_address(unsigned long addr)
{
	return in_range(addr, _text, _etext) || is_module_text_address(addr);
}
NOKPROBE_SYMBOL(kernel_text_address);

int kernel_rodata_address(unsigned long addr)
{
	return in_range(addr, _rodata, _erodata);
}

/* Code, constants and the symbol table are never written after boot. */
static bool page_read_only(unsigned long addr)
{
	return in_range(addr, _text, _etext) ||
	       kernel_rodata_address(addr) ||
	       in_range(addr, _kallsyms, _ekallsyms);
}

static void map_page(unsigned long vaddr, unsigned long paddr,
		     unsigned long flags)
{
	get_table(vaddr)[table_index(vaddr)] = (paddr & PTE_FRAME_MASK) | flags;
}

void set_page_present(unsigned long vaddr, int present)
{
	unsigned long *pte = lookup_pte(vaddr);

	if (!pte)
		panic("set_page_present(%#lx): no page table", vaddr);
	if (present)
		*pte |= PTE_PRESENT;
	else
		*pte &= ~PTE_PRESENT;
	/* Every CPU's TLB may still hold the old entry; drop it. */
	flush_tlb_kernel_range(vaddr, vaddr + PAGE_SIZE);
}

/*
 * Device registers above RAM (the local APIC's page at 0xFEE00000) get
 * an identity mapping of their own.  PCD|PWT: a register read must reach
 * the device every time, never a stale cache line.
 */
void *ioremap_nocache(unsigned long phys, unsigned long size)
{
	unsigned long a, end = ALIGN_UP(phys + size, PAGE_SIZE);

	for (a = phys & PAGE_MASK; a < end; a += PAGE_SIZE) {
		map_page(a, a, PTE_PRESENT | PTE_WRITE | PTE_PCD | PTE_PWT);
		invlpg(a);
	}
	return (void *)phys;
}

void paging_init(void)
{
	unsigned long ram_top = max_pfn << PAGE_SHIFT;

	/* Page 0 stays not present: NULL dereferences fault. */
	for (unsigned long a = PAGE_SIZE; a < ram_top; a += PAGE_SIZE) {
		unsigned long flags = PTE_PRESENT;
		if (!page_read_only(a))
			flags |= PTE_WRITE;
		map_page(a, a, flags);
	}
	/*
	 * text_poke()'s alias slots: create their page table now, with the
	 * entries not present, so text_poke() only ever edits two PTEs.
	 */
	get_table(TEXT_POKE_ADDR);

	write_cr3((unsigned long)kernel_pgdir);
	/*
	 * PG turns translation on.  WP makes ring 0 obey read-only PTEs;
	 * without it the supervisor may write any present page and our
	 * read-only .text would only stop user mode - and copy_to_user()
	 * could write a process's read-only code.  AM lets a program ask
	 * for alignment checks (EFLAGS.AC): a misaligned access in ring 3
	 * is then #AC, SIGBUS, as on Linux, which sets it too; at CPL 0 the
	 * CPU never checks, so the kernel is untouched.
	 */
	write_cr0(read_cr0() | X86_CR0_PG | X86_CR0_WP | X86_CR0_AM);

	printk("paging: identity-mapped %lu MiB, text %p-%p read-only\n",
	       ram_top >> 20, _text, _etext);
}
