/*
 * test_mm.c - the "mm" suite: page allocator, page tables, heap and
 * text_poke().
 */
#include "ktest.h"
#include "mm.h"
#include <asm/processor.h>
#include "string.h"
#include "smp.h"
#include <asm/extable.h>
#include <asm/atomic.h>

/* tests/kernel/mm_poke_asm.S: "movl $imm32, %eax; ret" */
int mm_poke_target(void);       /* returns 1 */
int mm_poke_cross(void);        /* returns 0x11223344, imm crosses a page */
#define MOV_IMM_OFFSET  1       /* imm32 follows the b8 opcode */

static bool same_stats(struct heap_stats *a, struct heap_stats *b)
{
	return a->live_allocs == b->live_allocs &&
	       a->live_bytes == b->live_bytes &&
	       a->free_bytes == b->free_bytes;
}

static bool all_bytes(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		if (s[i] != (unsigned char)c)
			return false;
	return true;
}

/* ---- heap ---------------------------------------------------------------- */

static void heap_alloc_free_balance(struct ktest *t)
{
	struct heap_stats before, mid, after;
	void *p[64];

	heap_get_stats(&before);
	for (int i = 0; i < 64; i++) {
		p[i] = kmalloc(8 + i * 24);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	heap_get_stats(&mid);
	KTEST_EXPECT_EQ(t, mid.live_allocs, before.live_allocs + 64);
	KTEST_EXPECT_EQ(t, mid.total_allocs, before.total_allocs + 64);
	KTEST_EXPECT_TRUE(t, mid.free_bytes < before.free_bytes);
	for (int i = 0; i < 64; i++)
		kfree(p[i]);
	heap_get_stats(&after);
	KTEST_EXPECT_TRUE(t, same_stats(&before, &after));
	KTEST_EXPECT_EQ(t, after.live_bytes, before.live_bytes);
	KTEST_EXPECT_EQ(t, after.free_bytes, before.free_bytes);
}

/* Many sizes at once: each block is ours alone (no overlap). */
static void heap_many_sizes(struct ktest *t)
{
	static const size_t sizes[] = {
		1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257,
		1000, 4095, 4096, 4097, 10000, 65536, 300000,
	};
	void *p[ARRAY_SIZE(sizes)];
	struct heap_stats before, after;

	heap_get_stats(&before);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i]);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
		memset(p[i], (int)i + 1, sizes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		KTEST_EXPECT_TRUE(t, all_bytes(p[i], (int)i + 1, sizes[i]));
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
	heap_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.live_allocs, before.live_allocs);
	KTEST_EXPECT_EQ(t, after.live_bytes, before.live_bytes);
}

static void heap_alignment(struct ktest *t)
{
	void *p[48];

	for (int i = 0; i < 48; i++) {
		p[i] = kmalloc(i + 1);
		KTEST_EXPECT_EQ(t, (unsigned long)p[i] % 16, 0);
	}
	for (int i = 0; i < 48; i++)
		kfree(p[i]);
}

/*
 * Coalescing.  A big block at p is freed; small blocks are then carved
 * out of that same free region and freed in an interleaved order, so
 * each free must merge with the block before and/or after it.  Only if
 * all of them merged back does first fit find room for the big block
 * at p again.
 */
#define BIG_SIZE    (64 * 1024)
#define SMALL_SIZE  240              /* + 16-byte header = 256 */
#define MAX_SMALL   4096

