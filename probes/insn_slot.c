/*
 * insn_slot.c - executable slots for code kprobes writes: Linux's
 * struct kprobe_insn_cache, with its two instances.
 *
 *   kprobe_insn_slots     MAX_INSN_SIZE bytes: the copy of a probed
 *                         instruction, single-stepped there (register_kprobe,
 *                         get_insn_slot()/free_insn_slot())
 *   kprobe_optinsn_slots  MAX_OPTINSN_SIZE bytes: an optimized probe's
 *                         detour buffer (arch/i386/kprobes/opt.c,
 *                         get_optinsn_slot()/free_optinsn_slot())
 *
 * The int3 written over a probed instruction destroys its first byte, so
 * the instruction cannot run where it lives; a jump written over it needs
 * somewhere to jump to.  Either way the code goes into a slot of a page
 * of its own.  Not kmalloc(): code must not share its page with data.  A
 * store into a page the CPU runs code from looks like self-modifying
 * code - real CPUs flush their pipeline, QEMU throws the page's
 * translations away - and a kretprobe writes its instances on every
 * hit: next to its own detour, that made the hit twice as slow under
 * QEMU.
 *
 * A page is a whole page from alloc_pages(), cut into PAGE_SIZE /
 * insn_size slots; a bitmap says which are used.  Pages are executable
 * because 32-bit paging without PAE has no no-execute bit: anything
 * mapped can be run.  A page whose last slot is freed goes back to the
 * page allocator, so after every probe is gone the counters
 * (insn_cache_get_stats) are back to zero.
 *
 * Both directions stay cheap however many probes there are (the
 * registration benchmark goes to 10,000, i.e. 40 pages of slots and 313
 * of detours): allocation takes the first page with room (new pages go
 * first) and skips full bitmap words 32 slots at a time; freeing finds
 * its page in a small hash by page address instead of walking the list.
 *
 * Linux keeps freed slots "dirty" until no CPU can still be running in
 * them.  Here a step is atomic: interrupts are off from the int3 to the
 * #DB, and registration runs in thread context, so no one can be inside
 * an instruction slot when it is freed; a detour a preempted thread may
 * still be in is freed only once it has left (kprobes_free_text_later()).
 * A freed slot is filled with int3 at once: a stray jump into it traps
 * instead of running stale code.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "hash.h"
#include "mm.h"
#include "string.h"
#include "nokprobe.h"

#define BITS_PER_WORD	32
#define FULL_WORD	0xffffffffu
/* The most slots a page can hold: those of the smallest cache. */
#define INSN_PAGE_MAX_SLOTS	(PAGE_SIZE / MAX_INSN_SIZE)

struct kprobe_insn_page {
	struct kprobe_insn_page *next;
	struct hlist_node hlist;		/* in the cache's page_hash, by page address */
	kprobe_opcode_t *insns;			/* the page itself */
	unsigned int nused;
	uint32_t used[INSN_PAGE_MAX_SLOTS / BITS_PER_WORD];	/* bit set = slot taken */
};

struct kprobe_insn_cache kprobe_insn_slots = { .insn_size = MAX_INSN_SIZE };
struct kprobe_insn_cache kprobe_optinsn_slots = { .insn_size = MAX_OPTINSN_SIZE };

static unsigned int slots_per_page(const struct kprobe_insn_cache *c)
{
	return PAGE_SIZE / c->insn_size;
}

static nokprobe_inline struct hlist_head *page_bucket(struct kprobe_insn_cache *c,
						      const void *page)
{
	uint32_t pfn = (uint32_t)(unsigned long)page >> PAGE_SHIFT;

	return &c->page_hash[hash_32(pfn, INSN_CACHE_HASH_BITS)];
}

static bool slot_used(struct kprobe_insn_page *kip, unsigned int i)
{
	return kip->used[i / BITS_PER_WORD] & (1u << (i % BITS_PER_WORD));
}

static void slot_set(struct kprobe_insn_page *kip, unsigned int i, bool on)
{
	uint32_t bit = 1u << (i % BITS_PER_WORD);

	if (on)
		kip->used[i / BITS_PER_WORD] |= bit;
	else
		kip->used[i / BITS_PER_WORD] &= ~bit;
}

