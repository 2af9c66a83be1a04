/*
 * trace_events_hist.h - hist triggers (kernel/trace/trace_events_hist.c):
 * a table of hit counts and sums keyed by an event's fields, with
 * variables other hist triggers read and actions (onmatch, onmax,
 * onchange) that fire synthetic events, save fields or take snapshots.
 */
#ifndef TRACE_EVENTS_HIST_H
#define TRACE_EVENTS_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include "trace_events_trigger.h"

struct hist_trigger;
struct trace_event_file;
struct trace_entry;
struct seq_buf;
struct pt_regs;

/*
 * Resolve spec's fields, variables and actions against the event:
 * 0, or a negative errno with Linux's error logged in error_log.
 */
int hist_trigger_create(struct trace_event_file *file, const struct hist_spec *spec,
			const char *filter, const char *cmd, struct hist_trigger **out);
void hist_trigger_free(struct hist_trigger *h);
/* A hit: count it under its key (any CPU, interrupts off); actions may trace. */
void hist_trigger_update(struct hist_trigger *h, struct trace_event_file *file,
			 const struct trace_entry *e, struct pt_regs *regs);
/* Is h the trigger spec (and filter) describe?  (Linux's hist_trigger_match()) */
bool hist_trigger_matches(const struct hist_trigger *h, const struct hist_spec *spec,
			  const char *filter);
void hist_trigger_control(struct hist_trigger *h, bool pause, bool cont, bool clear);
bool hist_trigger_paused(const struct hist_trigger *h);
/* Does another hist trigger read one of h's variables?  Then h cannot go (EBUSY). */
bool hist_trigger_busy(const struct hist_trigger *h);
int hist_trigger_print(char *buf, size_t size, const struct hist_trigger *h);
/* The table, Linux's "# event histogram" format; n: how many came before. */
void hist_trigger_show(struct seq_buf *s, struct hist_trigger *h, struct trace_event_file *file,
		       const char *filter, int n);
/* error_log: "hist:GROUP:EVENT: error: MSG", the command, a caret under bad. */
void hist_log_error(struct trace_event_file *file, const char *cmd, enum hist_err err,
		    const char *bad);

#endif
