/*
 * trace_functions_graph.c - the function_graph tracer (Linux's
 * kernel/trace/trace_functions_graph.c and fgraph.c): every traced
 * function's entry and its return, so `trace` draws the call tree with
 * each function's duration.
 *
 * The entry is an ftrace callback like the function tracer's.  To see
 * the return it swaps the function's return address - the word at
 * &regs->sp, the one a kretprobe swaps - for return_to_handler
 * (arch/i386/ftrace_32.S), and pushes the real one on the thread's
 * ret_stack.  The function's ret lands in return_to_handler, which asks
 * ftrace_return_to_handler() for the real address and jumps there.
 *
 *   echo fib > set_graph_function; echo function_graph > current_tracer
 *   run fib 2; cat trace
 *    0)               |  fib() {
 *    0)   0.734 us    |    fib();
 *    0)   0.512 us    |    fib();
 *    0)   4.812 us    |  }
 */
#include "kernel.h"
#include "string.h"
#include "errno.h"
#include "mm.h"
#include "vsprintf.h"
#include <asm/percpu.h>
#include "sched.h"
#include <asm/irqflags.h>
#include "kallsyms.h"
#include "trace.h"
#include "ftrace.h"
#include "nokprobe.h"
#include "smp.h"
#include "trace_array.h"
#include "linux/preempt.h"

/* What a graph record carries besides ip: the depth, and at return the entry's time. */
struct graph_payload {
	int depth;
	unsigned long long calltime;
};

static unsigned long graph_missed;	/* calls deeper than FTRACE_RETFUNC_DEPTH */

/*
 * set_graph_function: the functions whose calls start a graph (Linux's);
 * empty, every traced function.  Inside a graph, every traced function
 * is drawn.  set_graph_notrace: functions drawn neither themselves nor
 * anything they call.
 */
static struct ftrace_ops graph_filter_ops;	/* only its hash is used */
static struct ftrace_ops graph_notrace_ops;	/* its filter hash is set_graph_notrace */
static unsigned int fgraph_max_depth;		/* max_graph_depth: 0, no limit */
unsigned long tracing_thresh;			/* ns; 0: every call (tracing_thresh, in us) */

/* Inside a set_graph_notrace function: its entry is the newest on the ret_stack. */
static bool graph_in_notrace(struct task_struct *t)
{
	return t->curr_ret_stack > 0 && t->ret_stack[t->curr_ret_stack - 1].untraced;
}

static bool graph_wanted(struct task_struct *t, unsigned long ip)
{
	unsigned int max_depth = READ_ONCE(fgraph_max_depth);

	if (!ftrace_ops_test(&trace_global_ops, ip) || ftrace_ignore_this_pid())
		return false;	/* set_ftrace_filter, _notrace, set_ftrace_pid, _notrace_pid */
	if (graph_in_notrace(t) || (max_depth && (unsigned int)t->curr_ret_stack >= max_depth))
		return false;
	return t->curr_ret_stack > 0 || ftrace_ops_test(&graph_filter_ops, ip);
}

static bool graph_notrace(unsigned long ip)
{
	const struct ftrace_hash *h = READ_ONCE(graph_notrace_ops.filter_hash);

	return h && h->count && ftrace_ops_test(&graph_notrace_ops, ip);
}

/*
 * funcgraph-irqs off (Linux's ftrace_graph_ignore_irqs()): a function
 * entered in an interrupt handler is neither hooked nor drawn, so the
 * graph of the interrupted code is not cut by the interrupt's calls.
 */
static bool graph_skip_irq(void)
{
	return !trace_array_option_on(&global_trace, TRACE_ITER_GRAPH_IRQS) && in_hardirq();
}

