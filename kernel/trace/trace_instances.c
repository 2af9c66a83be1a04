/*
 * trace_instances.c - tracefs' instances/ directory (Linux keeps it in
 * kernel/trace/trace.c: instance_mkdir(), instance_rmdir(), struct
 * trace_array).  Two users tracing at once would share one buffer and
 * clear each other's records; an instance gives each its own:
 *
 *   mkdir /sys/kernel/tracing/instances/foo
 *   echo 1 > instances/foo/events/kprobes/myfib/enable
 *   run fib 5
 *   cat instances/foo/trace       myfib's hits, only here
 *   cat trace                     the top level saw none (its enable is 0)
 *   rmdir instances/foo           the buffer and the files go
 *
 * An instance is a trace_array: a ring buffer of every CPU
 * (trace_buffer.c's struct trace_buffer), its own tracing_on, options,
 * error_log and snapshot, a bit in each event's enabled_in (trace_events.c
 * arms a probe while any bit is set) and a trace_event_file of each event
 * (its filter, triggers, hist).  A hit finds the instance's file by the
 * instance's id in the top level's file of the event, with no lock:
 * rmdir takes the instance's triggers away, then each of its event files
 * (each gone after synchronize_kprobes(): no hit holds it any more), and
 * only then frees its buffer.  trace_arrays[] hands out the ids.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_array.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "pseudofs.h"
#include "kprobes.h"
#include "mutex.h"
#include "smp.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "ftrace.h"
#include "nokprobe.h"

/*
 * The top level (Linux's global_trace): its buffer is trace_buffer.c's
 * static one, set at init; its files are the ones directly under
 * /sys/kernel/tracing.  It is not on trace_instances, nor in trace_arrays[].
 */
struct trace_array global_trace = {
	.dir = TRACEFS_DIR,
	.id = TRACE_ARRAY_TOP,
	.tracing_on = true,
	.trace_flags = TRACE_DEFAULT_FLAGS,
	.tracing_cpumask = TRACE_CPUMASK_ALL,
	.buffer_percent = TRACE_BUFFER_PERCENT_DEFAULT,
};

static LIST_HEAD(trace_instances);
static struct trace_array *trace_arrays[TRACE_ARRAY_MAX];	/* by id; 0, the top level's bit, stays empty */
static DEFINE_MUTEX(trace_types_lock);				/* Linux's name: mkdir, rmdir */

static struct trace_array *find_instance(const char *name)
{
	struct trace_array *tr;

	list_for_each_entry(tr, &trace_instances, list)
		if (strcmp(tr->name, name) == 0)
			return tr;
	return NULL;
}

/* ---- a hit ------------------------------------------------------------------------ */

/*
 * Each instance where the event is on gets its own record, through the
 * instance's file of the event: its filter, its triggers (acting on the
 * instance), its tracing_on, its clock (trace.c's trace_event_file_*()).
 */
void trace_instance_record(struct trace_probe *tp, const struct fetch_ops *fops,
			   struct pt_regs *regs, unsigned long ip, unsigned long ret_ip, int id)
{
	int preempt = preempt_count();
	struct trace_probe *ev = tp->leader ? tp->leader : tp;
	struct trace_event_file *top = READ_ONCE(ev->event_file);
	struct trace_event_file *file = top ? READ_ONCE(top->instance_files[id]) : NULL;
	struct trace_array *tr;
	struct trace_entry *e;
	unsigned long flags;

	if (!file)
		return;
	tr = file->tr;
	e = trace_event_file_reserve(file, &flags);
	trace_probe_fill(e, tp, ev->id, fops, regs, ip, ret_ip, preempt);
	e->ts = ring_buffer_time_stamp(tr->buffer);	/* the instance's trace_clock */
	trace_event_file_commit(file, e, regs, flags);
	if (trace_array_option_on(tr, TRACE_ITER_STACKTRACE))
		__trace_stack(tr, regs);
}

