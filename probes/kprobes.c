/*
 * kprobes.c - the kprobes manager: which probes exist and where.
 *
 * Architecture independent, as in Linux's kernel/kprobes.c.  It keeps
 * registered probes in a hash table keyed by address, builds aggregate
 * probes when several share an address, and calls the arch half
 * (arch/i386/kprobes/core.c) to decode, arm and disarm.  It never touches
 * EFLAGS or the stack: the hit itself is handled by the arch half, which
 * only asks us get_kprobe(addr).
 *
 * Locking.  Registration and unregistration take kprobe_mutex, a
 * struct mutex as in Linux: one writer at a time, and a writer may sleep
 * (the grace period below waits for other CPUs).
 *
 * The hit path does NOT take that lock.  The 2005 kernel did (kprobe_lock
 * was held across the whole hit, which is why a handler could not
 * unregister a probe, and why hits on different CPUs serialised; boot
 * with kprobes.lock=global to see it, probes/kprobe_lock.c).  Linux later
 * made the lookup lock-free with RCU, and so do we (include/rculist.h):
 * a writer publishes a fully built node with one pointer store, so a hit
 * on another CPU sees the table either entirely before or entirely after
 * a change, and unlinks a node without touching its own next pointer.
 * It frees nothing - a slot, an aggregate - until every CPU has passed a
 * quiescent point (synchronize_kprobes(), probes/kprobes_sync.c): then no
 * hit that found the node can still be running.
 */
#define pr_fmt(fmt) "kprobes: " fmt

#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "hash.h"
#include "kallsyms.h"
#include "mm.h"
#include "errno.h"
#include <asm/irqflags.h>
#include "sched.h"
#include "spinlock.h"
#include "mutex.h"
#include "linux/preempt.h"	/* in_task(), in_atomic() */
#include "rculist.h"
#include "vsprintf.h"
#include "nokprobe.h"
#include "kprobes_smoke.h"	/* init_test_probes() */

#define KPROBE_WHERE_LEN	96	/* "symbol+offset" in a warning */

struct hlist_head kprobe_table[KPROBE_TABLE_SIZE];	/* kprobes_internal.h */
/*
 * Probes whose code went away (a module unloaded under them) while their
 * owner still holds them registered: out of the table and the text, kept
 * here so the list shows them [GONE] until the owner unregisters.
 */
static struct hlist_head gone_kprobes;
static unsigned int nr_registered;
static bool kprobes_initialized;

/* ---- the registration lock -------------------------------------------------- */

/*
 * See include/kprobes.h: out of line and blacklisted, so that no caller's
 * load of current_kprobe is a probe-able instruction of its own.
 */
noinline struct kprobe *kprobe_running(void)
{
	return this_cpu_read(current_kprobe);
}
NOKPROBE_SYMBOL(kprobe_running);

static DEFINE_MUTEX(kprobe_mutex);

void kprobe_mutex_lock(void)
{
	if (READ_ONCE(kprobe_mutex.owner) == current)
		panic("kprobes: kprobe_mutex taken twice (register from a handler?)");
	mutex_lock(&kprobe_mutex);
}

void kprobe_mutex_unlock(void)
{
	mutex_unlock(&kprobe_mutex);
}

bool kprobe_mutex_held(void)
{
	return READ_ONCE(kprobe_mutex.owner) == current;
}

/* ---- the global switch (/sys/kernel/debug/kprobes/enabled) -------------------
 *
 * disarm_all_kprobes() takes every int3 out of the text but leaves each
 * probe's DISABLED flag alone, so arm_all_kprobes() puts back exactly the
 * enabled ones.  While disarmed, registering or enabling a probe only
 * records the state: arm_kprobe() writes no int3.  Disarming twice is
 * harmless (arch_disarm_kprobe writes the original byte back).
 */
bool kprobes_all_disarmed;

static void arm_kprobe(struct kprobe *p)
{
	if (!kprobes_all_disarmed) {
		arch_arm_kprobe(p);
		optimize_kprobe(p);	/* queued: a jump later, if it qualifies (optprobes.c) */
	}
}

/* ---- the fast paths, all off and back ------------------------------------------ */

void kprobes_fast_paths_off(struct kprobes_fast_paths *saved)
{
	saved->optimize = kprobes_get_optimization();
	saved->boost = kprobes_get_boosting();
	saved->emulate = kprobes_get_emulation();
	kprobes_set_optimization(false);
	kprobes_set_boosting(false);
	kprobes_set_emulation(false);
}

