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
 * a handler, lock-free for the pool's readers with interrupts off.
 */
#ifndef RETHOOK_H
#define RETHOOK_H

#include <stdbool.h>
#include "kernel.h"
#include <asm/ptrace.h>
#include <asm/atomic.h>

struct rethook_node;
struct task_struct;
typedef void (*rethook_handler_t)(struct rethook_node *node, void *data, struct pt_regs *regs);

struct rethook {
	void *data;
	rethook_handler_t handler;	/* NULL once rethook_free()d */
	struct rethook_node *pool;	/* free nodes */
	int pool_lock;			/* taken with xchg, interrupts off */
	atomic_t ref;			/* nodes alive, plus one for the owner */
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
struct rethook_node *rethook_try_get(struct rethook *rh);
void rethook_recycle(struct rethook_node *node);
/* At a function's entry (regs as an int3 or ftrace builds them). */
void rethook_hook(struct rethook_node *node, struct pt_regs *regs, bool mcount);
/* The trampoline's C half: the real return address for frame. */
unsigned long rethook_trampoline_handler(struct pt_regs *regs, unsigned long frame);
/* A thread exits with hooked calls it will never return from. */
void rethook_flush_task(struct task_struct *tk);

/* The arch half (arch/i386/rethook.c, rethook_32.S). */
void arch_rethook_prepare(struct rethook_node *node, struct pt_regs *regs, bool mcount);
void arch_rethook_trampoline(void);
__attribute__((regparm(3)))
unsigned long arch_rethook_trampoline_callback(struct pt_regs *regs);

#endif
