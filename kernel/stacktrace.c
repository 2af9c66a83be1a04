/*
 * stacktrace.c - Linux's stack_trace_save() and dump_stack() on top of
 * the frame unwinder (arch/i386/unwind_frame.c).
 *
 * A module asks "who called me?" with stack_trace_save(): the return
 * addresses of the calls in progress, innermost first.  Inside a probe
 * handler, stack_trace_save_regs() starts instead from the probed
 * function's own registers, so the trace begins where the probe hit.
 */
#include "kernel.h"
#include "stacktrace.h"
#include "kallsyms.h"
#include <asm/ptrace.h>
#include "sched.h"
#include "smp.h"

/* Copy at most size addresses of trace[skipnr..n) to store. */
static unsigned int store_trace(const struct stack_entry *trace, int n,
				unsigned long *store, unsigned int size,
				unsigned int skipnr)
{
	unsigned int len = 0;

	for (int i = skipnr; i < n && len < size; i++)
		store[len++] = trace[i].addr;
	return len;
}

/* Entry 0 is our caller: this function's own frame is not in the trace. */
unsigned int stack_trace_save(unsigned long *store, unsigned int size,
			      unsigned int skipnr)
{
	struct stack_entry trace[STACK_TRACE_MAX];
	int n = unwind_stack(NULL, (unsigned long)__builtin_frame_address(0),
			     trace, STACK_TRACE_MAX);

	return store_trace(trace, n, store, size, skipnr);
}

/* Entry 0 is regs->ip, the interrupted (probed) instruction. */
unsigned int stack_trace_save_regs(struct pt_regs *regs, unsigned long *store,
				   unsigned int size, unsigned int skipnr)
{
	struct stack_entry trace[STACK_TRACE_MAX];
	int n = unwind_stack(regs, 0, trace, STACK_TRACE_MAX);

	return store_trace(trace, n, store, size, skipnr);
}

void stack_trace_print(const unsigned long *entries, unsigned int nr_entries,
		       int spaces)
{
	for (unsigned int i = 0; i < nr_entries; i++)
		printk("%*c%pS\n", 1 + spaces, ' ', (void *)entries[i]);
}

/* Linux's "where am I?": who is running, then the call chain. */
void dump_stack(void)
{
	printk("CPU: %d PID: %d Comm: %s\n", smp_processor_id(), task_pid(current),
	       task_name(current));
	printk("Call Trace:\n");
	show_backtrace(NULL, (unsigned long)__builtin_frame_address(0));
}
