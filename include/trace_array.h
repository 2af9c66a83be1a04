/*
 * trace_array.h - trace instances (Linux's struct trace_array):
 *
 *   mkdir /sys/kernel/tracing/instances/foo    a second tracefs in foo/,
 *        with its own ring buffer, tracing_on, buffer_size_kb, per_cpu/,
 *        trace, trace_pipe, snapshot, error_log, trace_options, options/,
 *        trace_clock, set_event, current_tracer, events/ (each event's
 *        enable, filter, trigger, hist, id, format), tracing_cpumask,
 *        the pid filters, trace_marker_raw, free_buffer, timestamp_mode
 *   echo 1 > instances/foo/events/kprobes/myfib/enable
 *        -> myfib's hits are recorded in foo's buffer, whatever the
 *           top level's enable file says
 *   rmdir instances/foo                        everything of foo goes
 *
 * The top level (/sys/kernel/tracing itself) is global_trace, instance
 * 0, one trace_array among the others (Linux's design): the code of a
 * file takes the trace_array its file is in.  An event enabled in
 * instance n has bit n of its trace_probe's enabled_in set, and its
 * probe is armed while any bit is.
 */
#ifndef TRACE_ARRAY_H
#define TRACE_ARRAY_H

#include <stdbool.h>
#include <stdint.h>
#include "list.h"
#include "pseudofs.h"
#include "trace.h"	/* TRACEFS_DIR */
#include "ftrace.h"
#include <asm/percpu.h>	/* NR_CPUS */

#define TRACE_INSTANCES_DIR  TRACEFS_DIR "/instances"
#define TRACE_ARRAY_TOP      0		/* the top level's bit in enabled_in */
#define TRACE_ARRAY_MAX      32	/* the top level and 31 instances: enabled_in's bits */
#define TRACE_ARRAY_NAME_LEN 64

/* error_log: the last entries logged, Linux keeps 8 too (Linux's tr->err_log). */
#define TRACE_ERROR_LOG_ENTRIES 8
#define TRACE_ERROR_LOG_TEXT    1536	/* header + a console line twice (command, caret) */
struct trace_error_log {
	char entry[TRACE_ERROR_LOG_ENTRIES][TRACE_ERROR_LOG_TEXT];
	unsigned int next;		/* entries ever logged */
};

/*
 * Its trace, trace_pipe, buffer_size_kb and stats: every CPU's buffer
 * (TRACE_ALL_CPUS, the files at its top) or one (per_cpu/cpuN/).
 */
struct trace_cpu_file {
	struct trace_array *tr;
	int cpu;
};

struct trace_buffer;
struct trace_probe;
struct fetch_ops;
struct pt_regs;

/*
 * The pid filters of a trace array (pid_list.c, Linux's tr->filtered_pids
 * and the rest): its set_event_pid, set_event_notrace_pid, set_ftrace_pid
 * and set_ftrace_notrace_pid, each file's data a trace_pid_file.
 */
enum trace_pid_kind { EVENT_PIDS, EVENT_NO_PIDS, FTRACE_PIDS, FTRACE_NO_PIDS, NR_PID_LISTS };
struct trace_pid_list;
struct trace_pid_file {
	struct trace_array *tr;
	int kind;
};

struct trace_array {
	struct list_head list;		/* every instance, in mkdir order */
	char name[TRACE_ARRAY_NAME_LEN];
	char dir[PSEUDOFS_PATH_MAX];	/* TRACE_INSTANCES_DIR "/NAME" */
	int id;				/* its bit in trace_probe.enabled_in */
	struct trace_buffer *buffer;
	bool tracing_on;
	bool function_on;		/* current_tracer is function: ops is registered */
	struct ftrace_ops ops;		/* its function tracer, with its own filters */
	int ref;			/* trace_array_get_by_name()'s: rmdir is EBUSY */
	uint64_t trace_flags;		/* trace_options: bit n is enum trace_iter_bit n */
	struct trace_option_file *option_files;	/* options/NAME's data (trace_options.c) */
	struct trace_error_log err_log;	/* its error_log (trace_probe.c) */
	struct trace_cpu_file all_cpus, cpu_files[NR_CPUS];	/* trace, per_cpu/cpuN/'s data */
	unsigned long tracing_cpumask;	/* bit n: CPU n writes into its buffer (tracing_cpumask) */
	struct trace_pid_list *pid_lists[NR_PID_LISTS];	/* its pid filters; NULL: none */
	struct trace_pid_file pid_files[NR_PID_LISTS];	/* their files' data (pid_list.c) */
	unsigned int buffer_percent;	/* how full a buffer wakes trace_pipe_raw's reader (trace_pipe_raw.c) */
};

/* Every CPU this kernel can have: a trace array's tracing_cpumask at first. */
#define TRACE_CPUMASK_ALL ((1UL << NR_CPUS) - 1)

/*
 * trace_pipe_raw.c: tr's per_cpu/cpuN/trace_pipe_raw and snapshot_raw;
 * the top level's with its buffer_percent.  Linux's default percent.
 */
#define TRACE_BUFFER_PERCENT_DEFAULT 50
int trace_pipe_raw_create(struct trace_array *tr);
int trace_pipe_raw_instance_create(struct trace_array *tr);	/* and its buffer_percent */
int trace_pipe_raw_init(void);

/* The top level: /sys/kernel/tracing itself (Linux's global_trace). */
extern struct trace_array global_trace;