static void heap_coalesce(struct ktest *t)
{
	void **small = kmalloc(MAX_SMALL * sizeof(void *));
	struct heap_stats before, after;
	int n = 0, in_big = 0;

	KTEST_ASSERT_TRUE(t, small != NULL);
	heap_get_stats(&before);
	char *p = kmalloc(BIG_SIZE);
	KTEST_ASSERT_TRUE(t, p != NULL);
	kfree(p);

	/* Allocate until BIG_SIZE worth of small blocks lie inside [p, p+BIG). */
	while (in_big < BIG_SIZE / (SMALL_SIZE + 16) && n < MAX_SMALL) {
		char *s = kmalloc(SMALL_SIZE);
		KTEST_ASSERT_TRUE(t, s != NULL);
		small[n++] = s;
		if (s >= p && s < p + BIG_SIZE)
			in_big++;
	}
	KTEST_EXPECT_EQ(t, in_big, BIG_SIZE / (SMALL_SIZE + 16));
	for (int i = 0; i < n; i += 2)
		kfree(small[i]);
	for (int i = 1; i < n; i += 2)
		kfree(small[i]);

	char *again = kmalloc(BIG_SIZE);
	KTEST_EXPECT_EQ(t, (unsigned long)again, (unsigned long)p);
	kfree(again);
	heap_get_stats(&after);
	KTEST_EXPECT_TRUE(t, same_stats(&before, &after));
	kfree(small);
}

static void heap_kzalloc_zeroes(struct ktest *t)
{
	unsigned char *p = kmalloc(512);

	KTEST_ASSERT_TRUE(t, p != NULL);
	memset(p, 0xAA, 512);
	kfree(p);
	/* First fit hands the same dirty block back; kzalloc must clear it. */
	unsigned char *z = kzalloc(512);
	KTEST_ASSERT_TRUE(t, z != NULL);
	KTEST_EXPECT_EQ(t, (unsigned long)z, (unsigned long)p);
	KTEST_EXPECT_TRUE(t, all_bytes(z, 0, 512));
	kfree(z);
}

static void heap_zero_size(struct ktest *t)
{
	struct heap_stats before, after;

	heap_get_stats(&before);
	void *p = kmalloc(0);
	KTEST_EXPECT_EQ(t, (unsigned long)p, (unsigned long)ZERO_SIZE_PTR);
	kfree(p);
	kfree(NULL);
	heap_get_stats(&after);
	KTEST_EXPECT_TRUE(t, same_stats(&before, &after));
	/* ZERO_SIZE_PTR points into page 0, which is not mapped. */
	unsigned long *pte = lookup_pte((unsigned long)ZERO_SIZE_PTR);
	KTEST_EXPECT_TRUE(t, pte && !(*pte & PTE_PRESENT));
}

/* Bigger than the boot arena: the heap must add an arena for it. */
static void heap_grows(struct ktest *t)
{
	size_t size = 3u << 20;
	struct heap_stats before, after;
	unsigned long pages = pages_free();

	heap_get_stats(&before);
	char *p = kmalloc(size);
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_TRUE(t, pages_free() < pages - size / PAGE_SIZE);
	p[0] = 1;
	p[size - 1] = 2;
	kfree(p);
	heap_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.live_allocs, before.live_allocs);
	KTEST_EXPECT_EQ(t, after.live_bytes, before.live_bytes);
	/* Arenas are kept: the new one is now free space. */
	KTEST_EXPECT_TRUE(t, after.free_bytes > before.free_bytes + size);
}

static void heap_huge_fails(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, kmalloc(0xFFFFFFF0u) == NULL);
}

/* ---- pages --------------------------------------------------------------- */

static void page_alloc_balance(struct ktest *t)
{
	unsigned long before = pages_free();
	char *one = alloc_pages(1);
	char *four = alloc_pages(4);

	KTEST_ASSERT_TRUE(t, one && four);
	KTEST_EXPECT_EQ(t, pages_free(), before - 5);
	KTEST_EXPECT_EQ(t, (unsigned long)one % PAGE_SIZE, 0);
	KTEST_EXPECT_EQ(t, (unsigned long)four % PAGE_SIZE, 0);
	/* Never the kernel image, never the first MiB. */
	KTEST_EXPECT_TRUE(t, one >= _end && four >= _end);
	KTEST_EXPECT_TRUE(t, all_bytes(four, 0, 4 * PAGE_SIZE));
	/* All four pages are usable: write across every boundary. */
	memset(four, 0x5A, 4 * PAGE_SIZE);
	KTEST_EXPECT_TRUE(t, one + PAGE_SIZE <= four || four + 4 * PAGE_SIZE <= one);
	free_pages(four, 4);
	free_pages(one, 1);
	KTEST_EXPECT_EQ(t, pages_free(), before);

	/* Pages come back zeroed even after someone dirtied them. */
	char *again = alloc_pages(4);
	KTEST_ASSERT_TRUE(t, again != NULL);
	KTEST_EXPECT_TRUE(t, all_bytes(again, 0, 4 * PAGE_SIZE));
	free_pages(again, 4);
	KTEST_EXPECT_EQ(t, pages_free(), before);
}

