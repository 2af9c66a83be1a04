/*
 * wait.h - a sleep that a wake_up_process() or a kill ends (Linux's
 * TASK_KILLABLE), for a process waiting on a pipe or for a child.
 *
 * The caller marks itself asleep, lets go of the lock guarding what it
 * waits for, and calls schedule(); a waker changes that state under
 * the same lock, then wakes it.  The sleep is a TASK_SLEEPING one with
 * a wake-up time out of reach, because that is the state a kill ends
 * (kill_pid() brings wake_at to now): a process blocked in read() on a
 * pipe still dies of Ctrl-C.
 */
#ifndef WAIT_H
#define WAIT_H

#include "sched.h"
#include "timer.h"

#define WAIT_FOREVER_TICKS	0x3fffffffUL	/* far below the 2^31 at which time_after_eq() wraps */

static inline void prepare_to_wait_killable(void)
{
	current->wake_at = jiffies + WAIT_FOREVER_TICKS;
	set_current_state(TASK_SLEEPING);
}

#endif
