/*
 * rethook.c - the return hook shared by kretprobes on ftrace and fprobe
 * (Linux 5.18+'s kernel/trace/rethook.c; include/rethook.h tells the
 * story).  Built without -pg, as all of kernel/trace.
 */
#include "kernel.h"
#include "mm.h"
#include <asm/percpu.h>
#include <asm/irqflags.h>
#include "sched.h"
#include "smp.h"
#include "ftrace.h"
#include "rethook.h"
#include <asm/processor.h>
#include <asm/text_patching.h>
#include "nokprobe.h"
#include "linux/compiler.h"

/* ---- the pool: a lock-free stack ---------------------------------------------- */

/*
 * Out of line: the 8-byte head makes gcc realign the stack, which the
 * per-CPU fast paths below should not pay for.
 *
 * A torn read of the two words (another CPU changed the head between
 * them) is harmless: the compare-and-exchange sees the real head, fails
 * and hands it back for the next try.
 */
static inline union rethook_pool_head pool_read(struct rethook *rh)
{
	union rethook_pool_head h;

	h.first = READ_ONCE(rh->pool.first);
	h.pops = READ_ONCE(rh->pool.pops);
	return h;
}

static inline bool pool_cmpxchg(struct rethook *rh, union rethook_pool_head *old,
				union rethook_pool_head new)
{
	return __atomic_compare_exchange_n(&rh->pool.word, &old->word, new.word, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/*
 * Reading old.first->next is safe even if another CPU took old.first
 * meanwhile: nodes are freed only after rethook_free() waited for every
 * CPU, and a stale next fails the exchange.
 */
static noinline struct rethook_node *pool_pop(struct rethook *rh)
{
	union rethook_pool_head old = pool_read(rh), new;

	do {
		if (!old.first)
			return NULL;
		new.first = READ_ONCE(old.first->next);
		new.pops = old.pops + 1;
	} while (!pool_cmpxchg(rh, &old, new));
	return old.first;
}
NOKPROBE_SYMBOL(pool_pop);

/* A push cannot suffer ABA (it reads no next), so it leaves the count alone. */
static noinline void pool_push(struct rethook *rh, struct rethook_node *node)
{
	union rethook_pool_head old = pool_read(rh), new;

	do {
		node->next = old.first;
		new.first = node;
		new.pops = old.pops;
	} while (!pool_cmpxchg(rh, &old, new));
}
NOKPROBE_SYMBOL(pool_push);

struct rethook *rethook_alloc(void *data, rethook_handler_t handler)
{
	struct rethook *rh = kzalloc(sizeof(*rh));

	if (!rh || !handler) {
		kfree(rh);
		return NULL;
	}
	rh->data = data;
	rh->handler = handler;
	atomic_set(&rh->ref, 1);	/* the owner's */
	return rh;
}

static void rethook_put(struct rethook *rh)
{
	if (atomic_dec_and_test(&rh->ref))
		kfree(rh);
}

void rethook_add_node(struct rethook *rh, struct rethook_node *node)
{
	node->rethook = rh;
	atomic_inc(&rh->ref);
	rethook_recycle(node);
}

/*
 * Another CPU's node, when this CPU's and the pool are empty: otherwise
 * a node given back on one CPU could sit there while a call on another
 * counts as missed (objpool steals from the other CPUs' rings the same
 * way).  A slot changes only by exchange, so any CPU may empty it.
 */
static noinline struct rethook_node *rethook_steal(struct rethook *rh)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rethook_node *node = __atomic_exchange_n(&rh->cpu_free[cpu], NULL,
								__ATOMIC_SEQ_CST);

		if (node)
			return node;
	}
	return NULL;
}
NOKPROBE_SYMBOL(rethook_steal);

/* rethook_try_get() (rethook.h) found this CPU's slot empty: the pool, then the other CPUs'. */
struct rethook_node *rethook_try_get_slow(struct rethook *rh)
{
	struct rethook_node *node = pool_pop(rh);

	return node ? node : rethook_steal(rh);
}
NOKPROBE_SYMBOL(rethook_try_get_slow);

static noinline void rethook_free_node(struct rethook_node *node)
{
	struct rethook *rh = node->rethook;

	kfree(node);
	rethook_put(rh);
}
NOKPROBE_SYMBOL(rethook_free_node);