void trace_instances_record(struct trace_probe *tp, const struct fetch_ops *fops,
			    struct pt_regs *regs, unsigned long ip, unsigned long ret_ip)
{
	struct trace_probe *ev = tp->leader ? tp->leader : tp;
	unsigned long mask = trace_event_instances_on(ev);

	for (int id = 1; id < TRACE_ARRAY_MAX && mask; id++) {
		if (!(mask & (1UL << id)))
			continue;
		mask &= ~(1UL << id);
		trace_instance_record(tp, fops, regs, ip, ret_ip, id);
	}
}
NOKPROBE_SYMBOL(trace_instance_record);
NOKPROBE_SYMBOL(trace_instances_record);

/*
 * A finished record (a synthetic event's, made by an action) into each
 * instance where tp is on, through the instance's file of tp - its
 * filter, its triggers, its tracing_on - stamped with its clock: Linux's
 * trace_synth() calls the probe of every trace array's file.
 */
void trace_instances_commit(struct trace_probe *tp, struct trace_entry *e, struct pt_regs *regs)
{
	struct trace_event_file *top = READ_ONCE(tp->event_file);
	unsigned long mask = trace_event_instances_on(tp);

	for (int id = 1; top && id < TRACE_ARRAY_MAX && mask; id++) {
		struct trace_event_file *file;

		if (!(mask & (1UL << id)))
			continue;
		mask &= ~(1UL << id);
		file = READ_ONCE(top->instance_files[id]);
		if (!file)
			continue;
		e->ts = ring_buffer_time_stamp(file->tr->buffer);
		trace_event_file_commit_entry(file, e, regs);
	}
}
NOKPROBE_SYMBOL(trace_instances_commit);

void trace_instances_reset(void)
{
	struct trace_array *tr;

	mutex_lock(&trace_types_lock);
	list_for_each_entry(tr, &trace_instances, list)
		ring_buffer_reset(tr->buffer, TRACE_ALL_CPUS);
	mutex_unlock(&trace_types_lock);
}

/* ---- trace, trace_pipe, buffer_size_kb: the instance's and per_cpu/cpuN/'s --------------- */

/*
 * Each file's data is a trace_cpu_file: the instance and a CPU, or
 * TRACE_ALL_CPUS for the files at the instance's top.
 */
static unsigned long sum_cpus(struct trace_buffer *tb, int only,
			      unsigned long (*count)(struct trace_buffer *tb, int cpu))
{
	unsigned long sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		if (only == TRACE_ALL_CPUS || only == cpu)
			sum += count(tb, cpu);
	return sum;
}

static int print_line(const struct trace_entry *e, void *data)
{
	return print_trace_line(e, data);
}

/* The top level's header and lines (trace_kprobe.c prints both). */
static int instance_trace_show(struct seq_buf *s, void *data)
{
	struct trace_cpu_file *f = data;
	struct trace_array *tr = f->tr;
	unsigned long entries = sum_cpus(tr->buffer, f->cpu, ring_buffer_entries_cpu);
	unsigned long lost = sum_cpus(tr->buffer, f->cpu, ring_buffer_overrun_cpu);

	trace_array_print_begin(tr);	/* its records print with its options */
	seq_buf_printf(s, "# tracer: %s\n#\n", trace_array_tracer_name(tr));
	if (trace_option_on(TRACE_ITER_CONTEXT_INFO)) {
		seq_buf_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%u\n",
			       entries, entries + lost, num_online_cpus());
		print_trace_header(s);
	}
	ring_buffer_for_each(tr->buffer, f->cpu, false, print_line, s);
	trace_array_print_end();
	return 0;
}

static int instance_trace_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_cpu_file *f = data;

	if (trunc)
		ring_buffer_reset(f->tr->buffer, f->cpu);
	return 0;
}

