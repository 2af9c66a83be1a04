/*
 * trace_options.c - trace_options and options/ (Linux's trace_options[]
 * and the options directory of kernel/trace/trace.c): switches on how
 * records are made and printed.
 *
 *   cat trace_options               every option, "no" in front when off
 *   echo nosym-offset > trace_options
 *   echo 1 > options/sym-offset     the same switch, one file each
 *
 * Linux's names, order and defaults (TRACE_DEFAULT_FLAGS).  Each option
 * is one of three kinds:
 *
 *   honoured  this kernel acts on it: print-parent, sym-offset, sym-addr
 *             (the function tracer's lines), context-info and irq-info
 *             (the columns before each record), record-cmd (the task's
 *             name), overwrite (a full buffer drops the oldest record or
 *             the newest), markers (trace_marker), stacktrace (a
 *             <stack trace> after each event's record), event-fork and
 *             function-fork (pid_list.c), disable_on_free (free_buffer),
 *             function_graph's columns (trace_functions_graph.c);
 *   vacuous   it concerns a part of Linux this kernel does not have
 *             (trace_printk, hash-ptr's %p, latency tracers):
 *             it is kept and read back, and there is nothing it could
 *             change, here as in Linux without that part;
 *   refused   it would change output this kernel does not produce in
 *             that form (raw, hex, bin, latency-format...): its default
 *             stays and setting the other value is EINVAL, as Linux
 *             answers when a tracer refuses a flag (test_nop_refuse).
 *
 * The tracers' own options follow (Linux's struct tracer_flags): nop's
 * test_nop_accept and test_nop_refuse, function's, function_graph's.
 * trace_options lists the current tracer's; options/ has them all.
 *
 * Each trace array has its own (struct trace_array's trace_flags): an
 * instance's trace_options and options/ start as the top level's and
 * change on their own; its records print with its options.
 */
#include "kernel.h"
#include "trace.h"
#include "ftrace.h"
#include "pseudofs.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include "trace_array.h"
#include "mutex.h"
#include "mm.h"
#include "sched.h"

enum option_kind { HONOURED, VACUOUS, REFUSED };

struct trace_option {
	const char *name;
	enum option_kind kind;
	const char *tracer;	/* NULL: a global option; else the tracer whose it is */
};

static const struct trace_option options[TRACE_ITER_NR] = {
	[TRACE_ITER_PRINT_PARENT]   = { "print-parent",    HONOURED },
	[TRACE_ITER_SYM_OFFSET]     = { "sym-offset",      HONOURED },
	[TRACE_ITER_SYM_ADDR]       = { "sym-addr",        HONOURED },
	[TRACE_ITER_VERBOSE]        = { "verbose",         REFUSED },
	[TRACE_ITER_RAW]            = { "raw",             REFUSED },
	[TRACE_ITER_HEX]            = { "hex",             REFUSED },
	[TRACE_ITER_BIN]            = { "bin",             REFUSED },
	[TRACE_ITER_BLOCK]          = { "block",           REFUSED },
	[TRACE_ITER_PRINTK]         = { "trace_printk",    VACUOUS },
	[TRACE_ITER_ANNOTATE]       = { "annotate",        VACUOUS },
	[TRACE_ITER_USERSTACKTRACE] = { "userstacktrace",  REFUSED },
	[TRACE_ITER_SYM_USEROBJ]    = { "sym-userobj",     VACUOUS },
	[TRACE_ITER_PRINTK_MSGONLY] = { "printk-msg-only", VACUOUS },
	[TRACE_ITER_CONTEXT_INFO]   = { "context-info",    HONOURED },
	[TRACE_ITER_LATENCY_FMT]    = { "latency-format",  REFUSED },
	[TRACE_ITER_RECORD_CMD]     = { "record-cmd",      HONOURED },
	[TRACE_ITER_RECORD_TGID]    = { "record-tgid",     HONOURED },
	[TRACE_ITER_OVERWRITE]      = { "overwrite",       HONOURED },
	[TRACE_ITER_STOP_ON_FREE]   = { "disable_on_free", HONOURED },
	[TRACE_ITER_IRQ_INFO]       = { "irq-info",        HONOURED },
	[TRACE_ITER_MARKERS]        = { "markers",         HONOURED },
	[TRACE_ITER_EVENT_FORK]     = { "event-fork",      HONOURED },
	[TRACE_ITER_PAUSE_ON_TRACE] = { "pause-on-trace",  REFUSED },
	[TRACE_ITER_HASH_PTR]       = { "hash-ptr",        VACUOUS },
	[TRACE_ITER_FUNCTION]       = { "function-trace",  VACUOUS },
	[TRACE_ITER_FUNC_FORK]      = { "function-fork",   HONOURED },
	[TRACE_ITER_DISPLAY_GRAPH]  = { "display-graph",   VACUOUS },
	[TRACE_ITER_STACKTRACE]     = { "stacktrace",      HONOURED },
	/* the tracers' */
	[TRACE_ITER_NOP_ACCEPT]     = { "test_nop_accept", VACUOUS, "nop" },
	[TRACE_ITER_NOP_REFUSE]     = { "test_nop_refuse", REFUSED, "nop" },
	[TRACE_ITER_FUNC_STACK]     = { "func_stack_trace", REFUSED, "function" },
	[TRACE_ITER_FUNC_NO_REPEATS] = { "func-no-repeats", REFUSED, "function" },
	[TRACE_ITER_GRAPH_OVERRUN]  = { "funcgraph-overrun", REFUSED, "function_graph" },
	[TRACE_ITER_GRAPH_CPU]      = { "funcgraph-cpu",   HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_OVERHEAD] = { "funcgraph-overhead", HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_PROC]     = { "funcgraph-proc",  HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_DURATION] = { "funcgraph-duration", HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_ABSTIME]  = { "funcgraph-abstime", HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_IRQS]     = { "funcgraph-irqs",  HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_TAIL]     = { "funcgraph-tail",  HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_SLEEP_TIME] = { "sleep-time",    HONOURED, "function_graph" },
};

