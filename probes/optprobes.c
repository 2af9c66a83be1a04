/*
 * optprobes.c - the optimizer: which armed probes are jumps, not int3s.
 *
 * Architecture independent, like Linux's half of kernel/kprobes.c that
 * deals with optimized_kprobe.  A probe qualifies when it is armed and
 * has only a pre-handler (a post-handler runs after a single-step, a
 * break-handler needs the int3 path: neither exists for a jump); the
 * arch half (arch/i386/kprobes/opt_check.c, opt.c) then decides
 * whether its site is safe, builds the detour buffer and patches the
 * text.  Refusal is never an error: the probe simply stays an int3 (and
 * maybe boosted).
 *
 * Linux's design: arming a probe only queues it on optimizing_list and
 * kicks kprobe_optimizer, which runs later, in a kernel thread here (a
 * delayed work item in Linux), and takes the queue in batches.  Each
 * batch looks once at where every stopped thread will resume (Linux
 * waits one synchronize_rcu_tasks() per batch; on one CPU we can simply
 * look, text_quiesce.c), then analyses and patches every probe of the
 * batch against that one look.  A probe a preempted thread sits behind
 * stays queued and is retried later.  So registering, kprobe_events
 * writes and the runtime switch return at once, whatever the number of
 * probes; wait_for_kprobe_optimizer() is there for whoever needs the
 * jumps in place (tests, the bench).
 *
 * The optimizer's record of a registered probe p (the one in the kprobe
 * table), while it has one:
 *   QUEUED:        an int3, on optimizing_list                [WAITING]
 *   OPTIMIZED:     a jmp, KPROBE_FLAG_OPTIMIZED, in optimized_table
 *   UNOPTIMIZING:  still a jmp, on unoptimizing_list (the switch is off)
 * A refused probe has no record, only p->opt_refusal: an int3,
 * [NOT OPTIMIZED: why].  A probe that does not qualify at all (handlers,
 * disabled, the switch off) has neither.  Every change happens under kprobe_mutex
 * (probes/kprobes.c calls the hooks below with it held, the switch goes
 * through kprobes_for_each(), the optimizer takes it for each batch).
 * Hits never look at these tables: the detour knows its record.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "hash.h"
#include "errno.h"
#include <asm/irqflags.h>
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "timer.h"
#include "linux/preempt.h"	/* in_interrupt() */

static bool kprobes_allow_optimization = true;
static unsigned int nr_optimized;

/*
 * Optimized probes hashed by address / 32.  A jump covers at most
 * MAX_OPTIMIZED_LENGTH (19) bytes, so the probe covering a byte starts
 * in that byte's 32-byte granule or the one before: two buckets to look
 * in, whatever the number of probes (recover_optprobed_bytes() runs for
 * every instruction the decoder walks at registration).  1,024 buckets
 * (4 KiB): with 64, 10,000 optimized probes made every decoded
 * instruction walk two chains of ~150 and registration 3.4 times dearer
 * per probe than with 1,000 (docs/performance.md, "Registration").
 */
#define OPT_HASH_BITS		10
#define OPT_GRANULE_SHIFT	5
static struct hlist_head optimized_table[1 << OPT_HASH_BITS];
/* Every record the optimizer keeps (any state), hashed by probe address. */
static struct hlist_head op_records[1 << OPT_HASH_BITS];

static struct hlist_head *opt_bucket(unsigned long granule)
{
	return &optimized_table[hash_32(granule, OPT_HASH_BITS)];
}

static unsigned long op_start(const struct optimized_kprobe *op)
{
	return (unsigned long)op->kp->addr;
}

static const char *const refusal_names[OPT_NR_REFUSALS] = {
	[OPT_OK] = "optimizable",
	[OPT_SWITCHED_OFF] = "optimization switched off",
	[OPT_HANDLERS] = "has a post- or break-handler",
	[OPT_DISABLED] = "disabled",
	[OPT_NO_SIZE] = "function size unknown",
	[OPT_CROSSES_END] = "jump would cross the function's end",
	[OPT_NOT_RELOCATABLE] = "displaced instruction cannot be relocated",
	[OPT_PROBE_IN_RANGE] = "another probe inside the jump",
	[OPT_JUMP_INTO_RANGE] = "a branch lands inside the jump",
	[OPT_INDIRECT_JUMP] = "function has an indirect jump",
	[OPT_FIXUP_ENTRY] = "function has exception-fixup entries",
	[OPT_UNDECODABLE] = "function does not decode",
	[OPT_THREAD_INSIDE] = "a preempted thread is inside (retried later)",
	[OPT_NO_MEMORY] = "out of memory",
};