/* As the top level's: a record that does not fit the read stays for the next. */
static int pipe_line(const struct trace_entry *e, void *data)
{
	struct seq_buf *s = data;
	size_t len = s->len;

	print_trace_line(e, s);
	if (!seq_buf_has_overflowed(s))
		return 0;
	s->len = len;
	s->buffer[len] = '\0';
	return 1;
}

static int instance_trace_pipe_show(struct seq_buf *s, void *data)
{
	struct trace_cpu_file *f = data;

	trace_array_print_begin(f->tr);
	ring_buffer_for_each(f->tr->buffer, f->cpu, true, pipe_line, s);
	trace_array_print_end();
	return 0;
}

/* per_cpu/cpuN/stats: Linux's counts for one CPU's buffer, the instance's clock's "now". */
static int instance_stats_show(struct seq_buf *s, void *data)
{
	struct trace_cpu_file *f = data;
	struct trace_buffer *tb = f->tr->buffer;
	uint64_t now = ring_buffer_time_stamp(tb);
	char ts[24];

	if (trace_clock_in_ns(ring_buffer_clock_id(tb)))
		trace_sprint_ts(ts, sizeof(ts), now);
	else
		snprintf(ts, sizeof(ts), "%llu", (unsigned long long)now);
	seq_buf_printf(s, "entries: %lu\n", ring_buffer_entries_cpu(tb, f->cpu));
	seq_buf_printf(s, "overrun: %lu\n", ring_buffer_overrun_cpu(tb, f->cpu));
	seq_buf_printf(s, "now ts: %s\n", ts);
	seq_buf_printf(s, "read events: %lu\n", ring_buffer_read_cpu(tb, f->cpu));
	return 0;
}

/* ---- tracing_on and buffer_size_kb --------------------------------------------------- */

#define KB 1024
#define BUFFER_SIZE_KB_MAX (256UL * KB)	/* as the top level's: more than the machine has */

static int instance_tracing_on_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(((struct trace_array *)data)->tracing_on));
	return 0;
}

static int instance_tracing_on_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	if (!ret)
		WRITE_ONCE(((struct trace_array *)data)->tracing_on, val != 0);
	return ret;
}

static int instance_trace_marker_write(const char *text, size_t len, bool trunc, void *data)
{
	return trace_marker_record(data, text, len);
}

static unsigned long entries_kb(unsigned long entries)
{
	return (entries * sizeof(struct trace_entry) + KB - 1) / KB;
}

/* One CPU's size, or every CPU's: X when they differ, as Linux's. */
static int instance_buffer_size_show(struct seq_buf *s, void *data)
{
	struct trace_cpu_file *f = data;
	unsigned long size = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		if (f->cpu != TRACE_ALL_CPUS && f->cpu != cpu)
			continue;
		if (size && ring_buffer_size(f->tr->buffer, cpu) != size) {
			seq_buf_puts(s, "X\n");
			return 0;
		}
		size = ring_buffer_size(f->tr->buffer, cpu);
	}
	seq_buf_printf(s, "%lu\n", entries_kb(size));
	return 0;
}

static int instance_buffer_total_show(struct seq_buf *s, void *data)
{
	struct trace_array *tr = data;
	unsigned long total = 0;
	int cpu;

	for_each_online_cpu(cpu)
		total += entries_kb(ring_buffer_size(tr->buffer, cpu));
	seq_buf_printf(s, "%lu\n", total);
	return 0;
}

static int instance_buffer_size_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_cpu_file *f = data;
	unsigned long kb;
	int ret = kstrntoul(text, len, 10, &kb);

	if (ret)
		return ret;
	if (kb == 0)
		return -EINVAL;
	if (kb > BUFFER_SIZE_KB_MAX)
		return -ENOMEM;
	return ring_buffer_resize(f->tr->buffer, f->cpu,
				  (kb * KB + sizeof(struct trace_entry) - 1) /
				  sizeof(struct trace_entry));
}