/* Linux's TRACE_DEFAULT_FLAGS, and its tracers' defaults. */
#define TRACE_ITER(bit) (1ULL << (TRACE_ITER_##bit))
#define TRACE_DEFAULT_FLAGS \
	(TRACE_ITER(PRINT_PARENT) | TRACE_ITER(PRINTK) | TRACE_ITER(ANNOTATE) | \
	 TRACE_ITER(CONTEXT_INFO) | TRACE_ITER(RECORD_CMD) | TRACE_ITER(OVERWRITE) | \
	 TRACE_ITER(IRQ_INFO) | TRACE_ITER(MARKERS) | TRACE_ITER(HASH_PTR) | \
	 TRACE_ITER(FUNCTION) | TRACE_ITER(GRAPH_CPU) | TRACE_ITER(GRAPH_OVERHEAD) | \
	 TRACE_ITER(GRAPH_DURATION) | TRACE_ITER(GRAPH_IRQS) | TRACE_ITER(GRAPH_SLEEP_TIME))
/*
 * Linux's ZEROED_TRACE_FLAGS: a new instance starts with the top level's
 * options but these (its pid lists follow forks and exits only when it
 * is told to).
 */
#define TRACE_ZEROED_FLAGS (TRACE_ITER(EVENT_FORK) | TRACE_ITER(FUNC_FORK))

/*
 * Log a refused write in tr's error_log (Linux's tracing_log_err()): a
 * filter's or a trigger's of an instance's event go to the instance's,
 * every other to the top level's.  trace_probe_log_error() is the top
 * level's.
 */
struct trace_probe_type;
void tracing_log_err(struct trace_array *tr, const struct trace_probe_type *type,
		     const char *line, size_t len, int pos, const char *msg);

/* ---- options (trace_options.c) ---- */

/* Is option bit on in tr?  (trace_option_on() asks the trace array being printed.) */
bool trace_array_option_on(const struct trace_array *tr, int bit);
/*
 * `trace` of tr is being printed by this task: until _end(), the
 * options the printing code asks for (trace_option_on()) are tr's, as
 * Linux's iter->tr carries them.  One printer at a time.
 */
void trace_array_print_begin(struct trace_array *tr);
void trace_array_print_end(void);
/* An instance's trace_options and options/ (at mkdir), and their data gone (rmdir). */
int trace_options_instance_init(struct trace_array *tr);
void trace_options_instance_free(struct trace_array *tr);
/* The tracer tr runs, by name: its options are listed in trace_options. */
const char *trace_array_tracer_name(const struct trace_array *tr);

/*
 * Linux's kernel API for an instance a module owns (samples/ftrace/
 * sample-trace-array.c): the instance NAME, made if it is not there,
 * with a reference that makes rmdir fail with EBUSY until
 * trace_array_put().  NULL on failure.
 */
struct trace_array *trace_array_get_by_name(const char *name);
void trace_array_put(struct trace_array *tr);

/*
 * The files every trace array has (trace.c), their data the trace array
 * (NULL: the top level): trace_marker_raw, tracing_cpumask,
 * free_buffer, timestamp_mode; per_cpu/cpuN/snapshot's data is a
 * trace_cpu_file.
 */
struct seq_buf;
int tracing_marker_raw_write(const char *text, size_t len, bool trunc, void *data);
int tracing_cpumask_show(struct seq_buf *s, void *data);
int tracing_cpumask_write(const char *text, size_t len, bool trunc, void *data);
int tracing_free_buffer_write(const char *text, size_t len, bool trunc, void *data);
int tracing_timestamp_mode_show(struct seq_buf *s, void *data);
int tracing_snapshot_cpu_show(struct seq_buf *s, void *data);
int tracing_snapshot_cpu_write(const char *text, size_t len, bool trunc, void *data);

/*
 * The pid filters (pid_list.c): tr's four files made (the top level's at
 * init, an instance's at mkdir), and gone with its lists (rmdir, once no
 * hit can read them).  Linux's trace_event_ignore_this_pid(): the
 * running task's events leave no record in tr; the function tracer of
 * tr does not trace it.
 */
int trace_pid_files_create(struct trace_array *tr);
void trace_pid_lists_free(struct trace_array *tr);
bool trace_event_pid_filtering(struct trace_array *tr);
bool trace_event_ignore_this_pid(struct trace_array *tr);
bool trace_array_ftrace_ignore_pid(struct trace_array *tr);

/* Record a hit of event tp in every instance (not the top level) where it is enabled. */
void trace_instances_record(struct trace_probe *tp, const struct fetch_ops *fops,
			    struct pt_regs *regs, unsigned long ip, unsigned long ret_ip);
/* ...in the one instance id (tp is on there). */
void trace_instance_record(struct trace_probe *tp, const struct fetch_ops *fops,
			   struct pt_regs *regs, unsigned long ip, unsigned long ret_ip, int id);
/* A finished record of tp (a synthetic event's) into every instance where tp is on. */
struct trace_entry;
void trace_instances_commit(struct trace_probe *tp, struct trace_entry *e, struct pt_regs *regs);
/* Every instance's records go (an event that wrote some was removed). */
void trace_instances_reset(void);
/* An event came or goes: its enable files in every instance. */
int trace_instances_event_add(struct trace_probe *tp);
void trace_instances_event_remove(struct trace_probe *tp);
int trace_instances_init(void);	/* the instances/ directory */

#endif