void kprobes_fast_paths_restore(const struct kprobes_fast_paths *saved)
{
	kprobes_set_emulation(saved->emulate);
	kprobes_set_boosting(saved->boost);
	kprobes_set_optimization(saved->optimize);
}

/* ---- the hash table ------------------------------------------------------------ */

/*
 * Called from the int3 handler with interrupts off, on any CPU, with no
 * lock: a writer on another CPU may be changing the chain (see the top).
 * The walk itself is __get_kprobe() (kprobes_internal.h), which the
 * ftrace callback inlines.
 */
struct kprobe *get_kprobe(void *addr)
{
	return __get_kprobe(addr);
}
NOKPROBE_SYMBOL(get_kprobe);

/* ---- aggregate probes ------------------------------------------------------- */

/*
 * When a second probe is registered on an address, the first one is
 * replaced in the hash table by an aggregate probe: an internal struct
 * kprobe whose handlers below walk a list of the real ones (members, in
 * registration order).  The text still holds a single int3 and there is
 * a single slot; both belong to the aggregate.  kprobe_instance is the
 * member whose handler runs now, so a fault or a break can be routed to
 * the right member: one per CPU, as the hit it belongs to.
 */
static DEFINE_PER_CPU(struct kprobe *, kprobe_instance);

static int aggr_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct kprobe *kp;

	list_for_each_entry_rcu(kp, &p->list, list) {
		if (kprobe_disabled(kp))
			continue;
		kprobe_count_inc(&kp->nhit);
		if (kp->pre_handler) {
			this_cpu_write(kprobe_instance, kp);
			if (kp->pre_handler(kp, regs))
				return 1;	/* ip moved: stop here */
		}
		this_cpu_write(kprobe_instance, NULL);
	}
	return 0;
}
NOKPROBE_SYMBOL(aggr_pre_handler);

static void aggr_post_handler(struct kprobe *p, struct pt_regs *regs,
			      unsigned long flags)
{
	struct kprobe *kp;

	list_for_each_entry_rcu(kp, &p->list, list) {
		if (kp->post_handler && !kprobe_disabled(kp)) {
			this_cpu_write(kprobe_instance, kp);
			kp->post_handler(kp, regs, flags);
		}
		this_cpu_write(kprobe_instance, NULL);
	}
}
NOKPROBE_SYMBOL(aggr_post_handler);

static int aggr_fault_handler(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	struct kprobe *cur = this_cpu_read(kprobe_instance);

	if (cur && cur->fault_handler)
		return cur->fault_handler(cur, regs, trapnr);
	return 0;
}
NOKPROBE_SYMBOL(aggr_fault_handler);

static int aggr_break_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct kprobe *cur = this_cpu_read(kprobe_instance);
	int ret = 0;

	if (cur && cur->break_handler && cur->break_handler(cur, regs))
		ret = 1;
	this_cpu_write(kprobe_instance, NULL);
	return ret;
}
NOKPROBE_SYMBOL(aggr_break_handler);

static nokprobe_inline bool kprobe_aggrprobe(const struct kprobe *p)
{
	return p->pre_handler == aggr_pre_handler;
}

/* A hit was stepped without running handlers: charge it to every member. */
void kprobes_inc_nmissed_count(struct kprobe *p)
{
	struct kprobe *kp;

	if (!kprobe_aggrprobe(p)) {
		kprobe_count_inc(&p->nmissed);
		return;
	}
	list_for_each_entry_rcu(kp, &p->list, list)
		kprobe_count_inc(&kp->nmissed);
}
NOKPROBE_SYMBOL(kprobes_inc_nmissed_count);

/* Is p registered but [GONE] (kill_kprobe)? */
static bool kprobe_on_gone_list(const struct kprobe *p)
{
	struct kprobe *gp;

	hlist_for_each_entry(gp, &gone_kprobes, hlist)
		if (gp == p)
			return true;
	return false;
}

/* The probe armed at p->addr if p is registered (p itself or its aggregate). */
static struct kprobe *get_valid_kprobe(struct kprobe *p)
{
	struct kprobe *ap, *kp;

	ap = get_kprobe(p->addr);
	if (!ap || ap == p)
		return ap;
	if (kprobe_aggrprobe(ap))
		list_for_each_entry(kp, &ap->list, list)
			if (kp == p)
				return ap;
	return NULL;
}