static void graph_entry(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct task_struct *t = this_cpu_read(current_task);
	unsigned long *slot = (unsigned long *)&regs->sp;	/* the return address */
	struct graph_payload p;
	struct ftrace_ret_stack *rs;

	if (!t || *slot != parent_ip || !graph_wanted(t, ip) || graph_skip_irq())
		return;
	if (t->curr_ret_stack >= FTRACE_RETFUNC_DEPTH) {
		graph_missed++;
		return;
	}
	rs = &t->ret_stack[t->curr_ret_stack];
	rs->ret = parent_ip;
	rs->func = ip;
	rs->calltime = trace_clock();
	rs->untraced = graph_notrace(ip);
	p = (struct graph_payload){ .depth = t->curr_ret_stack, .calltime = rs->calltime };
	t->curr_ret_stack++;
	*slot = (unsigned long)return_to_handler;
	/* With tracing_thresh only returns are recorded: a call is drawn once it is long enough. */
	if (!rs->untraced && !READ_ONCE(tracing_thresh))
		trace_function_record(TRACE_GRAPH_ENT_EVENT_ID, ip, parent_ip, regs, &p, sizeof(p));
}
NOKPROBE_SYMBOL(graph_in_notrace);
NOKPROBE_SYMBOL(graph_wanted);
NOKPROBE_SYMBOL(graph_notrace);
NOKPROBE_SYMBOL(graph_entry);
NOKPROBE_SYMBOL(graph_skip_irq);

/*
 * sleep-time off (Linux's ftrace_graph_probe_sched_switch()): a duration
 * is the time the function ran, not the time it took.  The scheduler
 * calls this at each switch, before the stacks change: prev notes when
 * it left, and next's open calls have their entry times moved later by
 * the time next was away (asleep or preempted), so their returns
 * measure only the time on a CPU.
 */
void ftrace_graph_sched_switch(struct task_struct *prev, struct task_struct *next)
{
	unsigned long long now, away;

	if (trace_array_option_on(&global_trace, TRACE_ITER_GRAPH_SLEEP_TIME))
		return;
	now = trace_clock();
	prev->ftrace_timestamp = now;
	if (!next->ftrace_timestamp || now < next->ftrace_timestamp)
		return;		/* never timestamped, or another CPU's clock ran behind */
	away = now - next->ftrace_timestamp;
	for (int i = 0; i < next->curr_ret_stack; i++)
		next->ret_stack[i].calltime += away;
}
NOKPROBE_SYMBOL(ftrace_graph_sched_switch);

/* A return worth a record: not a notrace function's, not shorter than tracing_thresh. */
static bool graph_return_wanted(const struct ftrace_ret_stack *rs)
{
	unsigned long thresh = READ_ONCE(tracing_thresh);

	return !rs->untraced && (!thresh || trace_clock() - rs->calltime >= thresh);
}

/*
 * The hooked function returned: pop its entry, record the return, give
 * return_to_handler the real address.  The pop happens even when the
 * recursion guard is taken - the address is needed whatever happens.
 */
__attribute__((regparm(3)))
unsigned long ftrace_return_to_handler(void)
{
	unsigned long flags = local_irq_save();
	int bit = ftrace_test_recursion_trylock();
	struct task_struct *t = this_cpu_read(current_task);
	struct ftrace_ret_stack *rs = &t->ret_stack[--t->curr_ret_stack];
	struct graph_payload p = { .depth = t->curr_ret_stack, .calltime = rs->calltime };
	unsigned long ret = rs->ret;

	if (bit >= 0) {
		if (graph_return_wanted(rs))
			trace_function_record(TRACE_GRAPH_RET_EVENT_ID, rs->func, ret, NULL,
					      &p, sizeof(p));
		ftrace_test_recursion_unlock(bit);
	}
	local_irq_restore(flags);
	return ret;
}
NOKPROBE_SYMBOL(graph_return_wanted);
NOKPROBE_SYMBOL(ftrace_return_to_handler);

static struct ftrace_ops graph_ops = { .func = graph_entry, .flags = FTRACE_OPS_FL_RECURSION };

/* Every site calls: inside a graph every function is drawn (graph_wanted()). */
static int graph_trace_init(void)
{
	return register_ftrace_function(&graph_ops);
}

/*
 * Off: no new hooks.  Returns already hooked still go through
 * return_to_handler, whose code stays: a thread asleep in a traced
 * function comes back through it later.
 */
static void graph_trace_reset(void)
{
	unregister_ftrace_function(&graph_ops);
}

struct tracer graph_trace = {
	.name = "function_graph", .init = graph_trace_init, .reset = graph_trace_reset,
};