/* options/NAME's data: which option of which trace array. */
struct trace_option_file {
	struct trace_array *tr;
	int bit;
};

static struct trace_option_file top_option_files[TRACE_ITER_NR];

/* The trace array being printed, and by which task (Linux's iter->tr). */
static DEFINE_MUTEX(trace_print_lock);
static struct trace_array *printing_tr;
static struct task_struct *printing_task;

bool trace_array_option_on(const struct trace_array *tr, int bit)
{
	return READ_ONCE(tr->trace_flags) & (1ULL << bit);
}
NOKPROBE_SYMBOL(trace_array_option_on);

void trace_array_print_begin(struct trace_array *tr)
{
	mutex_lock(&trace_print_lock);
	printing_tr = tr;
	WRITE_ONCE(printing_task, current);
}

void trace_array_print_end(void)
{
	WRITE_ONCE(printing_task, NULL);
	printing_tr = NULL;
	mutex_unlock(&trace_print_lock);
}

/*
 * The printing code (a record's line, trace's head) asks with no trace
 * array in hand: the one this task prints, else the top level.  Another
 * task - a probe hit on another CPU - never sees the printer's.
 */
bool trace_option_on(int bit)
{
	struct trace_array *tr = READ_ONCE(printing_task) == current ? printing_tr : &global_trace;

	return trace_array_option_on(tr, bit);
}
NOKPROBE_SYMBOL(trace_option_on);

/*
 * The task's name for a record, or "" when record-cmd is off ("<...>" in
 * `trace`).  record-cmd is the top level's (Linux's TOP_LEVEL_TRACE_FLAGS:
 * one table of saved names for the whole kernel).  The top level's
 * record-tgid saves the task's tgid too (one map; an instance's
 * record-tgid only prints the column).
 */
void trace_record_comm(char *dst, size_t size, const char *comm)
{
	if (trace_array_option_on(&global_trace, TRACE_ITER_RECORD_TGID))
		tracing_record_tgid();	/* saved_tgids (trace_sched_switch.c) */
	if (trace_array_option_on(&global_trace, TRACE_ITER_RECORD_CMD)) {
		strlcpy(dst, comm, size);
		tracing_record_cmdline(comm);	/* saved_cmdlines (trace_sched_switch.c) */
	} else {
		dst[0] = '\0';
	}
}
NOKPROBE_SYMBOL(trace_record_comm);

/* Linux's set_tracer_flag(): what changing an option does, then the bit. */
static int set_option(struct trace_array *tr, int bit, bool on)
{
	uint64_t flags = tr->trace_flags;

	if (trace_array_option_on(tr, bit) == on)
		return 0;
	if (options[bit].kind == REFUSED)
		return -EINVAL;
	if (bit == TRACE_ITER_OVERWRITE)
		ring_buffer_change_overwrite(tr->buffer, on);
	if (bit == TRACE_ITER_RECORD_TGID && on && trace_alloc_tgid_map())
		return -ENOMEM;		/* Linux's answer too: the map could not be had */
	WRITE_ONCE(tr->trace_flags, on ? flags | (1ULL << bit) : flags & ~(1ULL << bit));
	return 0;
}

const char *trace_array_tracer_name(const struct trace_array *tr)
{
	if (tr == &global_trace)
		return trace_current_tracer_name();
	return tr->function_on ? "function" : "nop";
}

