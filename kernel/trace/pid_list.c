/*
 * pid_list.c - the pid filters of tracefs (Linux's trace_pid_list of
 * kernel/trace/pid_list.c, and the files of trace_events.c and ftrace.c
 * that set them):
 *
 *   set_event_pid            only these tasks' events are recorded
 *   set_event_notrace_pid    these tasks' events are not
 *   set_ftrace_pid           the function tracers trace only these tasks
 *   set_ftrace_notrace_pid   ...and never these
 *
 *   echo 12 13 > set_event_pid      `>` empties the list first, `>>` adds
 *   echo > set_event_pid            no list: every task again
 *
 * Every trace array has the four files, and its lists act on its own
 * records and its own function tracer (instances/foo/set_event_pid
 * filters what foo records, not what the top level does).  With a trace
 * array's options/event-fork (function-fork for the set_ftrace files) a
 * task forked by a listed task joins its parent's list, and a listed
 * task that exits leaves it (Linux's sched_process_fork and
 * sched_process_free probes, registered while the option is on).
 *
 * A list is a bitmap over the pids up to PID_MAX_LIMIT.  A write makes a
 * new list and swaps it in, all or nothing as Linux's trace_pid_write();
 * the old one is freed once every CPU has taken an interrupt, since the
 * readers - a probe hit's record, a function tracer callback - run with
 * interrupts off.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_array.h"
#include "ftrace.h"
#include "pseudofs.h"
#include "sched.h"
#include "smp.h"
#include "mutex.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include <asm/percpu.h>

/*
 * Linux's PID_MAX_LIMIT on i386: where a long has 32 bits it is
 * PID_MAX_DEFAULT (include/linux/threads.h), the largest pid_max a task's
 * pid can wrap at.  A 4 KiB bitmap holds every such pid.
 */
#define PID_MAX_LIMIT  0x8000
#define BITS_PER_ULONG (8 * sizeof(unsigned long))

struct trace_pid_list {
	unsigned long bits[PID_MAX_LIMIT / BITS_PER_ULONG];
};

/*
 * The trace arrays that have pid files, by id: fork and exit walk them
 * under pid_list_mutex alone, never the instances' lock, and rmdir takes
 * one out (trace_pid_lists_free()) before it is freed.
 */
static struct trace_array *pid_arrays[TRACE_ARRAY_MAX];
static DEFINE_MUTEX(pid_list_mutex);

static bool trace_pid_list_is_set(const struct trace_pid_list *l, unsigned int pid)
{
	return pid < PID_MAX_LIMIT && (l->bits[pid / BITS_PER_ULONG] >> (pid % BITS_PER_ULONG)) & 1;
}

static void trace_pid_list_set(struct trace_pid_list *l, unsigned int pid)
{
	if (pid < PID_MAX_LIMIT)
		l->bits[pid / BITS_PER_ULONG] |= 1UL << (pid % BITS_PER_ULONG);
}

static void trace_pid_list_clear(struct trace_pid_list *l, unsigned int pid)
{
	if (pid < PID_MAX_LIMIT)
		l->bits[pid / BITS_PER_ULONG] &= ~(1UL << (pid % BITS_PER_ULONG));
}

/* Linux's trace_ignore_this_task(): not on tr's list, or on its notrace list. */
static bool trace_ignore_this_task(struct trace_array *tr, int kind, int pid)
{
	struct trace_pid_list *pids = READ_ONCE(tr->pid_lists[kind]);
	struct trace_pid_list *no_pids = READ_ONCE(tr->pid_lists[kind + 1]);

	return (pids && !trace_pid_list_is_set(pids, pid)) ||
	       (no_pids && trace_pid_list_is_set(no_pids, pid));
}

static int trace_current_pid(void)
{
	struct task_struct *t = this_cpu_read(current_task);

	return t ? t->pid : 0;
}

