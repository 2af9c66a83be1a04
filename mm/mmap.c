/*
 * mmap.c - a process's areas (Linux's mm/mmap.c): which addresses it
 * may use, and how; brk, the heap's end.
 *
 * An area is a promise, not memory: exec adds one per ELF segment and
 * one for the stack, brk one for the heap, and a page appears in an
 * area only when the process first touches it (mm/memory.c).  The
 * areas are a short list sorted by address - a process here has a
 * handful - where Linux keeps a tree.  Two segments may share a page
 * (the text's last and the data's first): their areas then overlap by
 * that page, and the page may do what either allows (vm_flags_at()).
 */
#include "kernel.h"
#include "mm_types.h"
#include "sched.h"
#include "process.h"
#include "syscalls.h"
#include "errno.h"
#include "nokprobe.h"
#include "uprobes.h"
#include "elf.h"
#include <asm/tlbflush.h>

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	for (vma = mm->mmap; vma; vma = vma->vm_next)
		if (addr >= vma->vm_start && addr < vma->vm_end)
			return vma;
	return NULL;
}
NOKPROBE_SYMBOL(find_vma);

unsigned long vm_flags_at(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;
	unsigned long flags = 0;

	for (vma = mm->mmap; vma; vma = vma->vm_next)
		if (addr >= vma->vm_start && addr < vma->vm_end)
			flags |= vma->vm_flags;
	return flags;
}
NOKPROBE_SYMBOL(vm_flags_at);

/* The first area that meets [start, end), or NULL. */
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end)
{
	struct vm_area_struct *vma;

	for (vma = mm->mmap; vma; vma = vma->vm_next)
		if (vma->vm_start < end && start < vma->vm_end)
			return vma;
	return NULL;
}

/* Put vma in mm's list, by address.  Under page_table_lock, or before the mm is used. */
void insert_vm_struct(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct **p = &mm->mmap;

	while (*p && (*p)->vm_start < vma->vm_start)
		p = &(*p)->vm_next;
	vma->vm_next = *p;
	*p = vma;
}

struct vm_area_struct *vm_area_alloc(unsigned long start, unsigned long end,
				     unsigned long vm_flags)
{
	struct vm_area_struct *vma = kzalloc(sizeof(*vma));

	if (!vma)
		return NULL;
	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_flags = vm_flags;
	return vma;
}

int mm_add_area(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long vm_flags)
{
	unsigned long end = ALIGN_UP(start + len, PAGE_SIZE);
	struct vm_area_struct *vma;

	start &= PAGE_MASK;
	if (start < USER_BASE || end > TASK_SIZE || end <= start)
		return -EINVAL;
	vma = vm_area_alloc(start, end, vm_flags);
	if (!vma)
		return -ENOMEM;
	insert_vm_struct(mm, vma);
	return 0;
}

unsigned long elf_vm_flags(unsigned long p_flags)
{
	return (p_flags & PF_R ? VM_READ : 0) | (p_flags & PF_W ? VM_WRITE : 0) |
	       (p_flags & PF_X ? VM_EXEC : 0);
}

/* The end of the highest area below the stack: where the heap starts. */
static unsigned long end_of_segments(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long end = 0;

	for (vma = mm->mmap; vma; vma = vma->vm_next)
		if (!(vma->vm_flags & VM_GROWSDOWN) && vma->vm_end > end)
			end = vma->vm_end;
	return end;
}

_Static_assert(MAX_ARG_STRINGS * (MAX_ARG_STRLEN + sizeof(long)) + 4 * sizeof(long) + 16
	       <= PAGE_SIZE, "exec's argument block fits in the stack's top page");

int mm_setup_stack(struct mm_struct *mm)
{
	int ret = mm_add_area(mm, USER_STACK_TOP - USER_STACK_PAGES * PAGE_SIZE,
			      USER_STACK_PAGES * PAGE_SIZE, VM_READ | VM_WRITE | VM_GROWSDOWN);

	if (ret)
		return ret;
	mm->start_stack = USER_STACK_BOTTOM;
	/* Exec has loaded the segments: the heap starts past them (load_elf_binary()). */
	mm->start_brk = mm->brk = end_of_segments(mm);
	return mm_map_range(mm, USER_STACK_TOP - PAGE_SIZE, PAGE_SIZE, true);
}