const char *optprobe_refusal_name(int why)
{
	if (why < 0)
		why = -why;
	return why < OPT_NR_REFUSALS ? refusal_names[why] : "?";
}

/* ---- lookups --------------------------------------------------------------------- */

struct optimized_kprobe *get_optimized_kprobe(unsigned long addr)
{
	unsigned long first = (addr - (MAX_OPTIMIZED_LENGTH - 1)) >> OPT_GRANULE_SHIFT;
	struct optimized_kprobe *op;

	for (unsigned long g = first; g <= addr >> OPT_GRANULE_SHIFT; g++)
		hlist_for_each_entry(op, opt_bucket(g), hlist)
			if (addr >= op_start(op) && addr < op_start(op) + op->optinsn.size)
				return op;
	return NULL;
}

void recover_optprobed_bytes(kprobe_opcode_t *buf, kprobe_opcode_t *addr, size_t len)
{
	unsigned long a = (unsigned long)addr;
	unsigned long first = (a - (MAX_OPTIMIZED_LENGTH - 1)) >> OPT_GRANULE_SHIFT;
	struct optimized_kprobe *op;

	if (!nr_optimized)
		return;
	for (unsigned long g = first; g <= (a + len - 1) >> OPT_GRANULE_SHIFT; g++) {
		hlist_for_each_entry(op, opt_bucket(g), hlist) {
			unsigned long s = op_start(op), e = s + op->optinsn.size;
			unsigned long lo = s > a ? s : a, hi = e < a + len ? e : a + len;

			if (lo < hi)
				memcpy(buf + (lo - a), op->optinsn.copy + (lo - s), hi - lo);
		}
	}
}

/* The optimizer's record for the probe at addr, whatever its state. */
static struct optimized_kprobe *op_at(const kprobe_opcode_t *addr)
{
	uint32_t key = (uint32_t)(unsigned long)addr;
	struct optimized_kprobe *op;

	hlist_for_each_entry(op, &op_records[hash_32(key, OPT_HASH_BITS)], addr_node)
		if (op->kp->addr == addr)
			return op;
	return NULL;
}

static struct optimized_kprobe *new_op(struct kprobe *p)
{
	struct optimized_kprobe *op = kzalloc(sizeof(*op));
	uint32_t key = (uint32_t)(unsigned long)p->addr;

	if (!op)
		return NULL;
	op->kp = p;
	op->addr = p->addr;
	INIT_HLIST_NODE(&op->hlist);
	INIT_LIST_HEAD(&op->list);
	hlist_add_head(&op->addr_node, &op_records[hash_32(key, OPT_HASH_BITS)]);
	return op;
}

unsigned int kprobes_nr_optimized(void)
{
	return nr_optimized;
}

/* ---- the queues ----------------------------------------------------------------- */

/*
 * Linux's two lists: probes waiting to become jumps (a busy one goes
 * back to the end, op->why = OPT_THREAD_INSIDE), jumps waiting to become
 * int3s (the switch turned off).
 */
static LIST_HEAD(optimizing_list);
static LIST_HEAD(unoptimizing_list);
static struct task_struct *kprobe_optimizer_task;

static unsigned long optimizer_deadline;	/* jiffies: the batch is taken then */
static bool optimizer_delay_running;

/*
 * Linux delays the optimizer by OPTIMIZE_DELAY so that a burst of
 * registrations becomes one batch.  On one CPU that used to happen by
 * itself (the registering thread kept the CPU until it slept), but with
 * several the optimizer thread wakes on another CPU at once and would
 * take the burst one probe at a time.  So, as Linux's
 * schedule_delayed_work(&optimizing_work, OPTIMIZE_DELAY): the first
 * kick starts the delay, later kicks join it, and the batch is taken
 * when it expires.  Until then a probe is a queued int3 ([WAITING]).
 */
