/*
 * trace.c - the tracefs files around the ring buffer (Linux's
 * kernel/trace/trace.c), and the path of a hit through a filter and
 * triggers:
 *
 *   tracing_on       0 or 1: is the ring buffer recording?
 *   trace_marker     a line written here becomes a record (tracing_mark_write)
 *   buffer_size_kb   each CPU's buffer, in KiB: write to resize (records go)
 *   buffer_total_size_kb   every CPU's together
 *   snapshot         echo 1: swap the buffer into the snapshot; cat: read it
 *   README           the syntax of every file here, Linux's mini-HOWTO
 *
 * A hit of an event with a filter or a trigger writes its record into
 * this CPU's scratch record first (Linux's trace_buffered_event), so the
 * filter and the triggers see the values before the record is copied
 * into the ring buffer - or not, if the filter says no or tracing is off.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_syscalls.h"
#include "trace_array.h"
#include "trace_synth.h"
#include "pseudofs.h"
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "kallsyms.h"
#include "stacktrace.h"
#include "sched.h"
#include "smp.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include "ftrace.h"

/* Record types that are no probe's: event ids far above any a probe gets. */
#define TRACE_MARKER_ID  0xfffffff0u	/* Linux's TRACE_PRINT: tracing_mark_write */
#define TRACE_STACK_ID   0xfffffff1u	/* Linux's TRACE_STACK: <stack trace> */
#define TRACE_RAW_DATA_ID 0xfffffff2u	/* Linux's TRACE_RAW_DATA: trace_marker_raw */
#define TRACE_STACK_DEPTH (TRACE_PAYLOAD_MAX / sizeof(unsigned long))

/* tracing_on of a trace array (Linux's tracer_tracing_*()), and of the top level. */
bool tracer_tracing_is_on(struct trace_array *tr) { return READ_ONCE(tr->tracing_on); }
void tracer_tracing_on(struct trace_array *tr)    { WRITE_ONCE(tr->tracing_on, true); }
void tracer_tracing_off(struct trace_array *tr)   { WRITE_ONCE(tr->tracing_on, false); }
bool tracing_is_on(void) { return tracer_tracing_is_on(&global_trace); }
void tracing_on(void)    { tracer_tracing_on(&global_trace); }
void tracing_off(void)   { tracer_tracing_off(&global_trace); }
NOKPROBE_SYMBOL(tracer_tracing_is_on);
NOKPROBE_SYMBOL(tracer_tracing_on);
NOKPROBE_SYMBOL(tracer_tracing_off);

/* ---- a hit ------------------------------------------------------------------------- */

/*
 * Two scratch records a CPU: a hit's, and the one of an event probe
 * attached to its event, made while the first is still being looked at.
 */
#define TRACE_SCRATCH_NEST 2
static struct trace_entry scratch[NR_CPUS][TRACE_SCRATCH_NEST];
static int scratch_depth[NR_CPUS];

/* The trace array a file is in: its own, or the top level for an event with no file. */
static struct trace_array *event_file_tr(struct trace_event_file *file)
{
	return file && file->tr ? file->tr : &global_trace;
}

/* Its buffer: the top level's is trace_buffer.c's, set at init. */
static struct trace_buffer *trace_array_buffer(struct trace_array *tr)
{
	return tr->buffer ? tr->buffer : trace_buffer_global();
}

static bool needs_scratch(struct trace_event_file *file)
{
	return !tracer_tracing_is_on(event_file_tr(file)) ||
	       trace_event_pid_filtering(event_file_tr(file)) ||
	       (file && (READ_ONCE(file->filter) || !list_empty(&file->triggers) ||
			 READ_ONCE(file->soft_disabled) || !list_empty(&file->eprobes)));
}

/* Linux's trace_event_buffer_reserve(): a hit of file's event, in file's trace array. */
struct trace_entry *trace_event_file_reserve(struct trace_event_file *file, unsigned long *flags)
{
	struct trace_buffer *tb = trace_array_buffer(event_file_tr(file));
	struct trace_entry *e;
	int cpu;

	if (!needs_scratch(file))
		return ring_buffer_lock_reserve(tb, flags);
	*flags = local_irq_save();
	cpu = smp_processor_id();
	if (scratch_depth[cpu] == TRACE_SCRATCH_NEST) {	/* deeper: no filter */
		local_irq_restore(*flags);
		return ring_buffer_lock_reserve(tb, flags);
	}
	e = &scratch[cpu][scratch_depth[cpu]++];
	e->cpu = cpu;
	e->len = 0;
	return e;
}