bool trace_event_pid_filtering(struct trace_array *tr)
{
	return READ_ONCE(tr->pid_lists[EVENT_PIDS]) || READ_ONCE(tr->pid_lists[EVENT_NO_PIDS]);
}

bool trace_event_ignore_this_pid(struct trace_array *tr)
{
	return trace_event_pid_filtering(tr) &&
	       trace_ignore_this_task(tr, EVENT_PIDS, trace_current_pid());
}

bool trace_array_ftrace_ignore_pid(struct trace_array *tr)
{
	return (READ_ONCE(tr->pid_lists[FTRACE_PIDS]) || READ_ONCE(tr->pid_lists[FTRACE_NO_PIDS])) &&
	       trace_ignore_this_task(tr, FTRACE_PIDS, trace_current_pid());
}

bool ftrace_ignore_this_pid(void)
{
	return trace_array_ftrace_ignore_pid(&global_trace);
}
NOKPROBE_SYMBOL(trace_pid_list_is_set);
NOKPROBE_SYMBOL(trace_ignore_this_task);
NOKPROBE_SYMBOL(trace_current_pid);
NOKPROBE_SYMBOL(trace_event_pid_filtering);
NOKPROBE_SYMBOL(trace_event_ignore_this_pid);
NOKPROBE_SYMBOL(trace_array_ftrace_ignore_pid);
NOKPROBE_SYMBOL(ftrace_ignore_this_pid);

/* ---- changing a list --------------------------------------------------------------- */

static void pid_list_sync_cpu(void *unused)
{
}

/* Swap in list (NULL: none); the old one goes once no CPU can be reading it. */
static void pid_list_replace(struct trace_array *tr, int kind, struct trace_pid_list *list)
{
	struct trace_pid_list *old = tr->pid_lists[kind];

	WRITE_ONCE(tr->pid_lists[kind], list);
	if (old) {
		on_each_cpu(pid_list_sync_cpu, NULL, 1);
		kfree(old);
	}
}

/* One pid, Linux's kstrtoul(.., 0, ..): decimal, 0x hex or 0 octal. */
static int pid_token_parse(const char *text, size_t len, unsigned int *pid)
{
	unsigned long val;

	if (kstrntoul(text, len, 0, &val) || val >= PID_MAX_LIMIT)
		return -EINVAL;
	*pid = val;
	return 0;
}

static bool pid_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Add the pids of text to list: 0, or -EINVAL at the first bad one. */
static int pid_list_parse(struct trace_pid_list *list, const char *text, size_t len, bool *any)
{
	size_t i = 0, n;
	unsigned int pid;

	while (i < len) {
		for (; i < len && pid_space(text[i]); i++)
			;
		for (n = 0; i + n < len && !pid_space(text[i + n]); n++)
			;
		if (n && pid_token_parse(text + i, n, &pid))
			return -EINVAL;
		if (n) {
			trace_pid_list_set(list, pid);
			*any = true;
		}
		i += n;
	}
	return 0;
}

/*
 * Linux's trace_pid_write(): the pids already there and the new ones,
 * into a fresh list; a bad pid changes nothing (EINVAL).  No pid left:
 * no list.  `>` emptied the list before (the open's O_TRUNC).
 */
static int pid_list_write(struct trace_array *tr, int kind, const char *text, size_t len,
			  bool trunc)
{
	struct trace_pid_list *list = kzalloc(sizeof(*list));
	bool any = false;
	int ret;

	if (!list)
		return -ENOMEM;
	mutex_lock(&pid_list_mutex);
	if (trunc)
		pid_list_replace(tr, kind, NULL);
	if (tr->pid_lists[kind]) {
		*list = *tr->pid_lists[kind];
		any = true;
	}
	ret = pid_list_parse(list, text, len, &any);
	if (ret == 0)
		pid_list_replace(tr, kind, any ? list : NULL);
	if (ret || !any)
		kfree(list);
	mutex_unlock(&pid_list_mutex);
	return ret;
}

