/*
 * fork.c - a process makes a copy of itself (Linux's kernel/fork.c).
 *
 * fork() returns twice: in the parent with the child's pid, in the
 * child with 0.  The child is a new thread (kthread_create()) whose
 * first act, ret_from_fork(), leaves for ring 3 through a copy of the
 * parent's trap frame - the registers of the parent's int $0x80, with
 * %eax made 0 - so it resumes after the same instruction.
 *
 * Its memory is not copied.  dup_mm() gives it the parent's areas and
 * copy_page_range() (mm/memory.c) the parent's pages, each with one
 * more reference, and both sides read-only: the first write on either
 * side faults, and only then is that one page copied (copy-on-write).
 * A child that execs or exits at once - most of them - copies nothing.
 *
 * What a child does not get, as in Linux: the parent's hardware
 * breakpoints (its task starts with none: Linux's copy_thread() clears
 * ptrace_bps), its XOL page, a pending kill.  What it does get: the
 * parent's uprobes - the int3s are in the pages it shares - and the
 * bookkeeping that makes them its own (uprobe_dup_mmap()).
 */
#include "kernel.h"
#include "process.h"
#include "sched.h"
#include "trace.h"
#include "mm_types.h"
#include "syscalls.h"
#include "uprobes.h"
#include "errno.h"
#include "signal.h"
#include "fs.h"
#include <asm/irqflags.h>
#include <asm/ptrace.h>

#define CSIGNAL 0x000000ff	/* clone(): the signal the child sends its parent at exit */

/* What the child's thread needs to start: its own once it runs. */
struct fork_start {
	struct pt_regs regs;
	struct mm_struct *mm;
	struct files_struct *files;	/* a copy of the parent's table (dup_fd()) */
	struct sighand_struct sighand;	/* the parent's handlers */
	sigset_t blocked;		/* and its blocked mask */
	int pgid;			/* and its process group */
};

void start_user_thread(struct pt_regs *regs) __noreturn;	/* entry.S */

/*
 * The child's first code (Linux's ret_from_fork, there an assembly
 * stub): adopt the address space, then return to ring 3 as the parent
 * will, but with fork's result 0.
 */
int ret_from_fork(void *arg)
{
	struct fork_start *start = arg;
	struct pt_regs regs = start->regs;
	struct mm_struct *mm = start->mm;

	/*
	 * Set here, by the child itself, before its first instruction in
	 * ring 3: on another CPU the child may run before copy_process()
	 * has returned, and a handler the parent installed must already be
	 * the child's when it can first take a signal.
	 */
	current->files = start->files;
	current->signal.sighand = start->sighand;
	current->signal.blocked = start->blocked;
	set_new_task_pgid(current, start->pgid);
	kfree(start);
	local_irq_disable();	/* no switch before CR3 holds mm (process_entry()) */
	current->mm = mm;
	switch_mm(mm);
	start_user_thread(&regs);
}

/* Linux's dup_mmap(): the areas, then the pages shared (under src's lock). */
static int dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct vm_area_struct *vma, *copy;
	unsigned long flags;
	int ret;

	for (vma = oldmm->mmap; vma; vma = vma->vm_next) {
		copy = vm_area_alloc(vma->vm_start, vma->vm_end, vma->vm_flags);
		if (!copy)
			return -ENOMEM;
		insert_vm_struct(mm, copy);
	}
	/* No uprobe may come or go between the pages' copy and the child's listing. */
	uprobe_start_dup_mmap();
	spin_lock_irqsave(&oldmm->page_table_lock, flags);
	ret = copy_page_range(mm, oldmm);
	spin_unlock_irqrestore(&oldmm->page_table_lock, flags);
	if (!ret)
		uprobe_dup_mmap(oldmm, mm);
	uprobe_end_dup_mmap();
	return ret;
}

/* Linux's dup_mm(): a new address space with oldmm's areas and pages, or NULL. */
static struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return NULL;
	mm->start_code = oldmm->start_code;
	mm->end_code = oldmm->end_code;
	mm->start_stack = oldmm->start_stack;
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	if (dup_mmap(mm, oldmm)) {
		mmput(mm);	/* the references taken so far go back */
		return NULL;
	}
	return mm;
}

/* Linux's copy_process(): the child's task, runnable; NULL and *err if not. */
static struct task_struct *copy_process(struct pt_regs *regs, int *err)
{
	struct fork_start *start = kzalloc(sizeof(*start));
	struct task_struct *p;

	*err = -ENOMEM;
	if (!start)
		return NULL;
	start->regs = *regs;
	start->regs.ax = 0;		/* fork() returns 0 in the child */
	/*
	 * Linux's copy_sighand() and copy_signal(): the parent's handlers
	 * and blocked mask (ret_from_fork() installs them), its process
	 * group; nothing pending (a signal sent before fork is the parent's).
	 */
	start->sighand = current->signal.sighand;
	start->blocked = current->signal.blocked;
	start->pgid = current->signal.pgid;
	start->files = dup_fd(current->files);
	start->mm = start->files ? dup_mm(current->mm) : NULL;
	if (!start->mm)
		goto fail;
	p = kthread_create(ret_from_fork, start, current->comm);
	if (!p)
		goto fail;
	p->parent = current;
	set_new_task_pgid(p, current->signal.pgid);
	trace_pid_fork(current, p);	/* options/event-fork, function-fork */
	return p;
fail:
	if (start->mm)
		mmput(start->mm);
	if (start->files)
		exit_files_struct(start->files);
	kfree(start);
	return NULL;
}

/*
 * Linux's name until 5.10 for the one path fork and clone take (it is
 * kernel_clone() since; here kernel_clone() is still spawn's, in
 * kernel/sys.c).  The child's pid, or a negative errno.  noinline: a
 * real call, for a probe.
 */
noinline long do_fork(struct pt_regs *regs)
{
	struct task_struct *p;
	int err;

	if (!current->mm)
		return -EINVAL;		/* a kernel thread has nothing to copy */
	p = copy_process(regs, &err);
	return p ? p->pid : err;
}

asmlinkage long sys_fork(void)
{
	return do_fork(current_pt_regs());
}

/*
 * clone() as fork only: no flag but the exit signal, no new stack.
 * Threads (CLONE_VM and the rest) need a task that shares an address
 * space, which this kernel does not have: -EINVAL, as Linux answers
 * flags it does not know.
 */
asmlinkage long sys_clone(unsigned long clone_flags, unsigned long newsp)
{
	if ((clone_flags & ~CSIGNAL) || newsp)
		return -EINVAL;
	return do_fork(current_pt_regs());
}
