/*
 * trace_events.h - an event's directory under /sys/kernel/tracing/events
 * and what acts on its hits (Linux's kernel/trace/trace_events*.c):
 *
 *   events/enable                   every event on or off
 *   events/GROUP/enable, filter     every event of the group
 *   events/GROUP/EVENT/enable       this event on or off
 *   events/GROUP/EVENT/id           its record type, as `format` says
 *   events/GROUP/EVENT/format       its record's fields and print format
 *   events/GROUP/EVENT/filter       which hits are recorded (trace_events_filter.c)
 *   events/GROUP/EVENT/trigger      what a hit does (trace_events_trigger.c)
 *   events/GROUP/EVENT/hist         its hist triggers' tables (trace_events_hist.c)
 *
 * A hit goes through trace_event_buffer_reserve() and
 * trace_event_buffer_commit() (kernel/trace/trace.c): the filter
 * decides whether the record stays, the triggers run.
 */
#ifndef TRACE_EVENTS_H
#define TRACE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "list.h"
#include "pseudofs.h"
#include "trace_events_filter.h"
#include "probe_events.h"
#include "trace_array.h"	/* TRACE_ARRAY_MAX */

struct trace_probe;
struct trace_entry;
struct trace_array;
struct pt_regs;
struct seq_buf;
struct trace_probe_type;

/* One event's state beside its probe (Linux's struct trace_event_file). */
struct trace_event_file {
	struct list_head list;		/* every event, in creation order */
	struct trace_probe *tp;
	char dir[PSEUDOFS_PATH_MAX];	/* .../events/GROUP/EVENT */
	struct event_filter *filter;	/* NULL: every hit is recorded */
	char *filter_text;		/* what `filter` shows; NULL: "none" */
	struct list_head triggers;	/* struct event_trigger */
	/*
	 * Soft mode (Linux's EVENT_FILE_FL_SOFT_MODE): while another event's
	 * enable_event or disable_event trigger names this one, its probe
	 * stays armed (tp->enabled) and those triggers switch its records on
	 * and off by soft_disabled alone, with no text to patch in a hit.
	 */
	unsigned int sm_ref;		/* triggers that keep it in soft mode */
	bool soft_disabled;		/* armed, but its hits leave no record */
	struct list_head eprobes;	/* enabled event probes on it (trace_eprobe.c) */
	struct trace_array *tr;		/* whose events/ it is in: global_trace or an instance */
	/* The top level's file only: each instance's file of the event, by the instance's id, */
	struct trace_event_file *instance_files[TRACE_ARRAY_MAX];
	unsigned long soft_in;		/* and the trace arrays whose file is in soft mode */
};

extern struct list_head trace_event_files;

/* events/GROUP/: its files' data. */
struct trace_group_file {
	const struct trace_probe_type *type;
	char name[PROBE_NAME_LEN];
	char *filter_text;		/* what the group's filter shows; NULL: the default */
	int instance;			/* the trace array whose enable this is (trace_array.h) */
};

/*
 * Create the event's directory, and its group's if it is the group's
 * first event: 0, or a negative errno with nothing created (-EEXIST:
 * the group belongs to the other kind of probe event).  tp is not yet
 * on its type's list.
 */
int trace_event_dir_add(struct trace_probe *tp);
/* Remove the event's directory, and the group's if tp was its last
 * event: called once tp is off its type's list, before it is freed. */
void trace_event_dir_remove(struct trace_probe *tp);
struct trace_event_file *trace_event_file_find(const char *group, const char *event);
/* The top level's file of the event whose records have this id, or NULL. */
const struct trace_event_file *trace_event_file_by_id(unsigned int id);
/*
 * Record e as Linux lays it out and the event's format file describes it
 * (trace_pipe_raw): Linux's struct trace_entry, TRACE_ENTRY_RAW_SIZE
 * bytes on i386, then the fields.  Its length, 0 if its event has no
 * such layout here, or -ENOSPC if buf is too small.
 */
#define TRACE_ENTRY_RAW_SIZE 8
int trace_event_raw_record(const struct trace_entry *e, void *buf, size_t size);
int trace_event_set_enabled(struct trace_probe *tp, bool on);
/*
 * Linux's trace_event_enable_disable(): soft false is the enable file;
 * soft true takes (enable) or drops a soft-mode reference, arming the
 * probe with its records soft-disabled until a trigger turns them on.
 */