/* Into this CPU's slot if it is empty, else the pool; a freed rethook's node is freed. */
void rethook_recycle(struct rethook_node *node)
{
	struct rethook *rh = node->rethook;
	struct rethook_node *empty = NULL;

	if (!READ_ONCE(rh->handler))
		rethook_free_node(node);
	else if (!__atomic_compare_exchange_n(&rh->cpu_free[smp_processor_id()], &empty, node,
					      false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		pool_push(rh, node);
}
NOKPROBE_SYMBOL(rethook_recycle);

/*
 * The owner's caller made sure no entry handler still runs (unregister
 * first): from now on nodes coming back are freed.  Once every CPU has
 * passed an IPI none is between rethook_try_get()'s test of the handler
 * and its pop (both run with interrupts off): the pool is ours.
 */
void rethook_free(struct rethook *rh)
{
	union rethook_pool_head old, empty = { .first = NULL };
	struct rethook_node *node;

	WRITE_ONCE(rh->handler, NULL);
	text_poke_sync();
	old = pool_read(rh);
	while (!pool_cmpxchg(rh, &old, empty))
		;
	for (node = old.first; node; ) {
		struct rethook_node *next = node->next;

		rethook_free_node(node);
		node = next;
	}
	while ((node = rethook_steal(rh)))
		rethook_free_node(node);
	rethook_put(rh);	/* the owner's reference */
}

/* ---- hooking and returning -------------------------------------------------------- */

/*
 * The oldest node of this frame, the one holding the real return
 * address.  Nodes of deeper frames that never returned (a thread that
 * left them some other way) are dropped first.  Several tracers may
 * hook one call, each saving the previous one's trampoline as "its"
 * return address: the newest nodes hold the trampoline.
 */
static noinline struct rethook_node *rethook_find_frame(struct task_struct *t,
							 unsigned long frame)
{
	struct rethook_node *node;

	while ((node = t->rethooks) && node->frame < frame) {
		t->rethooks = node->next;
		rethook_recycle(node);
	}
	for (; node && node->frame == frame; node = node->next)
		if (node->ret_addr != (unsigned long)arch_rethook_trampoline)
			return node;
	panic("rethook: no return address for the frame at %#lx", frame);
}
NOKPROBE_SYMBOL(rethook_find_frame);

/*
 * One node's handler, then the node off the thread's list and back to
 * its pool; its return address, read before another CPU may take it.
 * Only the node is kept across the handler's call: the thread and the
 * address are read again after it, each one load, where keeping them
 * would cost a saved register each.
 */
static __always_inline unsigned long rethook_run_node(struct rethook_node *node,
						      struct pt_regs *regs)
{
	rethook_handler_t handler = READ_ONCE(node->rethook->handler);
	unsigned long ret;

	if (likely(handler))
		handler(node, node->rethook->data, regs);
	this_cpu_read(current_task)->rethooks = node->next;
	ret = node->ret_addr;
	rethook_recycle(node);
	return ret;
}

/*
 * Not the usual return: several nodes for this frame (several tracers
 * hooked the call), or deeper frames' nodes that never returned.  Every
 * node of the frame runs, the newest first, down to the oldest.
 */
static noinline unsigned long rethook_return_walk(struct pt_regs *regs, unsigned long frame)
{
	struct task_struct *t = this_cpu_read(current_task);
	struct rethook_node *node, *last = rethook_find_frame(t, frame);
	unsigned long ret = last->ret_addr;

	regs->ip = ret;
	do {
		node = t->rethooks;
		rethook_run_node(node, regs);
	} while (node != last);
	return ret;
}
NOKPROBE_SYMBOL(rethook_return_walk);

/*
 * Interrupts are off (the trampoline cleared IF), as the handlers expect
 * on Linux (not preemptible), and an interrupt cannot push nodes
 * meanwhile.  The usual return has one node, the newest, for its frame,
 * holding the real address: no walk.  Each handler guards itself
 * against recursion, as in Linux: a kretprobe's by current_kprobe,
 * fprobe's by ftrace's guard.
 */
unsigned long rethook_trampoline_handler(struct pt_regs *regs, unsigned long frame)
{
	struct rethook_node *node = this_cpu_read(current_task)->rethooks;

	if (unlikely(!node || node->frame != frame ||
		     node->ret_addr == (unsigned long)arch_rethook_trampoline))
		return rethook_return_walk(regs, frame);
	regs->ip = node->ret_addr;	/* the handlers see where the function returns to */
	return rethook_run_node(node, regs);
}
NOKPROBE_SYMBOL(rethook_trampoline_handler);

/*
 * For unwinders, which walk the running thread's own stack (Linux's
 * rethook_find_ret_addr()): a frame whose return slot holds the
 * trampoline returns to the real address its oldest node keeps.
 */
unsigned long rethook_find_ret_addr(unsigned long addr, unsigned long *slot)
{
	struct rethook_node *node;
	unsigned long flags;

	if (addr != (unsigned long)arch_rethook_trampoline)
		return addr;
	flags = local_irq_save();
	for (node = current->rethooks; node; node = node->next)
		if (node->frame == (unsigned long)slot &&
		    node->ret_addr != (unsigned long)arch_rethook_trampoline) {
			addr = node->ret_addr;
			break;
		}
	local_irq_restore(flags);
	return addr;
}
NOKPROBE_SYMBOL(rethook_find_ret_addr);

void rethook_flush_task(struct task_struct *tk)
{
	unsigned long flags = local_irq_save();
	struct rethook_node *node;

	while ((node = tk->rethooks)) {
		tk->rethooks = node->next;
		rethook_recycle(node);
	}
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(rethook_flush_task);
