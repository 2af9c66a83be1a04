/*
 * spinlock.h - ticket spinlocks, as Linux x86 used from 2.6.25 to 4.2.
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
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include "kernel.h"
#include "irqflags.h"
#include "processor.h"
#include "sched.h"
#include "smp.h"

typedef struct spinlock {
	volatile uint16_t owner;	/* ticket now being served */
	volatile uint16_t next;		/* next ticket to hand out */
	int owner_cpu;			/* -1 when free (for reports) */
	const char *name;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(n)	{ .owner = 0, .next = 0, .owner_cpu = -1, .name = #n }
#define DEFINE_SPINLOCK(n)	spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->owner = 0;
	lock->next = 0;
	lock->owner_cpu = -1;
	lock->name = "spinlock";
}

static inline void arch_spin_lock(spinlock_t *lock)
{
	uint16_t ticket = 1;

	/* Take a ticket: next++, and learn what it was, in one locked op. */
	__asm__ __volatile__("lock xaddw %0, %1"
			     : "+r" (ticket), "+m" (lock->next) :: "memory");
	while (READ_ONCE(lock->owner) != ticket)
		cpu_relax();	/* "pause": kinder to the other hyperthread */
	barrier();
}

static inline void arch_spin_unlock(spinlock_t *lock)
{
	barrier();	/* every store inside stays before the hand-over */
	/* Only the holder writes owner, so a plain add is enough. */
	WRITE_ONCE(lock->owner, (uint16_t)(lock->owner + 1));
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return READ_ONCE(lock->owner) != READ_ONCE(lock->next);
}

static inline void spin_lock(spinlock_t *lock)
{
	preempt_disable();	/* never switch away while others spin on us */
	arch_spin_lock(lock);
	lock->owner_cpu = smp_processor_id();
}

static inline void spin_unlock(spinlock_t *lock)
{
	lock->owner_cpu = -1;
	arch_spin_unlock(lock);
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
