/*
 * mm_user.c - a process's address space: made by exec, freed at exit.
 *
 * Each user page is a fresh zeroed frame, mapped U/S=1 and writable or
 * not as its area asks.  exec maps only what holds bytes of the file
 * (and the stack's top page); the rest comes at the first touch
 * (mm/memory.c).  fork shares frames copy-on-write, each with one
 * reference per address space, so freeing an address space drops one
 * reference of every frame its page tables name (pgd_free()): a frame
 * goes with its last.
 */
#include "kernel.h"
#include "mm_types.h"
#include "errno.h"
#include "nokprobe.h"
#include "uprobes.h"
#include "ramfs.h"
#include "sched.h"

/*
 * Guards every task's ->mm against a reader on another CPU: exec and
 * exit swap the pointer under it, get_task_mm() takes its hold under
 * it, so a reader never holds an address space already freed.  (Linux
 * takes the task's own alloc_lock, task_lock(); one lock serves here.)
 */
static DEFINE_SPINLOCK(task_mm_lock);

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm));

	if (!mm)
		return NULL;
	mm->pgd = pgd_alloc();
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	INIT_LIST_HEAD(&mm->uprobes_link);
	spin_lock_init(&mm->page_table_lock);
	atomic_set(&mm->mm_users, 1);	/* its creator's: exec's or fork's */
	return mm;
}

struct mm_struct *get_task_mm(struct task_struct *t)
{
	struct mm_struct *mm;
	unsigned long flags;

	spin_lock_irqsave(&task_mm_lock, flags);
	mm = t->mm;
	if (mm)
		atomic_inc(&mm->mm_users);
	spin_unlock_irqrestore(&task_mm_lock, flags);
	return mm;
}

struct mm_struct *set_task_mm(struct task_struct *t, struct mm_struct *mm)
{
	struct mm_struct *old;
	unsigned long flags;

	spin_lock_irqsave(&task_mm_lock, flags);
	old = t->mm;
	t->mm = mm;
	spin_unlock_irqrestore(&task_mm_lock, flags);
	return old;
}

void mmput(struct mm_struct *mm)
{
	if (!mm || !atomic_dec_and_test(&mm->mm_users))
		return;
	uprobe_clear_state(mm);		/* no probe writes into it any more */
	if (mm->exe_file)
		iput(mm->exe_file);
	exit_mmap(mm);
	pgd_free(mm->pgd);
	kfree(mm);
}

/* One page at vaddr: a new frame, or the one already there (two segments sharing it). */
static int map_user_page(struct mm_struct *mm, unsigned long vaddr, bool writable)
{
	unsigned long *pte = user_pte(mm->pgd, vaddr, true);
	void *frame;

	if (!pte)
		return -ENOMEM;
	if (!(*pte & PTE_PRESENT)) {
		frame = alloc_pages(1);
		if (!frame)
			return -ENOMEM;
		*pte = (unsigned long)frame | PTE_PRESENT | PTE_USER;
		mm->nr_pages++;
	}
	if (writable)
		*pte |= PTE_WRITE;
	return 0;
}

int mm_map_range(struct mm_struct *mm, unsigned long start, unsigned long len,
		 bool writable)
{
	unsigned long a, end = ALIGN_UP(start + len, PAGE_SIZE);
	int ret;

	for (a = start & PAGE_MASK; a < end; a += PAGE_SIZE) {
		ret = map_user_page(mm, a, writable);
		if (ret)
			return ret;	/* what is mapped so far goes with mmput() */
	}
	return 0;
}

void *user_page_address(struct mm_struct *mm, unsigned long vaddr)
{
	unsigned long *pte = user_pte(mm->pgd, vaddr, false);

	if (!pte || !(*pte & PTE_PRESENT))
		return NULL;
	return (void *)((*pte & PAGE_MASK) | (vaddr & ~PAGE_MASK));
}
NOKPROBE_SYMBOL(user_page_address);

bool in_stack_guard(struct mm_struct *mm, unsigned long vaddr)
{
	return mm && vaddr < mm->start_stack && vaddr >= mm->start_stack - STACK_GUARD_GAP;
}