static void kick_kprobe_optimizer(void)
{
	if (!kprobe_optimizer_task)
		return;
	/* A delay that expired unseen (wait_for_kprobe_optimizer() took the
	 * batch itself) is over: this kick starts a new one. */
	if (!READ_ONCE(optimizer_delay_running) ||
	    time_after_eq(jiffies, READ_ONCE(optimizer_deadline))) {
		WRITE_ONCE(optimizer_deadline, jiffies + OPTIMIZE_DELAY);
		WRITE_ONCE(optimizer_delay_running, true);
	}
	wake_up_process(kprobe_optimizer_task);
}

bool kprobe_optimizer_delay_pending(unsigned long *deadline)
{
	*deadline = READ_ONCE(optimizer_deadline);
	return READ_ONCE(optimizer_delay_running);
}

static void queue_op(struct optimized_kprobe *op, int why)
{
	op->state = OPTPROBE_QUEUED;
	op->why = why;
	list_add_tail(&op->list, &optimizing_list);
}

static void dequeue_op(struct optimized_kprobe *op)
{
	list_del(&op->list);
	INIT_LIST_HEAD(&op->list);
}

/* ---- in address order ----------------------------------------------------------- */

/*
 * A function's probes should meet in one batch: the analysis decodes a
 * function once per batch (arch/i386/kprobes/opt_check.c).  Registration
 * queues them in that order by itself; the switch queues them in the
 * kprobe table's order, so it sorts the queue, and every batch is
 * sorted too.  Heapsort, as Linux's lib/sort.c: no recursion, no memory.
 */
static bool op_before(const struct optimized_kprobe *a, const struct optimized_kprobe *b)
{
	return op_start(a) < op_start(b);
}

static void sift_down(struct optimized_kprobe **v, size_t root, size_t n)
{
	struct optimized_kprobe *tmp;
	size_t child;

	for (; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && op_before(v[child], v[child + 1]))
			child++;
		if (!op_before(v[root], v[child]))
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
	}
}

static void sort_by_address(struct optimized_kprobe **v, size_t n)
{
	struct optimized_kprobe *tmp;

	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (size_t end = n; end-- > 1;) {
		tmp = v[0];
		v[0] = v[end];
		v[end] = tmp;
		sift_down(v, 0, end);
	}
}

/* The whole queue, in address order (no memory for it: it stays as it is). */
static void sort_optimizing_list(void)
{
	struct optimized_kprobe *op, **v;
	size_t n = 0, i = 0;

	list_for_each_entry(op, &optimizing_list, list)
		n++;
	if (n < 2 || !(v = kmalloc(n * sizeof(*v))))
		return;
	list_for_each_entry(op, &optimizing_list, list)
		v[i++] = op;
	sort_by_address(v, n);
	INIT_LIST_HEAD(&optimizing_list);
	for (i = 0; i < n; i++)
		list_add_tail(&v[i]->list, &optimizing_list);
	kfree(v);
}

/* ---- optimize / unoptimize ---------------------------------------------------- */

/* The manager's part of the answer: p's handlers and state. */
static int kprobe_optready(const struct kprobe *p)
{
	if (!kprobes_allow_optimization)
		return OPT_SWITCHED_OFF;
	if (p->post_handler || p->break_handler)
		return OPT_HANDLERS;
	if (kprobe_disabled(p) || kprobes_all_disarmed)
		return OPT_DISABLED;
	return OPT_OK;
}

/*
 * p was armed (or may qualify again): queue it.  The optimizer thread
 * does the analysis and the patching later, so registering stays as
 * cheap as an int3 probe.  A refused probe is queued again: whatever
 * refused it (a neighbour, the switch) may have changed.
 */
void optimize_kprobe(struct kprobe *p)
{
	struct optimized_kprobe *op;

	if (!p || kprobe_ftrace(p) || kprobe_optready(p) != OPT_OK || op_at(p->addr))
		return;			/* not a candidate, or queued or a jump already */
	op = new_op(p);
	if (!op)
		return;			/* no memory: stays an int3 */
	p->opt_refusal = OPT_OK;
	queue_op(op, OPT_OK);
	kick_kprobe_optimizer();
}

/* op's jump is an int3 again: its record off the jump table. */
static void forget_jump(struct optimized_kprobe *op)
{
	hlist_del(&op->hlist);
	op->kp->flags &= ~KPROBE_FLAG_OPTIMIZED;
	nr_optimized--;
}

