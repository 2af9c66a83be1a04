/*
 * hw_breakpoint.h - hardware breakpoints and watchpoints: the debug
 * registers DR0-DR3, DR6 and DR7, and Linux's hw_breakpoint API on them
 * (docs/hw-breakpoints.md).
 *
 * DR0-DR3 hold four linear addresses.  DR7 says, for each, whether it is
 * armed and what the CPU compares there: an instruction fetch (execute),
 * a write, or any data access (read/write), of 1, 2 or 4 bytes.  When a
 * comparison matches, the CPU raises #DB and sets the slot's Bn bit in
 * DR6; arch/i386/traps.c's exc_debug() decodes DR6 and hands each Bn to
 * hw_breakpoint_handler(), BS (single-step) to kprobes.
 *
 *   struct hw_breakpoint_attr attr = {
 *           .bp_addr = (unsigned long)&jiffies,
 *           .bp_len  = HW_BREAKPOINT_LEN_4,
 *           .bp_type = HW_BREAKPOINT_W,
 *   };
 *   bp = register_wide_hw_breakpoint(&attr, my_triggered, NULL);
 *
 * Linux (2.6.33 on) builds this on perf events: the handle is a struct
 * perf_event per CPU.  Here it is one small struct hw_breakpoint for
 * every CPU, whose slot is the same debug register everywhere.
 *
 * The registers themselves - their bits, the mov to and from them -
 * are x86 facts: <asm/debugreg.h>, as Linux's.
 */
#ifndef HW_BREAKPOINT_H
#define HW_BREAKPOINT_H

#include <stdbool.h>
#include "kernel.h"
#include <asm/debugreg.h>
#include <asm/atomic.h>

struct pt_regs;
struct task_struct;

/* Linux's attr vocabulary (include/uapi/linux/hw_breakpoint.h). */
enum {
	HW_BREAKPOINT_LEN_1 = 1,
	HW_BREAKPOINT_LEN_2 = 2,
	HW_BREAKPOINT_LEN_4 = 4,
};

enum {
	HW_BREAKPOINT_EMPTY = 0,
	HW_BREAKPOINT_R = 1,	/* x86 cannot watch reads alone: -EINVAL */
	HW_BREAKPOINT_W = 2,
	HW_BREAKPOINT_RW = HW_BREAKPOINT_R | HW_BREAKPOINT_W,
	HW_BREAKPOINT_X = 4,
};

/* What to watch: the fields of Linux's perf_event_attr that matter here. */
struct hw_breakpoint_attr {
	unsigned long bp_addr;
	unsigned int bp_len;	/* HW_BREAKPOINT_LEN_*; execute: LEN_1 */
	unsigned int bp_type;	/* HW_BREAKPOINT_X, _W or _RW */
};

struct hw_breakpoint;
/*
 * Called from #DB, interrupts off, with DR7 cleared on this CPU (no
 * breakpoint fires inside it).  For a data breakpoint the access is
 * done; for an execute one the instruction has not run yet.
 */
typedef void (*hw_breakpoint_handler_t)(struct hw_breakpoint *bp, struct pt_regs *regs);

/* Linux's struct perf_event, cut down to what a breakpoint needs. */
struct hw_breakpoint {
	struct hw_breakpoint_attr attr;
	hw_breakpoint_handler_t triggered;	/* Linux's overflow_handler */
	void *context;				/* Linux's overflow_handler_context */
	struct task_struct *task;		/* NULL: wide (every CPU) */
	int slot;				/* its debug register, 0-3 */
	unsigned long dr7_bits;			/* its enable bit and R/W+LEN field */
	atomic_t hit_count;			/* #DBs it caused, every CPU */
};

/*
 * A thread's own breakpoints (Linux keeps them in thread_struct):
 * loaded into the CPU by hw_breakpoint_switch() when the thread runs.
 */
struct thread_debugreg {
	struct hw_breakpoint *bps[HBP_NUM];
	unsigned long dr7;	/* the DR7 bits of bps: 0 = the fast path */
};

/*
 * Every CPU: one slot, the same DR on each (Linux's returns a per-CPU
 * perf_event).  Returns the breakpoint or ERR_PTR(): -EINVAL (a bad
 * length, alignment, type or address), -ENOSPC (no free slot),
 * -ENOMEM.  Process context: it waits for the other CPUs' IPIs.
 */
struct hw_breakpoint *register_wide_hw_breakpoint(const struct hw_breakpoint_attr *attr,
						  hw_breakpoint_handler_t triggered,
						  void *context);
void unregister_wide_hw_breakpoint(struct hw_breakpoint *bp);

/*
 * One thread's (Linux's register_user_hw_breakpoint()): armed only
 * while that thread runs, on whichever CPU runs it.  The thread may be
 * running right now, here or on another CPU; one that has exited gets
 * -EINVAL.  Process context.
 */
struct hw_breakpoint *register_thread_hw_breakpoint(struct task_struct *task,
						    const struct hw_breakpoint_attr *attr,
						    hw_breakpoint_handler_t triggered,
						    void *context);
void unregister_thread_hw_breakpoint(struct hw_breakpoint *bp);
/* A dying thread's breakpoints go (Linux's flush_ptrace_hw_breakpoint()). */
void flush_thread_hw_breakpoints(struct task_struct *task);

/* #DB: the Bn bits of dr6.  Returns true if a breakpoint of ours caused it. */
bool hw_breakpoint_handler(struct pt_regs *regs, unsigned long dr6);

/*
 * The context switch (kernel/sched.c): unload prev's registers, load
 * next's.  Interrupts off.  Two tests and out when neither the thread
 * the CPU last loaded nor next has any.
 */
void hw_breakpoint_switch(struct task_struct *prev, struct task_struct *next);

/* /sys/kernel/debug/hw_breakpoint/slots: every CPU's DR7, slot by slot. */
int hw_breakpoint_debugfs_init(void);

/* "x", "w", "rw" and their names. */
const char *hw_breakpoint_type_name(unsigned int bp_type);

#endif
