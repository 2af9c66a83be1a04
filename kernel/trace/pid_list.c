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
 * With options/event-fork (function-fork for the set_ftrace files) a
 * task forked by a listed task joins its parent's list.
 *
 * A list is a bitmap over the pids (Linux's is sparse, for any pid up to
 * PID_MAX_LIMIT; this kernel's pids stay below PID_MAX_DEFAULT).  A write
 * makes a new list and swaps it in, all or nothing as Linux's
 * trace_pid_write(); the old one is freed once every CPU has taken an
 * interrupt, since the readers - a probe hit's record, a function
 * tracer callback - run with interrupts off.
 */
#include "kernel.h"
#include "trace.h"
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

#define PID_LIST_MAX   0x8000	/* Linux's PID_MAX_DEFAULT: pids below it */
#define BITS_PER_ULONG (8 * sizeof(unsigned long))
#define PID_TOKEN_MAX  24	/* "4294967295" and more fit */

struct trace_pid_list {
	unsigned long bits[PID_LIST_MAX / BITS_PER_ULONG];
};

enum trace_pid_kind { EVENT_PIDS, EVENT_NO_PIDS, FTRACE_PIDS, FTRACE_NO_PIDS, NR_PID_LISTS };

static struct trace_pid_list *pid_lists[NR_PID_LISTS];	/* NULL: no filter */
static DEFINE_MUTEX(pid_list_mutex);

static bool trace_pid_list_is_set(const struct trace_pid_list *l, unsigned int pid)
{
	return pid < PID_LIST_MAX && (l->bits[pid / BITS_PER_ULONG] >> (pid % BITS_PER_ULONG)) & 1;
}

static void trace_pid_list_set(struct trace_pid_list *l, unsigned int pid)
{
	l->bits[pid / BITS_PER_ULONG] |= 1UL << (pid % BITS_PER_ULONG);
}

/* Linux's trace_ignore_this_task(): not on the list, or on the notrace list. */
static bool trace_ignore_this_task(int kind, int pid)
{
	struct trace_pid_list *pids = READ_ONCE(pid_lists[kind]);
	struct trace_pid_list *no_pids = READ_ONCE(pid_lists[kind + 1]);

	return (pids && !trace_pid_list_is_set(pids, pid)) ||
	       (no_pids && trace_pid_list_is_set(no_pids, pid));
}

static int trace_current_pid(void)
{
	struct task_struct *t = this_cpu_read(current_task);

	return t ? t->pid : 0;
}

bool trace_event_pid_filtering(void)
{
	return READ_ONCE(pid_lists[EVENT_PIDS]) || READ_ONCE(pid_lists[EVENT_NO_PIDS]);
}

bool trace_event_ignore_this_pid(void)
{
	return trace_event_pid_filtering() &&
	       trace_ignore_this_task(EVENT_PIDS, trace_current_pid());
}

bool ftrace_ignore_this_pid(void)
{
	return (READ_ONCE(pid_lists[FTRACE_PIDS]) || READ_ONCE(pid_lists[FTRACE_NO_PIDS])) &&
	       trace_ignore_this_task(FTRACE_PIDS, trace_current_pid());
}
NOKPROBE_SYMBOL(trace_pid_list_is_set);
NOKPROBE_SYMBOL(trace_ignore_this_task);
NOKPROBE_SYMBOL(trace_current_pid);
NOKPROBE_SYMBOL(trace_event_pid_filtering);
NOKPROBE_SYMBOL(trace_event_ignore_this_pid);
NOKPROBE_SYMBOL(ftrace_ignore_this_pid);

/* ---- changing a list --------------------------------------------------------------- */

static void pid_list_sync_cpu(void *unused)
{
}

/* Swap in list (NULL: none); the old one goes once no CPU can be reading it. */
static void pid_list_replace(int kind, struct trace_pid_list *list)
{
	struct trace_pid_list *old = pid_lists[kind];

	WRITE_ONCE(pid_lists[kind], list);
	if (old) {
		on_each_cpu(pid_list_sync_cpu, NULL, 1);
		kfree(old);
	}
}

/* One pid, Linux's kstrtoul(.., 0, ..): decimal, 0x hex or 0 octal. */
static int pid_token_parse(const char *text, size_t len, unsigned int *pid)
{
	unsigned long val;

	if (kstrntoul(text, len, 0, &val) || val >= PID_LIST_MAX)
		return -EINVAL;
	*pid = val;
	return 0;
}

/*
 * Linux's trace_pid_write(): the pids already there and the new ones,
 * into a fresh list; a bad pid changes nothing (EINVAL).  No pid left:
 * no list.  `>` emptied the list before (the open's O_TRUNC).
 */
static int pid_list_write(int kind, const char *text, size_t len, bool trunc)
{
	struct trace_pid_list *list = kzalloc(sizeof(*list));
	bool any = false;
	size_t i = 0, n;
	unsigned int pid;

	if (!list)
		return -ENOMEM;
	mutex_lock(&pid_list_mutex);
	if (trunc)
		pid_list_replace(kind, NULL);
	if (pid_lists[kind]) {
		*list = *pid_lists[kind];
		any = true;
	}
	while (i < len) {
		for (; i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'); i++)
			;
		for (n = 0; i + n < len && text[i + n] != ' ' && text[i + n] != '\t' &&
			    text[i + n] != '\n'; n++)
			;
		if (n && pid_token_parse(text + i, n, &pid)) {
			mutex_unlock(&pid_list_mutex);
			kfree(list);
			return -EINVAL;
		}
		if (n) {
			trace_pid_list_set(list, pid);
			any = true;
		}
		i += n;
	}
	pid_list_replace(kind, any ? list : NULL);
	if (!any)
		kfree(list);
	mutex_unlock(&pid_list_mutex);
	return 0;
}

/* A task forked by a listed one is listed too (event-fork, function-fork). */
void trace_pid_fork(struct task_struct *parent, struct task_struct *child)
{
	bool event_fork = trace_option_on(TRACE_ITER_EVENT_FORK);
	bool func_fork = trace_option_on(TRACE_ITER_FUNC_FORK);

	if (!event_fork && !func_fork)
		return;
	mutex_lock(&pid_list_mutex);
	for (int kind = 0; kind < NR_PID_LISTS; kind++) {
		struct trace_pid_list *l = pid_lists[kind];
		bool follows = kind < FTRACE_PIDS ? event_fork : func_fork;

		if (l && follows && trace_pid_list_is_set(l, parent->pid) &&
		    (unsigned int)child->pid < PID_LIST_MAX)
			trace_pid_list_set(l, child->pid);
	}
	mutex_unlock(&pid_list_mutex);
}

/* ---- the files ------------------------------------------------------------------------ */

static const int pid_kinds[NR_PID_LISTS] = { EVENT_PIDS, EVENT_NO_PIDS, FTRACE_PIDS,
					       FTRACE_NO_PIDS };

/* Each file's data points at its kind. */
static int pid_file_kind(void *data)
{
	return *(const int *)data;
}

/* One pid a line, smallest first; the set_ftrace files say "no pid" for none. */
static int pid_file_show(struct seq_buf *s, void *data)
{
	int kind = pid_file_kind(data);
	struct trace_pid_list *l;

	mutex_lock(&pid_list_mutex);
	l = pid_lists[kind];
	if (!l && kind >= FTRACE_PIDS)
		seq_buf_puts(s, "no pid\n");
	for (unsigned int pid = 0; l && pid < PID_LIST_MAX; pid++)
		if (trace_pid_list_is_set(l, pid))
			seq_buf_printf(s, "%u\n", pid);
	mutex_unlock(&pid_list_mutex);
	return 0;
}

static int pid_file_write(const char *text, size_t len, bool trunc, void *data)
{
	return pid_list_write(pid_file_kind(data), text, len, trunc);
}

static const char *const pid_file_names[NR_PID_LISTS] = {
	[EVENT_PIDS] = "set_event_pid", [EVENT_NO_PIDS] = "set_event_notrace_pid",
	[FTRACE_PIDS] = "set_ftrace_pid", [FTRACE_NO_PIDS] = "set_ftrace_notrace_pid",
};

int trace_pid_files_init(void)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	for (int kind = 0; kind < NR_PID_LISTS && !ret; kind++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/%s", pid_file_names[kind]);
		ret = pseudofs_create(path, pid_file_show, pid_file_write, (void *)&pid_kinds[kind]);
	}
	return ret;
}
