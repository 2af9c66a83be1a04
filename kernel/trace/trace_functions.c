/*
 * trace_functions.c - the tracers of /sys/kernel/tracing: nop, function
 * (this file) and function_graph (trace_functions_graph.c), chosen with
 * current_tracer, as in Linux's kernel/trace/trace_functions.c and trace.c.
 *
 *   echo fib > set_ftrace_filter        only fib's call site (glob: "crc32_*")
 *   echo function > current_tracer      the function tracer's ops registered:
 *                                       fib's nop becomes a call
 *   run fib 5; cat trace                one line per call:
 *          sh-1       [000] d....     3.141592: fib <-run_fib
 *   echo nop > current_tracer           every site a nop again
 *
 * The files here are the tracer's: current_tracer, available_tracers,
 * set_ftrace_filter, set_ftrace_notrace (the function tracers' filters),
 * available_filter_functions and enabled_functions (every site, and the
 * ones that are calls now, with how many ops want each).
 */
#include "kernel.h"
#include "string.h"
#include "errno.h"
#include <asm/percpu.h>
#include "sched.h"
#include "kallsyms.h"
#include "module.h"
#include "trace.h"
#include "ftrace.h"
#include "trace_probe.h"	/* trace_sprint_sym() */
#include "trace_events.h"	/* tracing_is_on() */
#include "vsprintf.h"
#include "nokprobe.h"

/* ---- recording ---------------------------------------------------------------------- */

/*
 * A record of this CPU's buffer, filled as trace_probe_record() fills a
 * kprobe event's.  Inside a callback: what it calls is not traced
 * (the recursion guard), and current is read through %fs directly.
 */
void trace_function_record_buf(struct trace_buffer *tb, unsigned int id, unsigned long ip,
			       unsigned long parent_ip, struct pt_regs *regs,
			       const void *payload, int len)
{
	struct task_struct *t = this_cpu_read(current_task);
	int preempt = t ? t->preempt_count : 0;
	unsigned long flags;
	struct trace_entry *e = tb ? ring_buffer_lock_reserve(tb, &flags) :
				     trace_buffer_lock_reserve(&flags);

	e->ts = tb ? ring_buffer_time_stamp(tb) : trace_clock();
	e->event_id = id;
	e->pid = t ? t->pid : 0;
	trace_record_comm(e->comm, sizeof(e->comm), t ? t->comm : "swapper");
	e->flags = regs && !(regs->flags & X86_EFLAGS_IF) ? TRACE_FLAG_IRQS_OFF : 0;
	e->preempt = preempt;
	e->ip = ip;
	e->ret_ip = parent_ip;
	e->len = len;
	if (len)
		memcpy(e->payload, payload, len);
	ring_buffer_unlock_commit(flags);
}

/* Into the top level's buffer, while its tracing_on is 1. */
void trace_function_record(unsigned int id, unsigned long ip, unsigned long parent_ip,
			   struct pt_regs *regs, const void *payload, int len)
{
	if (tracing_is_on())
		trace_function_record_buf(NULL, id, ip, parent_ip, regs, payload, len);
}
NOKPROBE_SYMBOL(trace_function_record_buf);
NOKPROBE_SYMBOL(trace_function_record);

/* ---- the function tracer ------------------------------------------------------------ */

static void function_trace_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	if (ftrace_ignore_this_pid())	/* set_ftrace_pid, set_ftrace_notrace_pid */
		return;
	trace_function_record(TRACE_FN_EVENT_ID, ip, parent_ip, ftrace_get_regs(fregs), NULL, 0);
}
NOKPROBE_SYMBOL(function_trace_call);

/* The function tracers' one ops: set_ftrace_filter and set_ftrace_notrace are its. */
struct ftrace_ops trace_global_ops = {
	.func = function_trace_call, .flags = FTRACE_OPS_FL_RECURSION,
};

static int function_trace_init(void)
{
	trace_global_ops.func = function_trace_call;
	return register_ftrace_function(&trace_global_ops);
}

static void function_trace_reset(void)
{
	unregister_ftrace_function(&trace_global_ops);
}

/*
 * An address as Linux's seq_print_ip_sym(): "fib", "fib+0x0/0x36" with
 * options/sym-offset, and " <c0101234>" after it with options/sym-addr.
 */
