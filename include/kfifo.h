/*
 * kfifo.h - a FIFO of bytes in a ring buffer, after Linux's kfifo.
 *
 * The keyboard's IRQ handler queues the keys it decodes, the COM1 IRQ
 * handler the bytes the UART received; the console reads both.  One
 * writer, one reader: `in` moves only in kfifo_put(), `out` only in
 * kfifo_get().  Both count forever and wrap at 2^32; in - out is how many
 * bytes are queued, and with a power-of-two size `index & mask` finds
 * the slot even across the wrap.  So every slot is usable, and full
 * (in - out == size) differs from empty (in == out) without a flag.
 * A full fifo refuses the byte: the newest key is lost, as a UART
 * overruns, never the oldest.
 *
 * Callers that can be interrupted by the other side (the reader, by the
 * IRQ that writes) keep interrupts off around the call.
 */
#ifndef KFIFO_H
#define KFIFO_H

#include <stdbool.h>
#include "kernel.h"

struct kfifo {
	unsigned char *data;
	unsigned int mask;		/* size - 1 */
	unsigned int in;		/* bytes ever put */
	unsigned int out;		/* bytes ever taken */
};

/* A fifo `name` of `size` bytes (a power of two), empty. */
#define DEFINE_KFIFO(name, size)						\
	_Static_assert((size) > 0 && ((size) & ((size) - 1)) == 0,		\
		       #name ": a kfifo's size must be a power of two");	\
	static unsigned char name##_data[size];					\
	static struct kfifo name = { .data = name##_data, .mask = (size) - 1 }

/* Bytes queued. */
static inline unsigned int kfifo_len(const struct kfifo *f)
{
	return READ_ONCE(f->in) - READ_ONCE(f->out);
}

/* Queue c: 1, or 0 if the fifo is full (c is dropped). */
unsigned int kfifo_put(struct kfifo *f, unsigned char c);
/* The oldest byte into *c: 1, or 0 if the fifo is empty. */
unsigned int kfifo_get(struct kfifo *f, unsigned char *c);

/*
 * Linux's kfifo_out_spinlocked(): one byte out under the fifo's lock,
 * interrupts off, for a reader that shares the fifo with an interrupt
 * handler's writer.  A macro, so that the host build of lib/kfifo.c
 * never needs spinlock.h.
 */
#define kfifo_get_spinlocked(fifo, c, lock) ({				\
	unsigned long __flags;						\
	unsigned int __n;						\
	spin_lock_irqsave(lock, __flags);				\
	__n = kfifo_get(fifo, c);					\
	spin_unlock_irqrestore(lock, __flags);				\
	__n;								\
})

#endif
