/*
 * ftrace.h - the function tracer's core, Linux's names (include/linux/ftrace.h).
 *
 * Every kernel function starts with a 5-byte "call __fentry__" (gcc -pg
 * -mfentry); gcc lists each such call site in __mcount_loc.  ftrace_init()
 * makes every site a 5-byte nop.  A struct ftrace_ops is one user: a
 * callback and the functions it wants (its filter, empty for all, minus
 * its notrace list).  register_ftrace_function() turns the nop of every
 * site some ops wants into "call ftrace_regs_caller" (arch/i386/ftrace_32.S),
 * which builds a pt_regs and calls each ops whose filter holds the site.
 *
 *   ftrace_ops --register--> kernel/trace/ftrace.c --text_poke_bp--> the sites
 *   a traced call -> ftrace_regs_caller -> ftrace_trace_function: op->func when one
 *                    ops is registered, else ftrace_ops_list_func -> each op->func
 */
#ifndef FTRACE_H
#define FTRACE_H

#include <stddef.h>
#include <stdbool.h>
#include "kernel.h"
#include <asm/ptrace.h>
#include <asm/percpu.h>
#include "ftrace_ret_stack.h"

#define MCOUNT_INSN_SIZE	5	/* call rel32 / the 5-byte nop */
#define CALL_INSN_OPCODE	0xe8	/* call rel32: an enabled site's first byte */

/* Linux wraps the regs so that a callback without SAVE_REGS may see less. */
struct ftrace_regs {
	struct pt_regs regs;
};

static inline struct pt_regs *ftrace_get_regs(struct ftrace_regs *fregs)
{
	return &fregs->regs;
}

struct ftrace_ops;
typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs);

/* A set of call sites (Linux's ftrace_hash): addresses, kept sorted. */
struct ftrace_hash {
	unsigned long *ips;
	int count;
	int size;		/* room in ips */
};

#define FTRACE_OPS_FL_ENABLED	0x1	/* registered: its sites are calls */
#define FTRACE_OPS_FL_SAVE_REGS	0x2	/* every ops gets full regs here */
#define FTRACE_OPS_FL_IPMODIFY	0x4	/* may change regs->ip (kprobes) */
/*
 * Call it only outside every other callback on this CPU (Linux's
 * FTRACE_OPS_FL_RECURSION): what the tracers call is not traced.  An ops
 * without it (kprobes) sees those calls and handles recursion itself.
 */
#define FTRACE_OPS_FL_RECURSION	0x8

struct ftrace_ops {
	ftrace_func_t func;
	unsigned long flags;		/* FTRACE_OPS_FL_* */
	/* Replaced whole, never edited in place: a callback may be reading it. */
	struct ftrace_hash *filter_hash;	/* NULL or empty: every function */
	struct ftrace_hash *notrace_hash;	/* never these */
	void *private;
	struct ftrace_ops *next;	/* the list of registered ops */
};

/* ---- users' API (kernel/trace/ftrace.c) ------------------------------------------ */

int register_ftrace_function(struct ftrace_ops *ops);
int unregister_ftrace_function(struct ftrace_ops *ops);
/* Another callback for ops, registered or not (kprobes' narration switch). */
void ftrace_ops_set_func(struct ftrace_ops *ops, ftrace_func_t func);
/*
 * Filters by name: buf is a glob ("fib", "crc32_*", "*lock*"), as written
 * to set_ftrace_filter; reset empties the set first.  -EINVAL if no
 * traceable function matches.  While the ops is registered the sites are
 * patched at once.
 */
int ftrace_set_filter(struct ftrace_ops *ops, const char *buf, int len, int reset);
int ftrace_set_notrace(struct ftrace_ops *ops, const char *buf, int len, int reset);
/* One site by address (kprobes on ftrace): -ENOENT if ip is no site. */
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, int remove, int reset);
void ftrace_free_filter(struct ftrace_ops *ops);
/* Does ops trace the site ip? */
bool ftrace_ops_test(const struct ftrace_ops *ops, unsigned long ip);

/* ip if a call site lies at ip (a function's first byte), else 0. */
unsigned long ftrace_location(unsigned long ip);
/* The call sites, for each one until fn returns non-zero. */
int ftrace_for_each_site(int (*fn)(unsigned long ip, bool enabled, void *data), void *data);
unsigned long ftrace_nr_sites(void);
unsigned long ftrace_nr_enabled(void);	/* sites now calling the trampoline */
void ftrace_table_info(unsigned long *pages, unsigned long *groups);

/*
 * Per-CPU recursion guard, Linux's ftrace_test_recursion_trylock():
 * nonzero while this CPU is inside the callbacks, so what they call is
 * not traced.  Interrupts are off wherever it is taken.  Inline: every
 * traced call of a guarded ops takes it.
 */
DECLARE_PER_CPU(int, ftrace_recursion);
extern unsigned long ftrace_recursion_missed;

