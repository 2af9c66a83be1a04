/*
 * notifier.h - notifier chains, as in Linux's include/linux/notifier.h.
 *
 * A chain is a list of callbacks sorted by priority.  Whoever reaches an
 * event (a trap, an oops, a panic) calls the chain and need not know who
 * listens: kprobes hears int3 this way, and the test runner hears an oops
 * or a panic in the middle of a test run the same way.
 *
 * Our chains are all "atomic" ones in Linux's sense: they may be called
 * with interrupts off (inside an exception), so a callback must not
 * sleep.  Calling takes no lock (an exception may come in the middle of
 * anything); registering and unregistering take the chain's spinlock,
 * so two CPUs changing one chain do not lose a link.  Linux then waits
 * for an RCU grace period before an unregistered block may be freed;
 * here the blocks are static and never freed.
 */
#ifndef NOTIFIER_H
#define NOTIFIER_H

#include "spinlock.h"

/* What a callback returns. */
#define NOTIFY_DONE       0x0000   /* not mine, keep asking */
#define NOTIFY_OK         0x0001
#define NOTIFY_STOP_MASK  0x8000
#define NOTIFY_STOP       (NOTIFY_OK | NOTIFY_STOP_MASK)  /* handled: stop */

struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long val, void *data);
	struct notifier_block *next;
	int priority;   /* higher runs first; among equals, the earlier one */
};

struct atomic_notifier_head {
	spinlock_t lock;	/* writers only */
	struct notifier_block *head;
};

#define ATOMIC_NOTIFIER_HEAD(name)	\
	struct atomic_notifier_head name = { .lock = __SPIN_LOCK_UNLOCKED(name.lock), .head = NULL }

int atomic_notifier_chain_register(struct atomic_notifier_head *nh,
				   struct notifier_block *nb);
int atomic_notifier_chain_unregister(struct atomic_notifier_head *nh,
				     struct notifier_block *nb);
int atomic_notifier_call_chain(struct atomic_notifier_head *nh,
			       unsigned long val, void *data);

/*
 * Called by panic() with the formatted message as data, after the
 * message and the backtrace are printed, just before the machine stops.
 */
extern struct atomic_notifier_head panic_notifier_list;

#endif