/* Turn the lone probe p into the first member of a new aggregate ap. */
static void init_aggr_kprobe(struct kprobe *ap, struct kprobe *p)
{
	ap->addr = p->addr;
	ap->opcode = p->opcode;
	ap->ainsn = p->ainsn;
	ap->flags = p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_FTRACE);
	ap->pre_handler = aggr_pre_handler;
	ap->post_handler = aggr_post_handler;
	ap->fault_handler = aggr_fault_handler;
	ap->break_handler = p->break_handler ? aggr_break_handler : NULL;
	INIT_LIST_HEAD(&ap->list);
	INIT_HLIST_NODE(&ap->hlist);

	list_add_tail(&p->list, &ap->list);	/* ap is not reachable yet */
	hlist_replace_rcu(&p->hlist, &ap->hlist);	/* publish ap in p's place */
}

/*
 * Members run in registration order.  A member with a break_handler (a
 * jprobe: its pre-handler leaves for another function and comes back
 * through the break) must run last, so new members go in front of it.
 */
static void add_new_kprobe(struct kprobe *ap, struct kprobe *p)
{
	struct list_head *where = &ap->list;
	struct kprobe *kp;

	list_for_each_entry(kp, &ap->list, list) {
		if (kp->break_handler) {
			where = &kp->list;
			break;
		}
	}
	list_add_tail_rcu(&p->list, where);
	if (p->break_handler)
		WRITE_ONCE(ap->break_handler, aggr_break_handler);
}

static int register_aggr_kprobe(struct kprobe *orig, struct kprobe *p)
{
	struct kprobe *ap = orig;

	/* Only one member may own the break (one jprobe per address). */
	if (p->break_handler && orig->break_handler)
		return -EEXIST;
	if (!kprobe_aggrprobe(orig)) {
		ap = kzalloc(sizeof(*ap));
		if (!ap)
			return -ENOMEM;
		init_aggr_kprobe(ap, orig);
	}
	p->addr = ap->addr;
	p->opcode = ap->opcode;
	p->ainsn = ap->ainsn;		/* shares the aggregate's slot */
	add_new_kprobe(ap, p);

	/* An enabled member makes a disabled aggregate live again. */
	if (kprobe_disabled(ap) && !kprobe_disabled(p)) {
		ap->flags &= ~KPROBE_FLAG_DISABLED;
		arm_kprobe(ap);
	}
	return 0;
}

/* ---- registration ------------------------------------------------------------ */

/*
 * Where p wants to be: addr, or symbol_name + offset.  If both are given
 * they must agree (a probe registered by symbol keeps its resolved addr,
 * so registering it again after unregistering works).
 */
static kprobe_opcode_t *kprobe_addr(const struct kprobe *p)
{
	unsigned long addr, size, offset;

	if (!p->symbol_name)
		return p->addr ? p->addr + p->offset : NULL;
	addr = kallsyms_lookup_name(p->symbol_name);
	if (!addr)
		return NULL;
	/*
	 * offset must lie inside the symbol: past its end it names another
	 * function's code, and on i386 a sum past 4 GiB wraps round to
	 * code before the symbol (fib + 0xfffffff8 is 8 bytes before fib).
	 * Either way the probe would fire somewhere its owner did not ask.
	 */
	if (!kallsyms_lookup(addr, &size, &offset) || p->offset >= size - offset)
		return NULL;
	addr += p->offset;
	if (p->addr && (unsigned long)p->addr != addr)
		return NULL;
	return (kprobe_opcode_t *)addr;
}

static int check_kprobe_address_safe(kprobe_opcode_t *addr)
{
	if (!kernel_text_address((unsigned long)addr))
		return -EINVAL;
	if (within_kprobe_blacklist((unsigned long)addr))
		return -EINVAL;
	return 0;
}

static void reset_probe_counters(struct kprobe *p)
{
	p->flags &= KPROBE_FLAG_DISABLED | KPROBE_FLAG_FTRACE;	/* the user's, and check_ftrace_location()'s */
	p->nmissed = 0;
	p->nhit = 0;
	INIT_LIST_HEAD(&p->list);
	INIT_HLIST_NODE(&p->hlist);
}

/* A probe on an address nobody probes yet: decode, copy, hash, arm. */
static int register_new_kprobe(struct kprobe *p, kprobe_opcode_t *addr)
{
	kprobe_opcode_t *old_addr = p->addr;
	int ret;

	p->addr = addr;
	ret = arch_prepare_kprobe(p);
	if (ret) {
		p->addr = old_addr;
		return ret;
	}
	reset_probe_counters(p);

	hlist_add_head_rcu(&p->hlist, &kprobe_table[kprobe_hash(addr)]);

	if (!kprobe_disabled(p))
		arm_kprobe(p);
	return 0;
}