struct trace_entry *trace_event_buffer_reserve(struct trace_probe *tp, unsigned long *flags)
{
	return trace_event_file_reserve(tp->event_file, flags);
}

/* Copy a finished record into tr's ring buffer. */
static void trace_entry_commit_copy(struct trace_array *tr, const struct trace_entry *e)
{
	unsigned long flags;
	struct trace_entry *slot = ring_buffer_lock_reserve(trace_array_buffer(tr), &flags);

	memcpy(slot, e, offsetof(struct trace_entry, payload) + e->len);
	ring_buffer_unlock_commit(flags);
}

void trace_event_file_commit(struct trace_event_file *file, struct trace_entry *e,
			     struct pt_regs *regs, unsigned long flags)
{
	int cpu = smp_processor_id();

	if (scratch_depth[cpu] == 0 || e != &scratch[cpu][scratch_depth[cpu] - 1]) {
		ring_buffer_unlock_commit(flags);
		return;
	}
	trace_event_file_commit_entry(file, e, regs);
	scratch_depth[cpu]--;
	local_irq_restore(flags);
}

void trace_event_buffer_commit(struct trace_probe *tp, struct trace_entry *e,
			       struct pt_regs *regs, unsigned long flags)
{
	trace_event_file_commit(READ_ONCE(tp->event_file), e, regs, flags);
}

/* The filter and the triggers of file (NULL: none), the record into file's trace array. */
void trace_event_file_commit_entry(struct trace_event_file *file, struct trace_entry *e,
				   struct pt_regs *regs)
{
	struct trace_array *tr = event_file_tr(file);
	struct event_filter *filter;
	bool cond;

	if (trace_event_ignore_this_pid(tr))	/* its set_event_pid: no record, no trigger */
		return;
	cond = file && trace_event_triggers_conditional(file);
	if (file && !cond)		/* Linux's trace_trigger_soft_disabled() */
		trace_event_triggers_run(file, e, regs);
	filter = file ? READ_ONCE(file->filter) : NULL;
	/* soft-disabled: the triggers run, the record is discarded (Linux's
	 * __event_trigger_test_discard()) */
	if (tracer_tracing_is_on(tr) && !(file && READ_ONCE(file->soft_disabled)) &&
	    (!filter || trace_event_filter_match(file, filter, e)))
		trace_entry_commit_copy(tr, e);
	if (cond)			/* Linux's event_trigger_unlock_commit() */
		trace_event_triggers_run(file, e, regs);
	if (file && !list_empty(&file->eprobes))	/* they need the record too */
		trace_eprobes_run(file, e, regs);
}

void trace_event_commit(struct trace_probe *tp, struct trace_entry *e, struct pt_regs *regs)
{
	trace_event_file_commit_entry(READ_ONCE(tp->event_file), e, regs);
}

/* Linux's tracing_snapshot_instance() and tracing_alloc_snapshot_instance(). */
void tracing_snapshot_instance(struct trace_array *tr)
{
	ring_buffer_snapshot_swap(trace_array_buffer(tr), TRACE_ALL_CPUS);
}

int tracing_alloc_snapshot_instance(struct trace_array *tr)
{
	return ring_buffer_snapshot_alloc(trace_array_buffer(tr));
}
NOKPROBE_SYMBOL(event_file_tr);
NOKPROBE_SYMBOL(trace_array_buffer);
NOKPROBE_SYMBOL(trace_event_file_reserve);
NOKPROBE_SYMBOL(trace_event_file_commit);
NOKPROBE_SYMBOL(trace_event_file_commit_entry);
NOKPROBE_SYMBOL(tracing_snapshot_instance);
NOKPROBE_SYMBOL(needs_scratch);
NOKPROBE_SYMBOL(trace_event_buffer_reserve);
NOKPROBE_SYMBOL(trace_entry_commit_copy);
NOKPROBE_SYMBOL(trace_event_buffer_commit);
NOKPROBE_SYMBOL(trace_event_commit);

/* The head every special record shares: who, where, when. */
static struct trace_entry *special_reserve_in(struct trace_buffer *tb, unsigned int id,
					      struct pt_regs *regs, unsigned long *flags)
{
	struct trace_entry *e = ring_buffer_lock_reserve(tb, flags);