/* per_cpu/cpuN/ for each CPU that runs: Linux's files of one CPU's buffer. */
static const struct pseudo_file_spec instance_per_cpu_files[] = {
	{ "buffer_size_kb", instance_buffer_size_show, instance_buffer_size_write },
	{ "stats",          instance_stats_show,       NULL },
	{ "trace",          instance_trace_show,       instance_trace_write },
	{ "trace_pipe",     instance_trace_pipe_show,  NULL },
	{ "snapshot",       tracing_snapshot_cpu_show, tracing_snapshot_cpu_write },
};

static int instance_per_cpu_create(struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	int cpu, ret = 0;

	for_each_online_cpu(cpu) {
		tr->cpu_files[cpu] = (struct trace_cpu_file){ tr, cpu };
		for (size_t i = 0; i < ARRAY_SIZE(instance_per_cpu_files) && !ret; i++) {
			snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/%s", tr->dir, cpu,
				 instance_per_cpu_files[i].name);
			ret = pseudofs_create(path, instance_per_cpu_files[i].show,
					      instance_per_cpu_files[i].write, &tr->cpu_files[cpu]);
		}
	}
	return ret;
}

/* ---- current_tracer ------------------------------------------------------------------ */

/*
 * Linux 6.1 lets a tracer run in an instance only if it says so
 * (allow_instances): nop and function do, function_graph does not (its
 * return hook is one for the whole kernel).  The instance's function
 * tracer is an ftrace_ops of its own: its set_ftrace_filter, its buffer.
 */
static void instance_function_call(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;

	if (READ_ONCE(tr->tracing_on) && !trace_array_ftrace_ignore_pid(tr))	/* its set_ftrace_pid */
		trace_function_record_buf(tr->buffer, TRACE_FN_EVENT_ID, ip, parent_ip,
					  ftrace_get_regs(fregs), NULL, 0);
}
NOKPROBE_SYMBOL(instance_function_call);

static int instance_current_tracer_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%s\n", ((struct trace_array *)data)->function_on ? "function" : "nop");
	return 0;
}

static int instance_available_tracers_show(struct seq_buf *s, void *data)
{
	seq_buf_puts(s, "function nop\n");
	return 0;
}

/* Linux's tracing_set_tracer() for an instance: the old one off, the buffer emptied. */
static int instance_set_tracer(struct trace_array *tr, bool function)
{
	int ret = 0;

	if (function == tr->function_on)
		return 0;
	if (tr->function_on)
		unregister_ftrace_function(&tr->ops);
	tr->function_on = false;
	ring_buffer_reset(tr->buffer, TRACE_ALL_CPUS);
	if (function)
		ret = register_ftrace_function(&tr->ops);
	tr->function_on = function && !ret;
	return ret;
}

static int instance_current_tracer_write(const char *text, size_t len, bool trunc, void *data)
{
	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len == strlen("nop") && strncmp(text, "nop", len) == 0)
		return instance_set_tracer(data, false);
	if (len == strlen("function") && strncmp(text, "function", len) == 0)
		return instance_set_tracer(data, true);
	pseudofs_error("no tracer '%.*s' in an instance (its available_tracers lists them)",
		       (int)len, text);
	return -EINVAL;
}

/* ---- mkdir and rmdir ------------------------------------------------------------------- */

/*
 * Linux's names, in ls's order; "events" is the events/ directory's
 * place, "set_ftrace_filter" the function tracer's two filter files'.
 */