static int __register_kprobe(struct kprobe *p)
{
	kprobe_opcode_t *addr;
	struct kprobe *old;
	int ret;

	if ((p->addr && get_valid_kprobe(p)) || kprobe_on_gone_list(p))
		return -EEXIST;
	addr = kprobe_addr(p);
	if (!addr)	/* Linux: -ENOENT for a name kallsyms does not know */
		return p->symbol_name && !kallsyms_lookup_name(p->symbol_name) ?
		       -ENOENT : -EINVAL;
	ret = check_kprobe_address_safe(addr);
	if (!ret)
		ret = check_ftrace_location(p, addr);	/* a call site: ride on ftrace */
	if (ret)
		return ret;
	unoptimize_kprobes_at(addr);	/* no optprobe jump may cover addr */

	old = get_kprobe(addr);
	if (old) {
		reset_probe_counters(p);
		ret = register_aggr_kprobe(old, p);
	} else {
		ret = register_new_kprobe(p, addr);
	}
	if (ret == 0)
		nr_registered++;
	kprobes_optimize_around(addr);	/* the aggregate, or the jump we removed */
	return ret;
}

const char *kprobe_refusal_reason(int err, unsigned long addr)
{
	if (err == -ENODEV)
		return "kprobes is not initialised yet";
	if (err == -EBUSY)
		return "kprobes is busy (called from a handler?)";
	if (err == -EEXIST)
		return "this probe is registered already";
	if (!addr)
		return "no such symbol, offset past the symbol's end, or symbol_name "
		       "and addr disagree";
	if (!kernel_text_address(addr))
		return "not in the kernel's text";
	if (within_kprobe_blacklist(addr))
		return "on the kprobes blacklist (see /sys/kernel/debug/kprobes/blacklist)";
	switch (-err) {
	case EILSEQ: return "not at an instruction boundary, or an instruction "
			    "that cannot be single-stepped";
	case EINVAL: return "not a place a probe can go (a return probe must be "
			    "at a function's first byte)";
	case ENOMEM: return "out of memory for the slot or instances";
	default:     return "refused by kprobes";
	}
}

void kprobe_warn_refused(const char *what, const struct kprobe *p, int err,
			 const char *why)
{
	unsigned long addr = (unsigned long)kprobe_addr(p);
	char where[KPROBE_WHERE_LEN];

	if (p->symbol_name)
		snprintf(where, sizeof(where), "%s+%u", p->symbol_name, p->offset);
	else
		snprintf(where, sizeof(where), "%pS", (void *)addr);	/* "fib+0x2/0x40" */
	pr_warn("%s(%s) failed: %s (%s): %s\n", what, where, errno_name(err),
		errno_meaning(err), why ? why : kprobe_refusal_reason(err, addr));
}

int register_kprobe(struct kprobe *p)
{
	int ret;

	if (!kprobes_initialized)
		ret = -ENODEV;
	else if (kprobe_running())
		ret = -EBUSY;
	else {
		kprobe_mutex_lock();
		ret = __register_kprobe(p);
		kprobe_mutex_unlock();
	}
	if (ret)
		kprobe_warn_refused("register_kprobe", p, ret, NULL);
	return ret;
}

/* ---- enable / disable ----------------------------------------------------------- */

static bool all_members_disabled(struct kprobe *ap)
{
	struct kprobe *kp;

	list_for_each_entry(kp, &ap->list, list)
		if (!kprobe_disabled(kp))
			return false;
	return true;
}

/*
 * Mark p disabled; take the int3 out when nothing at the address is
 * enabled any more.  The aggregate's (or lone probe's) DISABLED flag
 * doubles as "the int3 is not in the text".
 */
static int __disable_kprobe(struct kprobe *p)
{
	struct kprobe *ap = get_valid_kprobe(p);
	bool armed;

	if (!ap)
		return -EINVAL;
	armed = !(ap->flags & KPROBE_FLAG_DISABLED);
	p->flags |= KPROBE_FLAG_DISABLED;
	if (p != ap && !all_members_disabled(ap))
		return 0;
	if (armed) {
		ap->flags |= KPROBE_FLAG_DISABLED;
		unoptimize_kprobe(ap);	/* jmp -> int3 first (optprobes.c) */
		arch_disarm_kprobe(ap);
	}
	return 0;
}

