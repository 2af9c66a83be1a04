/*
 * kfifo.c - the byte FIFO of include/kfifo.h (Linux's kfifo, for bytes).
 *
 * The order of the two steps is what lets one writer and one reader run
 * without a lock: the writer stores the byte, then publishes it by
 * moving `in`; the reader takes the byte, then frees the slot by moving
 * `out`.  barrier() keeps the compiler from swapping the steps; i386
 * itself never reorders two stores, nor a load with a later store.
 */
#include "kfifo.h"

unsigned int kfifo_put(struct kfifo *f, unsigned char c)
{
	unsigned int in = f->in;

	if (in - READ_ONCE(f->out) > f->mask)
		return 0;			/* full: size bytes queued */
	f->data[in & f->mask] = c;
	barrier();				/* the byte before the index */
	WRITE_ONCE(f->in, in + 1);
	return 1;
}

unsigned int kfifo_get(struct kfifo *f, unsigned char *c)
{
	unsigned int out = f->out;

	if (READ_ONCE(f->in) == out)
		return 0;			/* empty */
	*c = f->data[out & f->mask];
	barrier();				/* the byte before the slot is freed */
	WRITE_ONCE(f->out, out + 1);
	return 1;
}
