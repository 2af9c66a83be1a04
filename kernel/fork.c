/*
 * fork.c - a process makes a copy of itself (Linux's kernel/fork.c).
 *
 * fork() returns twice: in the parent with the child's pid, in the
 * child with 0.  The child is a new thread (kthread_create_child()) whose
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
#include "uaccess.h"
#include "string.h"
#include "wait.h"
#include <asm/irqflags.h>
#include <asm/ptrace.h>

/* What the child's thread needs to start: its own once it runs. */
struct fork_start {
	struct pt_regs regs;
	struct mm_struct *mm;
	struct files_struct *files;	/* a copy of the parent's table (dup_fd()) */
	struct sighand_struct sighand;	/* the parent's handlers */
	sigset_t blocked;		/* and its blocked mask */
	int pgid;			/* and its process group */
	int __user *child_tid;		/* CLONE_CHILD_SETTID: where the child stores its pid */
	unsigned long sas_ss_sp, sas_ss_size;	/* the alternate signal stack: in the copied memory */
	struct vfork_done *vfork_done;	/* CLONE_VFORK: what the parent waits on */
};

/*
 * What a vfork() parent waits on: the child's exec or exit.  Shared by
 * two tasks that may end in either order - the child exits, or the
 * parent is killed while it waits - so it is on the heap with a count
 * of its two users, and vfork_lock orders the last looks.
 */
struct vfork_done {
	struct task_struct *waiter;	/* the parent while it waits; NULL once it stopped */
	bool done;
	int users;
};

static DEFINE_SPINLOCK(vfork_lock);

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
	int __user *child_tid = start->child_tid;
	int pid = current->pid;

	/*
	 * Set here, by the child itself, before its first instruction in
	 * ring 3: on another CPU the child may run before copy_process()
	 * has returned, and a handler the parent installed must already be
	 * the child's when it can first take a signal.
	 */
	current->files = start->files;
	current->signal.sighand = start->sighand;
	current->signal.blocked = start->blocked;
	current->signal.sas_ss_sp = start->sas_ss_sp;
	current->signal.sas_ss_size = start->sas_ss_size;
	current->vfork_done = start->vfork_done;
	set_new_task_pgid(current, start->pgid);
	kfree(start);
	local_irq_disable();	/* no switch before CR3 holds mm (process_entry()) */
	set_task_mm(current, mm);
	switch_mm(mm);
	/*
	 * CLONE_CHILD_SETTID: a store into the child's own memory, so only
	 * now (Linux's schedule_tail()), and a failure is ignored as there.
	 * Interrupts back on for the store: it may take a copy-on-write
	 * fault, and a switch away now reloads mm on the way back.
	 */
	if (child_tid) {
		local_irq_enable();
		copy_to_user(child_tid, &pid, sizeof(pid));
		local_irq_disable();
	}
	start_user_thread(&regs);
}

/* One user of vd is done with it; the last frees it.  Under vfork_lock. */
static bool vfork_done_put(struct vfork_done *vd)
{
	return --vd->users == 0;
}

/* Linux's complete_vfork_done(): the child's side, once, at exec or exit. */
static void complete_vfork_done(struct task_struct *tsk)
{
	struct vfork_done *vd;
	unsigned long flags;
	bool last = false;

	spin_lock_irqsave(&vfork_lock, flags);
	vd = tsk->vfork_done;
	tsk->vfork_done = NULL;
	if (vd) {
		vd->done = true;
		if (vd->waiter)
			wake_up_process(vd->waiter);
		last = vfork_done_put(vd);
	}
	spin_unlock_irqrestore(&vfork_lock, flags);
	if (last)
		kfree(vd);
}

void exec_mm_release(struct task_struct *tsk)
{
	complete_vfork_done(tsk);
}

void exit_mm_release(struct task_struct *tsk)
{
	complete_vfork_done(tsk);
}

/*
 * Linux's wait_for_vfork_done(): the parent sleeps until the child has
 * exec'd or exited.  Only SIGKILL ends the wait early (Linux's is
 * killable too); any other signal waits for the child, and is
 * delivered after.
 */
static void wait_for_vfork_done(struct vfork_done *vd)
{
	unsigned long flags;
	bool last;

	while (!READ_ONCE(vd->done) && !current->sigkill_pending) {
		prepare_to_wait_killable();
		if (READ_ONCE(vd->done) || current->sigkill_pending) {
			set_current_state(TASK_RUNNABLE);
			break;
		}
		schedule();
	}
	spin_lock_irqsave(&vfork_lock, flags);
	vd->waiter = NULL;
	last = vfork_done_put(vd);
	spin_unlock_irqrestore(&vfork_lock, flags);
	if (last)
		kfree(vd);
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
	/* The same file (Linux: get_mm_exe_file()); mmput() puts it back. */
	mm->exe_file = oldmm->exe_file;
	if (mm->exe_file)
		iget(mm->exe_file);
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
	mm->vdso = oldmm->vdso;
	mm->arg_start = oldmm->arg_start;	/* the same strings, in the copied stack */
	mm->arg_end = oldmm->arg_end;
	mm->env_start = oldmm->env_start;
	mm->env_end = oldmm->env_end;
	memcpy(mm->exe_path, oldmm->exe_path, sizeof(mm->exe_path));
	if (dup_mmap(mm, oldmm)) {
		mmput(mm);	/* the references taken so far go back */
		return NULL;
	}
	return mm;
}

