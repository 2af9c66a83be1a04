/*
 * memory.c - the page fault as a mechanism (Linux's mm/memory.c):
 * handle_mm_fault() makes the page the process touched, and fork's
 * copy_page_range() shares pages instead of copying them.
 *
 * A #PF on a user address arrives here from arch/i386/fault.c with the
 * CPU's two facts: CR2 (the address) and the error code (present?
 * write?).  The process's areas (mm/mmap.c) say what it may do there:
 *   - no page yet, in an area: a zeroed frame (demand-zero: a .bss, the
 *     heap, the stack - which first grows its area down, within its limit);
 *   - a write to a present read-only page of a writable area: the page
 *     is shared copy-on-write.  If this address space holds the only
 *     reference left (page_count() 1: the other side copied already or
 *     exited), the page is simply made writable again; otherwise it is
 *     copied, and this side writes its own copy;
 *   - anything else is the process's mistake: SIGSEGV.
 * Returning makes the CPU run the faulting instruction again, now with
 * the page there: the program never notices.
 */
#include "kernel.h"
#include "mm_types.h"
#include "string.h"
#include "errno.h"
#include "nokprobe.h"
#include <asm/tlbflush.h>

static void *pte_page(unsigned long pte)
{
	return (void *)(pte & PAGE_MASK);	/* RAM is identity-mapped */
}

/* Linux's access_error(): may the area be accessed so? */
static bool access_error(unsigned int flags, unsigned long vm_flags)
{
	if (flags & FAULT_FLAG_WRITE)
		return !(vm_flags & VM_WRITE);
	return !(vm_flags & (VM_READ | VM_WRITE | VM_EXEC));
}

/* Linux's do_anonymous_page(): the first touch of a page of an area. */
static enum fault_result do_anonymous_page(struct mm_struct *mm, unsigned long *pte,
					   unsigned long vm_flags)
{
	void *page = alloc_pages(1);	/* zeroed */

	if (!page)
		return FAULT_OOM;
	*pte = (unsigned long)page | PTE_PRESENT | PTE_USER |
	       (vm_flags & VM_WRITE ? PTE_WRITE : 0);
	mm->nr_pages++;
	return FAULT_DEMAND_ZERO;
}

/*
 * Linux's do_wp_page(): a write to a page fork left read-only in a
 * writable area.  The PTE is replaced under page_table_lock; the stale
 * read-only translation goes from the TLB before the write is retried.
 */
static enum fault_result do_wp_page(struct mm_struct *mm, unsigned long *pte,
				    unsigned long address)
{
	void *old = pte_page(*pte);
	enum fault_result what;

	/* LAB 7: BEGIN do_wp_page: break the copy-on-write */
	if (page_count(old) == 1) {
		/* The other side copied it already, or exited: it is ours alone. */
		*pte |= PTE_WRITE;
		what = FAULT_COW_REUSE;
	} else {
		void *copy = alloc_pages(1);

		if (!copy)
			return FAULT_OOM;
		memcpy(copy, old, PAGE_SIZE);
		*pte = (unsigned long)copy | (*pte & ~PAGE_MASK) | PTE_WRITE;
		put_page(old);		/* the other side's now, or soon free */
		what = FAULT_COW_COPY;
	}
	/* LAB 7: STUB printk("lab 7: do_wp_page: copy-on-write break: not yet\n"); */
	/* LAB 7: STUB (void)old; (void)what; */
	/* LAB 7: STUB return FAULT_OOM; */
	/* LAB 7: LATER // Until lab 7, every write copies: correct, but a page nobody else holds is copied too. */
	/* LAB 7: LATER void *copy = alloc_pages(1); */
	/* LAB 7: LATER if (!copy) */
	/* LAB 7: LATER 	return FAULT_OOM; */
	/* LAB 7: LATER memcpy(copy, old, PAGE_SIZE); */
	/* LAB 7: LATER *pte = (unsigned long)copy | (*pte & ~PAGE_MASK) | PTE_WRITE; */
	/* LAB 7: LATER put_page(old); */
	/* LAB 7: LATER what = FAULT_COW_COPY; */
	/* LAB 7: END */
	flush_tlb_mm_range(mm, address, address + PAGE_SIZE);
	return what;
}

/* Under page_table_lock: the area's flags, growing the stack if addr is just below it. */
static unsigned long fault_area(struct mm_struct *mm, unsigned long address, bool *grew)
{
	unsigned long vm_flags = vm_flags_at(mm, address);

	*grew = false;
	if (!vm_flags && expand_stack(mm, address)) {
		*grew = true;
		vm_flags = vm_flags_at(mm, address);
	}
	return vm_flags;
}

/*
 * Linux's handle_pte_fault(): the area allows the access, so make the
 * page, or make it writable.  Only now may a page table be allocated:
 * a wild address costs nothing.
 */
static enum fault_result handle_pte_fault(struct mm_struct *mm, unsigned long address,
					  unsigned int flags, unsigned long vm_flags)
{
	unsigned long *pte = user_pte(mm->pgd, address, true);

	if (!pte)
		return FAULT_OOM;
	if (!(*pte & PTE_PRESENT))
		return do_anonymous_page(mm, pte, vm_flags);
	if ((flags & FAULT_FLAG_WRITE) && !(*pte & PTE_WRITE))
		return do_wp_page(mm, pte, address);
	flush_tlb_mm_range(mm, address, address + PAGE_SIZE);
	return FAULT_SPURIOUS;	/* the PTE allows it: a stale TLB entry */
}