static const struct pseudo_file_spec instance_files[] = {
	{ "available_tracers",    instance_available_tracers_show, NULL },
	{ "buffer_size_kb",       instance_buffer_size_show,  instance_buffer_size_write },
	{ "buffer_total_size_kb", instance_buffer_total_show, NULL },
	{ "current_tracer",       instance_current_tracer_show, instance_current_tracer_write },
	{ "error_log",            trace_error_log_show,       trace_error_log_write },
	{ "events",               NULL,                       NULL },
	{ "set_event",            trace_set_event_show,       trace_set_event_write },
	{ "set_ftrace_filter",    NULL,                       NULL },	/* and set_ftrace_notrace */
	{ "snapshot",             tracing_snapshot_show,      tracing_snapshot_write },
	{ "trace",                instance_trace_show,        instance_trace_write },
	{ "trace_clock",          NULL,                       NULL },	/* data: the buffer */
	{ "trace_marker",         NULL,                       instance_trace_marker_write },
	{ "per_cpu",              NULL,                       NULL },	/* per_cpu/cpuN/ */
	{ "trace_options",        NULL,                       NULL },	/* and options/ */
	{ "trace_pipe",           instance_trace_pipe_show,   NULL },
	{ "tracing_on",           instance_tracing_on_show,   instance_tracing_on_write },
	{ "free_buffer",          NULL,                       tracing_free_buffer_write },
	{ "set_event_pid",        NULL,                       NULL },	/* and the other pid filters */
	{ "timestamp_mode",       tracing_timestamp_mode_show, NULL },
	{ "trace_marker_raw",     NULL,                       tracing_marker_raw_write },
	{ "tracing_cpumask",      tracing_cpumask_show,       tracing_cpumask_write },
};

static int free_id(void)
{
	for (int id = 1; id < TRACE_ARRAY_MAX; id++)
		if (!trace_arrays[id])
			return id;
	return -ENOSPC;
}

/* trace, trace_pipe and buffer_size_kb take the instance's every CPU; the others the instance. */
static void *instance_file_data(struct trace_array *tr, int (*show)(struct seq_buf *, void *))
{
	if (show == instance_trace_show || show == instance_trace_pipe_show ||
	    show == instance_buffer_size_show)
		return &tr->all_cpus;
	return tr;
}

static int instance_files_create(struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(instance_files) && !ret; i++) {
		if (strcmp(instance_files[i].name, "events") == 0) {
			ret = trace_event_instance_init(tr->dir, tr);
			continue;
		}
		if (strcmp(instance_files[i].name, "trace_clock") == 0) {
			snprintf(path, sizeof(path), "%s/trace_clock", tr->dir);
			ret = pseudofs_create(path, trace_clock_show, trace_clock_write, tr->buffer);
			continue;
		}
		if (strcmp(instance_files[i].name, "set_ftrace_filter") == 0) {
			ret = ftrace_instance_files_create(tr->dir, &tr->ops);
			continue;
		}
		if (strcmp(instance_files[i].name, "trace_options") == 0) {
			ret = trace_options_instance_init(tr);	/* and options/ */
			continue;
		}
		if (strcmp(instance_files[i].name, "per_cpu") == 0) {
			ret = instance_per_cpu_create(tr);
			if (!ret)	/* per_cpu/cpuN/trace_pipe_raw, snapshot_raw; buffer_percent */
				ret = trace_pipe_raw_instance_create(tr);
			continue;
		}
		if (strcmp(instance_files[i].name, "set_event_pid") == 0) {
			ret = trace_pid_files_create(tr);	/* pid_list.c */
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", tr->dir, instance_files[i].name);
		ret = pseudofs_create(path, instance_files[i].show, instance_files[i].write,
				      instance_file_data(tr, instance_files[i].show));
	}
	return ret;
}

/* Every file of tr goes, its events off there first; then no hit can reach it. */
static void instance_teardown(struct trace_array *tr)
{
	struct trace_event_file *file;

	instance_set_tracer(tr, false);
	clear_event_triggers(tr);		/* a trigger holds its events in soft mode */
	list_for_each_entry(file, &trace_event_files, list)	/* an event probe, its attached event */
		trace_event_enable_in(file->tp, tr->id, false);
	list_for_each_entry(file, &trace_event_files, list)
		trace_event_instance_remove(tr, file->tp);
	pseudofs_remove_tree(tr->dir);
	WRITE_ONCE(trace_arrays[tr->id], NULL);
	synchronize_kprobes();		/* a hit on another CPU may still be writing its buffer */
	ring_buffer_free(tr->buffer);
	ftrace_free_filter(&tr->ops);
	trace_pid_lists_free(tr);
	trace_options_instance_free(tr);
	kfree(tr);
}

