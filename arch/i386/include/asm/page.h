/*
 * asm/page.h - the i386's pages and page tables, and where this kernel
 * puts things in a 32-bit address space (Linux's asm/page_types.h,
 * asm/pgtable_types.h and asm/page_32_types.h).  The allocator, heap and
 * paging calls built on them are include/mm.h.
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#define PAGE_SIZE   4096u
#define PAGE_SHIFT  12
#define PAGE_MASK   (~(PAGE_SIZE - 1))

/* Page-table entry bits (SDM vol. 3, 4.3) */
#define PTE_PRESENT  0x001
#define PTE_WRITE    0x002
#define PTE_USER     0x004
#define PTE_PWT      0x008   /* write-through */
#define PTE_PCD      0x010   /* cache disabled: device registers */
#define PTE_ACCESSED 0x020
#define PTE_DIRTY    0x040

/*
 * The most physical memory we manage and identity-map.  Everything above
 * it is left alone, which keeps the bitmap and the page tables small and
 * leaves the rest of the address space to user processes and, at the
 * top, to TEXT_POKE_ADDR.  128 MiB: user programs are linked at Linux
 * i386's 0x08048000, just above.
 */
#define MAX_PHYS_MEM    0x08000000ul          /* 128 MiB */

/*
 * The user part of every address space: [USER_BASE, TASK_SIZE).  Below
 * it the kernel's identity map, above it the kernel's device and
 * text_poke() pages; both are in every page directory, supervisor-only.
 * Linux i386 gives user space [0, 3 GiB) and puts the kernel above; we
 * keep the kernel where it was linked (at 1 MiB) and give user space
 * the window between, ending where Linux's does.
 */
#define USER_BASE       MAX_PHYS_MEM
#define TASK_SIZE       0xC0000000ul

/*
 * text_poke()'s temporary writable alias: two virtual pages, far above
 * any RAM, so a write that crosses a page boundary maps both halves.
 */
#define TEXT_POKE_ADDR  0xFF800000ul
#define TEXT_POKE_PAGES 2

/* Two-level paging without PAE: a directory of 1024 tables of 1024 entries. */
#define PTRS_PER_TABLE  1024
#define PGDIR_SHIFT     22                     /* 4 MiB per directory entry */

#endif
