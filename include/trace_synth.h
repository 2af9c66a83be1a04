/*
 * trace_synth.h - synthetic events (Linux's kernel/trace/trace_synth.h
 * and trace_events_synth.c): events no code point fires, defined from
 * tracefs' synthetic_events file and traced by a hist trigger's action
 * with values the trigger computed, such as a latency between two events:
 *
 *   echo 'sort_lat u64 lat; int pid' >> synthetic_events
 *   ... onmatch(kprobes.sort_start).trace(sort_lat,$lat,common_pid)
 *
 * Each is an event like any other under events/synthetic/ (enable,
 * filter, format, hist, id, trigger): its record holds one value per
 * field, as a probe's record holds its arguments.
 */
#ifndef TRACE_SYNTH_H
#define TRACE_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include "trace_probe.h"

#define SYNTH_SYSTEM      "synthetic"
#define SYNTH_FIELDS_MAX  16	/* ours (Linux: 64): values one record holds */
#define SYNTH_TYPE_LEN    24	/* "__data_loc char[]" and its NUL */
#define STR_VAR_LEN_MAX  256	/* Linux's: the record's room for a char[N] field */

struct synth_field {
	char type[SYNTH_TYPE_LEN];	/* "u64", "pid_t", "unsigned int", "char[16]", "__data_loc char[]" */
	unsigned short size;
	bool is_signed;
	bool is_string, is_dynamic;	/* char[N] (N bytes), char[] (as long as the string) */
};

struct synth_event {
	struct trace_probe tp;		/* its events/ directory, id, records */
	int ref;			/* hist actions tracing it: it cannot go (EBUSY) */
	int nr_fields;			/* names: tp.def->args[i].name */
	struct synth_field fields[SYNTH_FIELDS_MAX];
};

/* The synthetic event of that name, or NULL. */
struct synth_event *synth_event_find(const char *name);
/*
 * Record one hit of se with a value per field (Linux's
 * trace_event_raw_event_synth()), from inside another event's trigger:
 * interrupts are off; regs are that event's.  A string field's value
 * is the address of a NUL-terminated string, copied into the record.
 */
void synth_event_trace(struct synth_event *se, const uint64_t *vals, struct pt_regs *regs);
/* Print a synthetic event's record after its "comm-pid [cpu] ... ts: " head; false if not one. */
bool trace_synth_print(struct seq_buf *s, const struct trace_entry *e);
int trace_synth_init(void);

/* ---- dynamic_events' "s:" lines (Linux 6.0+) ---- */
struct seq_buf;
/* "s:[synthetic/]NAME FIELDS": 0, or a negative errno (logged as synthetic_events'). */
int synth_dyn_create(const char *line, size_t len);
/* "s:synthetic/NAME\tFIELDS", one line each. */
void synth_dyn_show(struct seq_buf *s);
bool synth_event_is(const struct trace_probe *tp);
/* Remove it, or every one: EBUSY (nothing removed) while in use. */
int synth_dyn_release(struct trace_probe *tp);
int synth_dyn_release_all(void);

#endif
