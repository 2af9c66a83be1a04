/*
 * exec_trace.h - which instructions did some code execute?  Asked of the
 * CPU itself, with EFLAGS.TF (tests/kernel/exec_trace.c).
 */
#ifndef EXEC_TRACE_H
#define EXEC_TRACE_H

#include "kernel.h"

/*
 * Start one pass: record into an empty map of the kernel's text.  Passes
 * add up until exec_trace_free().  0 or -ENOMEM.
 */
int exec_trace_begin(void);
/* fn() with TF set: every instruction it (and any thread it starts) runs is marked. */
unsigned long exec_trace_call(unsigned long (*fn)(void));
/* End the pass; the maps stay readable until exec_trace_free(). */
void exec_trace_end(void);
void exec_trace_free(void);

/* Did every pass execute the instruction at addr? */
bool exec_trace_executed(unsigned long addr);
/* How many instructions every pass executed; how many only some did. */
unsigned long exec_trace_count(void);
unsigned long exec_trace_varying(void);

#endif