	e->ts = ring_buffer_time_stamp(tb);
	e->event_id = id;
	e->pid = task_pid(current);
	trace_record_comm(e->comm, sizeof(e->comm), task_name(current));
	e->flags = regs ? ((regs->flags & X86_EFLAGS_IF) ? 0 : TRACE_FLAG_IRQS_OFF) : 0;
	e->preempt = preempt_count();
	e->ip = e->ret_ip = 0;
	return e;
}

/* The stacktrace trigger: the calls in progress where the probe hit, in tr's buffer. */
void __trace_stack(struct trace_array *tr, struct pt_regs *regs)
{
	unsigned long flags, *addrs;
	struct trace_entry *e;
	unsigned int n;

	if (!tracer_tracing_is_on(tr))
		return;
	e = special_reserve_in(trace_array_buffer(tr), TRACE_STACK_ID, regs, &flags);
	addrs = (unsigned long *)e->payload;
	/* A uprobe's regs are the process's: its stack is no kernel stack
	 * to unwind, so the kernel's own calls at the hit are recorded. */
	if (user_mode(regs))
		n = stack_trace_save(addrs, TRACE_STACK_DEPTH, 0);
	else
		n = stack_trace_save_regs(regs, addrs, TRACE_STACK_DEPTH, 0);
	e->len = n * sizeof(unsigned long);
	ring_buffer_unlock_commit(flags);
}

void trace_stack_record(struct pt_regs *regs)
{
	__trace_stack(&global_trace, regs);
}
NOKPROBE_SYMBOL(special_reserve_in);
NOKPROBE_SYMBOL(__trace_stack);
NOKPROBE_SYMBOL(trace_stack_record);

/*
 * The records `trace` prints that no probe made, after their
 * "comm-pid [cpu] flags ts: " head, in Linux's words:
 *   tracing_mark_write: hello
 *   <stack trace>
 *    => fib
 */
bool trace_print_special(struct seq_buf *s, const struct trace_entry *e)
{
	unsigned long size, offset;
	const unsigned long *addrs = (const void *)e->payload;

	if (e->event_id == TRACE_MARKER_ID) {
		seq_buf_printf(s, "tracing_mark_write: %.*s\n", (int)e->len, e->payload);
		return true;
	}
	if (e->event_id == TRACE_RAW_DATA_ID) {	/* Linux's trace_raw_data() */
		seq_buf_printf(s, "# %x buf:", *(const unsigned int *)e->payload);
		for (unsigned int i = sizeof(unsigned int); i < e->len; i++)
			seq_buf_printf(s, " %02x", (unsigned char)e->payload[i]);
		seq_buf_puts(s, "\n");
		return true;
	}
	if (e->event_id != TRACE_STACK_ID)
		return false;
	seq_buf_puts(s, "<stack trace>\n");
	for (unsigned int i = 0; i < e->len / sizeof(unsigned long); i++) {
		const char *name = kallsyms_lookup(addrs[i], &size, &offset);

		if (name)
			seq_buf_printf(s, " => %s\n", name);
		else
			seq_buf_printf(s, " => 0x%08lx\n", addrs[i]);
	}
	return true;
}

/* ---- tracing_on ------------------------------------------------------------------------ */

static int tracing_on_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", tracing_is_on());
	return 0;
}

static int tracing_on_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	if (ret)
		return ret;
	if (val)
		tracing_on();
	else
		tracing_off();
	return 0;
}

/* ---- trace_marker -------------------------------------------------------------------------- */

/*
 * One write, one record in tr's buffer (cut at the record's size; Linux
 * cuts at 4 KiB): an instance's trace_marker writes its own buffer.
 * With tracing off Linux answers EBADF: the buffer refuses the write.
 */
int trace_marker_record(struct trace_array *tr, const char *text, size_t len)
{
	bool irqs_off = irqs_disabled();	/* the writer's, before the reserve masks them */
	unsigned long flags;
	struct trace_entry *e;

	if (!tracer_tracing_is_on(tr))
		return -EBADF;
	if (!trace_array_option_on(tr, TRACE_ITER_MARKERS))
		return -EINVAL;		/* options/markers 0: Linux refuses the write */
	if (len && text[len - 1] == '\n')
		len--;
	if (len > TRACE_PAYLOAD_MAX)
		len = TRACE_PAYLOAD_MAX;
	e = special_reserve_in(tr->buffer, TRACE_MARKER_ID, NULL, &flags);
	e->flags = irqs_off ? TRACE_FLAG_IRQS_OFF : 0;
	memcpy(e->payload, text, len);
	e->len = len;
	ring_buffer_unlock_commit(flags);
	return 0;
}