/* Linux's trace_array_create(): -ENOSPC when every id is taken, -ENOMEM. */
static struct trace_array *instance_create(const char *name, int *err)
{
	struct trace_array *tr;
	int id = free_id();

	*err = id < 0 ? id : strlen(name) >= TRACE_ARRAY_NAME_LEN ? -ENAMETOOLONG : 0;
	if (*err)
		return NULL;
	tr = kzalloc(sizeof(*tr));
	if (tr)
		tr->buffer = ring_buffer_alloc(TRACE_BUF_ENTRIES);
	if (!tr || !tr->buffer) {
		kfree(tr);
		*err = -ENOMEM;
		return NULL;
	}
	strlcpy(tr->name, name, sizeof(tr->name));
	snprintf(tr->dir, sizeof(tr->dir), TRACE_INSTANCES_DIR "/%s", name);
	tr->id = id;
	tr->tracing_on = true;
	tr->tracing_cpumask = TRACE_CPUMASK_ALL;
	tr->all_cpus = (struct trace_cpu_file){ tr, TRACE_ALL_CPUS };
	tr->ops.func = instance_function_call;
	tr->ops.flags = FTRACE_OPS_FL_RECURSION;
	tr->ops.private = tr;
	trace_arrays[id] = tr;
	*err = instance_files_create(tr);
	if (*err) {
		instance_teardown(tr);
		return NULL;
	}
	list_add_tail(&tr->list, &trace_instances);
	return tr;
}

static int instance_mkdir(const char *name, void *data)
{
	int ret;

	mutex_lock(&trace_types_lock);
	if (find_instance(name))
		ret = -EEXIST;
	else
		instance_create(name, &ret);
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* Linux's __remove_instance(): EBUSY while someone holds a reference. */
static int instance_rmdir(const char *name, void *data)
{
	struct trace_array *tr;
	int ret = 0;

	mutex_lock(&trace_types_lock);
	tr = find_instance(name);
	if (!tr)
		ret = -ENOENT;
	else if (tr->ref)
		ret = -EBUSY;
	else {
		list_del(&tr->list);
		instance_teardown(tr);
	}
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* ---- the kernel's API ---------------------------------------------------------------------- */

struct trace_array *trace_array_get_by_name(const char *name)
{
	struct trace_array *tr;
	int err;

	mutex_lock(&trace_types_lock);
	tr = find_instance(name);
	if (!tr)
		tr = instance_create(name, &err);
	if (tr)
		tr->ref++;
	mutex_unlock(&trace_types_lock);
	return tr;
}

void trace_array_put(struct trace_array *tr)
{
	mutex_lock(&trace_types_lock);
	if (tr && tr->ref > 0)
		tr->ref--;
	mutex_unlock(&trace_types_lock);
}

int trace_instances_event_add(struct trace_probe *tp)
{
	struct trace_array *tr;
	int ret = 0;

	list_for_each_entry(tr, &trace_instances, list)
		if (!ret)
			ret = trace_event_instance_add(tr, tp);
	return ret;
}

void trace_instances_event_remove(struct trace_probe *tp)
{
	struct trace_array *tr;

	list_for_each_entry(tr, &trace_instances, list)
		trace_event_instance_remove(tr, tp);
}

int trace_instances_init(void)
{
	global_trace.buffer = trace_buffer_global();
	return pseudofs_create_dir(TRACE_INSTANCES_DIR, instance_mkdir, instance_rmdir, NULL);
}
