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
#include "mm_types.h"
#include "fs.h"
#include "utsname.h"
#include "resource.h"

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

/* ---- who am I: the ids, uname, the parent -------------------------------- */

/*
 * Every process is root here: there are no users to be.  The 32-bit
 * calls (199..211) are the ones a C library for i386 makes; the
 * 16-bit originals (24, 47, ...) are not provided.
 */
asmlinkage long sys_getuid(void)
{
	return ROOT_UID;
}

asmlinkage long sys_geteuid(void)
{
	return ROOT_UID;
}

asmlinkage long sys_getgid(void)
{
	return ROOT_GID;
}

asmlinkage long sys_getegid(void)
{
	return ROOT_GID;
}

/* The real, effective and saved ids, each a 32-bit uid_t, into three user words. */
static long put_three_ids(unsigned int id, unsigned int __user *r, unsigned int __user *e,
			  unsigned int __user *s)
{
	if (copy_to_user(r, &id, sizeof(id)) || copy_to_user(e, &id, sizeof(id)) ||
	    copy_to_user(s, &id, sizeof(id)))
		return -EFAULT;
	return 0;
}

asmlinkage long sys_getresuid(unsigned int __user *ruid, unsigned int __user *euid,
			      unsigned int __user *suid)
{
	return put_three_ids(ROOT_UID, ruid, euid, suid);
}

asmlinkage long sys_getresgid(unsigned int __user *rgid, unsigned int __user *egid,
			      unsigned int __user *sgid)
{
	return put_three_ids(ROOT_GID, rgid, egid, sgid);
}

/* No supplementary groups: 0 of them, whatever the size (Linux: -EINVAL if size < 0). */
asmlinkage long sys_getgroups(int gidsetsize, unsigned int __user *grouplist)
{
	return gidsetsize < 0 ? -EINVAL : 0;
}

/* The parent's pid while it lives (still in the task list), else 0 as Linux's for init. */
struct ppid_search {
	struct task_struct *parent;
	int pid;
};

static void match_parent_task(struct task_struct *t, void *arg)
{
	struct ppid_search *s = arg;

	if (t == s->parent)
		s->pid = t->pid;
}

asmlinkage long sys_getppid(void)
{
	struct ppid_search s = { .parent = READ_ONCE(current->parent) };

	if (s.parent)
		for_each_task(match_parent_task, &s);
	return s.pid;
}

/*
 * uname(): Linux's struct new_utsname, six strings of 65 bytes.  This
 * kernel answers "Linux": it runs Linux i386's system-call ABI, with
 * Linux 6.1's numbers, structures and errno values, and a script that
 * asks `uname -s` is asking which ABI it talks to.  The release says
 * which Linux the calls follow; the version says which kernel this is.
 */
asmlinkage long sys_newuname(struct new_utsname __user *name)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, UTS_SYSNAME, sizeof(u.sysname));
	strlcpy(u.nodename, UTS_NODENAME, sizeof(u.nodename));
	strlcpy(u.release, UTS_RELEASE, sizeof(u.release));
	strlcpy(u.version, UTS_VERSION, sizeof(u.version));
	strlcpy(u.machine, UTS_MACHINE, sizeof(u.machine));
	strlcpy(u.domainname, UTS_DOMAINNAME, sizeof(u.domainname));
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}

/* ---- what a C library's startup asks ------------------------------------- */

/*
 * set_tid_address(tidptr): where the thread library wants its tid
 * cleared when the thread ends (Linux's clear_child_tid); returns the
 * caller's pid, which is its tid.  A process here is one thread, and
 * nothing waits on that word, so it is kept, not written at exit.
 */
asmlinkage long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}

/*
 * set_robust_list(head, len): the list of futexes a dying thread must
 * release.  Kept, as Linux keeps it; with one thread per process and no
 * futexes, nothing walks it.  A len other than the structure's is -EINVAL.
 */
asmlinkage long sys_set_robust_list(void __user *head, size_t len)
{
	if (len != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	current->robust_list = head;
	return 0;
}

/*
 * ugetrlimit(resource, rlim): the limits a process runs under.  The
 * stack's is what exec gives (USER_STACK_LIMIT below the top), the
 * descriptors' the table's size; the rest are unlimited.
 */
asmlinkage long sys_ugetrlimit(unsigned int resource, struct rlimit __user *rlim)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (resource == RLIMIT_STACK)
		r.rlim_cur = USER_STACK_LIMIT;
	if (resource == RLIMIT_NOFILE)
		r.rlim_cur = r.rlim_max = NR_OPEN_DEFAULT;
	return copy_to_user(rlim, &r, sizeof(r)) ? -EFAULT : 0;
}

/*
 * prctl(option, ...): PR_SET_NAME and PR_GET_NAME, the task's comm (16
 * bytes, NUL included), which busybox sets to the applet's name; any
 * other option is -EINVAL, as Linux answers one it does not know.
 */
asmlinkage long sys_prctl(int option, unsigned long arg2)
{
	char comm[TASK_NAME_LEN];

	if (option == PR_SET_NAME) {
		if (strncpy_from_user(comm, (const char __user *)arg2, sizeof(comm)) < 0)
			return -EFAULT;
		comm[sizeof(comm) - 1] = '\0';
		strlcpy(current->comm, comm, sizeof(current->comm));
		return 0;
	}
	if (option == PR_GET_NAME) {
		strlcpy(comm, current->comm, sizeof(comm));
		return copy_to_user((char __user *)arg2, comm, sizeof(comm)) ? -EFAULT : 0;
	}
	return -EINVAL;
}
