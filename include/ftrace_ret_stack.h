#ifndef FTRACE_RET_STACK_H
#define FTRACE_RET_STACK_H
/*
 * One hooked return of function_graph (kernel/trace/trace_functions_graph.c):
 * each thread keeps a small stack of them in its task_struct, as Linux's
 * ret_stack, so a thread that sleeps inside a traced function finds its
 * own return addresses when it wakes on any CPU.
 */
#include <stdbool.h>

#define FTRACE_RETFUNC_DEPTH	32	/* deeper calls are not hooked */

struct ftrace_ret_stack {
	unsigned long ret;		/* the real return address */
	unsigned long func;		/* the function's call site */
	unsigned long long calltime;	/* trace_clock() at entry */
	bool untraced;			/* set_graph_notrace's: nothing below it is drawn */
};

#endif