/* The jmp -> int3 half of unoptimizing, and the record off the jump table. */
static void unpatch_op(struct optimized_kprobe *op)
{
	arch_unoptimize_kprobe(op);		/* the text is an int3 probe again */
	forget_jump(op);
}

/* Forget op; its detour (if any) is freed when no thread can be inside. */
static void free_op(struct optimized_kprobe *op, const struct text_snapshot *snap)
{
	hlist_del(&op->addr_node);
	op->kp = NULL;				/* a thread still in the detour skips handlers */
	arch_remove_optimized_kprobe(op, snap);
}

/*
 * p is being disarmed (disabled, unregistered, or a probe is coming
 * inside its jump): whatever the optimizer had for it goes, now.  A jump
 * is turned back into an int3 right here - one probe's text, cheap, and
 * the caller is about to rely on it.
 */
void unoptimize_kprobe(struct kprobe *p)
{
	struct optimized_kprobe *op = p ? op_at(p->addr) : NULL;

	if (p)
		p->opt_refusal = OPT_OK;	/* disarmed: nothing to say any more */
	if (!op)
		return;
	if (op->kp != p)
		panic("optprobes: record at %p belongs to another probe", p->addr);
	if (op->state == OPTPROBE_QUEUED)
		dequeue_op(op);
	else if (op->state == OPTPROBE_UNOPTIMIZING)
		list_del(&op->list);
	if (op->state != OPTPROBE_QUEUED)	/* a jump: text_poke_bp() takes it out */
		unpatch_op(op);
	free_op(op, NULL);
}

/* The jumps of ops[0..n) back to int3s in one text_poke_bp() window; their records go. */
static void unpatch_ops(struct optimized_kprobe **ops, int n)
{
	if (!n)
		return;
	arch_unoptimize_kprobes(ops, n);
	for (int i = 0; i < n; i++) {
		forget_jump(ops[i]);
		free_op(ops[i], NULL);
	}
}

/*
 * Many probes are being unregistered at once (unregister_kprobes()):
 * their jumps go back to int3s together, in windows of up to
 * MAX_OPTIMIZE_PROBES - three syncs for the lot, as the optimizer's own
 * batches and Linux's unoptimizer do - instead of one window, and three
 * syncs, per probe inside each disarm.  What is left for
 * unoptimize_kprobe() then (a queued record) costs no sync.  Only a
 * probe that is its own jump's owner counts: an aggregate is never
 * optimized, and kps[i] may not be registered at all.  kprobe_mutex held.
 */
void unoptimize_kprobes_batch(struct kprobe **kps, int num)
{
	static struct optimized_kprobe *ops[MAX_OPTIMIZE_PROBES];	/* big: not on a stack */
	int n = 0;

	for (int i = 0; i < num; i++) {
		struct optimized_kprobe *op = op_at(kps[i]->addr);

		if (!op || op->kp != kps[i] || op->state == OPTPROBE_QUEUED)
			continue;
		if (op->state == OPTPROBE_UNOPTIMIZING)
			list_del(&op->list);	/* the optimizer's own batch would have done it */
		kps[i]->opt_refusal = OPT_OK;
		ops[n++] = op;
		if (n == MAX_OPTIMIZE_PROBES) {
			unpatch_ops(ops, n);
			n = 0;
		}
	}
	unpatch_ops(ops, n);
}

/*
 * No jump may cover addr, where a probe is about to go (or to join one).
 * The probe whose jump it was goes back on the queue: the optimizer will
 * refuse it while the new probe is there, and take it again when that
 * one goes (kprobes_optimize_around).  The record of a probe at addr
 * itself goes too: that probe is about to become an aggregate.
 */
void unoptimize_kprobes_at(kprobe_opcode_t *addr)
{
	struct optimized_kprobe *op = get_optimized_kprobe((unsigned long)addr);
	struct kprobe *p;

	if (op && op_start(op) != (unsigned long)addr) {
		p = op->kp;
		unoptimize_kprobe(p);
		optimize_kprobe(p);
	}
	op = op_at(addr);
	if (op)
		unoptimize_kprobe(op->kp);
}

/*
 * After a probe at addr came or went: queue again every probe refused
 * because another probe was inside its jump (only a probe starting
 * within MAX_OPTIMIZED_LENGTH bytes before addr can have had this one
 * there), and the one at addr itself.  Such a probe is armed, so its
 * first byte is an int3: only those bytes cost a walk of the kprobe
 * table, whose 64 chains are long when thousands of probes are
 * registered.
 */