enum fault_result handle_mm_fault(struct mm_struct *mm, unsigned long address,
				  unsigned int flags)
{
	unsigned long vm_flags, irq;
	enum fault_result what;
	bool grew;

	spin_lock_irqsave(&mm->page_table_lock, irq);
	vm_flags = fault_area(mm, address, &grew);
	if (!vm_flags)	/* no area, or one mprotect()ed to PROT_NONE */
		what = find_vma(mm, address) ? FAULT_ACCESS_ERROR : FAULT_BAD_AREA;
	else if (access_error(flags, vm_flags))
		what = FAULT_ACCESS_ERROR;
	else
		what = handle_pte_fault(mm, address, flags, vm_flags);
	if (what == FAULT_DEMAND_ZERO && grew)
		what = FAULT_STACK_GROWTH;
	spin_unlock_irqrestore(&mm->page_table_lock, irq);
	return what;
}
NOKPROBE_SYMBOL(handle_mm_fault);

const char *fault_result_name(enum fault_result what)
{
	switch (what) {
	case FAULT_DEMAND_ZERO:  return "demand-zero: a zeroed page mapped";
	case FAULT_STACK_GROWTH: return "stack growth: the stack's area grown, a zeroed page mapped";
	case FAULT_COW_COPY:     return "COW copy: the shared page copied, the copy mapped writable";
	case FAULT_COW_REUSE:    return "COW reuse: the last reference, the page made writable";
	case FAULT_SPURIOUS:     return "spurious: the PTE already allows it, the TLB entry flushed";
	case FAULT_BAD_AREA:     return "SIGSEGV: no area holds the address";
	case FAULT_ACCESS_ERROR: return "SIGSEGV: the area does not allow the access";
	case FAULT_OOM:          return "SIGSEGV: out of memory";
	}
	return "?";
}

bool fault_result_handled(enum fault_result what)
{
	return what <= FAULT_SPURIOUS;
}

/*
 * Fork: every present page of src is shared with dst (one more
 * reference), and made read-only in both if it was writable, so the
 * first write on either side faults into do_wp_page().  The XOL page
 * is not copied (Linux maps it VM_DONTCOPY): the child makes its own
 * on its first uprobe hit.  Under src's page_table_lock; dst is not
 * in use yet.  0 or -ENOMEM (what was copied goes with dst's mmput()).
 */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src)
{
	unsigned long addr;

	for (addr = USER_BASE; addr < TASK_SIZE; addr += PAGE_SIZE) {
		unsigned long *from = user_pte(src->pgd, addr, false), *to;

		if (!from) {
			addr = ALIGN_UP(addr + 1, PAGE_SIZE * PTRS_PER_TABLE) - PAGE_SIZE;
			continue;	/* no page table: the next one */
		}
		if (!(*from & PTE_PRESENT) || addr == src->xol_vaddr)
			continue;
		to = user_pte(dst->pgd, addr, true);
		if (!to)
			return -ENOMEM;
		*from &= ~PTE_WRITE;
		get_page(pte_page(*from));
		*to = *from;
		dst->nr_pages++;
	}
	flush_tlb_mm_range(src, USER_BASE, TASK_SIZE);	/* src's writable entries */
	return 0;
}

/* Drop the pages of [start, end): Linux's zap_page_range().  Under page_table_lock. */
void zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long addr, *pte;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		pte = user_pte(mm->pgd, addr, false);
		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		put_page(pte_page(*pte));
		*pte = 0;
		mm->nr_pages--;
	}
	flush_tlb_mm_range(mm, start, end);
}

/*
 * The kernel writes into a process's page through the frame's own
 * address (a uprobe's int3, its reference counter): the frame must be
 * this address space's alone first, or the write would land in every
 * process sharing it.  A shared frame is copied, the PTE keeps its
 * permissions (Linux's uprobe_write_opcode() gets the page with
 * FOLL_FORCE and replaces it); a page of an area not touched yet is
 * made, as get_user_pages() faults it in.  NULL if vaddr is in no area,
 * or no memory.
 */
void *user_page_address_write(struct mm_struct *mm, unsigned long vaddr)
{
	unsigned long *pte, irq;
	void *page = NULL;

	spin_lock_irqsave(&mm->page_table_lock, irq);
	pte = user_pte(mm->pgd, vaddr, vm_flags_at(mm, vaddr) != 0);
	if (pte && !(*pte & PTE_PRESENT))	/* in an area, not touched yet */
		do_anonymous_page(mm, pte, vm_flags_at(mm, vaddr));
	if (pte && (*pte & PTE_PRESENT)) {
		page = pte_page(*pte);
		if (page_count(page) > 1) {
			void *copy = alloc_pages(1);

			if (copy) {
				memcpy(copy, page, PAGE_SIZE);
				*pte = (unsigned long)copy | (*pte & ~PAGE_MASK);
				put_page(page);
				flush_tlb_mm_range(mm, vaddr, vaddr + PAGE_SIZE);
			}
			page = copy;
		}
	}
	spin_unlock_irqrestore(&mm->page_table_lock, irq);
	return page ? (char *)page + (vaddr & ~PAGE_MASK) : NULL;
}
NOKPROBE_SYMBOL(user_page_address_write);

int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, int len)
{
	unsigned long irq, chunk;
	int done = 0;
	void *from;

	while (done < len && addr + done >= addr && addr + done < TASK_SIZE) {
		chunk = PAGE_SIZE - ((addr + done) & ~PAGE_MASK);
		if (chunk > (unsigned long)(len - done))
			chunk = len - done;
		/* Under the lock no fault, fork or exit can change the PTE mid-copy. */
		spin_lock_irqsave(&mm->page_table_lock, irq);
		from = user_page_address(mm, addr + done);
		if (from)
			memcpy((char *)buf + done, from, chunk);
		spin_unlock_irqrestore(&mm->page_table_lock, irq);
		if (!from)
			break;
		done += chunk;
	}
	return done;
}
