/*
 * linux/sched.h - current, struct task_struct (comm, pid, mm) and
 * task_pid_nr().  current->mm is NULL in a kernel thread and set in a
 * user process (docs/user-mode.md), as in Linux.
 */
#ifndef LINUX_SCHED_H
#define LINUX_SCHED_H

#include "../sched.h"
#include "preempt.h"

#define TASK_COMM_LEN	TASK_NAME_LEN

static inline int task_pid_nr(struct task_struct *tsk)
{
	return task_pid(tsk);
}

#endif
