/*
 * mutex.c - sleeping locks (include/mutex.h), Linux's mutex_lock() and
 * mutex_unlock() without the optimistic spinning.
 *
 * A small spinlock, wait_lock, guards the owner and the queue of
 * waiters; it is held only for those few stores, never while sleeping.
 * A waiter queues itself, marks itself blocked and sleeps.  The owner's
 * mutex_unlock() makes the first waiter the owner and wakes it, so the
 * woken thread never has to compete again for what it waited for.
 *
 * Lock order: wait_lock, then the scheduler's rq_lock (inside
 * set_current_state() and wake_up_process()).
 */
#include "kernel.h"
#include "mutex.h"
#include "sched.h"
#include "stacktrace.h"
#include "nokprobe.h"

/* One sleeping thread, on its own stack while it waits. */
struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

void __mutex_init(struct mutex *m, const char *name)
{
	__spin_lock_init(&m->wait_lock, name);
	m->owner = NULL;
	INIT_LIST_HEAD(&m->wait_list);
	m->name = name;
}

static void mutex_bug(struct mutex *m, const char *msg)
{
	struct task_struct *owner = READ_ONCE(m->owner);

	printk("BUG: mutex %s: %s, thread '%s' on CPU %d, owner '%s'\n", m->name, msg,
	       task_name(current), smp_processor_id(), owner ? task_name(owner) : "none");
	dump_stack();
}

void mutex_lock(struct mutex *m)
{
	struct mutex_waiter waiter = { .task = current };
	unsigned long flags;

	might_sleep("mutex_lock");
	spin_lock_irqsave(&m->wait_lock, flags);
	if (m->owner == current) {
		/* Waiting for ourselves would never end. */
		spin_unlock_irqrestore(&m->wait_lock, flags);
		mutex_bug(m, "recursive mutex_lock()");
		return;
	}
	if (!m->owner) {
		m->owner = current;
		spin_unlock_irqrestore(&m->wait_lock, flags);
		return;
	}
	list_add_tail(&waiter.list, &m->wait_list);
	while (m->owner != current) {
		/* Blocked before wait_lock is let go: unlock's wake-up finds us so. */
		set_current_state(TASK_BLOCKED);
		spin_unlock_irqrestore(&m->wait_lock, flags);
		schedule();
		spin_lock_irqsave(&m->wait_lock, flags);
	}
	/* mutex_unlock() took us off the list when it handed the mutex over. */
	spin_unlock_irqrestore(&m->wait_lock, flags);
}

int mutex_trylock(struct mutex *m)
{
	unsigned long flags;
	int taken = 0;

	spin_lock_irqsave(&m->wait_lock, flags);
	if (!m->owner) {
		m->owner = current;
		taken = 1;
	}
	spin_unlock_irqrestore(&m->wait_lock, flags);
	return taken;
}

void mutex_unlock(struct mutex *m)
{
	struct mutex_waiter *first;
	unsigned long flags;

	spin_lock_irqsave(&m->wait_lock, flags);
	if (m->owner != current) {
		spin_unlock_irqrestore(&m->wait_lock, flags);
		mutex_bug(m, "mutex_unlock() by a thread that does not own it");
		return;
	}
	if (list_empty(&m->wait_list)) {
		m->owner = NULL;
	} else {
		first = list_first_entry(&m->wait_list, struct mutex_waiter, list);
		list_del(&first->list);
		m->owner = first->task;
		wake_up_process(first->task);
	}
	spin_unlock_irqrestore(&m->wait_lock, flags);
}
NOKPROBE_SYMBOL(mutex_bug);