void kprobes_optimize_around(kprobe_opcode_t *addr)
{
	struct kprobe *p;

	kprobes_collect_garbage();
	if (!kprobes_allow_optimization)
		return;
	for (size_t back = MAX_OPTIMIZED_LENGTH - 1; back > 0; back--) {
		kprobe_opcode_t *q = addr - back;

		if (!kernel_text_address((unsigned long)q) || *q != BREAKPOINT_INSTRUCTION)
			continue;		/* (before a module's text may be no page at all) */
		p = get_kprobe(q);
		if (p && p->opt_refusal == OPT_PROBE_IN_RANGE)
			optimize_kprobe(p);
	}
	optimize_kprobe(get_kprobe(addr));
}

/* ---- the optimizer ----------------------------------------------------------- */

/* Only busy sites left: the thread looks again this much later (Linux's OPTIMIZE_DELAY). */
#define OPTIMIZE_DELAY_MS	50
/* How many rounds wait_for_kprobe_optimizer() gives busy sites. */
#define OPTIMIZER_WAIT_ROUNDS	100

/* One batch's view of where the stopped threads will resume (big: not on a stack). */
static struct text_snapshot batch_snapshot;

/* The batch being optimized or unoptimized. */
static struct optimized_kprobe *batch[MAX_OPTIMIZE_PROBES];

/* Linux's do_unoptimize_kprobes(): jumps back to int3s (one window), detours freed. */
static bool do_unoptimize_kprobes(const struct text_snapshot *snap)
{
	int n;

	for (n = 0; n < MAX_OPTIMIZE_PROBES && !list_empty(&unoptimizing_list); n++) {
		batch[n] = list_first_entry(&unoptimizing_list, struct optimized_kprobe, list);
		list_del(&batch[n]->list);
	}
	if (n)
		arch_unoptimize_kprobes(batch, n);
	for (int i = 0; i < n; i++) {
		forget_jump(batch[i]);
		free_op(batch[i], snap);
	}
	return n > 0;
}

/*
 * One queued probe's answer: a jump, a refusal, or a thread in the way.
 * A refused probe keeps only the reason, in the probe (the record goes:
 * thousands of refused probes hold no memory).  Returns false if a
 * thread was in the way: the probe is on busy, to go back in the queue.
 */
static bool optimize_one_done(struct optimized_kprobe *op, int ret, struct list_head *busy)
{
	struct kprobe *p = op->kp;

	if (ret == -OPT_THREAD_INSIDE) {
		list_add_tail(&op->list, busy);
		return false;
	}
	if (ret) {
		free_op(op, NULL);			/* stays an int3 */
		p->opt_refusal = -ret;
		return true;
	}
	hlist_add_head(&op->hlist, opt_bucket(op_start(op) >> OPT_GRANULE_SHIFT));
	op->state = OPTPROBE_OPTIMIZED;
	p->flags |= KPROBE_FLAG_OPTIMIZED;
	nr_optimized++;
	return true;
}

static int batch_ret[MAX_OPTIMIZE_PROBES];

/*
 * Linux's do_optimize_kprobes(): up to MAX_OPTIMIZE_PROBES queued probes,
 * analysed one by one, then every jump through one patch window
 * (arch_optimize_kprobes()).  Busy ones go back to the end of the queue.
 * Returns true if any left the queue for good (optimized or refused).
 */
static bool do_optimize_kprobes(void)
{
	LIST_HEAD(busy);
	struct optimized_kprobe *op, *tmp;
	bool progress = false;
	int n, ready = 0;

	for (n = 0; n < MAX_OPTIMIZE_PROBES && !list_empty(&optimizing_list); n++) {
		batch[n] = list_first_entry(&optimizing_list, struct optimized_kprobe, list);
		dequeue_op(batch[n]);
	}
	sort_by_address(batch, n);
	for (int i = 0; i < n; i++) {
		int ret = arch_prepare_optimized_kprobe(batch[i]);

		if (ret)
			progress |= optimize_one_done(batch[i], ret, &busy);
		else
			batch[ready++] = batch[i];	/* still in address order */
	}
	if (ready)
		arch_optimize_kprobes(batch, ready, batch_ret);
	for (int i = 0; i < ready; i++)
		progress |= optimize_one_done(batch[i], batch_ret[i], &busy);
	arch_forget_optprobe_summaries();
	list_for_each_entry_safe(op, tmp, &busy, list) {
		list_del(&op->list);
		queue_op(op, OPT_THREAD_INSIDE);
	}
	return progress;
}

