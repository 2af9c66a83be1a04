/*
 * page_alloc.c - the physical page allocator.
 *
 * One bit per 4 KiB page frame of physical memory: 1 = in use (or not
 * RAM at all), 0 = free.  At boot every bit starts as "in use"; we then
 * clear the bits of the RAM ranges the Multiboot memory map calls
 * usable, and set again the bits of everything that is already taken:
 * the first MiB (BIOS data, real-mode IVT, VGA), the kernel image up to
 * _end, and the bootloader's own data (info block, memory map, command
 * line, modules), which other code reads long after boot.
 *
 * The kernel identity-maps RAM (see arch/i386/paging.c), so a physical
 * address is also the virtual address the kernel uses: alloc_pages()
 * simply returns it as a pointer.
 *
 * A bitmap is the simplest allocator that can hand out n *contiguous*
 * pages, which thread stacks with guard pages and the heap's arenas need.
 * Linux uses a buddy allocator instead; the interface is the same.
 */
#include "kernel.h"
#include "mm.h"
#include "multiboot.h"
#include "spinlock.h"
#include "string.h"
#include <asm/atomic.h>

#define LOW_MEMORY_END  0x100000ul    /* first MiB: BIOS, IVT, VGA, ROMs */
#define BITS_PER_WORD   32
#define MAX_PFN         (MAX_PHYS_MEM >> PAGE_SHIFT)

static uint32_t page_bitmap[MAX_PFN / BITS_PER_WORD];
unsigned long max_pfn;               /* one past the highest RAM frame */
static unsigned long nr_free;
/* Invariant: every frame below search_hint is in use. */
static unsigned long search_hint;

/* Guards the bitmap, nr_free and search_hint. */
static DEFINE_SPINLOCK(page_alloc_lock);

/*
 * Linux's mem_map: one struct page per frame, here only its reference
 * count (page_count()).  A frame from alloc_pages() starts at 1; fork
 * shares a user page between two address spaces by taking a second
 * reference (get_page()) instead of copying it, and whoever drops the
 * last one (put_page()) frees the frame (mm/memory.c, copy-on-write).
 */
struct page {
	atomic_t _refcount;
};
static struct page mem_map[MAX_PFN];

static struct page *virt_to_page(const void *addr)
{
	return &mem_map[(unsigned long)addr >> PAGE_SHIFT];
}

static bool page_used(unsigned long pfn)
{
	return page_bitmap[pfn / BITS_PER_WORD] & (1u << (pfn % BITS_PER_WORD));
}

static void mark_used(unsigned long pfn)
{
	if (!page_used(pfn))
		nr_free--;
	page_bitmap[pfn / BITS_PER_WORD] |= 1u << (pfn % BITS_PER_WORD);
}

static void mark_free(unsigned long pfn)
{
	if (page_used(pfn))
		nr_free++;
	page_bitmap[pfn / BITS_PER_WORD] &= ~(1u << (pfn % BITS_PER_WORD));
}

/* Free every whole page inside [start, end). */
static void free_range(uint64_t start, uint64_t end)
{
	if (end > MAX_PHYS_MEM)
		end = MAX_PHYS_MEM;
	start = ALIGN_UP(start, PAGE_SIZE);
	end = ALIGN_DOWN(end, PAGE_SIZE);
	for (uint64_t a = start; a < end; a += PAGE_SIZE)
		mark_free(a >> PAGE_SHIFT);
	if (end > start && (end >> PAGE_SHIFT) > max_pfn)
		max_pfn = end >> PAGE_SHIFT;
}

/* Mark every page touching [start, end) as in use. */
static void reserve_range(unsigned long start, unsigned long end)
{
	unsigned long pfn = start >> PAGE_SHIFT;
	unsigned long last = ALIGN_UP(end, PAGE_SIZE) >> PAGE_SHIFT;

	for (; pfn < last && pfn < MAX_PFN; pfn++)
		mark_used(pfn);
}

static void reserve_string(uint32_t addr)
{
	if (addr)
		reserve_range(addr, addr + strlen((const char *)addr) + 1);
}

/* The usable RAM ranges, from the memory map (or mem_upper if none). */
static void free_usable_ram(struct multiboot_info *mbi)
{
	struct multiboot_mmap_entry *e;

	if (!(mbi->flags & MULTIBOOT_INFO_MEM_MAP)) {
		free_range(MULTIBOOT_UPPER_MEM_START, multiboot_upper_mem_end(mbi));
		return;
	}
	for_each_mmap_entry(e, mbi)
		if (e->type == MULTIBOOT_MEMORY_AVAILABLE)
			free_range(e->addr, e->addr + e->len);
}