static int trace_marker_write(const char *text, size_t len, bool trunc, void *data)
{
	return trace_marker_record(&global_trace, text, len);
}

/* The files every trace array has: their data is the trace array, NULL the top level. */
static struct trace_array *file_tr(void *data)
{
	return data ? data : &global_trace;
}

/*
 * trace_marker_raw: a binary record, an int id and the bytes after it
 * (Linux's tracing_mark_raw_write()); an application tags its data with
 * the id and a tool decodes it.  Fewer bytes than the id is EINVAL.
 */
int tracing_marker_raw_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_array *tr = file_tr(data);
	bool irqs_off = irqs_disabled();
	unsigned long flags;
	struct trace_entry *e;

	if (!trace_array_option_on(tr, TRACE_ITER_MARKERS) || len < sizeof(unsigned int) ||
	    len > TRACE_PAYLOAD_MAX)
		return -EINVAL;
	if (!tracer_tracing_is_on(tr))
		return -EBADF;		/* Linux: the ring buffer refused the reserve */
	e = special_reserve_in(trace_array_buffer(tr), TRACE_RAW_DATA_ID, NULL, &flags);
	e->flags = irqs_off ? TRACE_FLAG_IRQS_OFF : 0;
	memcpy(e->payload, text, len);
	e->len = len;
	ring_buffer_unlock_commit(flags);
	return 0;
}

/* ---- tracing_cpumask ----------------------------------------------------------------------- */

/* The CPUs this machine has (Linux's nr_cpu_ids): the mask's width. */
static int tracing_nr_cpu_ids(void)
{
	int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last + 1;
}

#define BITS_PER_HEX_DIGIT 4

/* Linux's "%*pb": hex, as many digits as the CPUs need ("3" for two). */
int tracing_cpumask_show(struct seq_buf *s, void *data)
{
	int n = tracing_nr_cpu_ids();
	unsigned long mask = READ_ONCE(file_tr(data)->tracing_cpumask) & ((1UL << n) - 1);

	seq_buf_printf(s, "%0*lx\n", (n + BITS_PER_HEX_DIGIT - 1) / BITS_PER_HEX_DIGIT, mask);
	return 0;
}

/* A CPU leaving the mask stops writing the trace array's buffer; one joining starts again. */
int tracing_cpumask_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_array *tr = file_tr(data);
	unsigned long mask;
	int ret = kstrntoul(text, len, 16, &mask);

	if (ret)
		return ret;
	if (mask >> NR_CPUS)
		return -EINVAL;		/* a CPU this kernel cannot have */
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (mask & (1UL << cpu))
			ring_buffer_record_enable_cpu(trace_array_buffer(tr), cpu);
		else
			ring_buffer_record_disable_cpu(trace_array_buffer(tr), cpu);
	}
	WRITE_ONCE(tr->tracing_cpumask, mask);
	return 0;
}

/* ---- free_buffer ---------------------------------------------------------------------------- */

#define FREE_BUFFER_ENTRIES 2	/* what a freed buffer keeps (Linux: two pages) */

/*
 * Linux shrinks the buffer when free_buffer is closed (a tool writes to
 * it and exits, and its memory goes back); with options/disable_on_free
 * tracing stops first.  Here one echo is the open, write and close.
 */
int tracing_free_buffer_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_array *tr = file_tr(data);

	if (trace_array_option_on(tr, TRACE_ITER_STOP_ON_FREE))
		tracer_tracing_off(tr);
	return ring_buffer_resize(trace_array_buffer(tr), TRACE_ALL_CPUS, FREE_BUFFER_ENTRIES);
}

/* ---- buffer_size_kb ---------------------------------------------------------------------------- */

#define KB 1024
#define BUFFER_SIZE_KB_MAX (256UL * KB)	/* 256 MiB a CPU: more than the machine has */

static unsigned long entries_kb(unsigned long entries)
{
	return (entries * sizeof(struct trace_entry) + KB - 1) / KB;
}

/* per_cpu/cpuN/buffer_size_kb's data is its CPU; the top-level file has none. */
static int file_cpu(void *data)
{
	return data ? *(int *)data : TRACE_ALL_CPUS;
}

