/*
 * asm/spinlock.h - the x86 half of the ticket spinlock: taking a
 * ticket with one locked xadd, handing the lock on with an increment.
 * Included by include/spinlock.h (the type, the debug checks, the
 * irqsave variants), never on its own, as Linux's
 * arch/x86/include/asm/spinlock.h is reached through <linux/spinlock.h>.
 */
#ifndef ASM_SPINLOCK_H
#define ASM_SPINLOCK_H

#include <asm/atomic.h>
#include <asm/processor.h>

static inline void arch_spin_lock(spinlock_t *lock)
{
	/* LAB 6: BEGIN arch_spin_lock: take a ticket, wait for its turn */
	uint16_t ticket = 1;
	unsigned long loops = 0;

	/* Take a ticket: next++, and learn what it was, in one locked op. */
	__asm__ __volatile__("lock xaddw %0, %1"
			     : "+r" (ticket), "+m" (lock->next) :: "memory");
	while (READ_ONCE(lock->owner) != ticket) {
		cpu_relax();	/* "pause": kinder to the other hyperthread */
		if (++loops == SPIN_DUMP_LOOPS)
			spin_dump_lockup(lock);	/* once; then wait on */
	}
	barrier();
	/* LAB 6: STUB while (READ_ONCE(lock->owner) != READ_ONCE(lock->next)) */
	/* LAB 6: STUB 	cpu_relax(); */
	/* LAB 6: STUB lock->next++; */
	/* LAB 6: STUB barrier(); */
	/* LAB 6: LATER // Until lab 6, a test-and-set lock: take it when free (next == owner) */
	/* LAB 6: LATER // with one locked cmpxchg of both tickets.  Correct, but not fair. */
	/* LAB 6: LATER for (;;) { */
	/* LAB 6: LATER 	uint16_t owner = READ_ONCE(lock->owner); */
	/* LAB 6: LATER 	uint32_t free = ((uint32_t)owner << 16) | owner; */
	/* LAB 6: LATER 	if (cmpxchg((volatile unsigned long *)lock, free, free + (1u << 16)) == free) */
	/* LAB 6: LATER 		break; */
	/* LAB 6: LATER 	cpu_relax(); */
	/* LAB 6: LATER } */
	/* LAB 6: END */
}

static inline bool arch_spin_trylock(spinlock_t *lock)
{
	uint16_t owner = READ_ONCE(lock->owner);
	/* Free when next == owner: take ticket "owner" by bumping next. */
	uint32_t old = ((uint32_t)owner << 16) | owner;	/* next:owner, both free */
	uint32_t new = old + (1u << 16);

	return cmpxchg((volatile unsigned long *)lock, old, new) == old;
}

static inline void arch_spin_unlock(spinlock_t *lock)
{
	/*
	 * Only the holder writes owner, so an unlocked increment is enough
	 * (x86 keeps it after every store inside); "memory" keeps the
	 * compiler from moving them past it either.
	 */
	__asm__ __volatile__("incw %0" : "+m" (lock->owner) :: "memory");
}

#endif
