/*
 * trace_events_filter.h - Linux's event filter language, the text
 * written to events/GROUP/EVENT/filter and after a trigger's "if":
 *
 *   n > 3 && (comm == "sh" || !(common_pid < 2))
 *   name ~ "fi*"     (a glob: * ? [abc] [a-z] [!x], and \ escapes)
 *   flags & 0x4      (true when a bit is set)
 *
 * lib/trace_events_filter.c compiles such a text into a struct
 * event_filter once, when it is written, and evaluates it at each hit
 * against a record through two callbacks (a number field, a string
 * field) - so the parser runs on the host too (tests/host/
 * test_trace_events_filter.c) and knows nothing of records.
 * Errors are Linux's (kernel/trace/trace_events_filter.c's table), with
 * the byte position its `filter` file puts a caret under.
 */
#ifndef TRACE_EVENTS_FILTER_H
#define TRACE_EVENTS_FILTER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define FILTER_ERRORS                                                         \
	E(NONE,              "No error")                                      \
	E(INVALID_OP,        "Invalid operator")                              \
	E(TOO_MANY_OPEN,     "Too many '('")                                  \
	E(TOO_MANY_CLOSE,    "Too few '('")                                   \
	E(MISSING_QUOTE,     "Missing matching quote")                        \
	E(OPERAND_TOO_LONG,  "Operand too long")                              \
	E(EXPECT_STRING,     "Expecting string field")                        \
	E(EXPECT_DIGIT,      "Expecting numeric field")                       \
	E(ILLEGAL_FIELD_OP,  "Illegal operation for field type")              \
	E(FIELD_NOT_FOUND,   "Field not found")                               \
	E(ILLEGAL_INTVAL,    "Illegal integer value")                         \
	E(BAD_SUBSYS_FILTER, "Couldn't find or set field in one of a subsystem's events") \
	E(TOO_MANY_PREDS,    "Too many terms in predicate expression")        \
	E(INVALID_FILTER,    "Meaningless filter expression")                 \
	E(IP_FIELD_ONLY,     "Only 'ip' field is supported for function trace") \
	E(INVALID_VALUE,     "Invalid value (did you forget quotes)?")        \
	E(ERRNO,             "Error")                                         \
	E(NO_FILTER,         "No filter found")

#define E(code, msg) FILT_ERR_##code,
enum filter_err { FILTER_ERRORS FILT_ERR_COUNT };
#undef E

const char *filter_err_msg(enum filter_err code);

#define FILTER_PRED_MAX    32	/* terms in one expression (ours; Linux's is memory) */
#define FILTER_STR_MAX    256	/* MAX_FILTER_STR_VAL: a string operand, NUL included */
#define FILTER_TEXT_MAX  1024	/* one filter's text */

/* One field an event offers to its filter (Linux's ftrace_event_field). */
struct filter_field {
	const char *name;
	bool is_string;		/* __data_loc char[] or comm */
	uint8_t size;		/* bytes of a number: 1, 2, 4, 8 */
	bool is_signed;
};

/* How a string predicate matches (Linux's enum regex_type). */
enum filter_match { MATCH_FULL, MATCH_FRONT_ONLY, MATCH_MIDDLE_ONLY, MATCH_END_ONLY, MATCH_GLOB };

enum filter_op { OP_GLOB, OP_NE, OP_EQ, OP_LE, OP_LT, OP_GE, OP_GT, OP_BAND };

/* One "field OP value". */
struct filter_pred {
	uint8_t field;		/* index into the caller's field table */
	uint8_t op;		/* enum filter_op */
	bool is_string;		/* the field's kind, size and sign, copied */
	uint8_t size;
	bool is_signed;
	uint8_t match;		/* enum filter_match, strings */
	bool not;		/* != */
	uint64_t val;		/* numbers, already cut to the field's size */
	char pattern[FILTER_STR_MAX];
};

/*
 * A compiled expression, a tree in an array: a leaf is a predicate, an
 * inner node && or ||; each node may be negated by '!'.
 */
enum filter_node_kind { FILTER_LEAF, FILTER_AND, FILTER_OR };
struct filter_node {
	uint8_t kind;		/* enum filter_node_kind */
	bool invert;		/* under an odd number of '!' */
	int8_t left, right;	/* children (AND, OR) */
	int8_t pred;		/* LEAF: index into preds[] */
};

struct event_filter {
	int nr_preds, nr_nodes, root;
	struct filter_pred preds[FILTER_PRED_MAX];
	struct filter_node nodes[2 * FILTER_PRED_MAX];
};

struct filter_parse_error {
	enum filter_err code;
	int pos;		/* Linux's lasterr_pos */
};

/*
 * Compile text (NUL-terminated) against fields[0..nr_fields).  0, or
 * -EINVAL with *err set (code FILT_ERR_NONE when the text holds no
 * predicate at all, which Linux refuses without a message).
 */
int filter_parse(const char *text, const struct filter_field *fields, int nr_fields,
		 struct event_filter *f, struct filter_parse_error *err);

/*
 * Linux's filter file after a refused filter: the text, a caret line
 * and "parse_error: MSG", each ending in a newline.  Returns the length
 * it wanted, as snprintf.
 */
int filter_format_error(char *buf, size_t size, const char *text,
			const struct filter_parse_error *err);

/* What the evaluator asks of a record: a number field's value, a string field's bytes. */
struct filter_record_ops {
	uint64_t (*num)(int field, const void *rec);
	const char *(*str)(int field, const void *rec, size_t *len);
};

/* Does the record pass? */
bool filter_match(const struct event_filter *f, const struct filter_record_ops *ops,
		  const void *rec);


#endif