static bool optimizer_has_work(void)
{
	return !list_empty(&optimizing_list) || !list_empty(&unoptimizing_list);
}

/*
 * Linux's kprobe_optimizer(), one batch: under kprobe_mutex, one look at
 * every thread (the quiescence check the whole batch shares), then the
 * int3s the switch asked for, then the jumps.  Returns true if it got
 * anything done, false if all it found were busy sites.
 *
 * The other CPUs keep running: each jump goes in and out through
 * text_poke_bp(), and each write looks at every CPU inside its own
 * window (arch_optimize_kprobe()).  The batch's look stays true only
 * where nothing else runs between it and the writes - on one CPU, with
 * preemption off - and only there is it used to free a detour at once.
 */
static bool kprobe_optimizer_round(void)
{
	bool progress;

	kprobe_mutex_lock();
	preempt_disable();
	text_snapshot_take(&batch_snapshot);
	progress = do_unoptimize_kprobes(&batch_snapshot);
	progress |= do_optimize_kprobes();
	preempt_enable();
	kprobes_collect_garbage();
	kprobe_mutex_unlock();
	return progress;
}

/*
 * The thread: asleep while there is nothing to do, a batch at a time
 * when there is, letting other threads run between batches.  Busy sites
 * are retried OPTIMIZE_DELAY_MS later - the thread inside has to run to
 * leave, and the write that queued the probe never waits for it.
 */
static int kprobe_optimizer(void *unused)
{
	long left;

	for (;;) {
		kthread_sleep_until(optimizer_has_work);
		left = (long)(READ_ONCE(optimizer_deadline) - jiffies);
		if (READ_ONCE(optimizer_delay_running) && left > 0)
			msleep(left * (1000 / HZ));	/* the burst gathers */
		WRITE_ONCE(optimizer_delay_running, false);
		if (kprobe_optimizer_round())
			yield();
		else
			msleep(OPTIMIZE_DELAY_MS);
	}
	return 0;
}

int init_kprobe_optimizer(void)
{
	if (kprobe_optimizer_task)
		return 0;
	kprobe_optimizer_task = kthread_create(kprobe_optimizer, NULL, "kprobe_opt");
	return kprobe_optimizer_task ? 0 : -ENOMEM;
}

/*
 * Nothing queued, and no batch in flight: the optimizer thread takes a
 * batch off the queues and patches it all under kprobe_mutex, so empty
 * queues seen without the mutex may only mean its batch is still being
 * written on another CPU.  A caller that may not sleep looks without it.
 */
static bool optimizer_settled(void)
{
	bool settled;

	if (preempt_count() || irqs_disabled())
		return !optimizer_has_work();
	kprobe_mutex_lock();
	settled = !optimizer_has_work();
	kprobe_mutex_unlock();
	return settled;
}

int wait_for_kprobe_optimizer(void)
{
	int idle_rounds = 0;

	while (!optimizer_settled()) {
		if (kprobe_optimizer_round())
			continue;
		if (++idle_rounds > OPTIMIZER_WAIT_ROUNDS || preempt_count() || irqs_disabled())
			return -EBUSY;
		yield();	/* a thread sits behind a jump: let it move on */
	}
	return 0;
}

/* ---- asking, listing, and the runtime switch ------------------------------------ */

/*
 * What the optimizer would decide for ap now: its analysis, run at once.
 * Under kprobe_mutex: the analysis' summary cache is the optimizer's
 * too, and the optimizer runs on any CPU.
 */
static int optprobe_verdict(struct kprobe *ap)
{
	struct optimized_kprobe op = { .kp = ap }, *rec;
	int why;

	if (kprobe_optimized(ap))
		return OPT_OK;
	why = kprobe_optready(ap);
	if (why != OPT_OK)
		return why;
	why = -arch_check_optimized_kprobe(&op);
	arch_forget_optprobe_summaries();
	rec = op_at(ap->addr);
	if (why == OPT_OK && rec && rec->why == OPT_THREAD_INSIDE)
		why = OPT_THREAD_INSIDE;
	return why;
}

