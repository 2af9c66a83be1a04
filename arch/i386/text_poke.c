/*
 * text_poke.c - the one way to change kernel code.
 *
 * paging_init() maps .text read-only and sets CR0.WP, so a plain store
 * to an instruction faults, even in ring 0.  kprobes still has to write
 * an int3 (and later restore the original byte).  We do it as Linux does:
 *
 *   1. Find the physical page(s) behind the target.
 *   2. Map them a second time, writable, at TEXT_POKE_ADDR - a virtual
 *      address no other code uses.  Two slots, so a write that crosses a
 *      page boundary maps both pages side by side and stays one copy.
 *   3. Write through that alias, with interrupts off so no interrupt
 *      handler runs half-patched code or finds the alias mapped.
 *   4. Unmap the alias and invlpg it: the TLB would otherwise keep the
 *      writable translation after the PTE is gone.
 *   5. sync_core(): the CPU may already have fetched and decoded the old
 *      bytes, and we wrote them through a different virtual address than
 *      the one it executes from.  A serialising instruction (cpuid)
 *      throws away everything fetched so far, so what runs next is what
 *      we wrote (SDM vol. 3, "Handling Self- and Cross-Modifying Code").
 *
 * Why not simply clear CR0.WP, write, and set it again?  For that window
 * every read-only page in the kernel is writable at once - one stray
 * store anywhere (an interrupt handler, an NMI, a bug in the caller)
 * silently corrupts code or constants.  The alias exposes only the bytes
 * we mean to change, and only to the one function holding its address.
 *
 * kprobes calls this while arming and disarming probes, so nothing here
 * may itself be probed.
 */
#include "kernel.h"
#include "mm.h"
#include <asm/processor.h>
#include "spinlock.h"
#include "nokprobe.h"

/* The page frame behind a mapped kernel virtual address. */
static unsigned long virt_to_frame(unsigned long vaddr)
{
	unsigned long *pte = lookup_pte(vaddr);

	if (!pte || !(*pte & PTE_PRESENT))
		panic("text_poke: %#lx is not mapped", vaddr);
	return *pte & PAGE_MASK;
}
NOKPROBE_SYMBOL(virt_to_frame);

static void map_poke_slot(int slot, unsigned long frame)
{
	unsigned long *pte = lookup_pte(TEXT_POKE_ADDR + slot * PAGE_SIZE);

	if (!pte)
		panic("text_poke: called before paging_init()");
	*pte = frame | PTE_PRESENT | PTE_WRITE;
}
NOKPROBE_SYMBOL(map_poke_slot);

static void unmap_poke_slot(int slot)
{
	unsigned long vaddr = TEXT_POKE_ADDR + slot * PAGE_SIZE;

	*lookup_pte(vaddr) = 0;
	invlpg(vaddr);
}
NOKPROBE_SYMBOL(unmap_poke_slot);

/*
 * Copy byte by byte rather than call memcpy(): memcpy() may carry a
 * probe, and its int3 must not fire in the middle of a patch.
 */
static void poke_copy(volatile unsigned char *dst, const unsigned char *src,
		      size_t len)
{
	for (size_t i = 0; i < len; i++)
		dst[i] = src[i];
}
NOKPROBE_SYMBOL(poke_copy);

/* Patch at most what fits in the two alias pages from addr's page on. */
static size_t poke_chunk(unsigned long addr, const unsigned char *src,
			 size_t len)
{
	unsigned long offset = addr & ~PAGE_MASK;
	size_t room = TEXT_POKE_PAGES * PAGE_SIZE - offset;
	size_t n = len < room ? len : room;
	int pages = (offset + n > PAGE_SIZE) ? 2 : 1;

	for (int i = 0; i < pages; i++)
		map_poke_slot(i, virt_to_frame((addr & PAGE_MASK) + i * PAGE_SIZE));
	poke_copy((volatile unsigned char *)(TEXT_POKE_ADDR + offset), src, n);
	for (int i = 0; i < pages; i++)
		unmap_poke_slot(i);
	return n;
}
NOKPROBE_SYMBOL(poke_chunk);

/* The poke slots are one virtual address for every CPU: one poker at a time. */
static DEFINE_SPINLOCK(text_poke_lock);

void *text_poke(void *addr, const void *src, size_t len)
{
	unsigned long a = (unsigned long)addr;
	const unsigned char *s = src;
	unsigned long flags;

	spin_lock_irqsave(&text_poke_lock, flags);
	while (len) {
		size_t done = poke_chunk(a, s, len);
		a += done;
		s += done;
		len -= done;
	}
	sync_core();
	spin_unlock_irqrestore(&text_poke_lock, flags);
	return addr;
}
NOKPROBE_SYMBOL(text_poke);

/*
 * Write the byte at addr again, as it is, under the poke lock (so no
 * patch in progress is undone).  For a CPU that trapped on an int3 that
 * is no longer in memory (poke_int3_handler()): real hardware refetches
 * after the trap's iret, which serializes, but QEMU's TCG runs code from
 * translations it keeps, and a translation made on one vCPU while
 * another stored to the page can keep the bytes from before the store.
 * That CPU would take the same int3 forever.  A store through the alias
 * is a store to a page QEMU knows holds code: it drops every translation
 * of the page, and the next fetch reads what memory holds.
 */
void text_poke_refetch(void *addr)
{
	unsigned char byte;
	unsigned long flags;

	spin_lock_irqsave(&text_poke_lock, flags);
	byte = READ_ONCE(*(const unsigned char *)addr);
	poke_chunk((unsigned long)addr, &byte, 1);
	sync_core();
	spin_unlock_irqrestore(&text_poke_lock, flags);
}
NOKPROBE_SYMBOL(text_poke_refetch);
