/*
 * test_kfifo.c - host unit tests for lib/kfifo.c, the ring buffer behind
 * the keyboard's and the serial console's input.
 */
#include "ktest_host.h"
#include "kfifo.h"

DEFINE_KFIFO(fifo8, 8);

static void drain(struct kfifo *f)
{
	unsigned char c;

	while (kfifo_get(f, &c))
		;
}

/* First in, first out; empty says so and leaves *c alone. */
static void fifo_order_and_empty(struct ktest *t)
{
	unsigned char c = 'x';

	drain(&fifo8);
	KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 0);
	KTEST_EXPECT_EQ(t, c, 'x');
	KTEST_EXPECT_EQ(t, kfifo_put(&fifo8, 'a'), 1);
	KTEST_EXPECT_EQ(t, kfifo_put(&fifo8, 'b'), 1);
	KTEST_EXPECT_EQ(t, kfifo_len(&fifo8), 2);
	KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 1);
	KTEST_EXPECT_EQ(t, c, 'a');
	KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 1);
	KTEST_EXPECT_EQ(t, c, 'b');
	KTEST_EXPECT_EQ(t, kfifo_len(&fifo8), 0);
	KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 0);
}

/* All eight slots hold a byte; the ninth is refused and the oldest kept. */
static void full_fifo_drops_the_newest(struct ktest *t)
{
	unsigned char c;

	drain(&fifo8);
	for (int i = 0; i < 8; i++)
		KTEST_EXPECT_EQ(t, kfifo_put(&fifo8, '0' + i), 1);
	KTEST_EXPECT_EQ(t, kfifo_len(&fifo8), 8);
	KTEST_EXPECT_EQ(t, kfifo_put(&fifo8, 'z'), 0);
	KTEST_EXPECT_EQ(t, kfifo_len(&fifo8), 8);
	for (int i = 0; i < 8; i++) {
		KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 1);
		KTEST_EXPECT_EQ(t, c, '0' + i);
	}
	KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 0);
}

/* The indexes wrap at 2^32: the fifo works the same across the wrap. */
static void indexes_wrap_around(struct ktest *t)
{
	unsigned char c;

	drain(&fifo8);
	fifo8.in = fifo8.out = 0xfffffffdu;	/* three puts from the wrap */
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < 5; i++)
			KTEST_EXPECT_EQ(t, kfifo_put(&fifo8, 'a' + round + i), 1);
		KTEST_EXPECT_EQ(t, kfifo_len(&fifo8), 5);
		for (int i = 0; i < 5; i++) {
			KTEST_EXPECT_EQ(t, kfifo_get(&fifo8, &c), 1);
			KTEST_EXPECT_EQ(t, c, 'a' + round + i);
		}
	}
	KTEST_EXPECT_EQ(t, kfifo_len(&fifo8), 0);
	for (int i = 0; i < 8; i++)
		kfifo_put(&fifo8, i);
	KTEST_EXPECT_EQ(t, kfifo_put(&fifo8, 9), 0);	/* full across the wrap too */
}

/* Many times round the ring, the reader always just behind the writer. */
static void long_stream_keeps_order(struct ktest *t)
{
	unsigned char c;
	int bad = 0;

	drain(&fifo8);
	for (int i = 0; i < 1000; i++) {
		kfifo_put(&fifo8, (unsigned char)i);
		kfifo_put(&fifo8, (unsigned char)(i + 128));
		if (!kfifo_get(&fifo8, &c) || c != (unsigned char)i)
			bad++;
		if (!kfifo_get(&fifo8, &c) || c != (unsigned char)(i + 128))
			bad++;
	}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static struct ktest_case cases[] = {
	KTEST_CASE(fifo_order_and_empty),
	KTEST_CASE(full_fifo_drops_the_newest),
	KTEST_CASE(indexes_wrap_around),
	KTEST_CASE(long_stream_keeps_order),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
