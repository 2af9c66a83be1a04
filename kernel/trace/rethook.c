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
#include "ftrace.h"
#include "rethook.h"
#include <asm/processor.h>
#include <asm/text_patching.h>
#include "nokprobe.h"

/* ---- the pool --------------------------------------------------------------------- */

static void pool_lock(struct rethook *rh)
{
	while (__atomic_exchange_n(&rh->pool_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void pool_unlock(struct rethook *rh)
{
	__atomic_store_n(&rh->pool_lock, 0, __ATOMIC_RELEASE);
}

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

struct rethook_node *rethook_try_get(struct rethook *rh)
{
	unsigned long flags = local_irq_save();
	struct rethook_node *node;

	if (!READ_ONCE(rh->handler)) {	/* freed: no new hooks */
		local_irq_restore(flags);
		return NULL;
	}
	pool_lock(rh);
	node = rh->pool;
	if (node)
		rh->pool = node->next;
	pool_unlock(rh);
	local_irq_restore(flags);
	return node;
}
NOKPROBE_SYMBOL(rethook_try_get);

/* Back to the pool; a freed rethook's node is freed instead. */
void rethook_recycle(struct rethook_node *node)
{
	struct rethook *rh = node->rethook;
	unsigned long flags;

	if (!READ_ONCE(rh->handler)) {
		kfree(node);
		rethook_put(rh);
		return;
	}
	flags = local_irq_save();
	pool_lock(rh);
	node->next = rh->pool;
	rh->pool = node;
	pool_unlock(rh);
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(rethook_recycle);

/*
 * The owner's caller made sure no entry handler still runs (unregister
 * first): from now on nodes coming back are freed.
 */
void rethook_free(struct rethook *rh)
{
	struct rethook_node *node;

	WRITE_ONCE(rh->handler, NULL);
	text_poke_sync();	/* no CPU is still between try_get and hook with handler set */
	pool_lock(rh);
	node = rh->pool;
	rh->pool = NULL;
	pool_unlock(rh);
	while (node) {
		struct rethook_node *next = node->next;

		kfree(node);
		rethook_put(rh);
		node = next;
	}
	rethook_put(rh);	/* the owner's reference */
}

/* ---- hooking and returning -------------------------------------------------------- */

void rethook_hook(struct rethook_node *node, struct pt_regs *regs, bool mcount)
{
	struct task_struct *t = this_cpu_read(current_task);
	unsigned long flags = local_irq_save();

	arch_rethook_prepare(node, regs, mcount);
	node->next = t->rethooks;
	t->rethooks = node;
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(rethook_hook);

/*
 * The nodes of this frame, newest first: several tracers may hook one
 * call, each saving the previous one's trampoline as "its" return
 * address; the oldest holds the real one.  Nodes of deeper frames that
 * never returned (a thread that left them some other way) are dropped.
 * Interrupts stay off throughout, as the handlers expect on Linux (not
 * preemptible), and an interrupt cannot push nodes meanwhile.
 */
unsigned long rethook_trampoline_handler(struct pt_regs *regs, unsigned long frame)
{
	struct task_struct *t = this_cpu_read(current_task);
	struct rethook_node *node, *last = NULL;
	unsigned long ret = 0, flags = local_irq_save();
	int bit;

	while ((node = t->rethooks) && node->frame < frame) {
		t->rethooks = node->next;
		rethook_recycle(node);
	}
	for (node = t->rethooks; node && node->frame == frame; node = node->next) {
		last = node;
		if (node->ret_addr != (unsigned long)arch_rethook_trampoline) {
			ret = node->ret_addr;
			break;
		}
	}
	if (!ret)
		panic("rethook: no return address for the frame at %#lx", frame);
	regs->ip = ret;		/* the handlers see where the function returns to */
	bit = ftrace_test_recursion_trylock();
	while ((node = t->rethooks)) {
		rethook_handler_t handler = READ_ONCE(node->rethook->handler);

		if (handler && bit >= 0)
			handler(node, node->rethook->data, regs);
		t->rethooks = node->next;
		rethook_recycle(node);
		if (node == last)
			break;
	}
	if (bit >= 0)
		ftrace_test_recursion_unlock(bit);
	local_irq_restore(flags);
	return ret;
}
NOKPROBE_SYMBOL(rethook_trampoline_handler);

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