static void print_ip_sym(struct seq_buf *s, unsigned long ip)
{
	char name[KSYM_NAME_LEN];

	if (trace_option_on(TRACE_ITER_SYM_OFFSET))
		trace_sprint_sym(name, sizeof(name), ip);
	else
		sprint_symbol_no_offset(name, sizeof(name), ip);
	seq_buf_puts(s, name);
	if (trace_option_on(TRACE_ITER_SYM_ADDR))
		seq_buf_printf(s, " <%08lx>", ip);
}

/* "fib <-run_fib": Linux's function line, after the common prefix; the
 * parent only with options/print-parent. */
bool trace_function_print(struct seq_buf *s, const struct trace_entry *e)
{
	if (e->event_id != TRACE_FN_EVENT_ID)
		return false;
	print_ip_sym(s, e->ip);
	if (trace_option_on(TRACE_ITER_PRINT_PARENT)) {
		seq_buf_puts(s, " <-");
		print_ip_sym(s, e->ret_ip);
	}
	seq_buf_puts(s, "\n");
	return true;
}

/* ---- the tracers ------------------------------------------------------------------ */

static struct tracer nop_trace = { .name = "nop" };
static struct tracer function_trace = {
	.name = "function", .init = function_trace_init, .reset = function_trace_reset,
};

/* Newest first, as Linux lists them. */
static struct tracer *const tracers[] = { &graph_trace, &function_trace, &nop_trace };
static struct tracer *current_trace = &nop_trace;

const char *trace_current_tracer_name(void)
{
	return READ_ONCE(current_trace)->name;
}

bool trace_current_tracer_is(const struct tracer *t)
{
	return READ_ONCE(current_trace) == t;
}

/* Linux's tracing_set_tracer(): the old one off, the buffer emptied, the new one on. */
int tracing_set_tracer(const char *name)
{
	struct tracer *t = NULL;
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tracers); i++)
		if (!strcmp(tracers[i]->name, name))
			t = tracers[i];
	if (!t) {
		pseudofs_error("no tracer '%s' (available_tracers lists them)", name);
		return -EINVAL;
	}
	if (t == current_trace)
		return 0;
	if (current_trace->reset)
		current_trace->reset();
	WRITE_ONCE(current_trace, &nop_trace);
	trace_buffer_reset(TRACE_ALL_CPUS);
	if (t->init)
		ret = t->init();
	if (!ret)
		WRITE_ONCE(current_trace, t);
	return ret;
}

/* ---- the files ------------------------------------------------------------------------ */

static int current_tracer_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%s\n", trace_current_tracer_name());
	return 0;
}

/* The first word: "function\n" -> "function". */
static int current_tracer_write(const char *text, size_t len, bool trunc, void *data)
{
	char name[32];
	size_t n = 0;

	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (n < len && n < sizeof(name) - 1 && text[n] != ' ' && text[n] != '\n' &&
	       text[n] != '\t' && text[n])
		name[n] = text[n], n++;
	name[n] = '\0';
	return tracing_set_tracer(name);
}

static int available_tracers_show(struct seq_buf *s, void *data)
{
	for (size_t i = 0; i < ARRAY_SIZE(tracers); i++)
		seq_buf_printf(s, "%s%s", i ? " " : "", tracers[i]->name);
	seq_buf_puts(s, "\n");
	return 0;
}

/* A filter file's set, one function a line; Linux's line for "all" (stack_trace_filter's too). */
void ftrace_filter_hash_show(struct seq_buf *s, const struct ftrace_hash *h, const char *empty)
{
	char name[KSYM_NAME_LEN];

	if (!h || !h->count) {
		seq_buf_puts(s, empty);
		return;
	}
	for (int i = 0; i < h->count; i++) {
		sprint_symbol_no_offset(name, sizeof(name), h->ips[i]);
		seq_buf_printf(s, "%s\n", name);
	}
}

/* The top level's filter files have no data; an instance's have its ops. */
static struct ftrace_ops *file_ops(void *data)
{
	return data ? data : &trace_global_ops;
}

static int set_ftrace_filter_show(struct seq_buf *s, void *data)
{
	ftrace_filter_hash_show(s, file_ops(data)->filter_hash, "#### all functions enabled ####\n");
	return 0;
}