static int buffer_size_show(struct seq_buf *s, void *data)
{
	unsigned long size = 0;
	int cpu;

	if (file_cpu(data) != TRACE_ALL_CPUS) {
		seq_buf_printf(s, "%lu\n", entries_kb(trace_buffer_size(file_cpu(data))));
		return 0;
	}
	for_each_online_cpu(cpu) {
		if (size && trace_buffer_size(cpu) != size) {
			seq_buf_puts(s, "X\n");	/* Linux: the CPUs differ */
			return 0;
		}
		size = trace_buffer_size(cpu);
	}
	seq_buf_printf(s, "%lu\n", entries_kb(size));
	return 0;
}

static int buffer_total_show(struct seq_buf *s, void *data)
{
	unsigned long total = 0;
	int cpu;

	for_each_online_cpu(cpu)
		total += entries_kb(trace_buffer_size(cpu));
	seq_buf_printf(s, "%lu\n", total);
	return 0;
}

/* KiB per CPU, as Linux: 0 is EINVAL, too much is ENOMEM and changes nothing. */
static int buffer_size_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long kb;
	int ret = kstrntoul(text, len, 10, &kb);

	if (ret)
		return ret;
	if (kb == 0)
		return -EINVAL;
	if (kb > BUFFER_SIZE_KB_MAX)
		return -ENOMEM;
	return trace_buffer_resize(file_cpu(data), (kb * KB + sizeof(struct trace_entry) - 1) /
						   sizeof(struct trace_entry));
}

/* per_cpu/cpuN/buffer_size_kb and snapshot: one CPU's buffer, as Linux's. */
static int per_cpu_files_init(void)
{
	static int cpu_ids[NR_CPUS];
	char path[PSEUDOFS_PATH_MAX];
	int cpu, ret = 0;

	for_each_online_cpu(cpu) {
		cpu_ids[cpu] = cpu;
		snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/buffer_size_kb", cpu);
		if (!ret)
			ret = pseudofs_create(path, buffer_size_show, buffer_size_write, &cpu_ids[cpu]);
		global_trace.cpu_files[cpu] = (struct trace_cpu_file){ &global_trace, cpu };
		snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/snapshot", cpu);
		if (!ret)
			ret = pseudofs_create(path, tracing_snapshot_cpu_show,
					      tracing_snapshot_cpu_write, &global_trace.cpu_files[cpu]);
	}
	return ret;
}

/* ---- snapshot, and per_cpu/cpuN/snapshot -------------------------------------------------- */

static void snapshot_help(struct seq_buf *s, struct trace_buffer *tb, int cpu)
{
	seq_buf_puts(s, ring_buffer_snapshot_allocated(tb) ? "#\n# * Snapshot is allocated *\n#\n" :
							     "#\n# * Snapshot is freed *\n#\n");
	seq_buf_puts(s, "# Snapshot commands:\n");
	if (cpu == TRACE_ALL_CPUS)
		seq_buf_puts(s, "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
			     "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			     "#                      Takes a snapshot of the main buffer.\n");
	else	/* Linux's show_snapshot_percpu_help(), with its ring buffer's per-CPU swap */
		seq_buf_puts(s, "# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"
			     "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			     "#                      Takes a snapshot of the main buffer for this cpu.\n");
	seq_buf_puts(s, cpu == TRACE_ALL_CPUS ?
		     "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n" :
		     "# echo 2 > snapshot : Clears this cpu's snapshot buffer (but does not allocate)\n");
	seq_buf_puts(s, "#                      (Doesn't have to be '2' works with any number that\n"
		     "#                       is not a '0' or '1')\n");
}

static int snapshot_line(const struct trace_entry *e, void *data)
{
	return print_trace_line(e, data);
}

/* tr's snapshot: of one CPU (per_cpu/cpuN/snapshot) or of all (TRACE_ALL_CPUS). */
static int snapshot_show_cpu(struct seq_buf *s, struct trace_array *tr, int cpu)
{
	struct trace_buffer *tb = trace_array_buffer(tr);
	unsigned long n = ring_buffer_snapshot_entries(tb, cpu);

	seq_buf_puts(s, "# tracer: nop\n#\n");
	if (!ring_buffer_snapshot_allocated(tb) || n == 0) {
		snapshot_help(s, tb, cpu);
		return 0;
	}
	trace_array_print_begin(tr);	/* printed with its options */
	seq_buf_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%u\n", n, n,
		   num_online_cpus());
	print_trace_header(s);
	ring_buffer_snapshot_for_each(tb, cpu, snapshot_line, s);
	trace_array_print_end();
	return 0;
}

/* 0 frees (not from a per_cpu file), 1 swaps the buffer in, any other number clears. */
static int snapshot_write_cpu(const char *text, size_t len, struct trace_array *tr, int cpu)
{
	struct trace_buffer *tb = trace_array_buffer(tr);
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	if (ret)
		return ret;
	switch (val) {
	case 0:
		if (cpu != TRACE_ALL_CPUS)
			return -EINVAL;
		ring_buffer_snapshot_free(tb);
		return 0;
	case 1:
		ret = ring_buffer_snapshot_alloc(tb);
		if (!ret)
			ring_buffer_snapshot_swap(tb, cpu);
		return ret;
	default:
		ring_buffer_snapshot_reset(tb, cpu);
		return 0;
	}
}

/* The snapshot file's data is its trace array (NULL: the top level's file). */
int tracing_snapshot_show(struct seq_buf *s, void *data)
{
	return snapshot_show_cpu(s, file_tr(data), TRACE_ALL_CPUS);
}

int tracing_snapshot_write(const char *text, size_t len, bool trunc, void *data)
{
	return snapshot_write_cpu(text, len, file_tr(data), TRACE_ALL_CPUS);
}

/* per_cpu/cpuN/snapshot: its data is a trace_cpu_file, the trace array and the CPU. */
int tracing_snapshot_cpu_show(struct seq_buf *s, void *data)
{
	struct trace_cpu_file *f = data;

	return snapshot_show_cpu(s, f->tr, f->cpu);
}

int tracing_snapshot_cpu_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_cpu_file *f = data;

	return snapshot_write_cpu(text, len, f->tr, f->cpu);
}

