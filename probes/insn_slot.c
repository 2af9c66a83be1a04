/*
 * insn_slot.c - the out-of-line slots probed instructions are stepped in.
 *
 * The int3 written over a probed instruction destroys its first byte, so
 * the instruction cannot run where it lives.  register_kprobe() copies it
 * into a slot here and the CPU single-steps the copy (Linux's
 * get_insn_slot()/free_insn_slot()).
 *
 * A slot page is a whole page from alloc_pages(), cut into
 * SLOTS_PER_PAGE slots of MAX_INSN_SIZE bytes; a bitmap says which are
 * used.  Pages are executable because 32-bit paging without PAE has no
 * no-execute bit: anything mapped can be run.  A page whose last slot is
 * freed goes back to the page allocator, so after every probe is gone
 * the counters (insn_slot_get_stats) are back to zero.
 *
 * Both directions stay cheap however many probes there are (the
 * registration benchmark goes to 10,000, i.e. 40 pages): allocation
 * takes the first page with room and skips full bitmap words 32 slots
 * at a time; freeing finds its page in a small hash by page address
 * instead of walking the page list.
 *
 * Linux keeps freed slots "dirty" until no CPU can still be stepping in
 * them (another CPU, or a preempted task, may be inside one).  Here a
 * step is atomic: interrupts are off from the int3 to the #DB, and
 * registration runs in thread context, so no one can be inside a slot
 * when it is freed.  We fill it with int3 at once instead: a stray jump
 * into a free slot traps instead of running stale code.
 */
#include "kernel.h"
#include "kprobes.h"
#include "hash.h"
#include "mm.h"
#include "string.h"

#define SLOTS_PER_PAGE	(PAGE_SIZE / MAX_INSN_SIZE)
#define BITS_PER_WORD	32

#define FULL_WORD	0xffffffffu
#define PAGE_HASH_BITS	5

struct kprobe_insn_page {
	struct kprobe_insn_page *next;
	struct hlist_node hlist;		/* in page_hash, by page address */
	kprobe_opcode_t *insns;			/* the page itself */
	unsigned int nused;
	uint32_t used[SLOTS_PER_PAGE / BITS_PER_WORD];	/* bit set = slot taken */
};

static struct kprobe_insn_page *slot_pages;
static struct hlist_head page_hash[1 << PAGE_HASH_BITS];
static struct insn_slot_stats slot_stats;

static struct hlist_head *page_bucket(const void *page)
{
	uint32_t pfn = (uint32_t)(unsigned long)page >> PAGE_SHIFT;

	return &page_hash[hash_32(pfn, PAGE_HASH_BITS)];
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

static kprobe_opcode_t *take_slot(struct kprobe_insn_page *kip, unsigned int i)
{
	slot_set(kip, i, true);
	kip->nused++;
	slot_stats.slots_in_use++;
	slot_stats.total_allocs++;
	return kip->insns + i * MAX_INSN_SIZE;
}

static struct kprobe_insn_page *new_slot_page(void)
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
	kip->next = slot_pages;
	slot_pages = kip;
	hlist_add_head(&kip->hlist, page_bucket(kip->insns));
	slot_stats.pages++;
	return kip;
}

/* Callers hold the kprobe lock (probes/kprobes.c), so no one races us. */
kprobe_opcode_t *get_insn_slot(void)
{
	struct kprobe_insn_page *kip;

	for (kip = slot_pages; kip; kip = kip->next) {
		if (kip->nused == SLOTS_PER_PAGE)
			continue;
		for (unsigned int w = 0; w < ARRAY_SIZE(kip->used); w++) {
			if (kip->used[w] == FULL_WORD)
				continue;
			for (unsigned int i = w * BITS_PER_WORD; ; i++)
				if (!slot_used(kip, i))
					return take_slot(kip, i);
		}
	}
	kip = new_slot_page();
	return kip ? take_slot(kip, 0) : NULL;
}

static void release_page(struct kprobe_insn_page *kip)
{
	struct kprobe_insn_page **pp;

	for (pp = &slot_pages; *pp != kip; pp = &(*pp)->next)
		;
	*pp = kip->next;
	hlist_del(&kip->hlist);
	free_pages(kip->insns, 1);
	kfree(kip);
	slot_stats.pages--;
}

void free_insn_slot(kprobe_opcode_t *slot, int dirty)
{
	kprobe_opcode_t *page = (kprobe_opcode_t *)((unsigned long)slot & ~(PAGE_SIZE - 1));
	struct kprobe_insn_page *kip;
	unsigned long off;

	hlist_for_each_entry(kip, page_bucket(page), hlist) {
		if (kip->insns != page)
			continue;
		off = (unsigned long)(slot - kip->insns);
		if (off % MAX_INSN_SIZE || !slot_used(kip, off / MAX_INSN_SIZE))
			panic("free_insn_slot: %p is not an allocated slot", slot);
		(void)dirty;	/* see the top of the file: nothing can be inside it */
		memset(slot, BREAKPOINT_INSTRUCTION, MAX_INSN_SIZE);
		slot_set(kip, off / MAX_INSN_SIZE, false);
		kip->nused--;
		slot_stats.slots_in_use--;
		slot_stats.total_frees++;
		if (kip->nused == 0)
			release_page(kip);
		return;
	}
	panic("free_insn_slot: %p is not in any slot page", slot);
}

void insn_slot_get_stats(struct insn_slot_stats *st)
{
	*st = slot_stats;
}
