/*
 * trace.h - kprobe events and the trace ring buffer behind
 * /sys/kernel/tracing (Linux's names and file formats).
 *
 *   echo 'p:myfib fib n=$arg1' >> /sys/kernel/tracing/kprobe_events
 *        -> trace_kprobe (kernel/trace/trace_kprobe.c) parses the line with
 *           lib/probe_events_parse.c and registers a disabled kprobe
 *   echo 1 > /sys/kernel/tracing/events/kprobes/myfib/enable
 *        -> enable_kprobe(): the int3 goes in
 *   a hit -> the fetch programs run against pt_regs; one record goes
 *            into this CPU's ring buffer (kernel/trace/trace_buffer.c)
 *   cat /sys/kernel/tracing/trace -> every CPU's records merged by time,
 *            as Linux prints them
 */
#ifndef TRACE_H
#define TRACE_H

#include <stdint.h>
#include <stdbool.h>
#include "sched.h"
#include "pseudofs.h"
#include <stddef.h>

/* ---- the ring buffers, one per CPU (kernel/trace/trace_buffer.c) -------------- */

#define TRACE_BUF_ENTRIES  256	/* records kept per CPU; older ones are overwritten */
#define TRACE_PAYLOAD_MAX  512	/* bytes of fetched arguments per record */
#define TRACE_ALL_CPUS     (-1)	/* read every CPU's buffer, merged by time */

#define TRACE_FLAG_IRQS_OFF 0x01	/* IF was clear in the probed code */
#define TRACE_FLAG_TS_RAW   0x02	/* set by the reader: ts is a count, not ns (trace_clock) */

/* One event as it happened. */
struct trace_entry {
	uint64_t ts;			/* trace_clock() at the hit: ns since boot */
	unsigned int event_id;		/* which trace_kprobe */
	int cpu;			/* the CPU that recorded it (its buffer) */
	int pid;
	char comm[TASK_NAME_LEN];
	uint8_t flags;			/* TRACE_FLAG_* */
	uint8_t preempt;		/* preempt_count() at the hit */
	uint16_t len;			/* payload bytes used */
	unsigned long ip;		/* the probed address */
	unsigned long ret_ip;		/* kretprobe: where the function returned to */
	char payload[TRACE_PAYLOAD_MAX];/* probe_args_fetch()'s record */
};

/* ---- the clock (kernel/trace/trace_clock.c) ---------------------------------- */

/* The top level's clock now: by default "local", ns since boot from this CPU's TSC. */
uint64_t trace_clock(void);
/* trace_clock's clocks, Linux 6.1's x86 list in its order. */
enum trace_clock_id {
	TRACE_CLOCK_LOCAL, TRACE_CLOCK_GLOBAL, TRACE_CLOCK_COUNTER, TRACE_CLOCK_UPTIME,
	TRACE_CLOCK_PERF, TRACE_CLOCK_MONO, TRACE_CLOCK_MONO_RAW, TRACE_CLOCK_BOOT,
	TRACE_CLOCK_TAI, TRACE_CLOCK_X86_TSC, TRACE_CLOCK_NR
};
uint64_t trace_clock_read(int id);
bool trace_clock_in_ns(int id);
/* The trace_clock file: data is the trace_buffer (NULL: the top level's). */
struct seq_buf;
int trace_clock_show(struct seq_buf *s, void *data);
int trace_clock_write(const char *text, size_t len, bool trunc, void *data);
uint64_t trace_clock_tsc_to_ns(uint64_t tsc);
void trace_clock_init(void);	/* measure the TSC's rate (from a thread) */
/* Print a timestamp the way `trace` does: "   12.345678". */
int trace_sprint_ts(char *buf, size_t size, uint64_t ts_ns);
/* The same for a record, or its bare count if its clock counts (TRACE_FLAG_TS_RAW). */
int trace_sprint_entry_ts(char *buf, size_t size, const struct trace_entry *e);

/*
 * The slot for a new record in this CPU's buffer (its oldest goes), with
 * interrupts off until trace_buffer_unlock_commit(flags) (Linux's names;
 * no lock is taken: the buffer is this CPU's alone).
 */
