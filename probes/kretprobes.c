/*
 * kretprobes.c - run a handler when a function returns.
 *
 * A kretprobe is a kprobe on the function's first instruction whose
 * pre-handler, pre_handler_kretprobe(), takes a free instance, records
 * the return address in it and puts kretprobe_trampoline in its place
 * (arch_prepare_kretprobe).  When the function returns it lands in the
 * trampoline, which calls kretprobe_trampoline_handler(): find the
 * instance, run the handler with the return value in regs->ax, and hand
 * the real return address back to the trampoline.  docs/kretprobes.md
 * draws the stack at each step.
 *
 * Which instance?  Every call in progress, on every thread, sits on one
 * list, newest first.  An instance remembers the stack slot it took the
 * return address from; the trampoline knows which slot the "ret" just
 * popped.  A slot is a place on one thread's stack, so it names the call
 * exactly: recursion and nesting return LIFO per thread, and threads
 * never mix.  Two kretprobes on one function share a slot; the second
 * saved the trampoline's address as its "real" one, so we keep going
 * until an instance gives an address that is not the trampoline.
 *
 * Unregistering while calls are in progress.  Those calls' real return
 * addresses exist only in their instances, so instances are separate
 * allocations that outlive the kretprobe: unregister_kretprobe() frees
 * the free ones and orphans the busy ones (ri->rp = NULL); an orphan
 * returns through the trampoline like any other, runs no handler and is
 * freed there.
 *
 * Locking: several CPUs enter and return at once, so the list and every
 * free list are changed under kretprobe_lock (2.6's kretprobe_lock by
 * name), taken with interrupts off and never across a handler: a hit
 * takes an instance under it, the trampoline finds its instance under
 * it, runs the handler without it (the instance stays on the list, so
 * an unwinder in the handler still finds the real return address), and
 * gives the instance back under it.  A thread that moved to another CPU between the call
 * and the return finds its instance all the same: the slot and the
 * task name the call, not the CPU.
 */
#include "kernel.h"
#include "kprobes.h"
#include "errno.h"
#include "irqflags.h"
#include "mm.h"
#include "sched.h"
#include "nokprobe.h"
#include "spinlock.h"
#include "narrate.h"

static LIST_HEAD(kretprobe_instances);	/* calls in progress, newest first */
static DEFINE_SPINLOCK(kretprobe_lock);

/*
 * While a return handler runs, this is the running probe: a probe the
 * handler hits is then stepped without its handlers and counted as
 * missed (reenter_kprobe), just as inside any kprobe handler.
 */
static struct kprobe kretprobe_kprobe = {
	.addr = (kprobe_opcode_t *)kretprobe_trampoline,
};

/* ---- the hit at the function's entry ------------------------------------------ */

int pre_handler_kretprobe(struct kprobe *p, struct pt_regs *regs)
{
	/* LAB 4: BEGIN pre_handler_kretprobe: take an instance from the pool */
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_instance *ri;

	spin_lock(&kretprobe_lock);	/* interrupts are off in a hit */
	if (list_empty(&rp->free_instances)) {
		spin_unlock(&kretprobe_lock);
		kprobe_count_inc((unsigned long *)&rp->nmissed);	/* maxactive calls already in progress */
		return 0;
	}
	ri = list_first_entry(&rp->free_instances, struct kretprobe_instance, list);
	list_del(&ri->list);
	spin_unlock(&kretprobe_lock);
	ri->rp = rp;
	ri->task = current;
	ri->stack = (unsigned long *)kernel_stack_pointer(regs);
	ri->ret_addr = (kprobe_opcode_t *)*ri->stack;

	if (rp->entry_handler && rp->entry_handler(ri, regs)) {
		spin_lock(&kretprobe_lock);
		list_add(&ri->list, &rp->free_instances);	/* not this call */
		spin_unlock(&kretprobe_lock);
		return 0;
	}
	arch_prepare_kretprobe(ri, regs);
	spin_lock(&kretprobe_lock);
	list_add(&ri->list, &kretprobe_instances);
	spin_unlock(&kretprobe_lock);
	kprobe_narrate(KPN_KRETPROBE_ENTRY, p, regs);
	return 0;	/* single-step the first instruction as usual */
	/* LAB 4: STUB printk("lab 4: pre_handler_kretprobe: not yet\n"); */
	/* LAB 4: STUB return 0; */
	/* LAB 4: END */
}
NOKPROBE_SYMBOL(pre_handler_kretprobe);

/* ---- the return -------------------------------------------------------------- */