int disable_kprobe(struct kprobe *p)
{
	int ret;

	if (kprobe_running())
		return -EBUSY;
	kprobe_mutex_lock();
	ret = __disable_kprobe(p);
	kprobe_mutex_unlock();
	return ret;
}

int enable_kprobe(struct kprobe *p)
{
	struct kprobe *ap;
	bool armed;
	int ret = 0;

	if (kprobe_running())
		return -EBUSY;
	kprobe_mutex_lock();
	ap = get_valid_kprobe(p);
	if (!ap || kprobe_gone(p)) {
		ret = -EINVAL;
	} else {
		armed = !(ap->flags & KPROBE_FLAG_DISABLED);
		p->flags &= ~KPROBE_FLAG_DISABLED;
		ap->flags &= ~KPROBE_FLAG_DISABLED;
		if (!armed)
			arm_kprobe(ap);
	}
	kprobe_mutex_unlock();
	return ret;
}

/* ---- unregistration ---------------------------------------------------------- */

/*
 * Unregistering is two halves around a grace period, as in Linux's
 * __unregister_kprobe_top()/_bottom(): the top takes the int3 out and
 * unlinks the probe, so no new hit can find it; synchronize_kprobes()
 * waits until no hit that found it before can still be running; the
 * bottom frees what those hits used - the slot, an aggregate.
 */
struct kprobe_garbage {
	struct kprobe *slot_owner;	/* whose slot to free (p or its aggregate) */
	struct kprobe *aggr;		/* an aggregate to kfree, or NULL */
};

/* Probes unregistered per grace period (unregister_kprobes() batches). */
#define KPROBE_UNREGISTER_BATCH	16

/* A freed aggregate is filled with this, so a late use faults loudly. */
#define KPROBE_POISON_BYTE	0x6b	/* Linux's POISON_FREE */

/*
 * Disarm first (restoring the byte), then unlink: once the original byte
 * is back no new hit can start here, and once unlinked no hit that
 * starts can find p.  Hits already past get_kprobe() may still use p:
 * nothing is freed here.
 */
static int __unregister_kprobe_top(struct kprobe *p, struct kprobe_garbage *g)
{
	struct kprobe *ap = get_valid_kprobe(p);
	uint32_t user_disabled = p->flags & KPROBE_FLAG_DISABLED;

	g->slot_owner = g->aggr = NULL;
	if (kprobe_on_gone_list(p)) {
		/* Its text and slot went with the module: only forget it. */
		hlist_del_rcu(&p->hlist);
		p->flags &= ~KPROBE_FLAG_GONE;
		nr_registered--;
		return 0;
	}
	if (!ap)
		return -EINVAL;
	__disable_kprobe(p);
	/* Leave the flag as the user set it: registering p again behaves the same. */
	p->flags = (p->flags & ~KPROBE_FLAG_DISABLED) | user_disabled;
	if (ap == p) {
		hlist_del_rcu(&p->hlist);
		g->slot_owner = p;
	} else if (list_is_singular(&ap->list)) {
		/* The last member: the aggregate, its slot and its int3 go too. */
		list_del_rcu(&p->list);
		hlist_del_rcu(&ap->hlist);
		g->slot_owner = g->aggr = ap;
	} else {
		list_del_rcu(&p->list);
		if (p->break_handler)
			WRITE_ONCE(ap->break_handler, NULL);
	}
	nr_registered--;
	kprobes_optimize_around(p->addr);	/* neighbours p kept from a jump */
	return 0;
}

/* After the grace period: no CPU is in a hit that found p. */
static void __unregister_kprobe_bottom(struct kprobe *p, const struct kprobe_garbage *g)
{
	if (g->slot_owner)
		arch_remove_kprobe(g->slot_owner);	/* the slot is refilled with int3s */
	if (g->aggr) {
		memset(g->aggr, KPROBE_POISON_BYTE, sizeof(*g->aggr));
		kfree(g->aggr);
	}
	if (!kprobe_gone(p)) {
		p->ainsn.insn = NULL;
		INIT_LIST_HEAD(&p->list);
	}
}

