/*
 * trace_array.h - trace instances (Linux's struct trace_array):
 *
 *   mkdir /sys/kernel/tracing/instances/foo    a second tracefs in foo/,
 *        with its own ring buffer, tracing_on, buffer_size_kb, trace,
 *        trace_pipe, set_event, current_tracer and events/.../enable
 *   echo 1 > instances/foo/events/kprobes/myfib/enable
 *        -> myfib's hits are recorded in foo's buffer, whatever the
 *           top level's enable file says
 *   rmdir instances/foo                        everything of foo goes
 *
 * The top level (/sys/kernel/tracing itself) is instance 0; an event
 * enabled in instance n has bit n of its trace_probe's enabled_in set,
 * and its probe is armed while any bit is.
 */
#ifndef TRACE_ARRAY_H
#define TRACE_ARRAY_H

#include <stdbool.h>
#include <stdint.h>
#include "list.h"
#include "pseudofs.h"
#include "trace.h"	/* TRACEFS_DIR */
#include "ftrace.h"

#define TRACE_INSTANCES_DIR  TRACEFS_DIR "/instances"
#define TRACE_ARRAY_TOP      0		/* the top level's bit in enabled_in */
#define TRACE_ARRAY_MAX      32	/* the top level and 31 instances: enabled_in's bits */
#define TRACE_ARRAY_NAME_LEN 64

struct trace_buffer;
struct trace_probe;
struct fetch_ops;
struct pt_regs;

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
};

/*
 * Linux's kernel API for an instance a module owns (samples/ftrace/
 * sample-trace-array.c): the instance NAME, made if it is not there,
 * with a reference that makes rmdir fail with EBUSY until
 * trace_array_put().  NULL on failure.
 */
struct trace_array *trace_array_get_by_name(const char *name);
void trace_array_put(struct trace_array *tr);

/* Record a hit of event tp in every instance (not the top level) where it is enabled. */
void trace_instances_record(struct trace_probe *tp, const struct fetch_ops *fops,
			    struct pt_regs *regs, unsigned long ip, unsigned long ret_ip);
/* Every instance's records go (an event that wrote some was removed). */
void trace_instances_reset(void);
/* An event came or goes: its enable files in every instance. */
int trace_instances_event_add(struct trace_probe *tp);
void trace_instances_event_remove(struct trace_probe *tp);
int trace_instances_init(void);	/* the instances/ directory */

#endif
