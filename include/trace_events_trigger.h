/*
 * trace_events_trigger.h - the commands written to an event's trigger
 * file (Linux's kernel/trace/trace_events_trigger.c and, for hist,
 * trace_events_hist.c), parsed by lib/trace_events_trigger.c into a
 * struct trigger_spec the kernel then checks against the event's fields:
 *
 *   traceon[:COUNT] [if FILTER]      tracing_on = 1 when the event fires
 *   traceoff[:COUNT] [if FILTER]     tracing_on = 0
 *   stacktrace[:COUNT] [if FILTER]   a <stack trace> record
 *   snapshot[:COUNT] [if FILTER]     swap the buffer into snapshot
 *   enable_event:SYSTEM:EVENT[:COUNT] [if FILTER]    records of that event on
 *   disable_event:SYSTEM:EVENT[:COUNT] [if FILTER]   ... and off (soft mode)
 *   hist:keys=F[.hex|.sym][,F...][:vals=F[,F...]][:sort=F[.descending][,F]]
 *       [:size=N][:pause][:continue][:clear] [if FILTER]
 *   !COMMAND...                      remove that trigger
 */
#ifndef TRACE_EVENTS_TRIGGER_H
#define TRACE_EVENTS_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include "trace_events_filter.h"

/* In the order Linux registers them (the order of "# Available triggers:"). */
enum trigger_cmd { TRIGGER_TRACEON, TRIGGER_TRACEOFF, TRIGGER_SNAPSHOT,
		   TRIGGER_STACKTRACE, TRIGGER_ENABLE_EVENT, TRIGGER_DISABLE_EVENT,
		   TRIGGER_HIST, TRIGGER_NR };

const char *trigger_cmd_name(enum trigger_cmd cmd);

#define HIST_KEYS_MAX       3	/* TRACING_MAP_KEYS_MAX */
#define HIST_VALS_MAX       3	/* ours: values summed besides hitcount */
#define HIST_SORT_KEYS_MAX  2	/* TRACING_MAP_SORT_KEYS_MAX */
#define HIST_NAME_LEN      64
#define HIST_DEFAULT_BITS  11	/* TRACING_MAP_BITS_DEFAULT: 2048 entries */
#define HIST_MIN_BITS       7	/* TRACING_MAP_BITS_MIN */
#define HIST_MAX_BITS      15	/* ours (Linux: 17): the table is preallocated */

/* enable_event's SYSTEM and EVENT: MAX_EVENT_NAME_LEN, the NUL included. */
#define TRIGGER_EVENT_NAME_LEN 64

#define HIST_MOD_HEX  0x1
#define HIST_MOD_SYM  0x2

struct hist_spec {
	int nr_keys, nr_vals, nr_sort;
	char keys[HIST_KEYS_MAX][HIST_NAME_LEN];
	unsigned char key_mods[HIST_KEYS_MAX];
	char vals[HIST_VALS_MAX][HIST_NAME_LEN];
	char sort[HIST_SORT_KEYS_MAX][HIST_NAME_LEN];	/* "hitcount", a key or a val */
	bool sort_descending[HIST_SORT_KEYS_MAX];
	unsigned int map_bits;
	bool pause, cont, clear;
};

struct trigger_spec {
	enum trigger_cmd cmd;
	bool remove;			/* "!cmd" */
	long count;			/* -1: unlimited */
	char filter[FILTER_TEXT_MAX];	/* after "if", "" when none */
	struct hist_spec hist;
	/* enable_event / disable_event: the event they switch */
	char system[TRIGGER_EVENT_NAME_LEN];
	char event[TRIGGER_EVENT_NAME_LEN];
	/* hist only: where a problem lies, for error_log */
	const char *bad;		/* the text found bad, inside the command */
};

/*
 * Parse one trigger command (no trailing newline).  0, or -EINVAL.
 * For hist, *herr is set to the Linux hist error (HIST_ERR_*) and
 * spec->bad to where it lies, when Linux logs one.
 */
#define HIST_ERRORS                                                            \
	E(NONE,                 "No error")                                    \
	E(BAD_FIELD_MODIFIER,   "Invalid field modifier")                      \
	E(FIELD_NOT_FOUND,      "Couldn't find field")                         \
	E(EMPTY_ASSIGNMENT,     "Empty assignment")                            \
	E(INVALID_SORT_MODIFIER, "Invalid sort modifier")                      \
	E(EMPTY_SORT_FIELD,     "Empty sort field")                            \
	E(TOO_MANY_SORT_FIELDS, "Too many sort fields (Max = 2)")              \
	E(INVALID_SORT_FIELD,   "Sort field must be a key or a val")           \
	E(TRIGGER_EEXIST,       "Hist trigger already exists")                 \
	E(TRIGGER_ENOENT_CLEAR, "Can't clear or continue a nonexistent hist trigger")

#define E(code, msg) HIST_ERR_##code,
enum hist_err { HIST_ERRORS HIST_ERR_COUNT };
#undef E

const char *hist_err_msg(enum hist_err code);

int trigger_parse(const char *text, struct trigger_spec *spec, enum hist_err *herr);

/* The line the trigger file shows for a hist trigger, without " if" or state. */
int hist_spec_format(char *buf, size_t size, const struct hist_spec *h);

#endif