static inline int ftrace_test_recursion_trylock(void)
{
	if (this_cpu_read(ftrace_recursion)) {
		ftrace_recursion_missed++;
		return -1;
	}
	this_cpu_write(ftrace_recursion, 1);
	return 0;
}

static inline void ftrace_test_recursion_unlock(int bit)
{
	this_cpu_write(ftrace_recursion, 0);
}

/* How many registered ops trace the site ip, and does one change regs->ip? */
int ftrace_site_users(unsigned long ip);
bool ftrace_site_ipmodify(unsigned long ip);

/* ---- the tracers (kernel/trace/trace_functions.c, trace_functions_graph.c) ---------- */

/* The trace records' event ids: far above those kprobe and uprobe events take. */
#define TRACE_FN_EVENT_ID		0xfff00001u	/* a function tracer call */
#define TRACE_GRAPH_ENT_EVENT_ID	0xfff00002u	/* function_graph: a function entered */
#define TRACE_GRAPH_RET_EVENT_ID	0xfff00003u	/* function_graph: it returned */

/* Linux's struct tracer: what current_tracer selects. */
struct tracer {
	const char *name;
	int (*init)(void);
	void (*reset)(void);
};
extern struct tracer graph_trace;
extern struct ftrace_ops trace_global_ops;	/* set_ftrace_filter's ops */
int tracing_set_tracer(const char *name);
const char *trace_current_tracer_name(void);
bool trace_current_tracer_is(const struct tracer *t);

struct trace_entry;
struct seq_buf;
void trace_function_record(unsigned int id, unsigned long ip, unsigned long parent_ip,
			   struct pt_regs *regs, const void *payload, int len);
struct trace_buffer;
/* The same into an instance's buffer (tb NULL: the top level's). */
void trace_function_record_buf(struct trace_buffer *tb, unsigned int id, unsigned long ip,
			       unsigned long parent_ip, struct pt_regs *regs,
			       const void *payload, int len);
/* An instance's set_ftrace_filter and set_ftrace_notrace for its ops. */
int ftrace_instance_files_create(const char *dir, struct ftrace_ops *ops);
/* The text of a function or graph record; false if e is not one. */
bool trace_function_print(struct seq_buf *s, const struct trace_entry *e);
/* `trace` in function_graph's own layout; false if that is not the tracer. */
bool trace_graph_show(struct seq_buf *s, int cpu);
int set_graph_function_show(struct seq_buf *s, void *data);
int set_graph_function_write(const char *text, size_t len, bool trunc, void *data);
/* A filter file's functions, one a line, or `empty` when it has none. */
void ftrace_filter_hash_show(struct seq_buf *s, const struct ftrace_hash *h, const char *empty);
int stack_trace_init(void);
int graph_tracefs_init(void);	/* set_graph_notrace, max_graph_depth, tracing_thresh */	/* trace_stack.c: stack_trace, stack_max_size, ... */

/* function_graph's return hook (arch/i386/ftrace_32.S, trace_functions_graph.c). */
void return_to_handler(void);		/* arch/i386/ftrace_32.S */
__attribute__((regparm(3)))
unsigned long ftrace_return_to_handler(void);
/* The scheduler's hook at each switch: sleep-time off takes next's time away out of its durations. */
struct task_struct;
void ftrace_graph_sched_switch(struct task_struct *prev, struct task_struct *next);

/* ---- boot and modules --------------------------------------------------------- */

void ftrace_init(void);		/* every site a nop (kmain, before the other CPUs) */
struct module;
void ftrace_module_init(struct module *mod);	/* its sites nops, before it runs */
void ftrace_module_enable(struct module *mod);	/* the ops that want its sites */
void ftrace_release_mod(struct module *mod);	/* its sites leave every table */
int ftrace_tracefs_init(void);	/* the files in /sys/kernel/tracing */

/* ---- the arch half (arch/i386/ftrace.c, ftrace_32.S) ---------------------------- */

void __fentry__(void);
void ftrace_regs_caller(void);
/*
 * What ftrace_regs_caller calls, and the ops it passes (Linux's names):
 * the one registered ops' func (through ftrace_ops_assist_func() if it
 * wants the recursion guard), else ftrace_ops_list_func().
 */
extern ftrace_func_t ftrace_trace_function;
extern struct ftrace_ops *function_trace_op;
/* The 5 bytes a site holds: the nop, or a call to addr. */
const unsigned char *ftrace_nop_replace(void);
void ftrace_call_replace(unsigned char *insn, unsigned long ip, unsigned long addr);
/* The walk over every registered ops a traced call makes (kernel/trace/ftrace.c). */
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
/* One ops that wants the recursion guard, called alone. */
void ftrace_ops_assist_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs);
/* Is this the call gcc emitted, to __fentry__ (before ftrace_init)? */
bool ftrace_site_is_fentry_call(unsigned long ip);

#endif