/* ---- page tables --------------------------------------------------------- */

static bool pte_has(unsigned long addr, unsigned long bits)
{
	unsigned long *pte = lookup_pte(addr);

	return pte && (*pte & bits) == bits;
}

static void paging_layout(struct ktest *t)
{
	static int writable_data = 1;

	KTEST_EXPECT_TRUE(t, read_cr0() & X86_CR0_PG);
	KTEST_EXPECT_TRUE(t, read_cr0() & X86_CR0_WP);
	KTEST_EXPECT_FALSE(t, pte_has(0, PTE_PRESENT));
	KTEST_EXPECT_TRUE(t, pte_has((unsigned long)_text, PTE_PRESENT));
	KTEST_EXPECT_FALSE(t, pte_has((unsigned long)_text, PTE_WRITE));
	KTEST_EXPECT_FALSE(t, pte_has((unsigned long)_etext - 1, PTE_WRITE));
	KTEST_EXPECT_FALSE(t, pte_has((unsigned long)_rodata, PTE_WRITE));
	KTEST_EXPECT_TRUE(t, pte_has((unsigned long)&writable_data,
				     PTE_PRESENT | PTE_WRITE));
	KTEST_EXPECT_TRUE(t, pte_has(0xB8000, PTE_PRESENT | PTE_WRITE));
	KTEST_EXPECT_TRUE(t, pte_has((max_pfn - 1) << PAGE_SHIFT,
				     PTE_PRESENT | PTE_WRITE));
	KTEST_EXPECT_TRUE(t, kernel_text_address((unsigned long)mm_poke_target));
	KTEST_EXPECT_FALSE(t, kernel_text_address((unsigned long)&writable_data));
	KTEST_EXPECT_TRUE(t, kernel_rodata_address((unsigned long)"rodata"));
	KTEST_EXPECT_FALSE(t, kernel_rodata_address((unsigned long)mm_poke_target));
}

static void paging_guard_page(struct ktest *t)
{
	unsigned long page = (unsigned long)alloc_pages(1);

	KTEST_ASSERT_TRUE(t, page != 0);
	set_page_present(page, 0);
	KTEST_EXPECT_FALSE(t, pte_has(page, PTE_PRESENT));
	set_page_present(page, 1);
	KTEST_EXPECT_TRUE(t, pte_has(page, PTE_PRESENT | PTE_WRITE));
	*(volatile char *)page = 1;     /* mapped again: must not fault */
	free_pages((void *)page, 1);
}

/*
 * A guard page must fault on every CPU, not only on the one that took it
 * away: each CPU first reads the page (its TLB now holds the mapping),
 * then one CPU makes it not-present, then each tries again.  Without a
 * TLB shootdown the others still read through their stale entries.
 */
static atomic_t tlb_readable;

static void read_page_here(void *page)
{
	char c;

	if (copy_from_kernel_nofault(&c, page, 1) == 0)
		atomic_inc(&tlb_readable);
}