/* The newest instance for this slot, or NULL. */
static nokprobe_inline struct kretprobe_instance *find_instance(unsigned long *slot)
{
	struct kretprobe_instance *ri;

	list_for_each_entry(ri, &kretprobe_instances, list)
		if (ri->stack == slot)
			return ri;
	return NULL;
}

/* Back to its kretprobe's free list; an orphan (rp gone) is freed.  Under kretprobe_lock. */
static nokprobe_inline void recycle_instance(struct kretprobe_instance *ri)
{
	list_del(&ri->list);
	if (ri->rp)
		list_add(&ri->list, &ri->rp->free_instances);
	else
		kfree(ri);
}

/* Run rp's handler as a probe handler: other probes it hits are missed. */
static nokprobe_inline void run_return_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	unsigned long status = kcb->kprobe_status;
	struct kretprobe *rp = READ_ONCE(ri->rp);	/* unregister may orphan ri meanwhile */

	if (!rp || !rp->handler)
		return;
	if (kprobe_running()) {
		/* Inside another hit (no usual path gets here): skip it. */
		kprobe_count_inc((unsigned long *)&rp->nmissed);
		return;
	}
	this_cpu_write(current_kprobe, &kretprobe_kprobe);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	rp->handler(ri, regs);
	kcb->kprobe_status = status;
	reset_current_kprobe();
}

/*
 * The probed function returned into the trampoline, which popped `slot`.
 * Handle every instance on that slot (more than one only when several
 * kretprobes share the function) and return the real return address.
 */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs, unsigned long *slot)
{
	/* LAB 4: BEGIN kretprobe_trampoline_handler: run the handler, find the way back */
	unsigned long flags = local_irq_save();
	unsigned long ret = (unsigned long)kretprobe_trampoline;
	struct kretprobe_instance *ri;

	while (ret == (unsigned long)kretprobe_trampoline) {
		spin_lock(&kretprobe_lock);
		ri = find_instance(slot);
		if (!ri || ri->task != current)
			panic("kretprobe: no instance for return slot %p: the real return address is lost",
			      slot);
		spin_unlock(&kretprobe_lock);	/* stays listed for unwinders */
		ret = (unsigned long)ri->ret_addr;
		/* The handler sees the call as returned: ip is the caller's. */
		regs->ip = ret;
		kprobe_narrate(KPN_KRETPROBE_RETURN, ri->rp ? &ri->rp->kp : NULL, regs);
		run_return_handler(ri, regs);
		kprobe_narrate(KPN_KRETPROBE_RETURNED, NULL, regs);
		spin_lock(&kretprobe_lock);
		recycle_instance(ri);
		spin_unlock(&kretprobe_lock);
	}
	local_irq_restore(flags);
	return ret;
	/* LAB 4: STUB panic("lab 4: kretprobe_trampoline_handler: not yet"); */
	/* LAB 4: END */
}
NOKPROBE_SYMBOL(kretprobe_trampoline_handler);

/*
 * For unwinders.  The newest instance for the slot whose address is not
 * the trampoline is the one a return through this slot ends at.
 */
unsigned long kretprobe_find_ret_addr(unsigned long addr, unsigned long *slot)
{
	struct kretprobe_instance *ri;
	unsigned long flags;

	if (addr != (unsigned long)kretprobe_trampoline)
		return addr;
	spin_lock_irqsave(&kretprobe_lock, flags);
	list_for_each_entry(ri, &kretprobe_instances, list) {
		if (ri->stack == slot &&
		    (unsigned long)ri->ret_addr != (unsigned long)kretprobe_trampoline) {
			addr = (unsigned long)ri->ret_addr;
			break;
		}
	}
	spin_unlock_irqrestore(&kretprobe_lock, flags);
	return addr;
}
NOKPROBE_SYMBOL(kretprobe_find_ret_addr);

unsigned int kretprobe_outstanding(void)
{
	struct kretprobe_instance *ri;
	unsigned int n = 0;
	unsigned long flags;

	spin_lock_irqsave(&kretprobe_lock, flags);
	list_for_each_entry(ri, &kretprobe_instances, list)
		n++;
	spin_unlock_irqrestore(&kretprobe_lock, flags);
	return n;
}

/*
 * A thread that calls kthread_exit() from inside kretprobed functions
 * never returns through the trampoline, so its instances would stay
 * taken forever.  kthread_exit() hands them back here, as Linux's
 * kprobe_flush_task() does for a dead task: to their kretprobe's free
 * list, or freed if orphaned.  The stack slots they name die with it.
 */
