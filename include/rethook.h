/*
 * rethook.h - one return hook for every tracer (Linux 5.18+'s
 * include/linux/rethook.h): kretprobes on ftrace and fprobe's exit
 * handlers return through it.
 *
 * rethook_hook(node, regs) swaps the return address of the function
 * whose entry regs describe (the word at &regs->sp) for
 * arch_rethook_trampoline, and pushes node on the thread's list.  The
 * function's ret lands in the trampoline, which builds a pt_regs and asks
 * rethook_trampoline_handler() for the real address: it runs the
 * handler of every node of that frame, recycles them, and returns it.
 *
 * A struct rethook owns a pool of nodes (each a caller's bigger struct
 * with a rethook_node first, Linux's way); rethook_try_get() takes one in
 * a handler.  The pool is a lock-free stack, as Linux's freelist
 * (5.18-6.6; objpool since 6.7): any CPU takes and gives back with one
 * cmpxchg8b and no lock to wait for, so a return on one CPU never waits
 * for a call on another (and each CPU keeps one node of its own aside,
 * below).  rethook_hook() and the trampoline's handler
 * run with interrupts off - every caller is a probe handler (the int3
 * gate, ftrace_regs_caller) or the trampoline, which clear IF - so an
 * interrupt cannot push a node on the thread's list between their reads
 * and writes of it.
 */
#ifndef RETHOOK_H
#define RETHOOK_H

#include <stdbool.h>
#include "kernel.h"
#include <asm/ptrace.h>
#include <asm/atomic.h>
#include <asm/percpu.h>
#include "smp.h"
#include "sched.h"

struct rethook_node;
struct task_struct;
typedef void (*rethook_handler_t)(struct rethook_node *node, void *data, struct pt_regs *regs);

/*
 * The pool's head: the top node and a count of the pops so far, changed
 * together by one cmpxchg8b.  The count defeats ABA: CPU A reads top X
 * and X->next Y, CPU B takes X and Y and gives X back - top is X again,
 * but Y is busy, and only the changed count tells A to retry.
 */
union rethook_pool_head {
	struct {
		struct rethook_node *first;
		unsigned long pops;
	};
	unsigned long long word;	/* what cmpxchg8b compares */
} __attribute__((aligned(8)));

/*
 * Beside the pool, one free node per CPU (objpool's per-CPU rings, one
 * deep): a call that returns on the CPU it entered on gives its node
 * back and takes it again with one exchange, no cmpxchg8b loop.
 */
struct rethook {
	union rethook_pool_head pool;	/* free nodes */
	void *data;
	rethook_handler_t handler;	/* NULL once rethook_free()d */
	atomic_t ref;			/* nodes alive, plus one for the owner */
	struct rethook_node *cpu_free[NR_CPUS];	/* one free node per CPU, or NULL */
};

struct rethook_node {
	struct rethook_node *next;	/* in the pool, or on its thread's list */
	struct rethook *rethook;
	unsigned long ret_addr;		/* the real return address */
	unsigned long frame;		/* the address of the slot it came from */
};

struct rethook *rethook_alloc(void *data, rethook_handler_t handler);
/* No new hooks; nodes in flight free themselves on their return. */
void rethook_free(struct rethook *rh);
void rethook_add_node(struct rethook *rh, struct rethook_node *node);
struct rethook_node *rethook_try_get_slow(struct rethook *rh);
void rethook_recycle(struct rethook_node *node);
/* The trampoline's C half: the real return address for frame. */
unsigned long rethook_trampoline_handler(struct pt_regs *regs, unsigned long frame);
/* For unwinders: addr, or the real return address if it is the trampoline's. */
unsigned long rethook_find_ret_addr(unsigned long addr, unsigned long *slot);
/* A thread exits with hooked calls it will never return from. */
void rethook_flush_task(struct task_struct *tk);

/* The arch half: <asm/rethook.h> (arch_rethook_prepare()), rethook_32.S. */
void arch_rethook_trampoline(void);	/* calls rethook_trampoline_handler(regs, slot) */
#include <asm/rethook.h>

/*
 * The entry's half runs in every hooked call, inside a probe's handler:
 * inline, so that taking a node and hooking the return cost their loads
 * and stores and no calls (Linux has them out of line).
 */

/* A free node: this CPU's by one exchange; else the pool, then the other CPUs' (rethook.c). */
static __always_inline struct rethook_node *rethook_try_get(struct rethook *rh)
{
	struct rethook_node *node;

	if (!READ_ONCE(rh->handler))	/* freed: no new hooks */
		return NULL;
	node = __atomic_exchange_n(&rh->cpu_free[smp_processor_id()], NULL, __ATOMIC_SEQ_CST);
	return node ? node : rethook_try_get_slow(rh);
}

/*
 * At a function's entry (regs as an int3 or ftrace builds them), with
 * interrupts off (above): nothing reads the thread's list before the
 * slot is swapped, so the node goes on it first and the arch half comes
 * last, with nothing left to do after it.
 */
static __always_inline void rethook_hook(struct rethook_node *node, struct pt_regs *regs,
					 bool mcount)
{
	struct task_struct *t = this_cpu_read(current_task);

	node->next = t->rethooks;
	t->rethooks = node;
	arch_rethook_prepare(node, regs, mcount);
}

#endif
