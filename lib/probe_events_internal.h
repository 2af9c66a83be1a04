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

/* A :TYPE: its name, its size in bytes and how it prints. */
struct fetch_type_info {
	const char *name;
	uint8_t size;         /* bytes; 0 for the strings */
	char style;           /* 'u' 's' 'x' numbers, 'S' string, 'y' symbol, 'c' char */
};
/* Indexed by enum fetch_type (lib/fetch_args.c). */
extern const struct fetch_type_info fetch_types[];
bool fetch_type_valid(int type);
/* :string, :ustring and :symstr: bytes after the values, not a number. */
bool fetch_type_is_string(int type);

/*
 * What an argument may use, decided by the probe it belongs to (Linux's
 * TPARG_FL_* flags).  An error found only when the line is complete -
 * an unknown @SYM, which Linux finds when it registers the probe - is
 * kept in *deferred (the first one) and the parse goes on.
 */
struct fetch_arg_ctx {
	bool is_return;        /* $retval allowed (TPARG_FL_RETURN) */
	bool at_entry;         /* $argN allowed: a 'p' probe at a function entry */
	bool uprobe;           /* @+OFFS allowed, @SYM and the kernel's limits not */
	bool tpoint;           /* an event probe: $NAME is a field (TPARG_FL_TPOINT) */
	bool fprobe;           /* no %REG (Linux's TPARG_FL_FPROBE) */
	const struct probe_parse_ops *ops;   /* @SYM resolution; may be NULL */
	const struct probe_event_def *def;   /* the arguments before this one */
	struct probe_parse_error *deferred;  /* code NONE until something fails late */
	int probe_pos;         /* where a late error points: the probe point */
};

/* Record a late error (the first wins); the parse carries on. */
void probe_defer(const struct fetch_arg_ctx *ctx, enum probe_err code);

/*
 * Parse one FETCHARG, "[NAME=]EXPR[:TYPE][[N]]", that starts at byte
 * `pos` of the line and is argument number idx (from 0).  Fills *arg,
 * the default name "argN" included.  Returns 0 or -EINVAL.
 */
int fetch_arg_parse(const char *text, size_t len, int pos, int idx,
		    const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		    struct probe_parse_error *err);

#endif
