/*
 * mutex.h - a sleeping lock for long paths, with Linux's names.
 *
 * A spinlock's waiter burns its CPU, and its holder may not sleep: fine
 * for a few instructions, wrong for loading a module or registering a
 * probe.  A mutex's waiter sleeps (its CPU runs other threads) and its
 * holder may sleep too.  Only threads may use one: never an interrupt
 * handler, which cannot sleep.
 *
 * The owner hands the mutex straight to the first waiter on unlock
 * (first come, first served), so no waiter can be overtaken forever.
 */
#ifndef MUTEX_H
#define MUTEX_H

#include "kernel.h"
#include "list.h"
#include "spinlock.h"

struct task_struct;

struct mutex {
	spinlock_t wait_lock;		/* guards owner and wait_list */
	struct task_struct *owner;	/* NULL when free */
	struct list_head wait_list;	/* struct mutex_waiter, in arrival order */
	const char *name;
};

#define __MUTEX_INITIALIZER(n) {				\
	.wait_lock = __SPIN_LOCK_UNLOCKED(n.wait_lock),		\
	.owner = NULL,						\
	.wait_list = LIST_HEAD_INIT(n.wait_list),		\
	.name = #n,						\
}
#define DEFINE_MUTEX(n)	struct mutex n = __MUTEX_INITIALIZER(n)

void __mutex_init(struct mutex *m, const char *name);
#define mutex_init(m)	__mutex_init((m), #m)

void mutex_lock(struct mutex *m);
int mutex_trylock(struct mutex *m);	/* 1: taken; 0: someone holds it */
void mutex_unlock(struct mutex *m);

static inline bool mutex_is_locked(struct mutex *m)
{
	return READ_ONCE(m->owner) != NULL;
}

#endif
