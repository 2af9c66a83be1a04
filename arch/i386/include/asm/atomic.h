/*
 * atomic.h - integers that several CPUs may change at once.
 *
 * "incl (mem)" is a read, an add and a write: two CPUs doing it to the
 * same word can both read the old value and one increment is lost.  The
 * LOCK prefix makes the read-modify-write one indivisible bus/cache
 * operation (SDM vol. 3, 9.1.2).  On one CPU, interrupts cannot split a
 * single instruction, so the prefix only matters once there are two.
 */
#ifndef ATOMIC_H
#define ATOMIC_H

#include "kernel.h"

typedef struct { volatile int counter; } atomic_t;

#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v) { return READ_ONCE(v->counter); }
static inline void atomic_set(atomic_t *v, int i) { WRITE_ONCE(v->counter, i); }

static inline void atomic_add(int i, atomic_t *v)
{
	__asm__ __volatile__("lock addl %1, %0" : "+m" (v->counter) : "ir" (i) : "memory");
}

static inline void atomic_sub(int i, atomic_t *v)
{
	__asm__ __volatile__("lock subl %1, %0" : "+m" (v->counter) : "ir" (i) : "memory");
}

static inline void atomic_inc(atomic_t *v) { atomic_add(1, v); }
static inline void atomic_dec(atomic_t *v) { atomic_sub(1, v); }

/* A long that several CPUs change at once (Linux's atomic_long_t). */
typedef struct { volatile long counter; } atomic_long_t;

static inline void atomic_long_inc(atomic_long_t *v)
{
	__asm__ __volatile__("lock incl %0" : "+m" (v->counter) :: "memory");
}

/* xadd: add, and hand back the value from before the add. */
static inline int atomic_fetch_add(int i, atomic_t *v)
{
	__asm__ __volatile__("lock xaddl %0, %1"
			     : "+r" (i), "+m" (v->counter) :: "memory");
	return i;
}

static inline int atomic_add_return(int i, atomic_t *v) { return atomic_fetch_add(i, v) + i; }
static inline int atomic_inc_return(atomic_t *v) { return atomic_add_return(1, v); }
static inline bool atomic_dec_and_test(atomic_t *v) { return atomic_add_return(-1, v) == 0; }

/* Store new if *ptr still holds old; return what *ptr held. */
static inline unsigned long cmpxchg(volatile unsigned long *ptr,
				    unsigned long old, unsigned long new)
{
	unsigned long prev;

	__asm__ __volatile__("lock cmpxchgl %2, %1"
			     : "=a" (prev), "+m" (*ptr)
			     : "r" (new), "0" (old) : "memory");
	return prev;
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	return (int)cmpxchg((volatile unsigned long *)&v->counter,
			    (unsigned long)old, (unsigned long)new);
}

/* xchg with a memory operand is always locked, prefix or not. */
static inline unsigned long xchg(volatile unsigned long *ptr, unsigned long v)
{
	__asm__ __volatile__("xchgl %0, %1" : "+r" (v), "+m" (*ptr) :: "memory");
	return v;
}

/* A full barrier: i386 orders stores after loads only with a locked op. */
static inline void smp_mb(void)
{
	__asm__ __volatile__("lock addl $0, (%%esp)" ::: "memory", "cc");
}

#endif
