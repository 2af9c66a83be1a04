/*
 * sys.c - the process system calls: exit, getpid, nanosleep, spawn,
 * kill (Linux's kernel/exit.c, kernel/sys.c, kernel/time/...); wait4
 * and waitpid are in kernel/exit.c.
 */
#include "kernel.h"
#include "process.h"
#include "syscalls.h"
#include "sched.h"
#include "uaccess.h"
#include "timer.h"
#include "string.h"
#include "errno.h"

#define NSEC_PER_SEC   1000000000L
#define NSEC_PER_MSEC  1000000L
#define MSEC_PER_SEC   1000L
#define MAX_SLEEP_SEC  3600L     /* longer requests are cut to an hour */

asmlinkage long sys_exit(int error_code)
{
	do_exit(W_EXITCODE(error_code, 0));
}

asmlinkage long sys_getpid(void)
{
	return current->pid;
}

/* Sleeps whole ticks; a kill ends it early (-EINTR, and the kill follows). */
asmlinkage long sys_nanosleep(const struct timespec __user *rqtp, struct timespec __user *rmtp)
{
	struct timespec ts;
	unsigned long ms;

	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if (ts.tv_sec > MAX_SLEEP_SEC)
		ts.tv_sec = MAX_SLEEP_SEC;
	ms = ts.tv_sec * MSEC_PER_SEC + (ts.tv_nsec + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC;
	msleep(ms);
	return current->sigkill_pending ? -EINTR : 0;
}

/* The arguments, copied into one kernel buffer: MAX_ARG_STRINGS strings at most. */
struct spawn_args {
	char name[MAX_ARG_STRLEN];
	char strings[MAX_ARG_STRINGS][MAX_ARG_STRLEN];
	const char *argv[MAX_ARG_STRINGS];
	int argc;
};

static long copy_spawn_args(struct spawn_args *a, const char __user *name,
			    const char __user *const __user *argv)
{
	long len = strncpy_from_user(a->name, name, sizeof(a->name));
	const char __user *p;

	if (len < 0)
		return len;
	if (len == sizeof(a->name))
		return -ENAMETOOLONG;
	for (a->argc = 0; ; a->argc++) {
		if (copy_from_user(&p, &argv[a->argc], sizeof(p)))
			return -EFAULT;
		if (!p)
			break;
		if (a->argc == MAX_ARG_STRINGS)
			return -E2BIG;
		len = strncpy_from_user(a->strings[a->argc], p, MAX_ARG_STRLEN);
		if (len < 0)
			return len;
		if (len == MAX_ARG_STRLEN)
			return -E2BIG;
		a->argv[a->argc] = a->strings[a->argc];
	}
	if (a->argc == 0) {		/* no argv[0]: the program's name */
		a->argv[0] = a->name;
		a->argc = 1;
	}
	return 0;
}

/*
 * Linux's name for the one path that makes a task for a process
 * (kernel/fork.c: fork, vfork and clone all end here), and the default
 * target of Linux's kprobe and kretprobe samples.  Here a process comes
 * from spawn, so spawn's path carries the name: a probe on kernel_clone
 * fires for every program a program starts, with current the parent
 * (current->mm set), and returns the child's pid or a negative errno,
 * as Linux's does.  noinline: a real call, for the samples to probe.
 */
noinline long kernel_clone(struct spawn_args *a)
{
	struct task_struct *t;
	int err;

	t = process_spawn(a->name, a->argv, a->argc, &err);
	if (!t)
		return err;
	t->parent = current;
	return t->pid;
}

asmlinkage long sys_spawn(const char __user *name, const char __user *const __user *argv)
{
	struct spawn_args *a = kzalloc(sizeof(*a));
	long ret;

	if (!a)
		return -ENOMEM;
	ret = copy_spawn_args(a, name, argv);
	if (!ret)
		ret = kernel_clone(a);
	kfree(a);
	return ret;
}

/* Every signal kills (no process has handlers): Linux's default action for most. */
asmlinkage long sys_kill(int pid, int sig)
{
	if (sig <= 0)
		return -EINVAL;
	return kill_pid(pid);
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
