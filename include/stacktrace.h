/*
 * stacktrace.h - save and print the calls in progress (kernel/stacktrace.c),
 * with Linux's names and meanings.
 */
#ifndef STACKTRACE_H
#define STACKTRACE_H

struct pt_regs;

#define STACK_TRACE_MAX	32	/* the unwinder's depth limit */

/* Return addresses from the caller outwards; skipnr innermost ones left out. */
unsigned int stack_trace_save(unsigned long *store, unsigned int size,
			      unsigned int skipnr);
/* The same from a trap frame: entry 0 is regs->ip. */
unsigned int stack_trace_save_regs(struct pt_regs *regs, unsigned long *store,
				   unsigned int size, unsigned int skipnr);
void stack_trace_print(const unsigned long *entries, unsigned int nr_entries,
		       int spaces);
/* Print the current thread and its call chain. */
void dump_stack(void);

#endif
