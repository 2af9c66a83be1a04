/*
 * seq_buf.h - a buffer that printing functions append to, with Linux's
 * names and results (include/linux/seq_buf.h, lib/seq_buf.c).
 *
 * The show() callback of a tracefs or debugfs file prints into one
 * (fs/pseudofs.c); so do the shell's commands.  Either the caller owns
 * a buffer and reads the text back (tests, read(2)), or, with `flush`
 * set, the buffer is a small window that is handed to flush() whenever
 * it fills or a line ends (cat streams to the console that way, so a
 * long trace needs no big allocation).
 *
 * Every append returns 0, or -1 when the text did not fit: the buffer
 * then holds what fit and seq_buf_has_overflowed() says so until the
 * next seq_buf_init()/seq_buf_clear().  A streaming buffer never
 * overflows.  Two differences from Linux, both for a reader of the
 * text: it is always NUL-terminated (so size counts the NUL), and
 * overflow is a flag rather than Linux's len > size, so len is always
 * the length of the text held.
 */
#ifndef SEQ_BUF_H
#define SEQ_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>

struct seq_buf {
	char *buffer;
	size_t size;		/* bytes in buffer, room for the NUL included */
	size_t len;		/* bytes of text, without the NUL */
	bool overflow;		/* something did not fit (never with flush) */
	void (*flush)(const char *text, size_t len);	/* NULL: a fixed buffer */
};

/* A fixed buffer of size bytes (size >= 1), empty. */
void seq_buf_init(struct seq_buf *s, char *buf, size_t size);

static inline void seq_buf_clear(struct seq_buf *s)
{
	s->len = 0;
	s->overflow = false;
	if (s->size)
		s->buffer[0] = '\0';
}

static inline bool seq_buf_has_overflowed(const struct seq_buf *s)
{
	return s->overflow;
}

/* Bytes of text held. */
static inline size_t seq_buf_used(const struct seq_buf *s)
{
	return s->len;
}

/* Bytes of text that still fit before the buffer is full. */
static inline size_t seq_buf_buffer_left(const struct seq_buf *s)
{
	return s->size ? s->size - 1 - s->len : 0;
}

int seq_buf_printf(struct seq_buf *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int seq_buf_vprintf(struct seq_buf *s, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
int seq_buf_puts(struct seq_buf *s, const char *str);
int seq_buf_putc(struct seq_buf *s, unsigned char c);
int seq_buf_putmem(struct seq_buf *s, const void *mem, size_t len);

/* A streaming buffer: hand what it holds to flush() and empty it. */
void seq_buf_flush(struct seq_buf *s);

#endif