/* ---- timestamp_mode ---------------------------------------------------------------------------- */

/*
 * How records hold their time: Linux's ring buffer stores the delta to
 * the record before ("[delta] absolute"), and whole timestamps only
 * while a hist trigger needs them; here every record holds its whole
 * trace_clock value, so the mode is always absolute.
 */
int tracing_timestamp_mode_show(struct seq_buf *s, void *data)
{
	seq_buf_puts(s, "delta [absolute]\n");
	return 0;
}

/* ---- the files ------------------------------------------------------------------------------------------ */

int trace_readme_show(struct seq_buf *s, void *data);	/* trace_readme.c */

static const struct pseudo_file_spec trace_files[] = {
	{ "tracing_on",           tracing_on_show,   tracing_on_write },
	{ "trace_marker",         NULL,              trace_marker_write },
	{ "buffer_size_kb",       buffer_size_show,  buffer_size_write },
	{ "buffer_total_size_kb", buffer_total_show, NULL },
	{ "snapshot",             tracing_snapshot_show, tracing_snapshot_write },
	{ "README",               trace_readme_show, NULL },
	{ "trace_clock",          trace_clock_show,  trace_clock_write },
	{ "trace_marker_raw",     NULL,              tracing_marker_raw_write },
	{ "tracing_cpumask",      tracing_cpumask_show, tracing_cpumask_write },
	{ "free_buffer",          NULL,              tracing_free_buffer_write },
	{ "timestamp_mode",       tracing_timestamp_mode_show, NULL },
};

int trace_files_init(void)
{
	int ret = pseudofs_create_files(TRACEFS_DIR, trace_files, ARRAY_SIZE(trace_files));

	if (!ret)
		ret = per_cpu_files_init();
	if (!ret)
		ret = trace_events_init();
	if (!ret)
		ret = trace_dynevent_init();
	if (!ret)
		ret = trace_syscalls_init();
	if (!ret)
		ret = trace_instances_init();	/* trace_instances.c: instances/ */
	if (!ret)
		ret = trace_options_init();	/* trace_options.c: trace_options, options/ */
	if (!ret)
		ret = trace_synth_init();	/* synthetic_events */
	if (!ret)
		ret = stack_trace_init();	/* trace_stack.c: the stack tracer */
	if (!ret)
		ret = trace_saved_cmdlines_init();	/* trace_sched_switch.c */
	if (!ret)
		ret = trace_pid_files_create(&global_trace);	/* pid_list.c: set_event_pid, ... */
	if (!ret)
		ret = trace_pipe_raw_init();		/* trace_pipe_raw.c: per_cpu/cpuN/trace_pipe_raw, ... */
	return ret;
}
