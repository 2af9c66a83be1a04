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

/* What a graph record carries besides ip: the depth, and at return the entry's time. */
struct graph_payload {
	int depth;
	unsigned long long calltime;
};

static unsigned long graph_missed;	/* calls deeper than FTRACE_RETFUNC_DEPTH */

/*
 * set_graph_function: the functions whose calls start a graph (Linux's);
 * empty, every traced function.  Inside a graph, every traced function
 * is drawn.
 */
static struct ftrace_ops graph_filter_ops;	/* only its hash is used */

static bool graph_wanted(struct task_struct *t, unsigned long ip)
{
	if (!ftrace_ops_test(&trace_global_ops, ip))	/* set_ftrace_filter, _notrace */
		return false;
	return t->curr_ret_stack > 0 || ftrace_ops_test(&graph_filter_ops, ip);
}

static void graph_entry(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct task_struct *t = this_cpu_read(current_task);
	unsigned long *slot = (unsigned long *)&regs->sp;	/* the return address */
	struct graph_payload p;
	struct ftrace_ret_stack *rs;

	if (!t || *slot != parent_ip || !graph_wanted(t, ip))
		return;
	if (t->curr_ret_stack >= FTRACE_RETFUNC_DEPTH) {
		graph_missed++;
		return;
	}
	rs = &t->ret_stack[t->curr_ret_stack];
	rs->ret = parent_ip;
	rs->func = ip;
	rs->calltime = trace_clock();
	p = (struct graph_payload){ .depth = t->curr_ret_stack, .calltime = rs->calltime };
	t->curr_ret_stack++;
	*slot = (unsigned long)return_to_handler;
	trace_function_record(TRACE_GRAPH_ENT_EVENT_ID, ip, parent_ip, regs, &p, sizeof(p));
}
NOKPROBE_SYMBOL(graph_entry);

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
		trace_function_record(TRACE_GRAPH_RET_EVENT_ID, rs->func, ret, NULL, &p, sizeof(p));
		ftrace_test_recursion_unlock(bit);
	}
	local_irq_restore(flags);
	return ret;
}
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

/* ---- set_graph_function ------------------------------------------------------------ */

int set_graph_function_show(struct seq_buf *s, void *data)
{
	const struct ftrace_hash *h = graph_filter_ops.filter_hash;
	char name[KSYM_NAME_LEN];

	if (!h || !h->count) {
		seq_buf_puts(s, "#### all functions enabled ####\n");
		return 0;
	}
	for (int i = 0; i < h->count; i++) {
		sprint_symbol_no_offset(name, sizeof(name), h->ips[i]);
		seq_buf_printf(s, "%s\n", name);
	}
	return 0;
}

int set_graph_function_write(const char *text, size_t len, bool trunc, void *data)
{
	int ret = ftrace_set_filter(&graph_filter_ops, text, len, trunc);

	if (ret == -EINVAL)
		pseudofs_error("no traceable function matches (available_filter_functions lists them)");
	return ret;
}

/* ---- trace, function_graph's way -------------------------------------------------- */

static const char graph_header[] =
	"#\n"
	"# CPU  DURATION                  FUNCTION CALLS\n"
	"# |     |   |                     |   |   |   |\n";

/*
 * An entry is held back until the next record of its CPU: if that is its
 * own return, the two make one leaf line "fib();".
 */
struct graph_iter {
	struct seq_buf *s;
	struct trace_entry pending[NR_CPUS];
	bool has_pending[NR_CPUS];
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

static void print_duration(struct seq_buf *s, int cpu, unsigned long long ns)
{
	char us[24];

	snprintf(us, sizeof(us), "%llu.%03llu", ns / 1000, ns % 1000);
	seq_buf_printf(s, " %d) %c %7s us  |  ", cpu, duration_mark(ns), us);
}

static const struct graph_payload *payload_of(const struct trace_entry *e)
{
	return (const struct graph_payload *)e->payload;
}

static void print_open(struct seq_buf *s, const struct trace_entry *e)
{
	char name[KSYM_NAME_LEN];

	sprint_symbol_no_offset(name, sizeof(name), e->ip);
	seq_buf_printf(s, " %d)               |  %*s%s() {\n", e->cpu,
		   2 * payload_of(e)->depth, "", name);
}

static int graph_print_one(const struct trace_entry *e, void *data)
{
	struct graph_iter *it = data;
	const struct trace_entry *pend = &it->pending[e->cpu];
	char name[KSYM_NAME_LEN];

	if (e->event_id != TRACE_GRAPH_ENT_EVENT_ID && e->event_id != TRACE_GRAPH_RET_EVENT_ID)
		return 0;
	if (it->has_pending[e->cpu]) {
		it->has_pending[e->cpu] = false;
		if (e->event_id == TRACE_GRAPH_RET_EVENT_ID && e->ip == pend->ip &&
		    payload_of(e)->depth == payload_of(pend)->depth) {
			sprint_symbol_no_offset(name, sizeof(name), e->ip);
			print_duration(it->s, e->cpu, e->ts - payload_of(e)->calltime);
			seq_buf_printf(it->s, "%*s%s();\n", 2 * payload_of(e)->depth, "", name);
			return 0;
		}
		print_open(it->s, pend);
	}
	if (e->event_id == TRACE_GRAPH_ENT_EVENT_ID) {
		it->pending[e->cpu] = *e;
		it->has_pending[e->cpu] = true;
		return 0;
	}
	print_duration(it->s, e->cpu, e->ts - payload_of(e)->calltime);
	seq_buf_printf(it->s, "%*s}\n", 2 * payload_of(e)->depth, "");
	return 0;
}

bool trace_graph_show(struct seq_buf *s, int cpu)
{
	struct graph_iter *it;

	if (!trace_current_tracer_is(&graph_trace))
		return false;
	it = kzalloc(sizeof(*it));
	seq_buf_puts(s, "# tracer: function_graph\n");
	seq_buf_puts(s, graph_header);
	if (!it)
		return true;
	it->s = s;
	trace_buffer_for_each(cpu, graph_print_one, it);
	for (int c = 0; c < NR_CPUS; c++)
		if (it->has_pending[c])
			print_open(s, &it->pending[c]);
	kfree(it);
	return true;
}