static kprobe_opcode_t *take_slot(struct kprobe_insn_cache *c,
				  struct kprobe_insn_page *kip, unsigned int i)
{
	slot_set(kip, i, true);
	kip->nused++;
	c->stats.slots_in_use++;
	c->stats.total_allocs++;
	return kip->insns + i * c->insn_size;
}

static struct kprobe_insn_page *new_slot_page(struct kprobe_insn_cache *c)
{
	struct kprobe_insn_page *kip = kzalloc(sizeof(*kip));

	if (!kip)
		return NULL;
	kip->insns = alloc_pages(1);
	if (!kip->insns) {
		kfree(kip);
		return NULL;
	}
	memset(kip->insns, BREAKPOINT_INSTRUCTION, PAGE_SIZE);
	kip->next = c->pages;
	c->pages = kip;
	hlist_add_head(&kip->hlist, page_bucket(c, kip->insns));
	c->stats.pages++;
	return kip;
}

/*
 * The first free slot of kip, or -1.  Full words are skipped 32 slots
 * at a time; in the first word with room, the lowest clear bit is the
 * lowest set bit of its complement, which bsf (__builtin_ctz) finds in
 * one instruction.
 */
static int find_free_slot(const struct kprobe_insn_cache *c, struct kprobe_insn_page *kip)
{
	unsigned int nslots = slots_per_page(c);

	for (unsigned int w = 0; w * BITS_PER_WORD < nslots; w++) {
		if (kip->used[w] != FULL_WORD) {
			unsigned int i = w * BITS_PER_WORD + __builtin_ctz(~kip->used[w]);

			return i < nslots ? (int)i : -1;
		}
	}
	return -1;
}

/* Callers hold kprobe_mutex (probes/kprobes.c), so no one races us. */
kprobe_opcode_t *__get_insn_slot(struct kprobe_insn_cache *c)
{
	struct kprobe_insn_page *kip;

	for (kip = c->pages; kip; kip = kip->next) {
		if (kip->nused < slots_per_page(c))
			return take_slot(c, kip, find_free_slot(c, kip));
	}
	kip = new_slot_page(c);
	return kip ? take_slot(c, kip, 0) : NULL;
}

static void release_page(struct kprobe_insn_cache *c, struct kprobe_insn_page *kip)
{
	struct kprobe_insn_page **pp;

	for (pp = &c->pages; *pp != kip; pp = &(*pp)->next)
		;
	*pp = kip->next;
	hlist_del(&kip->hlist);
	free_pages(kip->insns, 1);
	kfree(kip);
	c->stats.pages--;
}

/* The page of c that holds addr, or NULL.  Reads only: unwinders ask too. */
static nokprobe_inline struct kprobe_insn_page *find_page(struct kprobe_insn_cache *c,
							   unsigned long addr)
{
	kprobe_opcode_t *page = (kprobe_opcode_t *)(addr & ~(PAGE_SIZE - 1));
	struct kprobe_insn_page *kip;

	hlist_for_each_entry(kip, page_bucket(c, page), hlist)
		if (kip->insns == page)
			return kip;
	return NULL;
}

void __free_insn_slot(struct kprobe_insn_cache *c, kprobe_opcode_t *slot, int dirty)
{
	struct kprobe_insn_page *kip = find_page(c, (unsigned long)slot);
	unsigned long off = kip ? (unsigned long)(slot - kip->insns) : 0;
	unsigned int i = off / c->insn_size;

	if (!kip)
		panic("free_insn_slot: %p is not in any slot page", slot);
	if (off != i * c->insn_size || !slot_used(kip, i))
		panic("free_insn_slot: %p is not an allocated slot", slot);
	(void)dirty;	/* see the top of the file: nothing can be inside it */
	memset(slot, BREAKPOINT_INSTRUCTION, c->insn_size);
	slot_set(kip, i, false);
	kip->nused--;
	c->stats.slots_in_use--;
	c->stats.total_frees++;
	if (kip->nused == 0)
		release_page(c, kip);
}

bool __is_insn_slot_addr(struct kprobe_insn_cache *c, unsigned long addr)
{
	return find_page(c, addr) != NULL;
}
NOKPROBE_SYMBOL(__is_insn_slot_addr);

void insn_cache_get_stats(const struct kprobe_insn_cache *c, struct insn_slot_stats *st)
{
	*st = c->stats;
}

void insn_slot_get_stats(struct insn_slot_stats *st)
{
	insn_cache_get_stats(&kprobe_insn_slots, st);
}
