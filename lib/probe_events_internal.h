/*
 * probe_events_internal.h - what lib/probe_events_parse.c (one line) and
 * lib/fetch_args.c (one FETCHARG) share.  Not a public header: the kernel
 * and the tests use include/probe_events.h.
 */
#ifndef PROBE_EVENTS_INTERNAL_H
#define PROBE_EVENTS_INTERNAL_H

#include "probe_events.h"

/*
 * Every number in a kprobe_events line is an i386 address, offset or
 * immediate, so 32 bits on the host too: the unit tests then accept and
 * reject exactly what the kernel does.
 */
#define PROBE_NUMBER_MAX 0xffffffffUL

/* Strict unsigned number, base from the prefix as kstrtoul(s, 0):
 * "0x1f" hex, "017" octal, "15" decimal.  False on junk, on an empty
 * string and above PROBE_NUMBER_MAX. */
bool probe_parse_number(const char *s, size_t len, unsigned long *val);

/* Same, base 10 only ($stackN, $argN). */
bool probe_parse_decimal(const char *s, size_t len, unsigned long *val);

/* C identifier: [A-Za-z_][A-Za-z0-9_]*, non-empty. */
bool probe_is_identifier(const char *s, size_t len);

static inline bool probe_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool probe_is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Store an error and return -EINVAL, the parser's only failure value. */
int probe_fail(struct probe_parse_error *err, enum probe_err code, int pos);

/*
 * Output that appends at *len and keeps counting past the end of buf,
 * so every printer here returns what snprintf would: the full length.
 * probe_tail() is where the next output goes (NULL, room 0 when full).
 */
void probe_put(char *buf, size_t size, int *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void probe_put_char(char *buf, size_t size, int *len, char c);
char *probe_tail(char *buf, size_t size, int len, size_t *room);

/* What an argument may use, decided by the probe it belongs to. */
struct fetch_arg_ctx {
	bool is_return;        /* $retval allowed */
	bool at_entry;         /* $argN allowed: a 'p' probe at SYM+0 */
	const struct probe_parse_ops *ops;   /* @SYM resolution; may be NULL */
};

/*
 * Parse one FETCHARG, "[NAME=]EXPR[:TYPE]", that starts at byte `pos` of
 * the line.  Fills *arg except the default name (the caller numbers
 * arguments and checks names for duplicates).  Returns 0 or -EINVAL.
 */
int fetch_arg_parse(const char *text, size_t len, int pos,
		    const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		    struct probe_parse_error *err);

#endif