/* ---- set_graph_function, set_graph_notrace, max_graph_depth, tracing_thresh ------ */

/* set_graph_function's set is graph_filter_ops' filter, set_graph_notrace's graph_notrace_ops'. */
static int graph_hash_write(struct ftrace_ops *ops, const char *text, size_t len, bool trunc)
{
	int ret = ftrace_set_filter(ops, text, len, trunc);

	if (ret == -EINVAL)
		pseudofs_error("no traceable function matches (available_filter_functions lists them)");
	return ret;
}

int set_graph_function_show(struct seq_buf *s, void *data)
{
	ftrace_filter_hash_show(s, graph_filter_ops.filter_hash, "#### all functions enabled ####\n");
	return 0;
}

int set_graph_function_write(const char *text, size_t len, bool trunc, void *data)
{
	return graph_hash_write(&graph_filter_ops, text, len, trunc);
}

static int set_graph_notrace_show(struct seq_buf *s, void *data)
{
	ftrace_filter_hash_show(s, graph_notrace_ops.filter_hash, "#### no functions disabled ####\n");
	return 0;
}

static int set_graph_notrace_write(const char *text, size_t len, bool trunc, void *data)
{
	return graph_hash_write(&graph_notrace_ops, text, len, trunc);
}

static int max_graph_depth_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(fgraph_max_depth));
	return 0;
}

static int max_graph_depth_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	if (!ret)
		WRITE_ONCE(fgraph_max_depth, val);
	return ret;
}

#define NSEC_PER_USEC 1000UL

/* Linux's tracing_nsecs_read(): kept in ns, shown in us. */
static int tracing_thresh_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%ld\n", (long)(READ_ONCE(tracing_thresh) / NSEC_PER_USEC));
	return 0;
}

static int tracing_thresh_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	if (!ret)
		WRITE_ONCE(tracing_thresh, val * NSEC_PER_USEC);
	return ret;
}

static const struct pseudo_file_spec graph_files[] = {
	{ "set_graph_notrace", set_graph_notrace_show, set_graph_notrace_write },
	{ "max_graph_depth",   max_graph_depth_show,   max_graph_depth_write },
	{ "tracing_thresh",    tracing_thresh_show,    tracing_thresh_write },
};

int graph_tracefs_init(void)
{
	return pseudofs_create_files(TRACEFS_DIR, graph_files, ARRAY_SIZE(graph_files));
}

/* ---- trace, function_graph's way -------------------------------------------------- */

/*
 * The columns before the call tree, each a funcgraph-* option of
 * options/ as Linux's: abstime, cpu, proc, then overhead and duration.
 */
static bool graph_opt(int bit)
{
	return trace_option_on(bit);
}

/* Linux's __print_graph_headers_flags(): one heading per column shown. */
static void print_graph_headers(struct seq_buf *s)
{
	if (!trace_option_on(TRACE_ITER_CONTEXT_INFO))
		return;
	seq_buf_putc(s, '#');
	if (graph_opt(TRACE_ITER_GRAPH_ABSTIME))
		seq_buf_puts(s, "     TIME       ");
	if (graph_opt(TRACE_ITER_GRAPH_CPU))
		seq_buf_puts(s, " CPU");
	if (graph_opt(TRACE_ITER_GRAPH_PROC))
		seq_buf_puts(s, "  TASK/PID       ");
	if (graph_opt(TRACE_ITER_GRAPH_DURATION))
		seq_buf_puts(s, "  DURATION   ");
	seq_buf_puts(s, "               FUNCTION CALLS\n#");
	if (graph_opt(TRACE_ITER_GRAPH_ABSTIME))
		seq_buf_puts(s, "      |         ");
	if (graph_opt(TRACE_ITER_GRAPH_CPU))
		seq_buf_puts(s, " |  ");
	if (graph_opt(TRACE_ITER_GRAPH_PROC))
		seq_buf_puts(s, "   |    |        ");
	if (graph_opt(TRACE_ITER_GRAPH_DURATION))
		seq_buf_puts(s, "   |   |      ");
	seq_buf_puts(s, "               |   |   |   |\n");
}

