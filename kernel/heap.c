/*
 * heap.c - kmalloc() and kfree(): a first-fit free-list allocator.
 *
 * The heap is made of arenas, runs of whole pages from alloc_pages().
 * An arena is carved into blocks; every block starts with a 16-byte
 * header and is a multiple of 16 bytes long, so every pointer kmalloc()
 * returns is 16-byte aligned.
 *
 *   arena:  | arena hdr | hdr  data... | hdr  data......... | hdr  free ... |
 *                        allocated      allocated            free
 *
 * Free blocks sit on one list sorted by address.  kmalloc() takes the
 * first block big enough and splits off the tail if the rest is worth
 * keeping; kfree() puts a block back in address order and merges it with
 * a neighbour that touches it, so freeing everything gives back one big
 * block per arena.  When no block fits we add an arena; arenas are never
 * returned to the page allocator.
 *
 * The magic word in each header catches the two classic kfree() bugs:
 * freeing twice and freeing a pointer kmalloc() never returned.
 *
 * IRQ handlers and kprobe handlers may allocate, so every list operation
 * runs with interrupts off (one CPU: that is all the locking we need).
 */
#include "kernel.h"
#include "mm.h"
#include "spinlock.h"
#include "string.h"

#define HEAP_ALIGN          16
#define HEAP_INITIAL_PAGES  512     /* 2 MiB reserved at boot */
#define HEAP_GROW_PAGES     64      /* smallest arena added later */
#define HEAP_MAX_ALLOC      (64ul << 20)  /* refuse absurd sizes */

#define BLOCK_MAGIC_USED    0xA110C8EDu   /* "allocated" */
#define BLOCK_MAGIC_FREE    0xF2EEB10Cu   /* "free block" */

struct block {
	uint32_t magic;
	uint32_t size;          /* whole block, header included */
	uint32_t requested;     /* bytes asked of kmalloc (in use only) */
	struct block *next;     /* next free block by address (free only) */
};

struct arena {
	struct arena *next;
	unsigned long npages;
} __aligned(HEAP_ALIGN);

_Static_assert(sizeof(struct block) == HEAP_ALIGN, "header keeps alignment");
_Static_assert(sizeof(struct arena) == HEAP_ALIGN, "header keeps alignment");

/* Splitting off a tail smaller than this would leave a useless block. */
#define MIN_BLOCK  (sizeof(struct block) + HEAP_ALIGN)

static struct block *free_list;
static struct arena *arenas;
static struct heap_stats stats;

/* Guards the free list, the arenas and the stats; interrupts off, as
 * an interrupt handler may allocate too. */
static DEFINE_SPINLOCK(heap_lock);

static void *block_data(struct block *b)
{
	return b + 1;
}

static struct block *data_block(void *p)
{
	return (struct block *)p - 1;
}

static struct block *block_after(struct block *b)
{
	return (struct block *)((char *)b + b->size);
}

/* Put b on the free list in address order and merge with neighbours. */
static void free_list_insert(struct block *b)
{
	struct block *prev = NULL, *next = free_list;

	while (next && next < b) {
		prev = next;
		next = next->next;
	}
	b->magic = BLOCK_MAGIC_FREE;
	b->next = next;
	if (prev)
		prev->next = b;
	else
		free_list = b;
	stats.free_bytes += b->size;

	/*
	 * Merge only blocks that touch.  Two arenas never merge, even when
	 * their pages are adjacent: the second arena's header lies between.
	 */
	if (next && block_after(b) == next) {
		b->size += next->size;
		b->next = next->next;
	}
	if (prev && block_after(prev) == b) {
		prev->size += b->size;
		prev->next = b->next;
	}
}

static bool add_arena(unsigned long npages)
{
	struct arena *a = alloc_pages(npages);

	if (!a)
		return false;
	a->npages = npages;
	a->next = arenas;
	arenas = a;

	struct block *b = (struct block *)(a + 1);
	b->size = npages * PAGE_SIZE - sizeof(*a);
	free_list_insert(b);
	return true;
}

/* Unlink the first free block of at least `need` bytes, split it. */
static struct block *take_first_fit(uint32_t need)
{
	struct block **link = &free_list;

	for (struct block *b = free_list; b; link = &b->next, b = b->next) {
		if (b->size < need)
			continue;
		if (b->size - need >= MIN_BLOCK) {
			struct block *rest = (struct block *)((char *)b + need);
			rest->magic = BLOCK_MAGIC_FREE;
			rest->size = b->size - need;
			rest->next = b->next;
			b->size = need;
			*link = rest;
		} else {
			*link = b->next;
		}
		stats.free_bytes -= b->size;
		return b;
	}
	return NULL;
}

void heap_init(void)
{
	if (!add_arena(HEAP_INITIAL_PAGES))
		panic("heap_init: cannot reserve %d pages", HEAP_INITIAL_PAGES);
	printk("heap: %lu KiB in the first arena\n", stats.free_bytes / 1024);
}

void *kmalloc(size_t size)
{
	if (size == 0)
		return ZERO_SIZE_PTR;
	if (size > HEAP_MAX_ALLOC)
		return NULL;

	uint32_t need = sizeof(struct block) + ALIGN_UP(size, HEAP_ALIGN);
	unsigned long flags;

	spin_lock_irqsave(&heap_lock, flags);
	struct block *b = take_first_fit(need);
	if (!b) {
		unsigned long npages =
			ALIGN_UP(need + sizeof(struct arena), PAGE_SIZE) / PAGE_SIZE;
		if (npages < HEAP_GROW_PAGES)
			npages = HEAP_GROW_PAGES;
		if (add_arena(npages))
			b = take_first_fit(need);
	}
	if (b) {
		b->magic = BLOCK_MAGIC_USED;
		b->requested = size;
		b->next = NULL;
		stats.live_allocs++;
		stats.live_bytes += size;
		stats.total_allocs++;
	}
	spin_unlock_irqrestore(&heap_lock, flags);
	return b ? block_data(b) : NULL;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (!ZERO_OR_NULL_PTR(p))
		memset(p, 0, size);
	return p;
}

/* Is p the data address of some block inside one of our arenas? */
static bool heap_pointer(void *p)
{
	unsigned long addr = (unsigned long)p;

	if (addr % HEAP_ALIGN)
		return false;
	for (struct arena *a = arenas; a; a = a->next) {
		unsigned long first = (unsigned long)(a + 1) + sizeof(struct block);
		unsigned long end = (unsigned long)a + a->npages * PAGE_SIZE;
		if (addr >= first && addr < end)
			return true;
	}
	return false;
}

void kfree(void *p)
{
	if (ZERO_OR_NULL_PTR(p))
		return;

	unsigned long flags;

	spin_lock_irqsave(&heap_lock, flags);
	struct block *b = data_block(p);
	if (!heap_pointer(p))
		panic("kfree(%p): not a pointer from kmalloc()", p);
	if (b->magic == BLOCK_MAGIC_FREE)
		panic("kfree(%p): double free", p);
	if (b->magic != BLOCK_MAGIC_USED)
		panic("kfree(%p): bad pointer or corrupted header (magic %#x)",
		      p, b->magic);

	stats.live_allocs--;
	stats.live_bytes -= b->requested;
	free_list_insert(b);
	spin_unlock_irqrestore(&heap_lock, flags);
}

void heap_get_stats(struct heap_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&heap_lock, flags);
	*st = stats;
	spin_unlock_irqrestore(&heap_lock, flags);
}
