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
 */
#include "kernel.h"
#include "trace.h"
#include "ftrace.h"
#include "pseudofs.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"

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
	[TRACE_ITER_RECORD_TGID]    = { "record-tgid",     REFUSED },
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
	[TRACE_ITER_GRAPH_IRQS]     = { "funcgraph-irqs",  REFUSED, "function_graph" },
	[TRACE_ITER_GRAPH_TAIL]     = { "funcgraph-tail",  HONOURED, "function_graph" },
	[TRACE_ITER_GRAPH_SLEEP_TIME] = { "sleep-time",    REFUSED, "function_graph" },
};

/* Linux's TRACE_DEFAULT_FLAGS, and its tracers' defaults. */
#define TRACE_DEFAULT_FLAGS \
	(BIT64(TRACE_ITER_PRINT_PARENT) | BIT64(TRACE_ITER_PRINTK) | BIT64(TRACE_ITER_ANNOTATE) | \
	 BIT64(TRACE_ITER_CONTEXT_INFO) | BIT64(TRACE_ITER_RECORD_CMD) | \
	 BIT64(TRACE_ITER_OVERWRITE) | BIT64(TRACE_ITER_IRQ_INFO) | BIT64(TRACE_ITER_MARKERS) | \
	 BIT64(TRACE_ITER_HASH_PTR) | BIT64(TRACE_ITER_FUNCTION) | BIT64(TRACE_ITER_GRAPH_CPU) | \
	 BIT64(TRACE_ITER_GRAPH_OVERHEAD) | BIT64(TRACE_ITER_GRAPH_DURATION) | \
	 BIT64(TRACE_ITER_GRAPH_IRQS) | BIT64(TRACE_ITER_GRAPH_SLEEP_TIME))
#define BIT64(n) (1ULL << (n))

static uint64_t trace_flags = TRACE_DEFAULT_FLAGS;	/* bit n: options[n] is on */

bool trace_option_on(int bit)
{
	return READ_ONCE(trace_flags) & (1ULL << bit);
}
NOKPROBE_SYMBOL(trace_option_on);

/* The task's name for a record, or "" when record-cmd is off ("<...>" in `trace`). */
void trace_record_comm(char *dst, size_t size, const char *comm)
{
	if (trace_option_on(TRACE_ITER_RECORD_CMD)) {
		strlcpy(dst, comm, size);
		tracing_record_cmdline(comm);	/* saved_cmdlines (trace_sched_switch.c) */
	} else {
		dst[0] = '\0';
	}
}
NOKPROBE_SYMBOL(trace_record_comm);

/* Linux's set_tracer_flag(): what changing an option does, then the bit. */
static int set_option(int bit, bool on)
{
	if (trace_option_on(bit) == on)
		return 0;
	if (options[bit].kind == REFUSED)
		return -EINVAL;
	if (bit == TRACE_ITER_OVERWRITE)
		ring_buffer_change_overwrite(trace_buffer_global(), on);
	WRITE_ONCE(trace_flags, on ? trace_flags | (1ULL << bit) : trace_flags & ~(1ULL << bit));
	return 0;
}

/* The current tracer's options are listed; another tracer's are not. */
static bool listed(int bit)
{
	return !options[bit].tracer || !strcmp(options[bit].tracer, trace_current_tracer_name());
}

static int trace_options_show(struct seq_buf *s, void *data)
{
	for (int i = 0; i < TRACE_ITER_NR; i++)
		if (listed(i))
			seq_buf_printf(s, "%s%s\n", trace_option_on(i) ? "" : "no", options[i].name);
	return 0;
}

/* One name, "no" in front to clear it; the current tracer's options too. */
static int trace_options_write(const char *text, size_t len, bool trunc, void *data)
{
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
		if (listed(i) && strlen(options[i].name) == len && !strncmp(options[i].name, text, len))
			return set_option(i, on);
	return -EINVAL;
}

/* options/NAME: its data is the bit, as a pointer to its table entry. */
static int option_bit(void *data)
{
	return (const struct trace_option *)data - options;
}

static int option_file_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", trace_option_on(option_bit(data)));
	return 0;
}

/* "0" or "1" (Linux's kstrtoul, then val != 0 && val != 1 is EINVAL). */
static int option_file_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;

	if (kstrntoul(text, len, 10, &val) || val > 1)
		return -EINVAL;
	return set_option(option_bit(data), val);
}

/* options/ in ls's order: each time the smallest name not made yet. */
static int options_dir_init(void)
{
	char path[PSEUDOFS_PATH_MAX];
	bool made[TRACE_ITER_NR] = { false };
	int ret = 0;

	for (int n = 0; n < TRACE_ITER_NR && !ret; n++) {
		int next = -1;

		for (int i = 0; i < TRACE_ITER_NR; i++)
			if (!made[i] && (next < 0 || strcmp(options[i].name, options[next].name) < 0))
				next = i;
		made[next] = true;
		snprintf(path, sizeof(path), TRACEFS_DIR "/options/%s", options[next].name);
		ret = pseudofs_create(path, option_file_show, option_file_write,
				      (void *)&options[next]);
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

	return ret ? ret : options_dir_init();
}