/*
 * An entry is held back until the next record of its CPU: if that is its
 * own return, the two make one leaf line "fib();".  enter_funcs[] is the
 * function opened at each depth, so a return whose entry was not drawn
 * (tracing_thresh records none) names its function in a C comment
 * after the brace, as Linux's does.
 */
struct graph_iter {
	struct seq_buf *s;
	struct trace_entry pending[NR_CPUS];
	bool has_pending[NR_CPUS];
	unsigned long enter_funcs[NR_CPUS][FTRACE_RETFUNC_DEPTH];
};

/* Linux's marks for long calls: + over 10 us, ! over 100 us, # over 1 ms... */
static char duration_mark(unsigned long long ns)
{
	if (ns > 1000000000ull) return '$';
	if (ns > 100000000ull)  return '@';
	if (ns > 10000000ull)   return '*';
	if (ns > 1000000ull)    return '#';
	if (ns > 100000ull)     return '!';
	if (ns > 10000ull)      return '+';
	return ' ';
}

#define GRAPH_PROCINFO_LENGTH 14	/* Linux's TRACE_GRAPH_PROCINFO_LENGTH */
#define GRAPH_COMM_SHOWN      7		/* comm is cut to 7 characters */
#define GRAPH_DURATION_DIGITS 7		/* "12345.678": at most 7 digits */
#define GRAPH_DURATION_WIDTH  8
#define GRAPH_NS_DIGITS       3

/* Linux's max_bytes_for_cpu: the width of the highest CPU number. */
static int graph_cpu_width(void)
{
	char buf[12];

	return snprintf(buf, sizeof(buf), "%u", num_online_cpus() - 1);
}

/* "  sh-1  ": comm-pid centred in 14 columns (Linux's print_graph_proc()). */
static void print_graph_proc(struct seq_buf *s, const struct trace_entry *e)
{
	char who[TASK_NAME_LEN + 16];
	int len, spaces;

	len = snprintf(who, sizeof(who), "%.*s-%d", GRAPH_COMM_SHOWN,
		       e->comm[0] ? e->comm : "<...>", e->pid);
	spaces = len < GRAPH_PROCINFO_LENGTH ? GRAPH_PROCINFO_LENGTH - len : 0;
	seq_buf_printf(s, "%*s%s%*s | ", spaces / 2, "", who, spaces - spaces / 2, "");
}

/* The columns before the duration: " 12.345678 |  ", " 0) ", the task. */
static void print_graph_prologue(struct seq_buf *s, const struct trace_entry *e)
{
	if (!trace_option_on(TRACE_ITER_CONTEXT_INFO))
		return;
	if (graph_opt(TRACE_ITER_GRAPH_ABSTIME))
		seq_buf_printf(s, "%5lu.%06lu |  ", (unsigned long)(e->ts / 1000000000ull),
			       (unsigned long)(e->ts % 1000000000ull / 1000));
	if (graph_opt(TRACE_ITER_GRAPH_CPU))
		seq_buf_printf(s, " %*d) ", graph_cpu_width(), e->cpu);
	if (graph_opt(TRACE_ITER_GRAPH_PROC))
		print_graph_proc(s, e);
}

/* Linux's print_graph_duration(): "+ 12.345 us   |  ", or a blank column. */
static void print_graph_duration(struct seq_buf *s, unsigned long long ns, bool blank)
{
	char us[24], ns_str[8];
	int len;

	if (!graph_opt(TRACE_ITER_GRAPH_DURATION) || !trace_option_on(TRACE_ITER_CONTEXT_INFO))
		return;
	if (blank) {
		seq_buf_puts(s, "              |  ");
		return;
	}
	seq_buf_printf(s, "%c ", graph_opt(TRACE_ITER_GRAPH_OVERHEAD) ? duration_mark(ns) : ' ');
	len = snprintf(us, sizeof(us), "%llu", ns / 1000);
	if (len < GRAPH_DURATION_DIGITS) {	/* the ns, as many as fit in 7 digits */
		snprintf(ns_str, sizeof(ns_str), "%03llu", ns % 1000);
		ns_str[GRAPH_DURATION_DIGITS - len < GRAPH_NS_DIGITS ? GRAPH_DURATION_DIGITS - len : GRAPH_NS_DIGITS] = '\0';
		len += snprintf(us + len, sizeof(us) - len, ".%s", ns_str);
	}
	seq_buf_printf(s, "%s us %*s|  ", us,
		       len < GRAPH_DURATION_WIDTH ? GRAPH_DURATION_WIDTH - len : 0, "");
}