int optprobe_why_not(struct kprobe *p)
{
	struct kprobe *ap;
	int why;

	kprobe_mutex_lock();
	ap = get_kprobe(p->addr);
	why = ap ? optprobe_verdict(ap) : OPT_DISABLED;
	kprobe_mutex_unlock();
	return why;
}

/*
 * A queued probe, listed by a thread that holds kprobe_mutex (the debugfs
 * list file): the optimizer cannot run meanwhile, so run its analysis
 * and say what it will decide - a student need not wait for it.  Not
 * from SysRq's interrupt (it may not spend that long), nor without the
 * mutex.
 */
static int sprint_waiting(char *buf, size_t len, const struct kprobe *ap)
{
	int why;

	if (in_interrupt() || !kprobe_mutex_held())
		return snprintf(buf, len, "  [WAITING]");
	why = optprobe_verdict((struct kprobe *)ap);
	if (why == OPT_OK)
		return snprintf(buf, len, "  [WAITING: will be a jump]");
	return snprintf(buf, len, "  [WAITING: will stay an int3: %s]",
			optprobe_refusal_name(why));
}

int sprint_optprobe_state(char *buf, size_t len, const struct kprobe *ap)
{
	const struct optimized_kprobe *op;
	bool waiting = false;
	int ret = 0;

	if (len)
		buf[0] = '\0';		/* not a candidate: no mark */
	preempt_disable();		/* the optimizer changes records under kprobe_mutex */
	op = op_at(ap->addr);
	if (op && op->kp != ap)
		op = NULL;
	if (kprobe_optimized(ap))
		ret = snprintf(buf, len, "  [OPTIMIZED]");
	else if (op && op->why == OPT_THREAD_INSIDE)
		ret = snprintf(buf, len, "  [WAITING: %s]", optprobe_refusal_name(op->why));
	else if (op)
		waiting = true;		/* queued: told below, preemptible */
	else if (ap->opt_refusal)
		ret = snprintf(buf, len, "  [NOT OPTIMIZED: %s]",
			       optprobe_refusal_name(ap->opt_refusal));
	else if (kprobe_optready(ap) == OPT_HANDLERS)	/* never a candidate: say why */
		ret = snprintf(buf, len, "  [NOT OPTIMIZED: %s]",
			       optprobe_refusal_name(OPT_HANDLERS));
	preempt_enable();
	return waiting ? sprint_waiting(buf, len, ap) : ret;
}

bool kprobes_get_optimization(void)
{
	return READ_ONCE(kprobes_allow_optimization);
}

/* kprobes_for_each() hands us user probes; the table holds p or its aggregate. */
static int optimize_one(struct kprobe *p, void *unused)
{
	optimize_kprobe(get_kprobe(p->addr));
	return 0;
}

/* Switched off: queued probes and refusals are forgotten, jumps wait for the optimizer. */
static int unoptimize_one(struct kprobe *p, void *unused)
{
	struct kprobe *ap = get_kprobe(p->addr);
	struct optimized_kprobe *op = ap ? op_at(ap->addr) : NULL;

	if (ap)
		ap->opt_refusal = OPT_OK;
	if (!op || op->state == OPTPROBE_UNOPTIMIZING)
		return 0;
	if (op->state == OPTPROBE_OPTIMIZED) {
		op->state = OPTPROBE_UNOPTIMIZING;
		list_add_tail(&op->list, &unoptimizing_list);
		return 0;
	}
	unoptimize_kprobe(op->kp);
	return 0;
}

/*
 * On: queue every probe that qualifies and return; the optimizer thread
 * does the rest.  Off: queue every jump for unoptimizing and wait for it
 * (as Linux's unoptimize_all_kprobes() does): a caller that switches
 * optimization off, like the narrator or the bench, counts on int3s.
 */
int kprobes_set_optimization(bool on)
{
	if (kprobe_running())
		return -EBUSY;
	WRITE_ONCE(kprobes_allow_optimization, on);
	kprobes_for_each(on ? optimize_one : unoptimize_one, NULL);
	if (on) {
		kprobe_mutex_lock();
		sort_optimizing_list();
		kprobe_mutex_unlock();
		return 0;
	}
	wait_for_kprobe_optimizer();
	synchronize_kprobe_text();
	return 0;
}