/*
 * Linux's expand_stack(): a fault below the stack's area but above its
 * limit moves the area's start down to the faulting page.  Under
 * page_table_lock.  Returns the grown area or NULL.
 */
struct vm_area_struct *expand_stack(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma, *stack = NULL;

	for (vma = mm->mmap; vma; vma = vma->vm_next)
		if ((vma->vm_flags & VM_GROWSDOWN) && vma->vm_start > addr)
			stack = vma;		/* the lowest stack above addr */
	if (!stack || addr < mm->start_stack)
		return NULL;
	if (find_vma_intersection(mm, addr & PAGE_MASK, stack->vm_start))
		return NULL;			/* something else lies in between */
	stack->vm_start = addr & PAGE_MASK;
	return stack;
}

void exit_mmap(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *next;

	for (vma = mm->mmap; vma; vma = next) {
		next = vma->vm_next;
		kfree(vma);
	}
	mm->mmap = NULL;
}

/*
 * Cut [start, end) (page-aligned) out of mm's areas and drop its pages:
 * an area inside goes, one across an end is trimmed, one across both
 * is split in two - the tail becomes spare, which the caller allocated
 * (no allocation under the lock).  *spare is NULL if it was used.
 */
static void unmap_areas(struct mm_struct *mm, unsigned long start, unsigned long end,
			struct vm_area_struct **spare)
{
	struct vm_area_struct **p = &mm->mmap, *vma;

	while ((vma = *p)) {
		if (vma->vm_end <= start || vma->vm_start >= end) {
			p = &vma->vm_next;
		} else if (vma->vm_start < start && vma->vm_end > end) {
			struct vm_area_struct *tail = *spare;

			*spare = NULL;
			*tail = (struct vm_area_struct){ end, vma->vm_end, vma->vm_flags,
							 vma->vm_next };
			vma->vm_end = start;
			vma->vm_next = tail;
			p = &tail->vm_next;
		} else if (vma->vm_start < start) {
			vma->vm_end = start;
			p = &vma->vm_next;
		} else if (vma->vm_end > end) {
			vma->vm_start = end;
			p = &vma->vm_next;
		} else {
			*p = vma->vm_next;
			kfree(vma);
		}
	}
	zap_page_range(mm, start, end);
}

/* Linux's do_munmap(): 0, -EINVAL (unaligned, outside user space), -ENOMEM. */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE), flags;
	struct vm_area_struct *spare = kzalloc(sizeof(*spare));

	if (!spare)
		return -ENOMEM;
	if ((start & ~PAGE_MASK) || !len || start < USER_BASE || end > TASK_SIZE ||
	    end < start) {
		kfree(spare);
		return -EINVAL;
	}
	spin_lock_irqsave(&mm->page_table_lock, flags);
	unmap_areas(mm, start, end, &spare);
	spin_unlock_irqrestore(&mm->page_table_lock, flags);
	kfree(spare);
	return 0;
}

/*
 * Below the XOL page and the stack's guard gap: the heap and the
 * mmap()ed areas never reach them.
 */
#define MMAP_BASE  XOL_AREA_VADDR
#define HEAP_FLAGS (VM_READ | VM_WRITE)
_Static_assert(MMAP_BASE < USER_STACK_BOTTOM - STACK_GUARD_GAP,
	       "the XOL page lies below the stack's guard gap");

/* May the heap grow from oldbrk to newbrk (both page-aligned)?  Linux keeps a page free above. */
static bool brk_room(struct mm_struct *mm, unsigned long oldbrk, unsigned long newbrk)
{
	return newbrk + PAGE_SIZE <= MMAP_BASE &&
	       !find_vma_intersection(mm, oldbrk, newbrk + PAGE_SIZE);
}

/* The heap's area grows to newbrk: the last one extended, or spare added. */
static void grow_heap(struct mm_struct *mm, unsigned long oldbrk, unsigned long newbrk,
		      struct vm_area_struct **spare)
{
	struct vm_area_struct *vma = oldbrk > mm->start_brk ? find_vma(mm, oldbrk - 1) : NULL;