/*
 * The clone flags a fork-like child can honour here.  A child never
 * shares its parent's memory, files or handlers (no CLONE_VM, CLONE_FS,
 * CLONE_FILES, CLONE_SIGHAND, CLONE_THREAD: this kernel has one thread
 * per address space), and there is no TLS (CLONE_SETTLS), pidfd or
 * ptrace.  CLONE_CHILD_CLEARTID is accepted as a no-op, honestly: the
 * store at exit is meant for the other threads of the same memory, and
 * here nothing else shares the child's memory to see it.  CLONE_VFORK
 * without CLONE_VM is Linux's too: the parent waits, the child runs in
 * a copy-on-write copy of its memory.
 */
#define CLONE_FORK_FLAGS	(CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | \
				 CLONE_VFORK)

/* Linux's copy_process(): the child's task, runnable; NULL and *err if not. */
static struct task_struct *copy_process(struct kernel_clone_args *args,
					struct vfork_done *vfork, int *err)
{
	struct fork_start *start = kzalloc(sizeof(*start));
	struct task_struct *p;

	*err = -ENOMEM;
	if (!start)
		return NULL;
	start->regs = *current_pt_regs();
	start->regs.ax = 0;		/* fork() returns 0 in the child */
	if (args->stack)
		start->regs.sp = args->stack;	/* clone(flags, newsp): its own stack */
	if (args->flags & CLONE_CHILD_SETTID)
		start->child_tid = args->child_tid;
	/*
	 * Linux's copy_sighand() and copy_signal(): the parent's handlers,
	 * blocked mask and alternate stack (ret_from_fork() installs them),
	 * its process group; nothing pending (a signal sent before fork is the parent's).
	 */
	start->sighand = current->signal.sighand;
	start->blocked = current->signal.blocked;
	start->sas_ss_sp = current->signal.sas_ss_sp;
	start->sas_ss_size = current->signal.sas_ss_size;
	start->pgid = current->signal.pgid;
	start->vfork_done = vfork;
	start->files = dup_fd(current->files);
	start->mm = start->files ? dup_mm(current->mm) : NULL;
	if (!start->mm)
		goto fail;
	p = kthread_create_child(ret_from_fork, start, current->comm, current,
				 args->exit_signal);
	if (!p)
		goto fail;
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
 * Linux's kernel_clone() (do_fork() until 5.10): the one path fork and
 * clone take, and the default target of Linux's kprobe and kretprobe
 * samples.  The child's pid, or a negative errno; args is read before
 * anything is made, so bad flags change nothing.  noinline: a real
 * call, for a probe (`p:f kernel_clone flags=+0($arg1):x64`).
 */
noinline int kernel_clone(struct kernel_clone_args *args)
{
	struct vfork_done *vfork = NULL;
	struct task_struct *p;
	int err, pid;

	if (!current->mm)
		return -EINVAL;		/* a kernel thread has nothing to copy */
	if (args->flags & ~(unsigned long long)CLONE_FORK_FLAGS)
		return -EINVAL;		/* sharing this kernel cannot do (above) */
	if (args->flags & CLONE_VFORK) {
		vfork = kzalloc(sizeof(*vfork));
		if (!vfork)
			return -ENOMEM;
		*vfork = (struct vfork_done){ .waiter = current, .users = 2 };
	}
	p = copy_process(args, vfork, &err);
	if (!p) {
		kfree(vfork);
		return err;
	}
	pid = p->pid;
	/* The parent's store, before it returns (a failure ignored, as Linux's put_user()). */
	if (args->flags & CLONE_PARENT_SETTID)
		copy_to_user(args->parent_tid, &pid, sizeof(pid));
	if (vfork)
		wait_for_vfork_done(vfork);
	return pid;
}

asmlinkage long sys_fork(void)
{
	struct kernel_clone_args args = {
		.exit_signal = SIGCHLD,
	};

	return kernel_clone(&args);
}

/*
 * vfork(): the parent sleeps until the child has exec'd or exited, so
 * that a shell's vfork() + execve() costs the parent nothing while the
 * child gets going.  Linux's vfork also shares the memory (CLONE_VM):
 * the child runs on the parent's pages, and may only exec or _exit.
 * Here the child has a copy-on-write copy, as after fork(): a program
 * that keeps those rules sees no difference, and a child that breaks
 * them (writes a variable) changes only its own copy.
 */
asmlinkage long sys_vfork(void)
{
	struct kernel_clone_args args = {
		.flags = CLONE_VFORK,
		.exit_signal = SIGCHLD,
	};

	return kernel_clone(&args);
}

/*
 * clone() as fork: Linux i386's argument order (CONFIG_CLONE_BACKWARDS:
 * flags, newsp, parent_tid, tls, child_tid).  The exit signal is the
 * flags' low byte; the flags kernel_clone() refuses get -EINVAL, as
 * Linux answers a combination it cannot do.
 */
asmlinkage long sys_clone(unsigned long clone_flags, unsigned long newsp,
			  int __user *parent_tidptr, unsigned long tls,
			  int __user *child_tidptr)
{
	struct kernel_clone_args args = {
		.flags = clone_flags & ~CSIGNAL,
		.pidfd = parent_tidptr,
		.child_tid = child_tidptr,
		.parent_tid = parent_tidptr,
		.exit_signal = clone_flags & CSIGNAL,
		.stack = newsp,
		.tls = tls,
	};

	return kernel_clone(&args);
}