/* Up to KPROBE_UNREGISTER_BATCH probes, one grace period.  kprobe_mutex held. */
static void unregister_kprobe_batch(struct kprobe **kps, int num)
{
	struct kprobe_garbage garbage[KPROBE_UNREGISTER_BATCH];
	int ret[KPROBE_UNREGISTER_BATCH];

	if (num > 1)	/* their jumps: one window, not one each (one probe: the same either way) */
		unoptimize_kprobes_batch(kps, num);
	for (int i = 0; i < num; i++)
		ret[i] = __unregister_kprobe_top(kps[i], &garbage[i]);
	synchronize_kprobes();
	for (int i = 0; i < num; i++)
		if (ret[i] == 0)
			__unregister_kprobe_bottom(kps[i], &garbage[i]);
}

static void __unregister_kprobes(struct kprobe **kps, int num)
{
	for (int i = 0; i < num; i += KPROBE_UNREGISTER_BATCH)
		unregister_kprobe_batch(kps + i, num - i < KPROBE_UNREGISTER_BATCH ?
					num - i : KPROBE_UNREGISTER_BATCH);
}

void unregister_kprobes(struct kprobe **kps, int num)
{
	if (kprobe_running()) {
		printk("kprobes: unregister from inside a handler refused\n");
		return;
	}
	kprobe_mutex_lock();
	__unregister_kprobes(kps, num);
	kprobe_mutex_unlock();
	/* As Linux's synchronize_rcu_tasks(): no preempted thread left in freed code. */
	synchronize_kprobe_text();
}

void unregister_kprobe(struct kprobe *p)
{
	unregister_kprobes(&p, 1);
}

/*
 * The code under p is about to go away (its module is unloading) but p
 * belongs to someone else, who will unregister it later: put the
 * original byte back and free the slot now, while the text still
 * exists, then keep p registered as [GONE] (Linux's kill_kprobe()).
 * Nothing touches p's address again; unregister_kprobe() just forgets it.
 */
void kill_kprobe(struct kprobe *p)
{
	kprobe_mutex_lock();
	if (!kprobe_on_gone_list(p) && get_valid_kprobe(p)) {
		__unregister_kprobes(&p, 1);	/* p->hlist is free after the grace period */
		p->flags |= KPROBE_FLAG_GONE;
		hlist_add_head(&p->hlist, &gone_kprobes);
		nr_registered++;	/* still registered, as its owner sees it */
	}
	kprobe_mutex_unlock();
	synchronize_kprobe_text();
}

int register_kprobes(struct kprobe **kps, int num)
{
	int ret = 0;

	if (num <= 0)
		return -EINVAL;
	for (int i = 0; i < num; i++) {
		ret = register_kprobe(kps[i]);
		if (ret < 0) {
			unregister_kprobes(kps, i);
			break;
		}
	}
	return ret;
}

/* ---- looking at probes --------------------------------------------------------- */

unsigned int kprobes_nr_registered(void)
{
	return nr_registered;
}

int sprint_kprobe(char *buf, size_t len, const struct kprobe *p)
{
	unsigned long size, offset;
	const char *sym = kallsyms_lookup((unsigned long)p->addr, &size, &offset);
	struct kprobe *ap = get_kprobe(p->addr);	/* p, or its aggregate */
	char opt[80] = "";
	const char *state = kprobe_gone(p) ? "  [GONE]" :
			    kprobe_disabled(p) ? "  [DISABLED]" : opt;
	char type = kprobe_type_char(p);	/* k, j or r */

	if (state == opt && ap && kprobe_ftrace(ap))
		strlcpy(opt, "  [FTRACE]", sizeof(opt));
	else if (state == opt && ap)	/* what the optimizer made of it */
		sprint_optprobe_state(opt, sizeof(opt), ap);

	if (!sym)
		return snprintf(buf, len, "%08lx  %c  %08lx%s", (unsigned long)p->addr,
				type, (unsigned long)p->addr, state);
	return snprintf(buf, len, "%08lx  %c  %s+0x%lx%s", (unsigned long)p->addr,
			type, sym, offset, state);
}

/* "fib" or "fib+0x1d": where a probe sits. */
static int sprint_probe_place(char *buf, size_t len, const struct kprobe *p)
{
	unsigned long offset;
	const char *sym = kallsyms_lookup((unsigned long)p->addr, NULL, &offset);

	if (!sym)
		return snprintf(buf, len, "%08lx", (unsigned long)p->addr);
	if (!offset)
		return snprintf(buf, len, "%s", sym);
	return snprintf(buf, len, "%s+%#lx", sym, offset);
}