/* `>` replaces the set, `>>` adds to it; an empty `>` clears it. */
static int set_ftrace_filter_write(const char *text, size_t len, bool trunc, void *data)
{
	int ret = ftrace_set_filter(file_ops(data), text, len, trunc);

	if (ret == -EINVAL)
		pseudofs_error("no traceable function matches (available_filter_functions lists them)");
	return ret;
}

static int set_ftrace_notrace_show(struct seq_buf *s, void *data)
{
	ftrace_filter_hash_show(s, file_ops(data)->notrace_hash, "");
	return 0;
}

static int set_ftrace_notrace_write(const char *text, size_t len, bool trunc, void *data)
{
	int ret = ftrace_set_notrace(file_ops(data), text, len, trunc);

	if (ret == -EINVAL)
		pseudofs_error("no traceable function matches (available_filter_functions lists them)");
	return ret;
}

/* "fib", or "lm_func [lm_module]" for a module's, Linux's format. */
static void show_site_name(struct seq_buf *s, unsigned long ip)
{
	char name[KSYM_NAME_LEN];
	struct module *mod = __module_address(ip);

	sprint_symbol_no_offset(name, sizeof(name), ip);
	if (mod)
		seq_buf_printf(s, "%s [%s]", name, mod->name);
	else
		seq_buf_puts(s, name);
}

static int show_available(unsigned long ip, bool enabled, void *data)
{
	show_site_name(data, ip);
	seq_buf_puts(data, "\n");
	return 0;
}

static int available_filter_functions_show(struct seq_buf *s, void *data)
{
	return ftrace_for_each_site(show_available, s);
}

/* Linux 6.1's enabled_functions: "fib (1) R   ", the count of ops and R(egs). */
static int show_enabled(unsigned long ip, bool enabled, void *data)
{
	if (!enabled)
		return 0;
	show_site_name(data, ip);
	seq_buf_printf(data, " (%d) R %s  \n", ftrace_site_users(ip),
		   ftrace_site_ipmodify(ip) ? "I" : " ");
	return 0;
}

static int enabled_functions_show(struct seq_buf *s, void *data)
{
	return ftrace_for_each_site(show_enabled, s);
}

/* Linux's "SITES pages:N groups: N": the call sites and the memory their table takes. */
static int dyn_ftrace_total_info_show(struct seq_buf *s, void *data)
{
	unsigned long pages, groups;

	ftrace_table_info(&pages, &groups);
	seq_buf_printf(s, "%ld pages:%ld groups: %ld\n", (long)ftrace_nr_sites(), (long)pages,
		       (long)groups);
	return 0;
}

static const struct pseudo_file_spec ftrace_files[] = {
	{ "current_tracer",             current_tracer_show,            current_tracer_write },
	{ "available_tracers",          available_tracers_show,         NULL },
	{ "set_ftrace_filter",          set_ftrace_filter_show,         set_ftrace_filter_write },
	{ "set_ftrace_notrace",         set_ftrace_notrace_show,        set_ftrace_notrace_write },
	{ "available_filter_functions", available_filter_functions_show, NULL },
	{ "enabled_functions",          enabled_functions_show,         NULL },
	{ "set_graph_function",         set_graph_function_show,        set_graph_function_write },
	{ "dyn_ftrace_total_info",      dyn_ftrace_total_info_show,     NULL },
};

int ftrace_tracefs_init(void)
{
	int ret = pseudofs_create_files(TRACEFS_DIR, ftrace_files, ARRAY_SIZE(ftrace_files));

	return ret ? ret : graph_tracefs_init();	/* trace_functions_graph.c */
}

/* An instance's set_ftrace_filter and set_ftrace_notrace: ops is its function tracer's. */
int ftrace_instance_files_create(const char *dir, struct ftrace_ops *ops)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/set_ftrace_filter", dir);
	ret = pseudofs_create(path, set_ftrace_filter_show, set_ftrace_filter_write, ops);
	snprintf(path, sizeof(path), "%s/set_ftrace_notrace", dir);
	if (!ret)
		ret = pseudofs_create(path, set_ftrace_notrace_show, set_ftrace_notrace_write, ops);
	return ret;
}