struct trace_entry *trace_buffer_lock_reserve(unsigned long *flags);
void trace_buffer_unlock_commit(unsigned long flags);
void trace_buffer_reset(int cpu);		/* `echo > trace`: TRACE_ALL_CPUS */
/* One CPU's counts (Linux's ring_buffer_*_cpu()), and their sums. */
unsigned long trace_buffer_entries_cpu(int cpu);	/* records held, unread */
unsigned long trace_buffer_lost_cpu(int cpu);		/* overwritten unread */
unsigned long trace_buffer_written_cpu(int cpu);	/* entries + lost */
unsigned long trace_buffer_read_cpu(int cpu);		/* taken by trace_pipe */
unsigned long trace_buffer_entries(void);
unsigned long trace_buffer_lost(void);
unsigned long trace_buffer_written(void);
/* buffer_size_kb: one CPU's slots, and a new size for one CPU or all (records go). */
unsigned long trace_buffer_size(int cpu);
int trace_buffer_resize(int cpu, unsigned long entries);
/*
 * The snapshot (Linux's max_tr): spare buffers that trace_snapshot_swap()
 * exchanges with the main ones, in any context (a trigger in a probe hit).
 */
int trace_snapshot_alloc(void);
void trace_snapshot_free(void);
void trace_snapshot_reset(void);
bool trace_snapshot_allocated(void);
void trace_snapshot_swap(void);
unsigned long trace_snapshot_entries(void);
int trace_snapshot_for_each(int (*fn)(const struct trace_entry *e, void *data), void *data);
/*
 * The same for any trace array's buffer (an instance's snapshot file and
 * triggers), for one CPU (per_cpu/cpuN/snapshot) or TRACE_ALL_CPUS.
 */
struct trace_buffer;
int ring_buffer_snapshot_alloc(struct trace_buffer *tb);
void ring_buffer_snapshot_free(struct trace_buffer *tb);
void ring_buffer_snapshot_reset(struct trace_buffer *tb, int cpu);
bool ring_buffer_snapshot_allocated(struct trace_buffer *tb);
void ring_buffer_snapshot_swap(struct trace_buffer *tb, int cpu);
unsigned long ring_buffer_snapshot_entries(struct trace_buffer *tb, int cpu);
int ring_buffer_snapshot_for_each(struct trace_buffer *tb, int cpu,
				  int (*fn)(const struct trace_entry *e, void *data), void *data);
/*
 * Copy out each held record of one CPU, or of all (TRACE_ALL_CPUS) merged
 * oldest first; stop if fn returns non-zero.  _consume_each() takes each
 * record fn accepted (returned 0) out of the buffer, as trace_pipe does.
 */
int trace_buffer_for_each(int cpu, int (*fn)(const struct trace_entry *e, void *data),
			  void *data);
int trace_buffer_consume_each(int cpu, int (*fn)(const struct trace_entry *e, void *data),
			      void *data);

/*
 * One ring buffer of every CPU by itself (Linux's struct trace_buffer and
 * its ring_buffer_*() calls): the top level's, which the trace_buffer_*()
 * calls above use, and one per instance (instances/NAME).
 */
struct trace_buffer;
struct trace_buffer *ring_buffer_alloc(unsigned long entries);
void ring_buffer_free(struct trace_buffer *tb);
struct trace_entry *ring_buffer_lock_reserve(struct trace_buffer *tb, unsigned long *flags);
void ring_buffer_unlock_commit(unsigned long flags);
void ring_buffer_reset(struct trace_buffer *tb, int cpu);
int ring_buffer_resize(struct trace_buffer *tb, int cpu, unsigned long entries);
unsigned long ring_buffer_size(struct trace_buffer *tb, int cpu);
unsigned long ring_buffer_entries_cpu(struct trace_buffer *tb, int cpu);
unsigned long ring_buffer_overrun_cpu(struct trace_buffer *tb, int cpu);
unsigned long ring_buffer_read_cpu(struct trace_buffer *tb, int cpu);
int ring_buffer_for_each(struct trace_buffer *tb, int cpu, bool consuming,
			 int (*fn)(const struct trace_entry *e, void *data), void *data);
struct trace_buffer *trace_buffer_global(void);	/* the top level's */
/* Its clock (enum trace_clock_id): setting one empties the buffer, as Linux's. */
int ring_buffer_clock_id(struct trace_buffer *tb);
void ring_buffer_set_clock(struct trace_buffer *tb, int id);
uint64_t ring_buffer_time_stamp(struct trace_buffer *tb);
/*
 * trace_pipe_raw and snapshot_raw (ring_buffer_page.c): take one CPU's
 * records out of its buffer or its snapshot's (fn returns non-zero to
 * leave one), the records overwritten unread since the last call, and
 * whether the buffer holds a record and is at least full percent full
 * (buffer_percent).
 */
int ring_buffer_consume_cpu(struct trace_buffer *tb, int cpu, bool snapshot,
			    int (*fn)(const struct trace_entry *e, void *data), void *data);
unsigned long ring_buffer_lost_events(struct trace_buffer *tb, int cpu, bool snapshot);
bool ring_buffer_full_hit(struct trace_buffer *tb, int cpu, bool snapshot, unsigned int full);
/* tracing_cpumask: a CPU outside it writes nothing into tb. */
void ring_buffer_record_disable_cpu(struct trace_buffer *tb, int cpu);
void ring_buffer_record_enable_cpu(struct trace_buffer *tb, int cpu);