/* Is addr in [start, start + size)?  Then name it "[what for PLACE]". */
static bool text_of_probe(unsigned long addr, unsigned long start, unsigned long size,
			  const char *what, const struct kprobe *p, char *name, size_t len)
{
	char place[64];

	if (!start || addr < start || addr >= start + size)
		return false;
	sprint_probe_place(place, sizeof(place), p);
	snprintf(name, len, "[%s for %s]", what, place);
	return true;
}

/*
 * Linux lists such code in kallsyms as "[kprobe]" symbols; here the name
 * says which probe.  No lock: an oops may come while kprobe_mutex is
 * held, and the walk only reads.  Aggregates hold the slot of their
 * address.
 */
int kprobe_text_name(unsigned long addr, char *name, size_t len,
		     unsigned long *start, unsigned long *size)
{
	struct kprobe *p;

	for (int i = 0; i < KPROBE_TABLE_SIZE; i++) {
		hlist_for_each_entry(p, &kprobe_table[i], hlist) {
			struct optimized_kprobe *op = kprobe_optimized(p) ?
				get_optimized_kprobe((unsigned long)p->addr) : NULL;

			*start = (unsigned long)p->ainsn.insn;
			*size = MAX_INSN_SIZE;
			if (text_of_probe(addr, *start, *size, "kprobe slot", p, name, len))
				return 1;
			*start = (unsigned long)p->ainsn.boost_insn;	/* its own slot with int3 steps */
			if (*start && text_of_probe(addr, *start, *size, "kprobe slot", p, name, len))
				return 1;
			if (!op)
				continue;
			*start = (unsigned long)op->optinsn.insn;
			*size = op->optinsn.insn_size;
			if (text_of_probe(addr, *start, *size, "optprobe detour", p, name, len))
				return 1;
		}
	}
	return 0;
}
NOKPROBE_SYMBOL(kprobe_text_name);

/* Call fn on every user probe (aggregates are opened up). */
static void for_each_kprobe(void (*fn)(struct kprobe *p))
{
	struct kprobe *p, *kp;

	for (int i = 0; i < KPROBE_TABLE_SIZE; i++) {
		hlist_for_each_entry(p, &kprobe_table[i], hlist) {
			if (!kprobe_aggrprobe(p)) {
				fn(p);
				continue;
			}
			list_for_each_entry(kp, &p->list, list)
				fn(kp);
		}
	}
	hlist_for_each_entry(p, &gone_kprobes, hlist)
		fn(p);
}

/*
 * Call fn(p, data) on every user probe until it returns non-zero, which
 * is returned.  fn runs under kprobe_mutex: it must not (un)register.
 * The module loader uses it to find probes a module forgot.
 */
int kprobes_for_each(int (*fn)(struct kprobe *p, void *data), void *data)
{
	struct kprobe *p, *kp;
	int ret = 0;

	kprobe_mutex_lock();
	for (int i = 0; i < KPROBE_TABLE_SIZE && !ret; i++) {
		hlist_for_each_entry(p, &kprobe_table[i], hlist) {
			if (!kprobe_aggrprobe(p)) {
				ret = fn(p, data);
			} else {
				list_for_each_entry(kp, &p->list, list)
					if ((ret = fn(kp, data)) != 0)
						break;
			}
			if (ret)
				break;
		}
	}
	kprobe_mutex_unlock();
	return ret;
}

/* The same for the [GONE] probes, which kprobes_for_each() leaves out. */
int kprobes_for_each_gone(int (*fn)(struct kprobe *p, void *data), void *data)
{
	struct kprobe *p;
	int ret = 0;

	kprobe_mutex_lock();
	hlist_for_each_entry(p, &gone_kprobes, hlist)
		if ((ret = fn(p, data)) != 0)
			break;
	kprobe_mutex_unlock();
	return ret;
}

static void print_list_line(struct kprobe *p)
{
	char line[128];

	sprint_kprobe(line, sizeof(line), p);
	printk("%s\n", line);
}

unsigned long kprobe_missed(const struct kprobe *p)
{
	unsigned long missed = p->nmissed;

	if (kprobe_is_kretprobe(p))
		missed += container_of(p, const struct kretprobe, kp)->nmissed;
	return missed;
}

int sprint_kprobe_profile(char *buf, size_t len, const struct kprobe *p)
{
	char line[128];

	sprint_kprobe(line, sizeof(line), p);
	return snprintf(buf, len, "%-48s hit %8lu  missed %8lu", line, p->nhit,
			kprobe_missed(p));
}

