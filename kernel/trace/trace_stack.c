/*
 * trace_stack.c - the stack tracer (Linux's kernel/trace/trace_stack.c):
 * how deep did the kernel's stack ever get, and through which calls?
 *
 *   echo 1 > /proc/sys/kernel/stack_tracer_enabled   (or boot with `stacktrace`)
 *   run fib 10
 *   cat /sys/kernel/tracing/stack_max_size           the deepest, in bytes
 *   cat /sys/kernel/tracing/stack_trace              the calls at that moment:
 *           Depth    Size   Location    (5 entries)
 *           -----    ----   --------
 *     0)     1412       4   fib+0x5/0x36
 *     1)     1408      32   fib+0x1f/0x36
 *   ...
 *
 * It is a function tracer callback on every traceable function (or those
 * of stack_trace_filter).  A thread's kernel stack is THREAD_STACK_PAGES
 * pages below task_stack_top(); at a function's first instruction the
 * word the call pushed lies at &regs->flags (ftrace_32.S), so top minus
 * that address is the stack in use at that call, the tracer's own frames
 * left out.  A new maximum saves the call chain and finds where each
 * return address sits on the stack: Depth is the stack in use from that
 * slot up, Size the difference to the next (one function's frame).
 */
#include "kernel.h"
#include "ftrace.h"
#include "trace.h"
#include "pseudofs.h"
#include "stacktrace.h"
#include "sched.h"
#include "smp.h"
#include <asm/irqflags.h>
#include "spinlock.h"
#include "mutex.h"
#include "vsprintf.h"
#include "string.h"
#include "errno.h"
#include "nokprobe.h"

#define STACK_TRACE_ENTRIES STACK_TRACE_MAX
#define STACK_TRACER_SYSCTL "/proc/sys/kernel/stack_tracer_enabled"

static unsigned long stack_dump_trace[STACK_TRACE_ENTRIES];
static unsigned int stack_trace_index[STACK_TRACE_ENTRIES];	/* each one's Depth */
static unsigned int stack_trace_nr_entries;
static unsigned long stack_trace_max_size;
static DEFINE_SPINLOCK(stack_trace_max_lock);
static DEFINE_MUTEX(stack_sysctl_mutex);
static int stack_tracer_enabled;	/* /proc/sys/kernel/stack_tracer_enabled */
/*
 * Set while this CPU holds the table's lock to read or reset it: a traced
 * function the reader calls (seq_buf_printf()) must not go deeper and
 * take the lock again (Linux's per-CPU disable_stack_tracer).
 */
static int stack_tracer_disabled_on[NR_CPUS];

/*
 * Where each saved return address lies on the stack, searched upwards
 * from slot as Linux's check_stack() does; an address not found (a
 * frame the unwinder guessed) is left out.  Entry 0 is regs->ip, which
 * ftrace_32.S moved off the stack: its slot is the one below slot.
 */
static void stack_trace_locate(unsigned long *slot, unsigned long *top, unsigned int n)
{
	unsigned int x = 1;

	stack_trace_index[0] = (top - (slot - 1)) * sizeof(unsigned long);
	for (unsigned int i = 1; i < n; i++) {
		unsigned long *p;

		for (p = slot; p < top && *p != stack_dump_trace[i]; p++)
			;
		if (p == top)
			continue;
		stack_dump_trace[x] = stack_dump_trace[i];
		stack_trace_index[x++] = (top - p) * sizeof(unsigned long);
		slot = p + 1;
	}
	stack_trace_nr_entries = n ? x : 0;
}

/* A deeper stack than any before: keep its calls (Linux's check_stack()). */
static void check_stack(struct pt_regs *regs, unsigned long this_size, unsigned long *top)
{
	unsigned long *slot = (unsigned long *)&regs->flags;	/* the call's return address */

	spin_lock(&stack_trace_max_lock);
	if (this_size > stack_trace_max_size) {	/* another CPU may have gone deeper meanwhile */
		stack_trace_max_size = this_size;
		stack_trace_locate(slot + 1, top, stack_trace_save_regs(regs, stack_dump_trace,
								       STACK_TRACE_ENTRIES, 0));
	}
	spin_unlock(&stack_trace_max_lock);
}

static void stack_trace_call(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct task_struct *t = this_cpu_read(current_task);
	unsigned long slot = (unsigned long)&regs->flags, top;

	if (!t || READ_ONCE(stack_tracer_disabled_on[smp_processor_id()]))
		return;
	top = task_stack_top(t);
	/* Only a thread's own stack: not the boot stack, not the #DF task's. */
	if (slot < t->stack_base || slot >= top)
		return;
	if (top - slot > READ_ONCE(stack_trace_max_size))
		check_stack(regs, top - slot, (unsigned long *)top);
}
NOKPROBE_SYMBOL(stack_trace_locate);
NOKPROBE_SYMBOL(check_stack);
NOKPROBE_SYMBOL(stack_trace_call);