static const struct graph_payload *payload_of(const struct trace_entry *e)
{
	return (const struct graph_payload *)e->payload;
}

static void print_open(struct graph_iter *it, const struct trace_entry *e)
{
	char name[KSYM_NAME_LEN];
	int depth = payload_of(e)->depth;

	if (depth < FTRACE_RETFUNC_DEPTH)
		it->enter_funcs[e->cpu][depth] = e->ip;
	sprint_symbol_no_offset(name, sizeof(name), e->ip);
	print_graph_prologue(it->s, e);
	print_graph_duration(it->s, 0, true);
	seq_buf_printf(it->s, "%*s%s() {\n", 2 * depth, "", name);
}

static void print_leaf(struct graph_iter *it, const struct trace_entry *e)
{
	char name[KSYM_NAME_LEN];

	sprint_symbol_no_offset(name, sizeof(name), e->ip);
	print_graph_prologue(it->s, e);
	print_graph_duration(it->s, e->ts - payload_of(e)->calltime, false);
	seq_buf_printf(it->s, "%*s%s();\n", 2 * payload_of(e)->depth, "", name);
}

/* "}", or the brace and the function's name in a C comment with funcgraph-tail or when its entry was not drawn. */
static void print_close(struct graph_iter *it, const struct trace_entry *e)
{
	int depth = payload_of(e)->depth;
	bool match = depth < FTRACE_RETFUNC_DEPTH && it->enter_funcs[e->cpu][depth] == e->ip;
	char name[KSYM_NAME_LEN];

	if (depth < FTRACE_RETFUNC_DEPTH)
		it->enter_funcs[e->cpu][depth] = 0;
	print_graph_prologue(it->s, e);
	print_graph_duration(it->s, e->ts - payload_of(e)->calltime, false);
	if (match && !graph_opt(TRACE_ITER_GRAPH_TAIL)) {
		seq_buf_printf(it->s, "%*s}\n", 2 * depth, "");
		return;
	}
	sprint_symbol_no_offset(name, sizeof(name), e->ip);
	seq_buf_printf(it->s, "%*s} /* %s */\n", 2 * depth, "", name);
}

static int graph_print_one(const struct trace_entry *e, void *data)
{
	struct graph_iter *it = data;
	const struct trace_entry *pend = &it->pending[e->cpu];

	if (e->event_id != TRACE_GRAPH_ENT_EVENT_ID && e->event_id != TRACE_GRAPH_RET_EVENT_ID)
		return 0;
	if (it->has_pending[e->cpu]) {
		it->has_pending[e->cpu] = false;
		if (e->event_id == TRACE_GRAPH_RET_EVENT_ID && e->ip == pend->ip &&
		    payload_of(e)->depth == payload_of(pend)->depth) {
			print_leaf(it, e);
			return 0;
		}
		print_open(it, pend);
	}
	if (e->event_id == TRACE_GRAPH_ENT_EVENT_ID) {
		it->pending[e->cpu] = *e;
		it->has_pending[e->cpu] = true;
		return 0;
	}
	print_close(it, e);
	return 0;
}

bool trace_graph_show(struct seq_buf *s, int cpu)
{
	struct graph_iter *it;

	if (!trace_current_tracer_is(&graph_trace))
		return false;
	it = kzalloc(sizeof(*it));
	seq_buf_puts(s, "# tracer: function_graph\n#\n");
	print_graph_headers(s);
	if (!it)
		return true;
	it->s = s;
	trace_buffer_for_each(cpu, graph_print_one, it);
	for (int c = 0; c < NR_CPUS; c++)
		if (it->has_pending[c])
			print_open(it, &it->pending[c]);
	kfree(it);
	return true;
}