	if (vma && vma->vm_end == oldbrk && vma->vm_flags == HEAP_FLAGS) {
		vma->vm_end = newbrk;
		return;
	}
	**spare = (struct vm_area_struct){ oldbrk, newbrk, HEAP_FLAGS, NULL };
	insert_vm_struct(mm, *spare);
	*spare = NULL;
}

/*
 * Linux's brk(2), as the kernel sees it (a C library's brk() and sbrk()
 * are built on it): move the heap's end to brk and return the new end;
 * on any refusal - below the heap's start, into another area, out of
 * memory - return the old end, unchanged.  brk(0) asks where it is.
 * Growing adds an area, with no page yet: each comes at its first touch.
 * Shrinking drops the pages past the new end: growing again gives zeros.
 */
asmlinkage unsigned long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long newbrk = ALIGN_UP(brk, PAGE_SIZE), oldbrk, flags, ret;
	struct vm_area_struct *spare = kzalloc(sizeof(*spare));

	if (!spare)
		return mm->brk;
	spin_lock_irqsave(&mm->page_table_lock, flags);
	oldbrk = ALIGN_UP(mm->brk, PAGE_SIZE);
	if (brk < mm->start_brk) {
		/* refused: the heap does not start that low */
	} else if (newbrk == oldbrk) {
		mm->brk = brk;
	} else if (newbrk < oldbrk) {
		unmap_areas(mm, newbrk, oldbrk, &spare);
		mm->brk = brk;
	} else if (brk_room(mm, oldbrk, newbrk)) {
		grow_heap(mm, oldbrk, newbrk, &spare);
		mm->brk = brk;
	}
	ret = mm->brk;
	spin_unlock_irqrestore(&mm->page_table_lock, flags);
	kfree(spare);
	return ret;
}

/* mmap()'s and mprotect()'s bits (Linux's uapi/asm-generic/mman-common.h). */
#define PROT_READ      0x1
#define PROT_WRITE     0x2
#define PROT_EXEC      0x4
#define MAP_SHARED     0x01
#define MAP_PRIVATE    0x02
#define MAP_TYPE       0x0f
#define MAP_FIXED      0x10
#define MAP_ANONYMOUS  0x20
#define PROT_ALL       (PROT_READ | PROT_WRITE | PROT_EXEC)

static unsigned long prot_vm_flags(unsigned long prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0);
}

/* Is [start, end) inside user space and clear of the XOL page? */
static bool mmap_range_ok(unsigned long start, unsigned long end)
{
	return start >= USER_BASE && end <= TASK_SIZE && start < end &&
	       (end <= XOL_AREA_VADDR || start >= XOL_AREA_VADDR + PAGE_SIZE);
}

/*
 * Linux's get_unmapped_area(), top-down: the highest len bytes below
 * MMAP_BASE that meet no area, above the heap (and a page of room for
 * it).  0 if there is no such hole.
 */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len)
{
	unsigned long addr = MMAP_BASE - len;
	struct vm_area_struct *vma;

	while (addr > ALIGN_UP(mm->brk, PAGE_SIZE) + PAGE_SIZE && addr < MMAP_BASE) {
		vma = find_vma_intersection(mm, addr, addr + len);
		if (!vma)
			return addr;
		addr = vma->vm_start - len;	/* below the area in the way */
	}
	return 0;
}

/*
 * Linux's mmap2() (i386's number 192), for anonymous private memory: an
 * area of len bytes, no page yet - each comes zeroed at its first touch,
 * as a .bss's.  Without MAP_FIXED the kernel picks the place (below the
 * XOL page, top-down); with it, addr it is, and whatever was mapped
 * there goes first.  The start address, or -EINVAL (len 0, an
 * unaligned or out-of-range MAP_FIXED address, MAP_SHARED), -ENODEV (a
 * file: there are no file mappings), -ENOMEM.
 */
