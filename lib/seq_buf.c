/*
 * seq_buf.c - appending text to a buffer, fixed or streaming
 * (include/seq_buf.h; Linux's lib/seq_buf.c).
 *
 * Freestanding, like the rest of lib/: built into the kernel and, with
 * HOST_BUILD, into the host unit test tests/host/test_seq_buf.c.
 */
#include <stdarg.h>
#include "seq_buf.h"
#include "string.h"
#include "vsprintf.h"

/* The one allocation (a piece longer than a whole streaming window). */
#ifdef HOST_BUILD
#include <stdlib.h>
#define kmalloc malloc
#define kfree   free
#else
#include "mm.h"
#endif

void seq_buf_init(struct seq_buf *s, char *buf, size_t size)
{
	s->buffer = buf;
	s->size = size;
	s->flush = NULL;
	seq_buf_clear(s);
}

void seq_buf_flush(struct seq_buf *s)
{
	if (!s->flush)
		return;
	if (s->len)
		s->flush(s->buffer, s->len);
	s->len = 0;
}

/* A streaming buffer goes out line by line, so a slow command (a
 * workload) shows its progress as it goes. */
static void flush_lines(struct seq_buf *s)
{
	if (s->flush && s->len && s->buffer[s->len - 1] == '\n')
		seq_buf_flush(s);
}

/* Append len bytes: a stream flushes when full, a fixed buffer keeps
 * what fits and records the overflow. */
static int append(struct seq_buf *s, const char *p, size_t len)
{
	while (len) {
		size_t room = seq_buf_buffer_left(s);

		if (room == 0) {
			if (!s->flush) {
				s->overflow = true;
				return -1;
			}
			seq_buf_flush(s);
			continue;
		}
		if (room > len)
			room = len;
		memcpy(s->buffer + s->len, p, room);
		s->len += room;
		s->buffer[s->len] = '\0';
		p += room;
		len -= room;
	}
	return 0;
}

int seq_buf_putmem(struct seq_buf *s, const void *mem, size_t len)
{
	int ret = append(s, mem, len);

	flush_lines(s);
	return ret;
}

int seq_buf_puts(struct seq_buf *s, const char *str)
{
	return seq_buf_putmem(s, str, strlen(str));
}

int seq_buf_putc(struct seq_buf *s, unsigned char c)
{
	return seq_buf_putmem(s, &c, 1);
}

/*
 * A piece that did not fit a stream's window: send what was before it
 * and format it again into the emptied window, or, longer than the
 * whole window (an echo of a long line through the console's), into a
 * buffer of its own - so a stream never cuts a piece.
 */
static int vprintf_stream(struct seq_buf *s, int n, const char *fmt, va_list ap)
{
	char *big;
	int ret;

	s->buffer[s->len] = '\0';	/* undo the cut piece */
	if ((size_t)n < s->size) {
		seq_buf_flush(s);
		s->len = vsnprintf(s->buffer, s->size, fmt, ap);
		return 0;
	}
	big = kmalloc(n + 1);
	if (!big) {
		s->overflow = true;
		return -1;
	}
	vsnprintf(big, n + 1, fmt, ap);
	ret = append(s, big, n);
	kfree(big);
	return ret;
}

/*
 * Format straight into the room left.  A fixed buffer keeps what fits
 * and says overflow, as Linux's seq_buf does; a stream keeps pieces
 * whole (vprintf_stream()).
 */
int seq_buf_vprintf(struct seq_buf *s, const char *fmt, va_list ap)
{
	size_t room = s->size - s->len;	/* the NUL included */
	va_list again;
	int ret = 0;
	int n;

	va_copy(again, ap);
	n = vsnprintf(s->buffer + s->len, room, fmt, ap);
	if ((size_t)n < room) {
		s->len += n;
	} else if (!s->flush) {
		s->len = s->size - 1;
		s->overflow = true;
		ret = -1;
	} else {
		ret = vprintf_stream(s, n, fmt, again);
	}
	va_end(again);
	flush_lines(s);
	return ret;
}

int seq_buf_printf(struct seq_buf *s, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = seq_buf_vprintf(s, fmt, ap);
	va_end(ap);
	return ret;
}