static void paging_guard_page_every_cpu(struct ktest *t)
{
	unsigned long page = (unsigned long)alloc_pages(1);
	int cpus = num_online_cpus();

	KTEST_ASSERT_TRUE(t, page != 0);
	atomic_set(&tlb_readable, 0);
	on_each_cpu(read_page_here, (void *)page, 1);
	KTEST_EXPECT_EQ(t, atomic_read(&tlb_readable), cpus);

	set_page_present(page, 0);
	atomic_set(&tlb_readable, 0);
	on_each_cpu(read_page_here, (void *)page, 1);
	KTEST_EXPECT_EQ(t, atomic_read(&tlb_readable), 0);

	set_page_present(page, 1);
	free_pages((void *)page, 1);
	ktest_info(t, "the guard page, read and then faulted on, from %d CPUs", cpus);
}

/* ---- text_poke ----------------------------------------------------------- */

static void expect_alias_unmapped(struct ktest *t)
{
	for (int i = 0; i < TEXT_POKE_PAGES; i++)
		KTEST_EXPECT_FALSE(t, pte_has(TEXT_POKE_ADDR + i * PAGE_SIZE,
					      PTE_PRESENT));
}

static void text_poke_changes_code(struct ktest *t)
{
	unsigned char *imm = (unsigned char *)mm_poke_target + MOV_IMM_OFFSET;
	unsigned char two = 2, one = 1;

	KTEST_ASSERT_EQ(t, mm_poke_target(), 1);
	KTEST_ASSERT_EQ(t, *imm, 1);
	text_poke(imm, &two, 1);
	KTEST_EXPECT_EQ(t, mm_poke_target(), 2);
	text_poke(imm, &one, 1);
	KTEST_EXPECT_EQ(t, mm_poke_target(), 1);

	/* The normal mapping is still read-only; the alias is gone. */
	KTEST_EXPECT_TRUE(t, pte_has((unsigned long)imm, PTE_PRESENT));
	KTEST_EXPECT_FALSE(t, pte_has((unsigned long)imm, PTE_WRITE));
	KTEST_EXPECT_TRUE(t, read_cr0() & X86_CR0_WP);
	expect_alias_unmapped(t);
}

static void text_poke_cross_page(struct ktest *t)
{
	unsigned char *imm = (unsigned char *)mm_poke_cross + MOV_IMM_OFFSET;
	uint32_t patched = 0x55667788, orig = 0x11223344;
	unsigned long first = (unsigned long)imm, last = first + 3;

	/* The test is only worth running if the bytes do cross. */
	KTEST_ASSERT_TRUE(t, (first & PAGE_MASK) != (last & PAGE_MASK));
	KTEST_ASSERT_EQ(t, mm_poke_cross(), orig);
	text_poke(imm, &patched, sizeof(patched));
	KTEST_EXPECT_EQ(t, mm_poke_cross(), patched);
	text_poke(imm, &orig, sizeof(orig));
	KTEST_EXPECT_EQ(t, mm_poke_cross(), orig);
	KTEST_EXPECT_FALSE(t, pte_has(first, PTE_WRITE));
	KTEST_EXPECT_FALSE(t, pte_has(last, PTE_WRITE));
	expect_alias_unmapped(t);
}

static struct ktest_case mm_cases[] = {
	KTEST_CASE(heap_alloc_free_balance),
	KTEST_CASE(heap_many_sizes),
	KTEST_CASE(heap_alignment),
	KTEST_CASE(heap_coalesce),
	KTEST_CASE(heap_kzalloc_zeroes),
	KTEST_CASE(heap_zero_size),
	KTEST_CASE(heap_grows),
	KTEST_CASE(heap_huge_fails),
	KTEST_CASE(page_alloc_balance),
	KTEST_CASE(paging_layout),
	KTEST_CASE(paging_guard_page),
	KTEST_CASE(paging_guard_page_every_cpu),
	KTEST_CASE(text_poke_changes_code),
	KTEST_CASE(text_poke_cross_page),
	KTEST_END
};

static struct ktest_suite mm_suite = {
	.name = "mm",
	.cases = mm_cases,
};
KTEST_SUITE(mm_suite);
