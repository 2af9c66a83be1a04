/*
 * test_seq_buf.c - host unit tests for lib/seq_buf.c, the buffer every
 * tracefs/debugfs show() callback and shell command prints into.
 */
#include "ktest_host.h"
#include "seq_buf.h"
#include "string.h"

/* Appends land in order, NUL-terminated, and report 0. */
static void appends_in_order(struct ktest *t)
{
	char buf[32];
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, seq_buf_used(&s), 0);
	KTEST_EXPECT_STREQ(t, buf, "");
	KTEST_EXPECT_EQ(t, seq_buf_puts(&s, "ab"), 0);
	KTEST_EXPECT_EQ(t, seq_buf_putc(&s, 'c'), 0);
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, " %d-%s", 42, "x"), 0);
	KTEST_EXPECT_EQ(t, seq_buf_putmem(&s, "yz", 2), 0);
	KTEST_EXPECT_STREQ(t, buf, "abc 42-xyz");
	KTEST_EXPECT_EQ(t, seq_buf_used(&s), 10);
	KTEST_EXPECT_EQ(t, seq_buf_buffer_left(&s), sizeof(buf) - 1 - 10);
	KTEST_EXPECT_FALSE(t, seq_buf_has_overflowed(&s));
}

/* Text that does not fit: -1, what fits is kept, the overflow sticks. */
static void overflow_keeps_what_fits(struct ktest *t)
{
	char buf[8];
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, "%s", "123456789"), -1);
	KTEST_EXPECT_TRUE(t, seq_buf_has_overflowed(&s));
	KTEST_EXPECT_STREQ(t, buf, "1234567");
	KTEST_EXPECT_EQ(t, seq_buf_used(&s), 7);
	KTEST_EXPECT_EQ(t, seq_buf_buffer_left(&s), 0);
	KTEST_EXPECT_EQ(t, seq_buf_putc(&s, 'x'), -1);
	KTEST_EXPECT_STREQ(t, buf, "1234567");

	seq_buf_init(&s, buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, seq_buf_puts(&s, "abcdefghij"), -1);
	KTEST_EXPECT_STREQ(t, buf, "abcdefg");
	KTEST_EXPECT_TRUE(t, seq_buf_has_overflowed(&s));
}

/* Exactly full is not an overflow; one byte more is. */
static void exactly_full_is_not_overflow(struct ktest *t)
{
	char buf[4];
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, seq_buf_puts(&s, "abc"), 0);
	KTEST_EXPECT_FALSE(t, seq_buf_has_overflowed(&s));
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, "%s", ""), 0);
	KTEST_EXPECT_FALSE(t, seq_buf_has_overflowed(&s));
	KTEST_EXPECT_EQ(t, seq_buf_putc(&s, 'd'), -1);
	KTEST_EXPECT_TRUE(t, seq_buf_has_overflowed(&s));
}

/* seq_buf_clear() empties the text and forgets the overflow. */
static void clear_starts_again(struct ktest *t)
{
	char buf[4];
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	seq_buf_puts(&s, "too long");
	seq_buf_clear(&s);
	KTEST_EXPECT_FALSE(t, seq_buf_has_overflowed(&s));
	KTEST_EXPECT_EQ(t, seq_buf_used(&s), 0);
	KTEST_EXPECT_STREQ(t, buf, "");
	KTEST_EXPECT_EQ(t, seq_buf_puts(&s, "ok"), 0);
	KTEST_EXPECT_STREQ(t, buf, "ok");
}

/* ---- streaming: a small window handed to flush() -------------------- */

static char flushed[256];
static size_t flushed_len;
static int flush_calls;

static void collect(const char *text, size_t len)
{
	memcpy(flushed + flushed_len, text, len);
	flushed_len += len;
	flushed[flushed_len] = '\0';
	flush_calls++;
}

static void stream_init(struct seq_buf *s, char *buf, size_t size)
{
	flushed_len = 0;
	flushed[0] = '\0';
	flush_calls = 0;
	seq_buf_init(s, buf, size);
	s->flush = collect;
}

/* A line goes out when it ends; a partial line waits for seq_buf_flush(). */
static void stream_flushes_each_line(struct ktest *t)
{
	char buf[16];
	struct seq_buf s;

	stream_init(&s, buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, seq_buf_puts(&s, "one\n"), 0);
	KTEST_EXPECT_STREQ(t, flushed, "one\n");
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, "two"), 0);
	KTEST_EXPECT_STREQ(t, flushed, "one\n");
	seq_buf_flush(&s);
	KTEST_EXPECT_STREQ(t, flushed, "one\ntwo");
	KTEST_EXPECT_EQ(t, seq_buf_used(&s), 0);
	seq_buf_flush(&s);		/* nothing held: flush() is not called */
	KTEST_EXPECT_EQ(t, flush_calls, 2);
}

/* Text longer than the window streams through it whole, never overflows. */
static void stream_never_overflows(struct ktest *t)
{
	char buf[8];
	struct seq_buf s;

	stream_init(&s, buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, seq_buf_puts(&s, "abcdefghijklmnop"), 0);
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, "[%s]", "a printf piece longer than 8"), 0);
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, "%d", 12345), 0);
	seq_buf_flush(&s);
	KTEST_EXPECT_STREQ(t, flushed, "abcdefghijklmnop[a printf piece longer than 8]12345");
	KTEST_EXPECT_FALSE(t, seq_buf_has_overflowed(&s));
}

/* A printf piece that fits a window but not the room left is not cut:
 * what was before goes out, the piece is formatted again whole. */
static void stream_keeps_a_piece_whole(struct ktest *t)
{
	char buf[8];
	struct seq_buf s;

	stream_init(&s, buf, sizeof(buf));
	seq_buf_puts(&s, "abcd");
	KTEST_EXPECT_EQ(t, seq_buf_printf(&s, "%s", "12345"), 0);
	KTEST_EXPECT_STREQ(t, flushed, "abcd");
	KTEST_EXPECT_STREQ(t, buf, "12345");
}

static struct ktest_case cases[] = {
	KTEST_CASE(appends_in_order),
	KTEST_CASE(overflow_keeps_what_fits),
	KTEST_CASE(exactly_full_is_not_overflow),
	KTEST_CASE(clear_starts_again),
	KTEST_CASE(stream_flushes_each_line),
	KTEST_CASE(stream_never_overflows),
	KTEST_CASE(stream_keeps_a_piece_whole),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