asmlinkage long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot,
			  unsigned long flags, unsigned long fd, unsigned long pgoff)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long irq;

	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len || len > TASK_SIZE || (prot & ~PROT_ALL) || (flags & MAP_TYPE) != MAP_PRIVATE)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;
	if ((flags & MAP_FIXED) &&
	    ((addr & ~PAGE_MASK) || !mmap_range_ok(addr, addr + len)))
		return -EINVAL;
	vma = vm_area_alloc(0, 0, prot_vm_flags(prot));
	if (!vma)
		return -ENOMEM;
	if ((flags & MAP_FIXED) && do_munmap(mm, addr, len)) {
		kfree(vma);
		return -ENOMEM;
	}
	spin_lock_irqsave(&mm->page_table_lock, irq);
	if (!(flags & MAP_FIXED))
		addr = get_unmapped_area(mm, len);
	if (addr) {
		vma->vm_start = addr;
		vma->vm_end = addr + len;
		insert_vm_struct(mm, vma);
	}
	spin_unlock_irqrestore(&mm->page_table_lock, irq);
	if (!addr) {
		kfree(vma);
		return -ENOMEM;
	}
	return addr;
}

asmlinkage long sys_munmap(unsigned long addr, unsigned long len)
{
	if (!mmap_range_ok(addr, addr + ALIGN_UP(len, PAGE_SIZE)))
		return -EINVAL;
	return do_munmap(current->mm, addr, len);
}

/* Split the area holding addr so that one ends there; spare is used if so. */
static void split_vma_at(struct mm_struct *mm, unsigned long addr,
			 struct vm_area_struct **spare)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	if (!vma || vma->vm_start == addr)
		return;
	**spare = (struct vm_area_struct){ addr, vma->vm_end, vma->vm_flags, vma->vm_next };
	vma->vm_end = addr;
	vma->vm_next = *spare;
	*spare = NULL;
}

/* Does one area or a run of touching ones cover [start, end)? */
static bool range_covered(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma;

	while (start < end) {
		vma = find_vma(mm, start);
		if (!vma)
			return false;
		start = vma->vm_end;
	}
	return true;
}

/*
 * The present pages of [start, end) follow their area's new flags: no
 * write, the PTE loses PTE_WRITE (a write gives it back through
 * do_wp_page(), copying if fork shares the page); no access at all,
 * it loses PTE_USER, so ring 3 faults on it while the frame stays.
 */
static void change_protection(struct mm_struct *mm, unsigned long start, unsigned long end,
			      unsigned long vm_flags)
{
	unsigned long addr, *pte;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		pte = user_pte(mm->pgd, addr, false);
		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		if (!(vm_flags & VM_WRITE))
			*pte &= ~PTE_WRITE;
		if (vm_flags & (VM_READ | VM_WRITE | VM_EXEC))
			*pte |= PTE_USER;
		else
			*pte &= ~PTE_USER;
	}
	flush_tlb_mm_range(mm, start, end);
}

/*
 * Linux's mprotect(): new permissions for [addr, addr + len), which
 * areas must cover without a hole (-ENOMEM otherwise, as Linux); the
 * areas are split at the ends.  0, -EINVAL (unaligned, bad prot).
 */
asmlinkage long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	struct mm_struct *mm = current->mm;
	unsigned long end = addr + ALIGN_UP(len, PAGE_SIZE), irq;
	struct vm_area_struct *spare[2] = { kzalloc(sizeof(**spare)), kzalloc(sizeof(**spare)) };
	struct vm_area_struct *vma;
	long ret = 0;

	if ((addr & ~PAGE_MASK) || (prot & ~PROT_ALL) || !mmap_range_ok(addr, end))
		ret = -EINVAL;
	else if (!spare[0] || !spare[1])
		ret = -ENOMEM;
	if (ret)
		goto out;
	spin_lock_irqsave(&mm->page_table_lock, irq);
	if (!range_covered(mm, addr, end)) {
		ret = -ENOMEM;
	} else {
		split_vma_at(mm, addr, &spare[0]);
		split_vma_at(mm, end, &spare[1]);
		for (vma = find_vma(mm, addr); vma && vma->vm_start < end; vma = vma->vm_next)
			vma->vm_flags = (vma->vm_flags & VM_GROWSDOWN) | prot_vm_flags(prot);
		change_protection(mm, addr, end, prot_vm_flags(prot));
	}
	spin_unlock_irqrestore(&mm->page_table_lock, irq);
out:
	kfree(spare[0]);
	kfree(spare[1]);
	return ret;
}
