/*
 * mm.h - memory: the physical page allocator, paging, the kernel heap,
 * and text_poke(), the only way to change kernel code.
 */
#ifndef MM_H
#define MM_H

#include <stddef.h>
#include <stdint.h>
#include <asm/page.h>	/* PAGE_SIZE, the page-table bits, the address-space map */

struct multiboot_info;

/* Physical pages, in contiguous runs (stacks, heap arenas, slots). */
extern unsigned long max_pfn;                   /* one past the last RAM frame */
void page_alloc_init(struct multiboot_info *mbi);
void *alloc_pages(unsigned int npages);          /* page-aligned, zeroed */
void free_pages(void *addr, unsigned int npages);
unsigned long pages_free(void);
/*
 * One frame's references (Linux's page_count(), get_page(), put_page()):
 * a user page shared copy-on-write by n address spaces has n.  put_page()
 * frees the frame when the last goes.  page is any address in the frame.
 */
int page_count(const void *page);
void get_page(void *page);
void put_page(void *page);

/* Paging: identity map of RAM, NULL page unmapped, text read-only. */
extern unsigned long kernel_pgdir[PTRS_PER_TABLE];  /* kernel threads' CR3 */
void paging_init(void);
unsigned long *lookup_pte(unsigned long vaddr);  /* NULL if no table */
void set_page_present(unsigned long vaddr, int present);  /* guard pages */
/* Drop [start, end)'s translations from every CPU's TLB (arch/i386/tlb.c). */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
int  kernel_text_address(unsigned long addr);    /* in the kernel's .text */
int  kernel_rodata_address(unsigned long addr);
/* Identity-map device registers (the local APIC), uncached; returns phys. */
void *ioremap_nocache(unsigned long phys, unsigned long size);

/*
 * Heap.  kmalloc(0) returns ZERO_SIZE_PTR, as Linux does: not NULL (the
 * caller did not run out of memory) but a pointer into the unmapped page
 * 0, so any use of it faults.  kfree() accepts NULL and ZERO_SIZE_PTR;
 * neither counts in heap_stats.
 */
#define ZERO_SIZE_PTR        ((void *)16)
#define ZERO_OR_NULL_PTR(p)  ((unsigned long)(p) <= (unsigned long)ZERO_SIZE_PTR)
void heap_init(void);
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *p);
struct heap_stats {
	unsigned long live_allocs;   /* kmalloc()s not yet kfree()d */
	unsigned long live_bytes;    /* sum of the sizes asked for */
	unsigned long total_allocs;  /* kmalloc()s ever (never decreases) */
	unsigned long free_bytes;    /* in free blocks, headers included */
};
void heap_get_stats(struct heap_stats *st);

/*
 * text_poke - write len bytes of code at addr, which is mapped read-only.
 * Writes through a temporary writable alias with interrupts off, then
 * serialises so the CPU executes the new bytes.  Returns addr.
 */
void *text_poke(void *addr, const void *src, size_t len);
/* Store the byte at addr again, as it is: a CPU holding a stale copy of it refetches. */
void text_poke_refetch(void *addr);

/* Linker-provided section bounds. */
extern char _text[], _etext[], _rodata[], _erodata[], _data[], _edata[];
extern char __bss_start[], __bss_stop[], _end[];
extern char _kallsyms[], _ekallsyms[];	/* placed last, after .bss */

/* arch/i386/entry.S: the stubs and trap_common, which build pt_regs. */
extern char entry_text_start[], entry_text_end[];

#endif