/* The current tracer's options are listed; another tracer's are not. */
static bool listed(const struct trace_array *tr, int bit)
{
	return !options[bit].tracer || !strcmp(options[bit].tracer, trace_array_tracer_name(tr));
}

/*
 * Which options/ files an instance has (Linux's create_trace_options_dir()):
 * not the top level's own (TOP_LEVEL_TRACE_FLAGS), nor the options of a
 * tracer an instance may not run (function_graph).
 */
static bool instance_has_file(int bit)
{
	if (bit == TRACE_ITER_PRINTK || bit == TRACE_ITER_PRINTK_MSGONLY ||
	    bit == TRACE_ITER_RECORD_CMD)
		return false;
	return !options[bit].tracer || strcmp(options[bit].tracer, "function_graph") != 0;
}

/* trace_options' data is its trace array (NULL: the top level). */
static struct trace_array *data_tr(void *data)
{
	return data ? data : &global_trace;
}

static int trace_options_show(struct seq_buf *s, void *data)
{
	struct trace_array *tr = data_tr(data);

	for (int i = 0; i < TRACE_ITER_NR; i++)
		if (listed(tr, i))
			seq_buf_printf(s, "%s%s\n", trace_array_option_on(tr, i) ? "" : "no",
				       options[i].name);
	return 0;
}

/* One name, "no" in front to clear it; the current tracer's options too. */
static int trace_options_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_array *tr = data_tr(data);
	bool on = true;

	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len > 2 && !strncmp(text, "no", 2)) {
		on = false;
		text += 2;
		len -= 2;
	}
	for (int i = 0; i < TRACE_ITER_NR; i++)
		if (listed(tr, i) && strlen(options[i].name) == len &&
		    !strncmp(options[i].name, text, len))
			return set_option(tr, i, on);
	return -EINVAL;
}

static int option_file_show(struct seq_buf *s, void *data)
{
	struct trace_option_file *f = data;

	seq_buf_printf(s, "%d\n", trace_array_option_on(f->tr, f->bit));
	return 0;
}

/* "0" or "1" (Linux's kstrtoul, then val != 0 && val != 1 is EINVAL). */
static int option_file_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_option_file *f = data;
	unsigned long val;

	if (kstrntoul(text, len, 10, &val) || val > 1)
		return -EINVAL;
	return set_option(f->tr, f->bit, val);
}

/* tr's options/ in ls's order: each time the smallest name not made yet. */
static int options_dir_init(struct trace_array *tr, struct trace_option_file *files)
{
	char path[PSEUDOFS_PATH_MAX];
	bool made[TRACE_ITER_NR] = { false };
	int ret = 0;

	for (int i = 0; i < TRACE_ITER_NR; i++)
		made[i] = tr != &global_trace && !instance_has_file(i);
	for (int n = 0; n < TRACE_ITER_NR && !ret; n++) {
		int next = -1;

		for (int i = 0; i < TRACE_ITER_NR; i++)
			if (!made[i] && (next < 0 || strcmp(options[i].name, options[next].name) < 0))
				next = i;
		if (next < 0)
			break;
		made[next] = true;
		files[next] = (struct trace_option_file){ tr, next };
		snprintf(path, sizeof(path), "%s/options/%s", tr->dir, options[next].name);
		ret = pseudofs_create(path, option_file_show, option_file_write, &files[next]);
	}
	return ret;
}

static const struct pseudo_file_spec trace_options_files[] = {
	{ "trace_options", trace_options_show, trace_options_write },
};

int trace_options_init(void)
{
	int ret = pseudofs_create_files(TRACEFS_DIR, trace_options_files,
					ARRAY_SIZE(trace_options_files));

	return ret ? ret : options_dir_init(&global_trace, top_option_files);
}

/* An instance's own: its options start as the top level's (Linux's trace_array_create()). */
int trace_options_instance_init(struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret;

	tr->trace_flags = READ_ONCE(global_trace.trace_flags) & ~TRACE_ZEROED_FLAGS;
	ring_buffer_change_overwrite(tr->buffer, trace_array_option_on(tr, TRACE_ITER_OVERWRITE));
	tr->option_files = kzalloc(sizeof(*tr->option_files) * TRACE_ITER_NR);
	if (!tr->option_files)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/trace_options", tr->dir);
	ret = pseudofs_create(path, trace_options_show, trace_options_write, tr);
	return ret ? ret : options_dir_init(tr, tr->option_files);
}

/* Its files are gone with the instance's tree: their data goes after. */
void trace_options_instance_free(struct trace_array *tr)
{
	kfree(tr->option_files);
	tr->option_files = NULL;
}
