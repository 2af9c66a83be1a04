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
 * A list is Linux's sparse bitmap of three levels over any pid below
 * 2^30: the top 8 bits of a pid pick an upper chunk, the next 8 a lower
 * chunk in it, the last 14 a bit in that; chunks are made as pids
 * arrive, so a few pids cost a few KiB whatever their size (this
 * kernel's pids are never reused, they grow past pid_max).  A write
 * makes a new list and swaps it in, all or nothing as Linux's
 * trace_pid_write(); the old one is freed once every CPU has taken an
 * interrupt, since the readers - a probe hit's record, a function tracer
 * callback - run with interrupts off.  A fork adds a pid in place: a new
 * chunk is zeroed before the pointer to it is stored, and x86 keeps
 * stores in order, so a reader sees either no chunk or a clean one.
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

/* Linux's MAX_PID: futex's 30-bit TID mask, above any PID_MAX_LIMIT. */
#define PID_LIST_MAX   (1U << 30)
#define UPPER_BITS     8
#define LOWER_BITS     14
#define UPPER_SIZE     (1U << UPPER_BITS)
#define LOWER_SIZE     (1U << LOWER_BITS)
#define UPPER1_SHIFT   (UPPER_BITS + LOWER_BITS)
#define UPPER2_SHIFT   LOWER_BITS
#define BITS_PER_ULONG (8 * sizeof(unsigned long))

struct pid_lower_chunk {
	unsigned long bits[LOWER_SIZE / BITS_PER_ULONG];	/* 2 KiB: 16384 pids */
};

struct pid_upper_chunk {
	struct pid_lower_chunk *lower[UPPER_SIZE];
};

struct trace_pid_list {
	struct pid_upper_chunk *upper[UPPER_SIZE];
};

/*
 * The trace arrays that have pid files, by id: fork and exit walk them
 * under pid_list_mutex alone, never the instances' lock, and rmdir takes
 * one out (trace_pid_lists_free()) before it is freed.
 */
static struct trace_array *pid_arrays[TRACE_ARRAY_MAX];
static DEFINE_MUTEX(pid_list_mutex);

/* The lower chunk pid's bit is in, NULL if none was made. */
static struct pid_lower_chunk *pid_chunk(const struct trace_pid_list *l, unsigned int pid)
{
	struct pid_upper_chunk *upper;

	if (pid >= PID_LIST_MAX)
		return NULL;
	upper = READ_ONCE(l->upper[pid >> UPPER1_SHIFT]);
	return upper ? READ_ONCE(upper->lower[(pid >> UPPER2_SHIFT) % UPPER_SIZE]) : NULL;
}

static bool trace_pid_list_is_set(const struct trace_pid_list *l, unsigned int pid)
{
	struct pid_lower_chunk *c = pid_chunk(l, pid);
	unsigned int bit = pid % LOWER_SIZE;

	return c && (c->bits[bit / BITS_PER_ULONG] >> (bit % BITS_PER_ULONG)) & 1;
}

/* pid's lower chunk, made (zeroed, then published) if need be; NULL: no memory. */
static struct pid_lower_chunk *pid_chunk_get(struct trace_pid_list *l, unsigned int pid)
{
	struct pid_upper_chunk **upper = &l->upper[pid >> UPPER1_SHIFT];
	struct pid_lower_chunk **lower;

	if (!*upper)
		WRITE_ONCE(*upper, kzalloc(sizeof(**upper)));
	if (!*upper)
		return NULL;
	lower = &(*upper)->lower[(pid >> UPPER2_SHIFT) % UPPER_SIZE];
	if (!*lower)
		WRITE_ONCE(*lower, kzalloc(sizeof(**lower)));
	return *lower;
}

/* Linux's trace_pid_list_set(): 0, -EINVAL past 2^30, -ENOMEM. */
static int trace_pid_list_set(struct trace_pid_list *l, unsigned int pid)
{
	struct pid_lower_chunk *c = pid >= PID_LIST_MAX ? NULL : pid_chunk_get(l, pid);
	unsigned int bit = pid % LOWER_SIZE;

	if (!c)
		return pid >= PID_LIST_MAX ? -EINVAL : -ENOMEM;
	c->bits[bit / BITS_PER_ULONG] |= 1UL << (bit % BITS_PER_ULONG);
	return 0;
}

static void trace_pid_list_clear(struct trace_pid_list *l, unsigned int pid)
{
	struct pid_lower_chunk *c = pid_chunk(l, pid);
	unsigned int bit = pid % LOWER_SIZE;

	if (c)
		c->bits[bit / BITS_PER_ULONG] &= ~(1UL << (bit % BITS_PER_ULONG));
}

/* Linux's trace_pid_list_free(): every chunk, then the list. */
static void trace_pid_list_free(struct trace_pid_list *l)
{
	for (unsigned int i = 0; l && i < UPPER_SIZE; i++) {
		for (unsigned int j = 0; l->upper[i] && j < UPPER_SIZE; j++)
			kfree(l->upper[i]->lower[j]);
		kfree(l->upper[i]);
	}
	kfree(l);
}

/* A copy of l, chunk by chunk (NULL: no memory). */
static struct trace_pid_list *trace_pid_list_copy(const struct trace_pid_list *l)
{
	struct trace_pid_list *copy = kzalloc(sizeof(*copy));

	for (unsigned int i = 0; copy && i < UPPER_SIZE; i++) {
		for (unsigned int j = 0; l->upper[i] && j < UPPER_SIZE; j++) {
			struct pid_lower_chunk *c = l->upper[i]->lower[j];
			unsigned int first = (i << UPPER1_SHIFT) | (j << UPPER2_SHIFT);

			if (!c)
				continue;
			if (!pid_chunk_get(copy, first)) {
				trace_pid_list_free(copy);
				return NULL;
			}
			*copy->upper[i]->lower[j] = *c;
		}
	}
	return copy;
}

/* Linux's trace_pid_list_next(): the first listed pid from pid on; false if none. */
static bool trace_pid_list_next(const struct trace_pid_list *l, unsigned int pid,
				unsigned int *next)
{
	for (; pid < PID_LIST_MAX; pid++) {
		if (!pid_chunk(l, pid)) {	/* no chunk: on to the next one */
			pid = (pid | (LOWER_SIZE - 1));
			continue;
		}
		if (trace_pid_list_is_set(l, pid)) {
			*next = pid;
			return true;
		}
	}
	return false;
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
NOKPROBE_SYMBOL(pid_chunk);
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
		trace_pid_list_free(old);
	}
}