/* Everything the bootloader handed us that someone may still read. */
static void reserve_boot_data(struct multiboot_info *mbi)
{
	reserve_range((unsigned long)mbi, (unsigned long)(mbi + 1));
	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP)
		reserve_range(mbi->mmap_addr, mbi->mmap_addr + mbi->mmap_length);
	if (mbi->flags & MULTIBOOT_INFO_CMDLINE)
		reserve_string(mbi->cmdline);
	if (mbi->flags & MULTIBOOT_INFO_BOOTLOADER_NAME)
		reserve_string(mbi->boot_loader_name);
	if (mbi->flags & MULTIBOOT_INFO_MODS) {
		struct multiboot_module *mod = (void *)mbi->mods_addr;
		reserve_range(mbi->mods_addr,
			      (unsigned long)(mod + mbi->mods_count));
		for (uint32_t i = 0; i < mbi->mods_count; i++) {
			reserve_range(mod[i].mod_start, mod[i].mod_end);
			reserve_string(mod[i].string);
		}
	}
}

void page_alloc_init(struct multiboot_info *mbi)
{
	memset(page_bitmap, 0xff, sizeof(page_bitmap));
	nr_free = 0;
	max_pfn = 0;

	free_usable_ram(mbi);
	/* The first MiB and the kernel image (text .. bss .. kallsyms). */
	reserve_range(0, (unsigned long)_end);
	reserve_range(0, LOW_MEMORY_END);
	reserve_boot_data(mbi);

	search_hint = 0;
	printk("page_alloc: %lu KiB RAM managed, %lu pages free (%lu KiB)\n",
	       (max_pfn << PAGE_SHIFT) / 1024, nr_free,
	       nr_free * (PAGE_SIZE / 1024));
}

/* First run of n free frames at or after `from`; 0 if there is none. */
static unsigned long find_free_run(unsigned long from, unsigned int n)
{
	unsigned long run = 0;

	for (unsigned long pfn = from; pfn < max_pfn; pfn++) {
		run = page_used(pfn) ? 0 : run + 1;
		if (run == n)
			return pfn - n + 1;
	}
	return 0;       /* frame 0 is never free, so 0 means "none" */
}

void *alloc_pages(unsigned int npages)
{
	if (npages == 0)
		return NULL;

	unsigned long flags;

	spin_lock_irqsave(&page_alloc_lock, flags);
	unsigned long pfn = find_free_run(search_hint, npages);
	if (pfn) {
		for (unsigned int i = 0; i < npages; i++)
			mark_used(pfn + i);
		if (npages == 1)
			search_hint = pfn + 1;
	}
	spin_unlock_irqrestore(&page_alloc_lock, flags);

	if (!pfn)
		return NULL;
	void *addr = (void *)(pfn << PAGE_SHIFT);
	for (unsigned int i = 0; i < npages; i++)
		atomic_set(&mem_map[pfn + i]._refcount, 1);
	memset(addr, 0, (size_t)npages * PAGE_SIZE);
	return addr;
}

void free_pages(void *addr, unsigned int npages)
{
	unsigned long pfn = (unsigned long)addr >> PAGE_SHIFT;

	if ((unsigned long)addr & ~PAGE_MASK)
		panic("free_pages(%p): not page aligned", addr);
	if (pfn + npages > max_pfn)
		panic("free_pages(%p, %u): beyond the end of RAM", addr, npages);

	unsigned long flags;

	spin_lock_irqsave(&page_alloc_lock, flags);
	for (unsigned int i = 0; i < npages; i++) {
		if (!page_used(pfn + i))
			panic("free_pages(%p, %u): page %p is already free",
			      addr, npages, (void *)((pfn + i) << PAGE_SHIFT));
		mark_free(pfn + i);
		atomic_set(&mem_map[pfn + i]._refcount, 0);
	}
	if (pfn < search_hint)
		search_hint = pfn;
	spin_unlock_irqrestore(&page_alloc_lock, flags);
}

unsigned long pages_free(void)
{
	return READ_ONCE(nr_free);
}

int page_count(const void *page)
{
	return atomic_read(&virt_to_page(page)->_refcount);
}

void get_page(void *page)
{
	if (atomic_inc_return(&virt_to_page(page)->_refcount) <= 1)
		panic("get_page(%p): the page is free", page);
}

void put_page(void *page)
{
	if (atomic_dec_and_test(&virt_to_page(page)->_refcount))
		free_pages((void *)((unsigned long)page & PAGE_MASK), 1);
}