int trace_event_enable_disable(struct trace_event_file *file, bool enable, bool soft);
/* Print a record of an event whose type prints its own; false if none. */
bool trace_event_print(struct seq_buf *s, const struct trace_entry *e);
/* The same in trace array id (trace_array.h; TRACE_ARRAY_TOP is the top level's). */
int trace_event_enable_in(struct trace_probe *tp, int id, bool on);
bool trace_event_enabled_in(const struct trace_probe *tp, int id);
/* A hit records at the top level: the event is enabled there or a trigger holds it in soft mode. */
bool trace_event_top_on(const struct trace_probe *tp);
/* The instances (bits of trace_array ids) a hit records in: enabled or in soft mode there. */
unsigned long trace_event_instances_on(const struct trace_probe *tp);
/* Linux's find_event_file(): the event's file in trace array tr; NULL if no such event. */
struct trace_event_file *find_event_file(struct trace_array *tr, const char *group,
					 const char *event);
/*
 * An instance's events/ (trace_instances.c): its events/enable for
 * trace array tr under root, then each event's directory, a
 * trace_event_file of the instance's own (enable, filter, format, hist,
 * id, trigger) and its group's enable and filter; and they go (the
 * events disabled there first).  set_event's callbacks
 * take the trace array as data (NULL: the top level).
 */
int trace_set_event_show(struct seq_buf *s, void *data);
int trace_set_event_write(const char *text, size_t len, bool trunc, void *data);
int trace_event_instance_init(const char *root, struct trace_array *tr);
int trace_event_instance_add(struct trace_array *tr, struct trace_probe *tp);
void trace_event_instance_remove(struct trace_array *tr, struct trace_probe *tp);
/* The event's first probe went: its files (the top level's, each instance's) now speak of tp. */
void trace_event_file_set_tp(struct trace_event_file *file, struct trace_probe *tp);
/* "0" or "1" and a newline, as echo writes it. */
int trace_parse_bool(const char *text, size_t len, bool *on);

/* An argument's record field, as format shows it: size, sign, string. */
void trace_arg_type(int type, unsigned char *size, bool *is_signed, bool *is_string);
/* Its C type as format shows it: "u32", "__data_loc char[]". */
const char *trace_arg_type_name(int type);
int trace_events_init(void);

/* ---- a hit (kernel/trace/trace.c) ------------------------------------------- */

/*
 * Where the hit's record is written: straight into the ring buffer, or,
 * when a filter or a trigger must see it first, into this CPU's scratch
 * record (Linux's trace_buffered_event).  Interrupts stay off until
 * the commit.
 */
struct trace_entry *trace_event_buffer_reserve(struct trace_probe *tp, unsigned long *flags);
void trace_event_buffer_commit(struct trace_probe *tp, struct trace_entry *e,
			       struct pt_regs *regs, unsigned long flags);
/* The same for one event's file (an instance's, or the top level's; NULL: none). */
struct trace_entry *trace_event_file_reserve(struct trace_event_file *file, unsigned long *flags);
void trace_event_file_commit(struct trace_event_file *file, struct trace_entry *e,
			     struct pt_regs *regs, unsigned long flags);
void trace_event_file_commit_entry(struct trace_event_file *file, struct trace_entry *e,
				   struct pt_regs *regs);
/*
 * A finished record not in the ring buffer through tp's filter and
 * triggers into the buffer (interrupts off): a synthetic event's, made
 * inside another event's trigger while that event's record is in use.
 */
