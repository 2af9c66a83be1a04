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
 * No lock on the hit path, as in Linux since 5.11:
 *
 *  - Free instances sit in their kretprobe's pool, a lock-free stack
 *    (Linux's freelist, now objpool): several CPUs may enter the same
 *    function at once, and each takes or gives back an instance with one
 *    compare-and-exchange.  In front of the pool each CPU keeps one free
 *    instance of its own (objpool's per-CPU shape, one deep): a call
 *    and its return on one CPU hand the same instance back and forth
 *    with one exchange each, and the pool's 64-bit compare-and-exchange
 *    is needed only when that slot is empty (or full).
 *  - Calls in progress sit on their own thread's list, newest first
 *    (task_struct.kretprobe_instances).  Only that thread pushes a call
 *    (at the entry) and takes it off (at the return), both with
 *    interrupts off, so the list needs no lock at all; a thread that
 *    moved to another CPU between the call and the return brings its
 *    list along.
 *
 * Which instance?  An instance remembers the stack slot it took the
 * return address from; the trampoline knows which slot the "ret" just
 * popped.  Calls return LIFO per thread, so the instance is nearly
 * always the head of the list; the slot says so exactly.  Two
 * kretprobes on one function share a slot; the second saved the
 * trampoline's address as its "real" one, so we keep going until an
 * instance gives an address that is not the trampoline.
 *
 * Unregistering while calls are in progress.  Those calls' real return
 * addresses exist only in their instances, so the instances and their
 * pool (struct kretprobe_holder, Linux's name) outlive the kretprobe:
 * unregister_kretprobe() sets the holder's rp to NULL, frees the free
 * instances and leaves the busy ones where they are; such an orphan
 * returns through the trampoline like any other, runs no handler and is
 * freed there.  The last instance freed frees the holder.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "errno.h"
#include <asm/atomic.h>
#include <asm/irqflags.h>
#include "mm.h"
#include "sched.h"
#include "nokprobe.h"
#include "narrate.h"
#include "smp.h"

/*
 * A free pool's head: the top instance and a count of the pops so far,
 * changed together by one cmpxchg8b.  The count defeats ABA: CPU A reads
 * top X and X->next Y, CPU B takes X and Y and gives X back - top is X
 * again, but Y is busy, and only the changed count tells A to retry.
 */
union kretprobe_pool_head {
	struct {
		struct kretprobe_instance *first;
		unsigned long pops;
	};
	unsigned long long word;	/* what cmpxchg8b compares */
} __attribute__((aligned(8)));

struct kretprobe_holder {
	union kretprobe_pool_head pool;	/* free instances */
	struct kretprobe *rp;		/* NULL once unregistered */
	atomic_t ref;			/* instances alive, free or busy */
	struct kretprobe_instance *cpu_free[NR_CPUS];	/* one free instance per CPU, or NULL */
};

/* Read once per use: unregistering may set it to NULL meanwhile. */
static nokprobe_inline struct kretprobe *instance_kretprobe(struct kretprobe_instance *ri)
{
	return READ_ONCE(ri->rph->rp);
}

struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return instance_kretprobe(ri);
}
NOKPROBE_SYMBOL(get_kretprobe);

/*
 * While a return handler runs, this is the running probe: a probe the
 * handler hits is then stepped without its handlers and counted as
 * missed (reenter_kprobe), just as inside any kprobe handler.
 */
static struct kprobe kretprobe_kprobe = {
	.addr = (kprobe_opcode_t *)kretprobe_trampoline,
};

/* ---- the free pool: a lock-free stack --------------------------------------- */

/*
 * A torn read of the two words (another CPU changed the head between
 * them) is harmless: the compare-and-exchange sees the real head, fails
 * and hands it back for the next try.
 */
static nokprobe_inline union kretprobe_pool_head pool_read(struct kretprobe_holder *rph)
{
	union kretprobe_pool_head h;

	h.first = READ_ONCE(rph->pool.first);
	h.pops = READ_ONCE(rph->pool.pops);
	return h;
}

static nokprobe_inline bool pool_cmpxchg(struct kretprobe_holder *rph,
					 union kretprobe_pool_head *old,
					 union kretprobe_pool_head new)
{
	return __atomic_compare_exchange_n(&rph->pool.word, &old->word, new.word, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/*
 * Reading old.first->next is safe even if another CPU took old.first
 * meanwhile: instances are freed only after unregistering has waited
 * for every hit (synchronize_kprobes), and a stale next fails the
 * exchange.
 */
static nokprobe_inline struct kretprobe_instance *pool_pop(struct kretprobe_holder *rph)
{
	union kretprobe_pool_head old = pool_read(rph), new;

	do {
		if (!old.first)
			return NULL;
		new.first = READ_ONCE(old.first->next);
		new.pops = old.pops + 1;
	} while (!pool_cmpxchg(rph, &old, new));
	return old.first;
}

/* A push cannot suffer ABA (it reads no next), so it leaves the count alone. */
static nokprobe_inline void pool_push(struct kretprobe_holder *rph, struct kretprobe_instance *ri)
{
	union kretprobe_pool_head old = pool_read(rph), new;

	do {
		ri->next = old.first;
		new.first = ri;
		new.pops = old.pops;
	} while (!pool_cmpxchg(rph, &old, new));
}

/*
 * A CPU's slot is a single word changed only by an exchange, so the
 * slots may be read by every CPU: a CPU takes from its own, and from the
 * others' when its own and the pool are empty (objpool steals from the
 * other CPUs' rings the same way) - otherwise an instance given back on
 * one CPU could sit there while a call on another counts as missed.
 */
static noinline struct kretprobe_instance *steal_rp_inst(struct kretprobe_holder *rph)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct kretprobe_instance *ri =
			__atomic_exchange_n(&rph->cpu_free[cpu], NULL, __ATOMIC_SEQ_CST);

		if (ri)
			return ri;
	}
	return NULL;
}
NOKPROBE_SYMBOL(steal_rp_inst);

/* This CPU's free instance first, then the pool, then the other CPUs'. */
static nokprobe_inline struct kretprobe_instance *get_rp_inst(struct kretprobe_holder *rph)
{
	struct kretprobe_instance *ri =
		__atomic_exchange_n(&rph->cpu_free[smp_processor_id()], NULL, __ATOMIC_SEQ_CST);

	if (ri)
		return ri;
	ri = pool_pop(rph);
	return ri ? ri : steal_rp_inst(rph);
}

/* Into this CPU's slot if it is empty, else to the pool. */
static nokprobe_inline void put_rp_inst(struct kretprobe_holder *rph, struct kretprobe_instance *ri)
{
	struct kretprobe_instance *empty = NULL;

	if (!__atomic_compare_exchange_n(&rph->cpu_free[smp_processor_id()], &empty, ri,
					 false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		pool_push(rph, ri);
}

/* Free one instance for good; the last one takes its holder along. */
static void free_rp_inst(struct kretprobe_instance *ri)
{
	struct kretprobe_holder *rph = ri->rph;

	kfree(ri);
	if (atomic_dec_and_test(&rph->ref))
		kfree(rph);
}
NOKPROBE_SYMBOL(free_rp_inst);

/* Back to the pool, or freed if its kretprobe is gone. */
static nokprobe_inline void recycle_rp_inst(struct kretprobe_instance *ri, struct kretprobe *rp)
{
	if (rp)
		put_rp_inst(ri->rph, ri);
	else
		free_rp_inst(ri);
}

/* ---- the hit at the function's entry ------------------------------------------ */

/* current, read straight from the per-CPU variable: no call on the hit path. */
static nokprobe_inline struct task_struct *current_thread(void)
{
	return this_cpu_read(current_task);
}

/* A call in progress, on this thread's list.  Interrupts are off. */
static nokprobe_inline void task_push_instance(struct kretprobe_instance *ri)
{
	struct task_struct *tk = current_thread();

	ri->next = tk->kretprobe_instances;
	tk->kretprobe_instances = ri;
	tk->kretprobe_nr++;
}

int pre_handler_kretprobe(struct kprobe *p, struct pt_regs *regs)
{
	/* LAB 4: BEGIN pre_handler_kretprobe: take an instance from the pool */
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_instance *ri = get_rp_inst(rp->rph);

	if (!ri) {
		kprobe_count_inc((unsigned long *)&rp->nmissed);	/* maxactive calls already in progress */
		return 0;
	}
	ri->stack = (unsigned long *)kernel_stack_pointer(regs);
	ri->ret_addr = (kprobe_opcode_t *)*ri->stack;

	if (rp->entry_handler && rp->entry_handler(ri, regs)) {
		put_rp_inst(rp->rph, ri);	/* not this call */
		return 0;
	}
	arch_prepare_kretprobe(ri, regs);
	task_push_instance(ri);
	kprobe_narrate(KPN_KRETPROBE_ENTRY, p, regs);
	return 0;	/* single-step the first instruction as usual */
	/* LAB 4: STUB printk("lab 4: pre_handler_kretprobe: not yet\n"); */
	/* LAB 4: STUB return 0; */
	/* LAB 4: END */
}
NOKPROBE_SYMBOL(pre_handler_kretprobe);

/* ---- the return -------------------------------------------------------------- */

/*
 * The link on this thread's list that points at the newest instance
 * for `slot` (nearly always the head: calls return LIFO), or NULL.
 */
static nokprobe_inline struct kretprobe_instance **find_instance(struct task_struct *tk,
								 unsigned long *slot)
{
	struct kretprobe_instance **link;

	for (link = &tk->kretprobe_instances; *link; link = &(*link)->next)
		if ((*link)->stack == slot)
			return link;
	return NULL;
}

/* Run rp's handler as a probe handler: other probes it hits are missed. */
static nokprobe_inline void run_return_handler(struct kretprobe_instance *ri,
					       struct kretprobe *rp, struct pt_regs *regs)
{
	unsigned long status = kprobe_status();

	if (!rp || !rp->handler)
		return;
	if (this_cpu_read(current_kprobe)) {
		/* Inside another hit (no usual path gets here): skip it. */
		kprobe_count_inc((unsigned long *)&rp->nmissed);
		return;
	}
	this_cpu_write(current_kprobe, &kretprobe_kprobe);
	set_kprobe_status(KPROBE_HIT_ACTIVE);
	rp->handler(ri, regs);
	set_kprobe_status(status);
	reset_current_kprobe();
}

/*
 * The probed function returned into the trampoline, which popped `slot`.
 * Handle every instance on that slot (more than one only when several
 * kretprobes share the function) and return the real return address.
 * Interrupts stay off throughout: an interrupt handler on this stack
 * could otherwise push and pop calls of its own on this thread's list
 * while we hold a link into it, and unregistering waits for us
 * (synchronize_kprobes) before it frees the pool we give back to.
 */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs, unsigned long *slot)
{
	/* LAB 4: BEGIN kretprobe_trampoline_handler: run the handler, find the way back */
	unsigned long flags = local_irq_save();
	unsigned long ret = (unsigned long)kretprobe_trampoline;
	struct task_struct *tk = current_thread();

	while (ret == (unsigned long)kretprobe_trampoline) {
		struct kretprobe_instance **link = find_instance(tk, slot);
		struct kretprobe_instance *ri;
		struct kretprobe *rp;

		if (!link)
			panic("kretprobe: no instance for return slot %p: the real return address is lost",
			      slot);
		ri = *link;
		rp = instance_kretprobe(ri);	/* NULL: unregistered, an orphan */
		ret = (unsigned long)ri->ret_addr;
		/* The handler sees the call as returned: ip is the caller's. */
		regs->ip = ret;
		kprobe_narrate(KPN_KRETPROBE_RETURN, rp ? &rp->kp : NULL, regs);
		run_return_handler(ri, rp, regs);	/* ri stays listed for unwinders */
		kprobe_narrate(KPN_KRETPROBE_RETURNED, NULL, regs);
		*link = ri->next;
		tk->kretprobe_nr--;
		recycle_rp_inst(ri, rp);
	}
	local_irq_restore(flags);
	return ret;
	/* LAB 4: STUB panic("lab 4: kretprobe_trampoline_handler: not yet"); */
	/* LAB 4: END */
}
NOKPROBE_SYMBOL(kretprobe_trampoline_handler);

/*
 * For unwinders, which walk the running thread's own stack.  The newest
 * instance for the slot whose address is not the trampoline is the one
 * a return through this slot ends at.
 */
unsigned long kretprobe_find_ret_addr(unsigned long addr, unsigned long *slot)
{
	struct kretprobe_instance *ri;
	unsigned long flags;

	if (addr != (unsigned long)kretprobe_trampoline)
		return addr;
	flags = local_irq_save();
	for (ri = current->kretprobe_instances; ri; ri = ri->next) {
		if (ri->stack == slot &&
		    (unsigned long)ri->ret_addr != (unsigned long)kretprobe_trampoline) {
			addr = (unsigned long)ri->ret_addr;
			break;
		}
	}
	local_irq_restore(flags);
	return addr;
}
NOKPROBE_SYMBOL(kretprobe_find_ret_addr);

static void count_outstanding(struct task_struct *t, void *arg)
{
	*(unsigned int *)arg += READ_ONCE(t->kretprobe_nr);
}

unsigned int kretprobe_outstanding(void)
{
	unsigned int n = 0;

	for_each_task(count_outstanding, &n);
	return n;
}

/*
 * A thread that calls kthread_exit() from inside kretprobed functions
 * never returns through the trampoline, so its instances would stay
 * taken forever.  The exiting thread hands them back here, as Linux's
 * kprobe_flush_task() does for a dead task: to their pool, or freed if
 * orphaned.  The stack slots they name die with it.
 */
void kprobe_flush_task(struct task_struct *tk)
{
	struct kretprobe_instance *ri;
	unsigned long flags = local_irq_save();

	while ((ri = tk->kretprobe_instances)) {
		tk->kretprobe_instances = ri->next;
		recycle_rp_inst(ri, instance_kretprobe(ri));
	}
	tk->kretprobe_nr = 0;
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(kprobe_flush_task);

/* ---- registration ------------------------------------------------------------ */

/*
 * Free the free instances, the pool's and those the CPUs kept; the
 * holder goes with the last instance.  No hit is running any more (the
 * caller waited for them): nothing is put into a slot meanwhile.
 */
static void free_pool(struct kretprobe_holder *rph)
{
	struct kretprobe_instance *ri;

	atomic_inc(&rph->ref);		/* keep rph while we empty it */
	while ((ri = steal_rp_inst(rph)))
		free_rp_inst(ri);
	while ((ri = pool_pop(rph)))
		free_rp_inst(ri);
	if (atomic_dec_and_test(&rph->ref))
		kfree(rph);
}

static struct kretprobe_holder *alloc_pool(struct kretprobe *rp)
{
	struct kretprobe_holder *rph = kzalloc(sizeof(*rph));

	if (!rph)
		return NULL;
	rph->rp = rp;
	for (int i = 0; i < rp->maxactive; i++) {
		struct kretprobe_instance *ri = kzalloc(sizeof(*ri) + rp->data_size);

		if (!ri) {
			rph->rp = NULL;
			free_pool(rph);
			return NULL;
		}
		ri->rph = rph;
		atomic_inc(&rph->ref);
		pool_push(rph, ri);
	}
	return rph;
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
	rp->rph = alloc_pool(rp);
	if (!rp->rph)
		return -ENOMEM;
	if (kretprobe_rethook_init(rp)) {	/* a call site: the return through rethook */
		rp->rph->rp = NULL;
		free_pool(rp->rph);
		rp->rph = NULL;
		return -ENOMEM;
	}
	rp->nmissed = 0;
	rp->kp.pre_handler = rp->rh ? pre_handler_kretprobe_rethook : pre_handler_kretprobe;
	rp->kp.post_handler = NULL;
	rp->kp.break_handler = NULL;
	ret = register_kprobe(&rp->kp);
	if (ret) {
		kretprobe_rethook_free(rp);
		rp->rph->rp = NULL;
		free_pool(rp->rph);
		rp->rph = NULL;
	}
	return ret;
}

/*
 * After unregister_kprobe() no call can take an instance.  Calls still
 * in progress keep theirs, orphaned by rph->rp = NULL.  A return on
 * another CPU may have read rp just before and still be running its
 * handler, about to give its instance back to the pool: the grace
 * period waits for it (the trampoline runs with interrupts off), and
 * every return after it sees NULL and frees its own instance.  Then the
 * pool holds all that will ever come back, and goes.
 */
void unregister_kretprobes(struct kretprobe **rps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_kprobe(&rps[i]->kp);
	for (int i = 0; i < num; i++)
		if (rps[i]->rph)		/* never registered: zeroed */
			WRITE_ONCE(rps[i]->rph->rp, NULL);
	synchronize_kprobes();
	for (int i = 0; i < num; i++) {
		kretprobe_rethook_free(rps[i]);
		if (rps[i]->rph)
			free_pool(rps[i]->rph);
		rps[i]->rph = NULL;
	}
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