/*
 * A thread waits for kprobe_mutex (the optimizer may hold it for a batch).
 * SysRq calls this from an interrupt handler, where the mutex may not be
 * slept on: whoever holds it may be registering on another CPU, or be the
 * very thread interrupted.  So there it only tries; -EBUSY asks the caller
 * to come back later (the console's SysRq tries again at the next tick).
 * who, if not NULL, heads the list with a count: "SysRq: 2 probe(s)".
 */
int kprobes_list_print(const char *who)
{
	if (in_task() && !in_atomic())
		kprobe_mutex_lock();
	else if (!mutex_trylock(&kprobe_mutex))
		return -EBUSY;
	if (who)
		printk("\n%s: %u probe(s) registered\n", who, nr_registered);
	for_each_kprobe(print_list_line);
	kprobe_mutex_unlock();
	return 0;
}

/* fn on every hashed probe: a lone probe or an aggregate, not the members. */
static void for_each_hashed_kprobe(void (*fn)(struct kprobe *p))
{
	struct kprobe *p;

	for (int i = 0; i < KPROBE_TABLE_SIZE; i++)
		hlist_for_each_entry(p, &kprobe_table[i], hlist)
			fn(p);
}

static void arm_if_enabled(struct kprobe *p)
{
	if (!kprobe_disabled(p)) {
		arch_arm_kprobe(p);
		optimize_kprobe(p);
	}
}

static void disarm_if_enabled(struct kprobe *p)
{
	if (!kprobe_disabled(p)) {
		unoptimize_kprobe(p);
		arch_disarm_kprobe(p);
	}
}

void arm_all_kprobes(void)
{
	kprobe_mutex_lock();
	if (kprobes_all_disarmed) {
		kprobes_all_disarmed = false;
		for_each_hashed_kprobe(arm_if_enabled);
	}
	kprobe_mutex_unlock();
}

void disarm_all_kprobes(void)
{
	kprobe_mutex_lock();
	if (!kprobes_all_disarmed) {
		for_each_hashed_kprobe(disarm_if_enabled);
		kprobes_all_disarmed = true;
	}
	kprobe_mutex_unlock();
}

/* ---- boot ---------------------------------------------------------------------- */

#define KPROBES_ENABLED_PARAM	"kprobes.enabled"
#define KPROBES_ENABLED_LEN	4	/* "0" or "1", and a byte to see "10" */

/*
 * kprobes.enabled=0: boot with the global switch off, as if
 * /sys/kernel/debug/kprobes/enabled held 0 from the start.  Probes are
 * registered but not armed until `echo 1` there - which is how a boot
 * shows that a sanity test run from init_kprobes() tests the probes and
 * not itself: with the switch off, it must fail.
 */
static int kprobes_enabled_setup(void)
{
	char word[KPROBES_ENABLED_LEN];

	if (!cmdline_value(KPROBES_ENABLED_PARAM, word, sizeof(word)))
		return 0;
	if (strcmp(word, "0") == 0) {
		kprobes_all_disarmed = true;
		printk("kprobes: %s=0: every probe disarmed until "
		       "/sys/kernel/debug/kprobes/enabled is 1\n", KPROBES_ENABLED_PARAM);
	} else if (strcmp(word, "1") != 0) {
		printk("kprobes: %s=%s: want 0 or 1; enabled it is\n",
		       KPROBES_ENABLED_PARAM, word);
		return -EINVAL;
	}
	return 0;
}

int init_kprobes(void)
{
	int ret;

	if (kprobes_initialized)
		return 0;
	kprobe_lock_setup();		/* a bad word is reported; per-CPU it stays */
	kprobes_enabled_setup();	/* a bad word is reported; enabled it stays */
	kprobes_ftrace_setup();		/* kprobes.ftrace=0: entry probes take the int3 */
	kretprobe_rethook_setup();	/* kprobes.rethook=0: kretprobes return the 2005 way */
	ret = populate_kprobe_blacklist();
	if (ret)
		return ret;
	ret = arch_init_kprobes();
	if (ret)
		return ret;
	ret = init_kprobe_optimizer();
	if (ret)
		return ret;
	kprobes_initialized = true;
#ifdef CONFIG_KPROBES_SANITY_TEST
	/*
	 * Linux 2.6.25-5.13 ran its built-in lib/test_kprobes.c here, the
	 * moment probes work; make BUILTIN=... CONFIG_KPROBES_SANITY_TEST=y
	 * does the same (docs/modules.md), else this is our own smoke test.
	 * Its result is its printed line: a failing test is not a failed boot.
	 */
	init_test_probes();
#endif
	return 0;
}