void kprobe_flush_task(struct task_struct *tk)
{
	struct kretprobe_instance *ri, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&kretprobe_lock, flags);
	list_for_each_entry_safe(ri, tmp, &kretprobe_instances, list)
		if (ri->task == tk)
			recycle_instance(ri);
	spin_unlock_irqrestore(&kretprobe_lock, flags);
}
NOKPROBE_SYMBOL(kprobe_flush_task);

/* ---- registration ------------------------------------------------------------ */

static void free_free_instances(struct list_head *pool)
{
	struct kretprobe_instance *ri, *tmp;

	list_for_each_entry_safe(ri, tmp, pool, list) {
		list_del(&ri->list);
		kfree(ri);
	}
}

static int alloc_instances(struct list_head *pool, int n, size_t data_size)
{
	INIT_LIST_HEAD(pool);
	for (int i = 0; i < n; i++) {
		struct kretprobe_instance *ri = kzalloc(sizeof(*ri) + data_size);

		if (!ri) {
			free_free_instances(pool);
			return -ENOMEM;
		}
		list_add(&ri->list, pool);
	}
	return 0;
}

static int is_probe(struct kprobe *p, void *data)
{
	return p == data;
}

int register_kretprobe(struct kretprobe *rp)
{
	int ret;

	if (!rp->handler && !rp->entry_handler) {
		kprobe_warn_refused("register_kretprobe", &rp->kp, -EINVAL,
				    "it has no handler");
		return -EINVAL;
	}
	ret = kprobe_on_func_entry(&rp->kp);
	if (ret) {
		kprobe_warn_refused("register_kretprobe", &rp->kp, ret, NULL);
		return ret;
	}
	/* Registered already: the pool below would replace a live one. */
	if (kprobes_for_each(is_probe, &rp->kp) ||
	    kprobes_for_each_gone(is_probe, &rp->kp))
		return -EEXIST;
	if (rp->maxactive <= 0)
		rp->maxactive = KRETPROBE_DEFAULT_MAXACTIVE;
	ret = alloc_instances(&rp->free_instances, rp->maxactive, rp->data_size);
	if (ret)
		return ret;
	rp->nmissed = 0;
	rp->kp.pre_handler = pre_handler_kretprobe;
	rp->kp.post_handler = NULL;
	rp->kp.break_handler = NULL;
	ret = register_kprobe(&rp->kp);
	if (ret)
		free_free_instances(&rp->free_instances);
	return ret;
}

/* Orphan rp's calls in progress and take its free list whole.  Under kretprobe_lock. */
static void orphan_instances(struct kretprobe *rp, struct list_head *pool)
{
	struct kretprobe_instance *ri, *tmp;

	list_for_each_entry(ri, &kretprobe_instances, list)
		if (ri->rp == rp)
			ri->rp = NULL;
	if (rp->free_instances.next)		/* never registered: zeroed */
		list_for_each_entry_safe(ri, tmp, &rp->free_instances, list) {
			list_del(&ri->list);
			list_add(&ri->list, pool);
		}
	INIT_LIST_HEAD(&rp->free_instances);
}

/*
 * After unregister_kprobe() no call can take an instance.  Calls still
 * in progress keep theirs, orphaned; the free ones go now.  A return
 * handler may be running on another CPU with its instance off every
 * list: the grace period waits for it (the trampoline runs with
 * interrupts off, and a handler with current_kprobe set), and what it
 * gave back meanwhile is taken a second time.
 */
void unregister_kretprobes(struct kretprobe **rps, int num)
{
	struct list_head pool;
	unsigned long flags;

	for (int i = 0; i < num; i++)
		unregister_kprobe(&rps[i]->kp);
	INIT_LIST_HEAD(&pool);
	spin_lock_irqsave(&kretprobe_lock, flags);
	for (int i = 0; i < num; i++)
		orphan_instances(rps[i], &pool);
	spin_unlock_irqrestore(&kretprobe_lock, flags);
	synchronize_kprobes();
	spin_lock_irqsave(&kretprobe_lock, flags);
	for (int i = 0; i < num; i++)
		orphan_instances(rps[i], &pool);
	spin_unlock_irqrestore(&kretprobe_lock, flags);
	free_free_instances(&pool);
}

void unregister_kretprobe(struct kretprobe *rp)
{
	unregister_kretprobes(&rp, 1);
}

int register_kretprobes(struct kretprobe **rps, int num)
{
	int ret = 0;

	if (num <= 0)
		return -EINVAL;
	for (int i = 0; i < num; i++) {
		ret = register_kretprobe(rps[i]);
		if (ret < 0) {
			unregister_kretprobes(rps, i);
			break;
		}
	}
	return ret;
}
