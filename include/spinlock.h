/*
 * spinlock.h - ticket spinlocks, as Linux x86 used from 2.6.25 to 4.2,
 * with a cheap version of Linux's CONFIG_DEBUG_SPINLOCK always on.
 *
 * A lock is two counters: "next" (the next ticket to hand out) and
 * "owner" (the ticket being served).  spin_lock() takes a ticket with
 * one locked xadd and spins until owner reaches it; spin_unlock() hands
 * the lock to the next ticket.  CPUs get the lock in the order they
 * asked for it, so none can starve (the 2.6.11 lock, a plain test-and-
 * set byte, let the CPU that last held the line win again and again).
 *
 * A spinlock taken from both threads and interrupt handlers must be
 * taken with interrupts off (spin_lock_irqsave()): otherwise a handler
 * on the same CPU spins forever on a lock its own thread holds.
 *
 * The debug checks (kernel/spinlock_debug.c prints the reports, each
 * with a backtrace) turn the silent hangs of locking bugs into messages:
 *   - recursion: this CPU takes a lock it already holds.  Spinning would
 *     never end, so the report is printed and the nested take is only
 *     counted (lock->recursion); the matching unlock undoes the count.
 *   - a bad unlock: of a lock nobody holds (ignored after the report),
 *     or by a CPU that is not the owner (released after the report, so
 *     that no CPU waits forever).
 *   - a lockup: a waiter that spun SPIN_DUMP_LOOPS times names the lock
 *     and the CPU holding it, once, and keeps spinning.
 *   - sleeping with a lock held: each thread counts the spinlocks it
 *     holds (task->spinlocks_held); schedule() reports a non-zero count.
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include "kernel.h"
#include <asm/atomic.h>
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "sched.h"
#include "smp.h"

typedef struct spinlock {
	volatile uint16_t owner;	/* ticket now being served */
	volatile uint16_t next;		/* next ticket to hand out */
	int owner_cpu;			/* -1 when free (for reports) */
	int recursion;			/* nested takes by the owner CPU (a bug, reported) */
	const char *name;
} spinlock_t;

#define SPIN_NO_OWNER	(-1)

/*
 * Spins before a waiter reports a lockup.  Under QEMU's multi-threaded
 * TCG a pause loop turns a few million times a second, so this is about
 * a second (Linux waits one second too): far longer than any lock here
 * is held.
 */
#define SPIN_DUMP_LOOPS	(1UL << 22)

#define __SPIN_LOCK_UNLOCKED(n)	\
	{ .owner = 0, .next = 0, .owner_cpu = SPIN_NO_OWNER, .recursion = 0, .name = #n }
#define DEFINE_SPINLOCK(n)	spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

static inline void __spin_lock_init(spinlock_t *lock, const char *name)
{
	lock->owner = 0;
	lock->next = 0;
	lock->owner_cpu = SPIN_NO_OWNER;
	lock->recursion = 0;
	lock->name = name;
}
/* As in Linux, the lock's name in reports is the expression given. */
#define spin_lock_init(lock)	__spin_lock_init((lock), #lock)

/* The reports (kernel/spinlock_debug.c), and how many were printed. */
void spin_bug(spinlock_t *lock, const char *msg);
void spin_dump_lockup(spinlock_t *lock);
extern atomic_t spin_bugs_reported;

/*
 * The ticket operations themselves - a locked xadd, an increment only
 * the holder does - are x86's: <asm/spinlock.h> (arch_spin_lock(),
 * arch_spin_trylock(), arch_spin_unlock(), Linux's names), included
 * here, below the type and the reports they use, as Linux's
 * <linux/spinlock.h> includes its arch half.
 */
#include <asm/spinlock.h>

static inline bool spin_is_locked(spinlock_t *lock)
{
	return READ_ONCE(lock->owner) != READ_ONCE(lock->next);
}

/* The bookkeeping once this CPU holds the lock. */
static inline void spin_acquired(spinlock_t *lock)
{
	lock->owner_cpu = smp_processor_id();
	this_cpu_read(current_task)->spinlocks_held++;
}

static inline void spin_lock(spinlock_t *lock)
{
	preempt_disable();	/* never switch away while others spin on us */
	if (READ_ONCE(lock->owner_cpu) == smp_processor_id()) {
		spin_bug(lock, "recursion");
		lock->recursion++;
		this_cpu_read(current_task)->spinlocks_held++;
		return;
	}
	arch_spin_lock(lock);
	spin_acquired(lock);
}

/* 1 and the lock held, or 0 and nothing changed. */
static inline int spin_trylock(spinlock_t *lock)
{
	preempt_disable();
	if (READ_ONCE(lock->owner_cpu) != smp_processor_id() &&
	    arch_spin_trylock(lock)) {
		spin_acquired(lock);
		return 1;
	}
	preempt_enable();
	return 0;
}

static inline void spin_unlock(spinlock_t *lock)
{
	int owner_cpu = READ_ONCE(lock->owner_cpu);

	if (owner_cpu == SPIN_NO_OWNER) {
		spin_bug(lock, "already unlocked");
		return;		/* owner++ would break the tickets */
	}
	if (owner_cpu != smp_processor_id()) {
		/*
		 * Not ours: a holder cannot move to another CPU (preemption is
		 * off), so this thread never took it.  Release it, so that no
		 * CPU waits forever, and leave our counts alone.
		 */
		spin_bug(lock, "wrong CPU");
		lock->recursion = 0;
		lock->owner_cpu = SPIN_NO_OWNER;
		arch_spin_unlock(lock);
		return;
	}
	this_cpu_read(current_task)->spinlocks_held--;
	if (lock->recursion) {
		lock->recursion--;	/* the nested take reported in spin_lock() */
	} else {
		lock->owner_cpu = SPIN_NO_OWNER;
		arch_spin_unlock(lock);
	}
	preempt_enable();
}

#define spin_lock_irqsave(lock, flags) do {	\
	(flags) = local_irq_save();		\
	spin_lock(lock);			\
} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock(lock);
	local_irq_restore(flags);
}

static inline void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable();
	spin_lock(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	spin_unlock(lock);
	local_irq_enable();
}

#endif
