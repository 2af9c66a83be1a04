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
 *            into the ring buffer (kernel/trace/trace_buffer.c)
 *   cat /sys/kernel/tracing/trace -> the records as Linux prints them
 */
#ifndef TRACE_H
#define TRACE_H

#include <stdint.h>
#include <stdbool.h>
#include "sched.h"
#include "pseudofs.h"

/* ---- the ring buffer (kernel/trace/trace_buffer.c) ------------------------------- */

#define TRACE_BUF_ENTRIES  256	/* records kept; older ones are overwritten */
#define TRACE_PAYLOAD_MAX  512	/* bytes of fetched arguments per record */

#define TRACE_FLAG_IRQS_OFF 0x01	/* IF was clear in the probed code */

/* One event as it happened. */
struct trace_entry {
	uint64_t ts_us;			/* trace_clock_us() at the hit */
	unsigned int event_id;		/* which trace_kprobe */
	int pid;
	char comm[TASK_NAME_LEN];
	uint8_t flags;			/* TRACE_FLAG_* */
	uint8_t preempt;		/* preempt_count() at the hit */
	uint16_t len;			/* payload bytes used */
	unsigned long ip;		/* the probed address */
	unsigned long ret_ip;		/* kretprobe: where the function returned to */
	char payload[TRACE_PAYLOAD_MAX];/* probe_args_fetch()'s record */
};

/* Microseconds since boot: jiffies, refined within a tick by the TSC. */
uint64_t trace_clock_us(void);
void trace_clock_init(void);

/*
 * The slot for a new record (the oldest goes), with the buffer locked
 * and interrupts off until trace_buffer_unlock_commit(flags).
 */
struct trace_entry *trace_buffer_lock_reserve(unsigned long *flags);
void trace_buffer_unlock_commit(unsigned long flags);
void trace_buffer_reset(void);		/* `echo > trace` */
unsigned long trace_buffer_entries(void);	/* records held now */
unsigned long trace_buffer_written(void);	/* records ever written */
unsigned long trace_buffer_lost(void);		/* written - held: overwritten */
/* Copy out each held record, oldest first; stop if fn returns non-zero. */
int trace_buffer_for_each(int (*fn)(const struct trace_entry *e, void *data),
			  void *data);
/* Print a timestamp the way `trace` does: "   12.345678". */
int trace_sprint_ts(char *buf, size_t size, uint64_t ts_us);

/* ---- kprobe events (kernel/trace/trace_kprobe.c) -------------------------------- */

#define TRACEFS_DIR  "/sys/kernel/tracing"
#define KPROBES_DEBUG_DIR "/sys/kernel/debug/kprobes"

/* Create the tracefs and debugfs files (idempotent): shell_run() and the
 * tracefs test suite call it. */
int tracefs_init(void);

#endif