static struct ftrace_ops stack_trace_ops = {
	.func = stack_trace_call, .flags = FTRACE_OPS_FL_RECURSION,
};

/* The table stays still while read: no CPU may take the lock meanwhile. */
static unsigned long stack_trace_lock_table(void)
{
	unsigned long flags = local_irq_save();

	WRITE_ONCE(stack_tracer_disabled_on[smp_processor_id()], 1);
	spin_lock(&stack_trace_max_lock);
	return flags;
}

static void stack_trace_unlock_table(unsigned long flags)
{
	spin_unlock(&stack_trace_max_lock);
	WRITE_ONCE(stack_tracer_disabled_on[smp_processor_id()], 0);
	local_irq_restore(flags);
}

/* ---- the files ------------------------------------------------------------------ */

static void stack_trace_print_disabled(struct seq_buf *s)
{
	seq_buf_puts(s, "#\n"
		     "#  Stack tracer disabled\n"
		     "#\n"
		     "# To enable the stack tracer, either add 'stacktrace' to the\n"
		     "# kernel command line\n"
		     "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n"
		     "#\n");
}

/* Linux's table: Depth of each return address, Size down to the next. */
static int stack_trace_show(struct seq_buf *s, void *data)
{
	unsigned long flags = stack_trace_lock_table();
	unsigned int n = stack_trace_nr_entries;

	seq_buf_printf(s, "        Depth    Size   Location    (%u entries)\n"
		       "        -----    ----   --------\n", n);
	if (!READ_ONCE(stack_tracer_enabled) && !stack_trace_max_size)
		stack_trace_print_disabled(s);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int size = i + 1 == n ? stack_trace_index[i] :
				    stack_trace_index[i] - stack_trace_index[i + 1];

		seq_buf_printf(s, "%3u) %8u   %5u   %pS\n", i, stack_trace_index[i], size,
			       (void *)stack_dump_trace[i]);
	}
	stack_trace_unlock_table(flags);
	return 0;
}

static int stack_max_size_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%ld\n", (long)READ_ONCE(stack_trace_max_size));
	return 0;
}

/* Any number: `echo 0 > stack_max_size` starts the search over. */
static int stack_max_size_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val, flags;
	int ret = kstrntoul(text, len, 10, &val);

	if (ret)
		return ret;
	flags = stack_trace_lock_table();
	stack_trace_max_size = val;
	stack_trace_unlock_table(flags);
	return 0;
}

static int stack_trace_filter_show(struct seq_buf *s, void *data)
{
	ftrace_filter_hash_show(s, stack_trace_ops.filter_hash, "#### all functions enabled ####\n");
	return 0;
}

static int stack_trace_filter_write(const char *text, size_t len, bool trunc, void *data)
{
	return ftrace_set_filter(&stack_trace_ops, text, len, trunc);
}

/* Linux's stack_trace_sysctl(): the ops goes on at 1, off at 0. */
static int stack_tracer_set(int on)
{
	int ret = 0;

	mutex_lock(&stack_sysctl_mutex);
	if (!!on != !!stack_tracer_enabled) {
		ret = on ? register_ftrace_function(&stack_trace_ops) :
			   unregister_ftrace_function(&stack_trace_ops);
		if (!ret)
			stack_tracer_enabled = !!on;
	}
	mutex_unlock(&stack_sysctl_mutex);
	return ret;
}

static int stack_tracer_enabled_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(stack_tracer_enabled));
	return 0;
}

/* proc_dointvec: any int; not zero is on. */
static int stack_tracer_enabled_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	return ret ? ret : stack_tracer_set(val != 0);
}

static const struct pseudo_file_spec stack_trace_files[] = {
	{ "stack_max_size",     stack_max_size_show,     stack_max_size_write },
	{ "stack_trace",        stack_trace_show,        NULL },
	{ "stack_trace_filter", stack_trace_filter_show, stack_trace_filter_write },
};

/* The files, and the boot's choice: `stacktrace` on the command line turns it on. */
int stack_trace_init(void)
{
	int ret = pseudofs_create_files(TRACEFS_DIR, stack_trace_files,
					ARRAY_SIZE(stack_trace_files));

	if (!ret)
		ret = pseudofs_create(STACK_TRACER_SYSCTL, stack_tracer_enabled_show,
				      stack_tracer_enabled_write, NULL);
	if (!ret && cmdline_has("stacktrace"))
		ret = stack_tracer_set(1);
	return ret;
}