/* ---- trace_options and options/ (kernel/trace/trace_options.c) ------------------ */

/* Linux's TRACE_ITER_* bits in its order, then its tracers' options. */
enum trace_iter_bit {
	TRACE_ITER_PRINT_PARENT, TRACE_ITER_SYM_OFFSET, TRACE_ITER_SYM_ADDR, TRACE_ITER_VERBOSE,
	TRACE_ITER_RAW, TRACE_ITER_HEX, TRACE_ITER_BIN, TRACE_ITER_BLOCK, TRACE_ITER_PRINTK,
	TRACE_ITER_ANNOTATE, TRACE_ITER_USERSTACKTRACE, TRACE_ITER_SYM_USEROBJ,
	TRACE_ITER_PRINTK_MSGONLY, TRACE_ITER_CONTEXT_INFO, TRACE_ITER_LATENCY_FMT,
	TRACE_ITER_RECORD_CMD, TRACE_ITER_RECORD_TGID, TRACE_ITER_OVERWRITE,
	TRACE_ITER_STOP_ON_FREE, TRACE_ITER_IRQ_INFO, TRACE_ITER_MARKERS, TRACE_ITER_EVENT_FORK,
	TRACE_ITER_PAUSE_ON_TRACE, TRACE_ITER_HASH_PTR, TRACE_ITER_FUNCTION,
	TRACE_ITER_FUNC_FORK, TRACE_ITER_DISPLAY_GRAPH, TRACE_ITER_STACKTRACE,
	TRACE_ITER_NOP_ACCEPT, TRACE_ITER_NOP_REFUSE,			/* nop's */
	TRACE_ITER_FUNC_STACK, TRACE_ITER_FUNC_NO_REPEATS,		/* function's */
	TRACE_ITER_GRAPH_OVERRUN, TRACE_ITER_GRAPH_CPU, TRACE_ITER_GRAPH_OVERHEAD,
	TRACE_ITER_GRAPH_PROC, TRACE_ITER_GRAPH_DURATION, TRACE_ITER_GRAPH_ABSTIME,
	TRACE_ITER_GRAPH_IRQS, TRACE_ITER_GRAPH_TAIL, TRACE_ITER_GRAPH_SLEEP_TIME, /* function_graph's */
	TRACE_ITER_NR
};
bool trace_option_on(int bit);
/* Copy a task's name into a record: "" when record-cmd is off. */
void trace_record_comm(char *dst, size_t size, const char *comm);
int trace_options_init(void);
/* saved_cmdlines (trace_sched_switch.c): remember the running task's pid and name. */
void tracing_record_cmdline(const char *comm);
int trace_saved_cmdlines_init(void);
/* saved_tgids (trace_sched_switch.c): record-tgid's map, allocated when it goes on. */
int trace_alloc_tgid_map(void);
void tracing_record_tgid(void);		/* the running task's */
int trace_find_tgid(int pid);		/* 0: never saved */
/*
 * The pid filters (pid_list.c): set_event_pid, set_ftrace_pid and their
 * notrace lists, each trace array's own (trace_array.h).  The top level's
 * function tracers ask ftrace_ignore_this_pid(); a fork and an exit
 * update every trace array's lists that follow forks (event-fork,
 * function-fork).
 */
bool ftrace_ignore_this_pid(void);
void trace_pid_fork(struct task_struct *parent, struct task_struct *child);
void trace_pid_exit(struct task_struct *t);
/* trace_marker: one record of text in tr's buffer, EBADF while its tracing_on is 0. */
struct trace_array;
int trace_marker_record(struct trace_array *tr, const char *text, size_t len);
/* overwrite: a full buffer drops its oldest record (on) or the newest (off). */
void ring_buffer_change_overwrite(struct trace_buffer *tb, bool on);

/* ---- kprobe events (kernel/trace/trace_kprobe.c) -------------------------------- */

#define TRACEFS_DIR  "/sys/kernel/tracing"
#define KPROBES_DEBUG_DIR "/sys/kernel/debug/kprobes"

/* Create the tracefs and debugfs files (idempotent): shell_run() and the
 * tracefs test suite call it. */
int tracefs_init(void);
/* The running task's name, for $comm and the records' comm (trace_kprobe.c). */
const char *trace_current_comm(void);

/*
 * A module is coming (kernel/module.c, before its init runs): kprobe
 * events whose probes went [GONE] with an earlier copy of it, and whose
 * symbol is in it again, are probed again, armed if enabled.
 */
struct module;
void trace_kprobe_module_coming(struct module *mod);

#endif