/* Does kind's list follow forks and exits in tr?  event-fork, function-fork. */
static bool pid_list_follows(struct trace_array *tr, int kind)
{
	return trace_array_option_on(tr, kind < FTRACE_PIDS ? TRACE_ITER_EVENT_FORK :
							      TRACE_ITER_FUNC_FORK);
}

/*
 * Linux's trace_filter_add_remove_task(): a fork (parent set) adds the
 * child where the parent is listed, an exit (parent NULL) takes the task
 * off; in each trace array whose option says the list follows tasks.
 */
static void pid_lists_follow(struct task_struct *parent, struct task_struct *t)
{
	mutex_lock(&pid_list_mutex);
	for (int id = 0; id < TRACE_ARRAY_MAX; id++) {
		struct trace_array *tr = pid_arrays[id];

		for (int kind = 0; tr && kind < NR_PID_LISTS; kind++) {
			struct trace_pid_list *l = tr->pid_lists[kind];

			if (!l || !pid_list_follows(tr, kind))
				continue;
			if (!parent)
				trace_pid_list_clear(l, t->pid);
			else if (trace_pid_list_is_set(l, parent->pid))
				trace_pid_list_set(l, t->pid);
		}
	}
	mutex_unlock(&pid_list_mutex);
}

void trace_pid_fork(struct task_struct *parent, struct task_struct *child)
{
	pid_lists_follow(parent, child);
}

void trace_pid_exit(struct task_struct *t)
{
	pid_lists_follow(NULL, t);
}

/* ---- the files ------------------------------------------------------------------------ */

/* One pid a line, smallest first; the set_ftrace files say "no pid" for none. */
static int pid_file_show(struct seq_buf *s, void *data)
{
	struct trace_pid_file *f = data;
	struct trace_pid_list *l;

	mutex_lock(&pid_list_mutex);
	l = f->tr->pid_lists[f->kind];
	if (!l && f->kind >= FTRACE_PIDS)
		seq_buf_puts(s, "no pid\n");
	for (unsigned int pid = 0; l && pid < PID_MAX_LIMIT; pid++)
		if (trace_pid_list_is_set(l, pid))
			seq_buf_printf(s, "%u\n", pid);
	mutex_unlock(&pid_list_mutex);
	return 0;
}

static int pid_file_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_pid_file *f = data;

	return pid_list_write(f->tr, f->kind, text, len, trunc);
}

static const char *const pid_file_names[NR_PID_LISTS] = {
	[EVENT_PIDS] = "set_event_pid", [EVENT_NO_PIDS] = "set_event_notrace_pid",
	[FTRACE_PIDS] = "set_ftrace_pid", [FTRACE_NO_PIDS] = "set_ftrace_notrace_pid",
};

int trace_pid_files_create(struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	for (int kind = 0; kind < NR_PID_LISTS && !ret; kind++) {
		tr->pid_files[kind] = (struct trace_pid_file){ tr, kind };
		snprintf(path, sizeof(path), "%s/%s", tr->dir, pid_file_names[kind]);
		ret = pseudofs_create(path, pid_file_show, pid_file_write, &tr->pid_files[kind]);
	}
	mutex_lock(&pid_list_mutex);
	pid_arrays[tr->id] = tr;
	mutex_unlock(&pid_list_mutex);
	return ret;
}

/* rmdir: no hit reads tr's lists any more (its files are gone, its events off). */
void trace_pid_lists_free(struct trace_array *tr)
{
	mutex_lock(&pid_list_mutex);
	if (pid_arrays[tr->id] == tr)
		pid_arrays[tr->id] = NULL;
	for (int kind = 0; kind < NR_PID_LISTS; kind++) {
		kfree(tr->pid_lists[kind]);
		tr->pid_lists[kind] = NULL;
	}
	mutex_unlock(&pid_list_mutex);
}