void trace_event_commit(struct trace_probe *tp, struct trace_entry *e, struct pt_regs *regs);
bool tracing_is_on(void);
void tracing_on(void);
void tracing_off(void);
/* The same for one trace array (trace_array.h; the top level is global_trace). */
bool tracer_tracing_is_on(struct trace_array *tr);
void tracer_tracing_on(struct trace_array *tr);
void tracer_tracing_off(struct trace_array *tr);
/* Take tr's snapshot (a trigger, an action), and its spare buffers for it. */
void tracing_snapshot_instance(struct trace_array *tr);
int tracing_alloc_snapshot_instance(struct trace_array *tr);
/* A <stack trace> record of the code regs interrupted: the top level's, tr's. */
void trace_stack_record(struct pt_regs *regs);
void __trace_stack(struct trace_array *tr, struct pt_regs *regs);
/* The snapshot file; its data is the trace array (NULL: the top level). */
int tracing_snapshot_show(struct seq_buf *s, void *data);
int tracing_snapshot_write(const char *text, size_t len, bool trunc, void *data);
/* Print a record that is no probe's (trace_marker, <stack trace>); false if none. */
bool trace_print_special(struct seq_buf *s, const struct trace_entry *e);
int trace_files_init(void);
/* kernel/trace/trace_kprobe.c: a record as `trace` prints it, and trace's header. */
int print_trace_line(const struct trace_entry *e, struct seq_buf *s);
void print_trace_header(struct seq_buf *s);
int trace_dynevent_init(void);

/* ---- event probes (kernel/trace/trace_eprobe.c) --------------------------------- */

/* A hit of file's event, its record e made: each event probe on it makes its own. */
void trace_eprobes_run(struct trace_event_file *file, const struct trace_entry *e,
		       struct pt_regs *regs);
/* An e: line, or a "-:" line naming an event probe, from dynamic_events. */
int trace_eprobe_command(const char *line, size_t len);
/* Their definitions as dynamic_events lists them. */
void trace_eprobes_show(struct seq_buf *s);
/* Remove every event probe (`echo > dynamic_events`): 0, or -EBUSY and none. */
int trace_eprobes_release_all(void);

/* ---- fields (kernel/trace/trace_events_filter.c) ------------------------------ */

/* The fields a filter or a hist key may name, in format's order. */
int trace_event_fields(const struct trace_event_file *file, struct filter_field *fields,
		       int max);
/* The C type of one of them, as format shows it ("u32", "int", "unsigned long"). */
const char *trace_event_field_type(const struct trace_event_file *file, int field);
extern const struct filter_record_ops trace_event_record_ops;
/* The first of the event's own fields (its arguments) in that order. */
int trace_event_arg_field(const struct trace_event_file *file);
/* Field number field (trace_event_fields()'s order) of a record of file's event. */
uint64_t trace_event_field_num(struct trace_event_file *file, int field,
			       const struct trace_entry *e);
const char *trace_event_field_str(struct trace_event_file *file, int field,
				  const struct trace_entry *e, size_t *len);
bool trace_event_filter_match(struct trace_event_file *file, const struct event_filter *f,
			      const struct trace_entry *e);
int trace_event_filter_show(struct seq_buf *s, void *data);
int trace_event_filter_write(const char *text, size_t len, bool trunc, void *data);
int trace_group_filter_show(struct seq_buf *s, void *data);
int trace_group_filter_write(const char *text, size_t len, bool trunc, void *data);
/* Compile text for file, logging Linux's error: 0, -EINVAL, -EPERM. */
int trace_event_filter_compile(struct trace_event_file *file, const char *text,
			       struct event_filter **out, bool log);
void trace_event_filter_free(struct trace_event_file *file);
/* Would text compile for file's records?  If not, error_log says why (-EINVAL). */
int trace_event_filter_check(struct trace_event_file *file, const char *text);

/* ---- triggers (kernel/trace/trace_events_trigger.c, trace_events_hist.c) ------- */

int trace_event_trigger_show(struct seq_buf *s, void *data);
int trace_event_trigger_write(const char *text, size_t len, bool trunc, void *data);
int trace_event_hist_show(struct seq_buf *s, void *data);
void trace_event_triggers_run(struct trace_event_file *file, const struct trace_entry *e,
			      struct pt_regs *regs);
void trace_event_triggers_free(struct trace_event_file *file);
/* Must the triggers see the record (an "if", a hist)?  Then they run after it. */
bool trace_event_triggers_conditional(struct trace_event_file *file);
/*
 * May the event go?  Not while another event's hist trigger reads one of
 * its hist variables, nor while an enable_hist/disable_hist names it
 * (Linux: EBUSY).  file may be NULL.
 */
bool trace_event_busy(struct trace_event_file *file);
/*
 * Every trigger of every event of tr away, as `!` each (Linux's
 * clear_event_triggers(tr)): the events leave their soft mode there.
 * An instance's go before it goes; the suites clear the top level's.
 */
void clear_event_triggers(struct trace_array *tr);

#endif
