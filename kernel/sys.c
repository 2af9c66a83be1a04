/*
 * sys.c - the process system calls: exit, getpid, nanosleep,
 * the process groups (Linux's kernel/sys.c, kernel/time/...); wait4
 * and waitpid are in kernel/exit.c, kill in kernel/signal.c.
 */
#include "kernel.h"
#include "process.h"
#include "syscalls.h"
#include "sched.h"
#include "uaccess.h"
#include "timer.h"
#include "string.h"
#include "errno.h"
#include "signal.h"

#define NSEC_PER_SEC   1000000000L
#define MAX_SLEEP_SEC  3600L     /* longer requests are cut to an hour */

asmlinkage long sys_exit(int error_code)
{
	do_exit(W_EXITCODE(error_code, 0));
}

asmlinkage long sys_getpid(void)
{
	return current->pid;
}

#define NSEC_PER_TICK	(NSEC_PER_SEC / HZ)

/*
 * Sleeps whole ticks.  A signal ends it early, as Linux's: -EINTR, and
 * in *rmtp (if given) the time that was left, so the caller can sleep
 * the rest.  (Linux returns -ERESTART_RESTARTBLOCK and restarts through
 * restart_syscall() when no handler ran; here only a handled or fatal
 * signal wakes a sleeper - an ignored one is dropped when sent - so
 * -EINTR is what a program sees on both.)
 */
asmlinkage long sys_nanosleep(const struct timespec __user *rqtp, struct timespec __user *rmtp)
{
	struct timespec ts;
	long ticks, left;

	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if (ts.tv_sec > MAX_SLEEP_SEC)
		ts.tv_sec = MAX_SLEEP_SEC;
	ticks = ts.tv_sec * HZ + (ts.tv_nsec + NSEC_PER_TICK - 1) / NSEC_PER_TICK;
	left = schedule_timeout_interruptible(ticks);
	if (!signal_pending(current))
		return 0;
	ts.tv_sec = left / HZ;
	ts.tv_nsec = (left % HZ) * NSEC_PER_TICK;
	if (rmtp && copy_to_user(rmtp, &ts, sizeof(ts)))
		return -EFAULT;
	return -EINTR;
}

/* ---- process groups (Linux's kernel/sys.c) ---- */

struct pgid_req {
	int pid, pgid;			/* the target; the group asked for */
	struct task_struct *found;
	int found_pgid;			/* read under the lock: found may end after it */
	bool group_exists;
};

static void find_pgid_target(struct task_struct *t, void *arg)
{
	struct pgid_req *r = arg;

	if (t->pid == r->pid && task_is_process(t) && t->state != TASK_DEAD) {
		r->found = t;
		r->found_pgid = t->signal.pgid;
	}
	if (task_is_process(t) && t->signal.pgid == r->pgid && t->state != TASK_DEAD)
		r->group_exists = true;
}

/*
 * setpgid(pid, pgid): put pid (0: the caller) into group pgid (0: a
 * group of its own, numbered pid).  As Linux's: only the caller or its
 * child (-ESRCH otherwise), only into a group that exists or its own
 * (-EPERM).  A job-control shell uses it to give each job a group, the
 * one its terminal's Ctrl-C signals.
 */
asmlinkage long sys_setpgid(int pid, int pgid)
{
	struct pgid_req r;

	if (pgid < 0)
		return -EINVAL;
	r = (struct pgid_req){ .pid = pid ? pid : current->pid };
	r.pgid = pgid ? pgid : r.pid;
	for_each_task(find_pgid_target, &r);
	if (!r.found || (r.found != current && r.found->parent != current))
		return -ESRCH;
	if (r.pgid != r.pid && !r.group_exists)
		return -EPERM;
	r.found->signal.pgid = r.pgid;
	return 0;
}

asmlinkage long sys_getpgid(int pid)
{
	struct pgid_req r = { .pid = pid ? pid : current->pid, .pgid = -1 };

	for_each_task(find_pgid_target, &r);
	return r.found ? r.found_pgid : -ESRCH;
}

asmlinkage long sys_getpgrp(void)
{
	return current->signal.pgid;
}

/*
 * getrusage(RUSAGE_SELF): of Linux's figures the kernel keeps one, the
 * page faults it handled (ru_minflt: demand-zero, copy-on-write, stack
 * growth; none needs a disk, so none is "major").  The others are 0.
 * RUSAGE_CHILDREN and RUSAGE_THREAD are not kept: -EINVAL.
 */
asmlinkage long sys_getrusage(int who, struct rusage __user *ru)
{
	struct rusage r = { .ru_minflt = current->min_flt };

	if (who != RUSAGE_SELF)
		return -EINVAL;
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}
