/*
 * trace_probe.h - what kprobe events (kernel/trace/trace_kprobe.c),
 * uprobe events (kernel/trace/trace_uprobe.c) and fprobe events
 * (kernel/trace/trace_fprobe.c) share, as in Linux's
 * kernel/trace/trace_probe.c: an event's common part, the *_events
 * file's commands, the error log and the record (the enable files are
 * trace_events.c's).
 */
#ifndef TRACE_PROBE_H
#define TRACE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <asm/ptrace.h>
#include "list.h"
#include "pseudofs.h"
#include "probe_events.h"

struct trace_entry;
struct trace_probe;
struct trace_event_file;

/* What differs between kprobe and uprobe events (Linux: trace_kprobe vs trace_uprobe). */
struct trace_probe_type {
	const char *subsys;		/* error_log's "trace_kprobe: error: ..." */
	const char *events_file;	/* "kprobe_events", in messages */
	struct list_head *events;	/* every event of the type */
	int (*parse)(const char *line, size_t len, struct probe_event_def *def,
		     struct probe_parse_error *err);
	/*
	 * A new event for parsed, its probe registered but not armed (or,
	 * for a uprobe, checked): trace_probe_init() done.  NULL and *err
	 * (logged already) when refused.
	 */
	struct trace_probe *(*create)(const struct probe_event_def *parsed,
				      const char *line, size_t len, int *err);
	/*
	 * Arm or disarm tp's own probe only (trace_probe_set_enabled() does
	 * an event's all); NULL for an event probe, which has none.
	 */
	int (*set_enabled)(struct trace_probe *tp, bool on);
	/*
	 * An event probe's: be attached to the attached event's file in
	 * exactly the trace arrays of live (bit n: trace array n, where the
	 * event is enabled or in soft mode).  0, or an errno and nothing changed.
	 */
	int (*attach_in)(struct trace_probe *tp, unsigned long live);
	/* Unregister and free the event (trace_probe_cleanup() included). */
	void (*destroy)(struct trace_probe *tp);
	/*
	 * Events that are no probe's (syscalls, eprobes, synthetic events): their record has
	 * no probe address, so format and the filters see the common
	 * fields, then the arguments.
	 */
	bool no_probe_addr;
	/* format's fields after the common ones and its print fmt; NULL: the probe's */
	void (*show_format)(struct seq_buf *s, const struct trace_probe *tp);
	/* trace's text after "comm-pid [cpu] ... ts: ", newline included; NULL: the probe's */
	void (*print)(struct seq_buf *s, const struct trace_probe *tp,
		      const struct trace_entry *e);
	/* Can an event probe attach to events of this type?  Not to a probe's (Linux 6.1). */
	bool eprobe_target;
	/* A line naming an existing event is refused (EEXIST), not appended (eprobes). */
	bool single_probe;
	/*
	 * With show_format: the fields after the common ones as format says, into
	 * buf[0..size) (trace_pipe_raw): their length, or -ENOSPC; NULL: the
	 * records are left out of the raw pages.
	 */
	int (*raw_record)(const struct trace_probe *tp, const struct trace_entry *e,
			  unsigned char *buf, size_t size);
};

/* The part every event has (Linux's struct trace_probe). */
struct trace_probe {
	struct list_head list;		/* on type->events */
	const struct trace_probe_type *type;
	unsigned int id;		/* what records carry */
	bool enabled;			/* armed: enabled at the top level or in an instance */
	/* Bit n: enabled in trace instance n, bit 0 the top level (trace_array.h). */
	unsigned long enabled_in;
	bool recorded;			/* some record of ours may be in the buffer */
	char enable_path[PSEUDOFS_PATH_MAX];
	struct trace_event_file *event_file;	/* trace_events.c's: filter, triggers */
	struct probe_event_def *def;	/* trimmed to def->nr_args arguments */
	/*
	 * A multi-probe event (Linux 5.7+): a line naming an existing event
	 * appends a probe to it.  The first probe is the event (on
	 * type->events, its id, enable file and records); each appended one
	 * is linked on the first's `siblings` and points at it by `leader`.
	 */
	struct list_head siblings;
	struct trace_probe *leader;	/* NULL: the event's first probe */
};

/* Each probe appended to event tp (tp itself not included). */
#define trace_probe_for_each_sibling(pos, tp) \
	list_for_each_entry(pos, &(tp)->siblings, siblings)

/* A copy of parsed, trimmed, and the enable file's path: 0 or -ENOMEM. */
int trace_probe_init(struct trace_probe *tp, const struct trace_probe_type *type,
		     const struct probe_event_def *parsed);
void trace_probe_cleanup(struct trace_probe *tp);
struct trace_probe *trace_probe_find_id(const struct trace_probe_type *type,
					unsigned int id);
/* A new event's id: one count for every kind of event. */
unsigned int trace_probe_alloc_id(void);

/* Arm or disarm every probe of event tp; on a failure none changed. */
int trace_probe_set_enabled(struct trace_probe *tp, bool on);

/* The *_events file of a type: data is the type. */
int trace_probe_events_show(struct seq_buf *s, void *data);
int trace_probe_events_write(const char *text, size_t len, bool trunc, void *data);

/* One record of the current task: its name and pid, time, CPU, arguments. */
void trace_probe_record(struct trace_probe *tp, const struct fetch_ops *fops,
			struct pt_regs *regs, unsigned long ip, unsigned long ret_ip);
/* The same in trace array id alone (an event probe's hit, attached there). */
void trace_probe_record_in(struct trace_probe *tp, const struct fetch_ops *fops,
			   struct pt_regs *regs, int id);
/* Fill record e of a hit of probe tp (of event id); preempt is the probed code's. */
void trace_probe_fill(struct trace_entry *e, struct trace_probe *tp, unsigned int id,
		      const struct fetch_ops *fops, struct pt_regs *regs,
		      unsigned long ip, unsigned long ret_ip, int preempt);
/* A record's " name=value..." and the newline, however long the values print. */
void trace_probe_print_args(struct seq_buf *s, const struct trace_probe *tp,
			    const struct trace_entry *e);
/* error_log: "[ts] SUBSYS: error: MSG", the command, a caret under pos. */
void trace_probe_log_error(const struct trace_probe_type *type, const char *line,
			   size_t len, int pos, const char *msg);
/* Byte offset of word nr (from 0) of line: where a caret goes. */
int trace_probe_word_pos(const char *line, size_t len, int nr);
/* tracefs' error_log file. */
int trace_error_log_show(struct seq_buf *s, void *data);
int trace_error_log_write(const char *text, size_t len, bool trunc, void *data);

/* kernel/trace/trace_uprobe.c */
int trace_uprobe_init(void);
/* Print a uprobe event's record after its "comm-pid [cpu] ... ts: " head; false if not one. */
bool trace_uprobe_print(struct seq_buf *s, const struct trace_entry *e);
/* kernel/trace/trace_fprobe.c: f: events, which only dynamic_events defines. */
extern const struct trace_probe_type fprobe_type;
/* Print an fprobe event's record after its "comm-pid [cpu] ... ts: " head; false if not one. */
bool trace_fprobe_print(struct seq_buf *s, const struct trace_entry *e);
/* kernel/trace/trace_kprobe.c: the %pS-style printer of :symbol arguments. */
int trace_sprint_sym(char *buf, size_t len, unsigned long addr);

#endif