/*
 * One pid, Linux's kstrtoul(.., 0, ..): decimal, 0x hex or 0 octal; not
 * a number is EINVAL.  A number past the list's 2^30 is EPERM: Linux's
 * trace_pid_write() returns -1 when trace_pid_list_set() refuses it.
 */
static int pid_token_parse(const char *text, size_t len, unsigned int *pid)
{
	unsigned long val;

	if (kstrntoul(text, len, 0, &val))
		return -EINVAL;
	if (val >= PID_LIST_MAX)
		return -EPERM;
	*pid = val;
	return 0;
}

static bool pid_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Add the pids of text to list: 0, or the error of the first bad one (-ENOMEM). */
static int pid_list_parse(struct trace_pid_list *list, const char *text, size_t len, bool *any)
{
	size_t i = 0, n;
	unsigned int pid;
	int ret;

	while (i < len) {
		for (; i < len && pid_space(text[i]); i++)
			;
		for (n = 0; i + n < len && !pid_space(text[i + n]); n++)
			;
		ret = n ? pid_token_parse(text + i, n, &pid) : 0;
		if (ret)
			return ret;
		if (n && trace_pid_list_set(list, pid))
			return -ENOMEM;
		*any |= n != 0;
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
	struct trace_pid_list *list;
	bool any = false;
	int ret;

	mutex_lock(&pid_list_mutex);
	if (trunc)
		pid_list_replace(tr, kind, NULL);
	any = tr->pid_lists[kind] != NULL;
	list = any ? trace_pid_list_copy(tr->pid_lists[kind]) : kzalloc(sizeof(*list));
	ret = list ? pid_list_parse(list, text, len, &any) : -ENOMEM;
	if (ret == 0 && any)
		pid_list_replace(tr, kind, list);
	else
		trace_pid_list_free(list);
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
	for (unsigned int pid = 0; l && trace_pid_list_next(l, pid, &pid); pid++)
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
		trace_pid_list_free(tr->pid_lists[kind]);
		tr->pid_lists[kind] = NULL;
	}
	mutex_unlock(&pid_list_mutex);
}
