/*
 * exit.c - a process's end as its parent sees it: wait4(), waitpid()
 * and exit_group() (Linux's kernel/exit.c).
 *
 * A process that exits becomes a zombie (exit_state = EXIT_ZOMBIE): its
 * address space and files are gone (do_exit()), but its task, with the
 * wait status, stays until the parent collects it with wait4().  Then,
 * and only then, the task and its kernel stack are freed: the zombie is
 * reaped.  The status is Linux's: exit code in bits 8-15 (WEXITSTATUS),
 * or the killing signal in bits 0-6 (WTERMSIG).
 *
 * tasklist_lock, as Linux's, guards the parent links: a child wakes its
 * parent under it, and a parent that exits clears its children's links
 * under it, so no child ever wakes a parent that is already freed.
 * A child whose parent ends first is autoreaped: freed as it ends.
 */
#include "kernel.h"
#include "process.h"
#include "syscalls.h"
#include "sched.h"
#include "wait.h"
#include "spinlock.h"
#include "uaccess.h"
#include "string.h"
#include "errno.h"
#include "signal.h"

#define WNOHANG		0x00000001	/* Linux's wait options (include/uapi/linux/wait.h) */
#define WUNTRACED	0x00000002
#define WCONTINUED	0x00000008
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000
#define WAIT_OPTIONS	(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE)
#define RUSAGE_LONGS	18		/* Linux i386's struct rusage: 2 timevals and 14 longs */

static DEFINE_SPINLOCK(tasklist_lock);

/*
 * Under the run-queue lock: the exiting process's living children have
 * no parent to wait for them now.  No init adopts them, so they are
 * autoreaped: each is freed as it ends (Linux's init reaps an orphan
 * the same way, at once).  A child already a zombie keeps its parent,
 * which reaps it before it goes (exit_notify()).
 */
static void forget_parent(struct task_struct *t, void *parent)
{
	if (t->parent != parent || t->exit_state == EXIT_ZOMBIE)
		return;
	t->parent = NULL;
	t->autoreap = true;
}

/*
 * Linux's exit_notify(): the children lose their parent and become
 * autoreaped, and this process becomes a zombie and wakes its own
 * parent, who may be in wait4().  The zombies among the children - one
 * may have ended since do_exit() reaped them - are reaped last: no one
 * else would.
 */
void exit_notify(void)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	for_each_task(forget_parent, current);
	current->exit_state = EXIT_ZOMBIE;
	if (current->parent)
		wake_up_process(current->parent);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	exit_reap_children();
}

struct wait_opts {
	int pid;			/* -1 (or 0, -PGID: no process groups yet) any child */
	int options;			/* __WCLONE, __WALL: which kind of child */
	struct task_struct *parent;
	struct task_struct *zombie;	/* the first child found exited */
	bool has_child;
};

/*
 * Linux's eligible_child(): a "clone" child - one whose exit signal is
 * not SIGCHLD (clone(SIGUSR1), clone(0)) - is waited for only with
 * __WCLONE, any other only without it; __WALL waits for both.
 */
static bool wait_eligible_kind(const struct wait_opts *wo, const struct task_struct *t)
{
	if (wo->options & __WALL)
		return true;
	return (t->exit_signal != SIGCHLD) == !!(wo->options & __WCLONE);
}

static void wait_find_child(struct task_struct *t, void *arg)
{
	struct wait_opts *wo = arg;

	if (t->parent != wo->parent || (wo->pid > 0 && t->pid != wo->pid) ||
	    !wait_eligible_kind(wo, t))
		return;
	wo->has_child = true;
	if (t->exit_state == EXIT_ZOMBIE && !wo->zombie)
		wo->zombie = t;
}

#define WAIT_SLEEP	2	/* wait_scan(): nothing to report yet, sleep */

/* One look at the children: 1 a zombie (wo->zombie), or what to return, or WAIT_SLEEP. */
static long wait_scan(struct wait_opts *wo, int options)
{
	wo->zombie = NULL;
	wo->has_child = false;
	for_each_task(wait_find_child, wo);
	if (wo->zombie)
		return 1;
	if (!wo->has_child)
		return -ECHILD;
	if (options & WNOHANG)
		return 0;
	/* A slow call: a signal ends the wait (-EINTR, or a restart under SA_RESTART). */
	return signal_pending(current) ? -ERESTARTSYS : WAIT_SLEEP;
}

/*
 * Sleep until a child that matches has exited: its pid, and its status
 * in *status.  0 with WNOHANG when none has yet; -ECHILD when no child
 * matches; -ERESTARTSYS when a signal is pending.  The task is
 * marked asleep only when it is about to sleep, and looks once more
 * after that: an exit_notify() after that look wakes it.
 */
static long do_wait(struct wait_opts *wo, int options, int *status)
{
	long ret;

	while ((ret = wait_scan(wo, options)) == WAIT_SLEEP) {
		prepare_to_wait_killable();
		ret = wait_scan(wo, options);
		if (ret != WAIT_SLEEP) {
			set_current_state(TASK_RUNNABLE);
			break;
		}
		schedule();
	}
	if (ret != 1)
		return ret;
	ret = wo->zombie->pid;
	*status = kthread_join(wo->zombie);	/* reaped: the task and its stack freed */
	return ret;
}

asmlinkage long sys_wait4(int pid, int __user *stat_addr, int options, void __user *ru)
{
	struct wait_opts wo = { .pid = pid, .options = options, .parent = current };
	long rusage[RUSAGE_LONGS] = { 0 };	/* no accounting: all zero */
	int status = 0;
	long ret;

	if (options & ~WAIT_OPTIONS)
		return -EINVAL;
	ret = do_wait(&wo, options, &status);
	if (ret > 0 && stat_addr && copy_to_user(stat_addr, &status, sizeof(status)))
		return -EFAULT;
	if (ret > 0 && ru && copy_to_user(ru, rusage, sizeof(rusage)))
		return -EFAULT;
	return ret;
}

asmlinkage long sys_waitpid(int pid, int __user *stat_addr, int options)
{
	return sys_wait4(pid, stat_addr, options, NULL);
}

/* Every zombie child, reaped as this process ends (the living ones go on, orphaned). */
void exit_reap_children(void)
{
	struct wait_opts wo = { .pid = -1, .options = __WALL, .parent = current };
	int status;

	while (do_wait(&wo, WNOHANG, &status) > 0)
		;
}

/* One thread per process here: the whole group is the caller. */
asmlinkage long sys_exit_group(int error_code)
{
	do_exit(W_EXITCODE(error_code, 0));
}
