/*
 * text_quiesce.c - may a thread still be running this code?
 *
 * A boosted slot and an optprobe's detour buffer are code kprobes made.
 * Unlike a single-step (interrupts off from the int3 to the #DB), they
 * run with the probed code's own IF: an interrupt can arrive while ip is
 * inside them, and the timer can preempt the thread right there.  The
 * thread then sleeps with its ip - saved in the pt_regs the interrupt
 * built on its stack - pointing into our code.  Free that code, or patch
 * the text it will jump back to, and the thread resumes into garbage.
 *
 * Linux waits for such threads with synchronize_rcu_tasks(): every task
 * must pass through a voluntary context switch, which cannot happen
 * inside a slot.  We look instead: every other CPU is stopped for the
 * length of one walk (for_each_task_stopped(), below), so no thread
 * moves meanwhile.  For each thread - sleeping, preempted, or running
 * on a stopped CPU - we follow the frame-pointer chain (the kernel is
 * built with frame pointers) and check
 *   - every return address on it, and
 *   - the ip of every interrupt frame: a frame whose return address is
 *     in the entry code (arch/i386/entry.S: trap_common's "call do_trap")
 *     belongs to do_trap(), and its first argument is the struct pt_regs
 *     of the interrupted code.  The chain goes on from that code's ebp.
 * The walk is exact (no stale words are mistaken for addresses), so a
 * "busy" answer means a thread really is inside.  The optimizer asks
 * about hundreds of ranges at once: it takes one snapshot of every
 * thread's resume points per batch and checks each range against it.
 * Code given up is freed later (kprobes_free_text_later): every
 * kprobes operation retries, and unregister_kprobes() yields to the
 * other threads until it is done.
 */
#include "kernel.h"
#include "kprobes.h"
#include "mm.h"
#include "sched.h"
#include <asm/irqflags.h>
#include <asm/ptrace.h>
#include "kallsyms.h"
#include "smp.h"
#include <asm/percpu.h>
#include <asm/atomic.h>
#include "spinlock.h"
#include <asm/processor.h>
#include <asm/text_patching.h>
#include "nokprobe.h"

/*
 * One walk over every thread visits each "resume point": a return
 * address on a stack or the ip of an interrupted frame.  Either we look
 * for one in [start, end) and stop at the first (kprobes_text_busy), or
 * we keep them all in a snapshot (text_snapshot_take).
 */
struct stack_walk {
	unsigned long start, end;	/* the code asked about */
	bool busy;
	struct text_snapshot *snap;	/* non-NULL: collect, don't ask */
};

/* One resume point.  Returns true when the walk can stop. */
static bool note_point(struct stack_walk *w, unsigned long addr)
{
	struct text_snapshot *s = w->snap;

	if (s) {
		if (s->nr < TEXT_SNAPSHOT_MAX_POINTS)
			s->points[s->nr++] = addr;
		else
			s->overflow = true;
		return false;
	}
	if (addr >= w->start && addr < w->end)
		w->busy = true;
	return w->busy;
}

/*
 * Follow the frame chain from bp within [lo, hi).  Each frame is
 * [saved bp][return address][arguments...]; callers' frames are higher.
 */
static void walk_frames(struct stack_walk *w, unsigned long bp,
			unsigned long lo, unsigned long hi)
{
	while (bp >= lo && bp + 3 * sizeof(long) <= hi && !(bp & 3)) {
		unsigned long *frame = (unsigned long *)bp;
		unsigned long ret = frame[1], next = frame[0];

		if (note_point(w, ret))
			return;
		struct pt_regs *regs = frame_pt_regs(bp, ret);

		if (regs) {
			if ((unsigned long)regs < lo || (unsigned long)regs >= hi)
				return;
			if (note_point(w, regs->ip))
				return;
			next = regs->bp;	/* the interrupted code's chain */
		}
		if (next <= bp)
			return;		/* not a frame pointer: stop */
		bp = next;
	}
}

/* ---- every CPU at one moment -------------------------------------------------- */

/*
 * A thread running on another CPU has no saved resume point: its
 * t->esp is where it stood when it last switched, and its stack
 * changes under us.  So, as Linux's stop_machine() does, we stop every
 * other CPU for the length of one walk: each takes an IPI, notes where
 * its own frame chain starts (the interrupted code's pt_regs lie on
 * it) and spins with interrupts off until the walk is done.  A CPU
 * that was running with interrupts off (in a single-step, holding
 * rq_lock) takes the IPI only once it has left that stretch, so no CPU
 * is stopped half-way through a hit or a switch.
 */
static DEFINE_PER_CPU(unsigned long, frozen_bp);
static DEFINE_PER_CPU(struct task_struct *, frozen_task);
static atomic_t nr_frozen = ATOMIC_INIT(0);
static int thaw;
static DEFINE_SPINLOCK(freeze_lock);

static void freeze_this_cpu(void *info)
{
	this_cpu_write(frozen_bp, (unsigned long)__builtin_frame_address(0));
	this_cpu_write(frozen_task, current);
	atomic_inc(&nr_frozen);
	while (!READ_ONCE(thaw))
		cpu_relax();
	this_cpu_write(frozen_task, NULL);
	atomic_dec(&nr_frozen);
}
/* It runs on every CPU, also those where no probe may fire (docs/scheduler.md). */
NOKPROBE_SYMBOL(freeze_this_cpu);

/* fn(t, arg) for every thread, with every other CPU stopped meanwhile. */
static void for_each_task_stopped(void (*fn)(struct task_struct *t, void *arg),
				  void *arg)
{
	int others;

	spin_lock(&freeze_lock);
	preempt_disable();
	others = text_poke_others_involved() ? num_online_cpus() - 1 : 0;
	WRITE_ONCE(thaw, 0);
	if (others)
		smp_call_function(freeze_this_cpu, NULL, 0);
	while (atomic_read(&nr_frozen) < others)
		cpu_relax();
	for_each_task(fn, arg);
	WRITE_ONCE(thaw, 1);
	while (atomic_read(&nr_frozen))
		cpu_relax();
	preempt_enable();
	spin_unlock(&freeze_lock);
}

/* Is t running on another (stopped) CPU?  Then *bp starts its chain. */
static bool running_elsewhere(struct task_struct *t, unsigned long *bp)
{
	int cpu;

	for_each_online_cpu(cpu) {
		if (cpu != smp_processor_id() && per_cpu(frozen_task, cpu) == t) {
			*bp = per_cpu(frozen_bp, cpu);
			return true;
		}
	}
	return false;
}

/*
 * One thread.  A thread that is not running stopped in switch_to()
 * (arch/i386/switch.S), which left edi, esi, ebx, ebp, return address at
 * its saved esp: the chain starts at that saved ebp.  A thread running
 * here or on a stopped CPU: the chain starts at the frame we or that
 * CPU's IPI handler are in.
 */
static void walk_task(struct task_struct *t, void *arg)
{
	struct stack_walk *w = arg;
	unsigned long top = task_stack_top(t), sp, bp;

	if (w->busy || t->state == TASK_DEAD)
		return;
	if (t == current) {
		bp = (unsigned long)__builtin_frame_address(0);
		sp = bp;
	} else if (running_elsewhere(t, &bp)) {
		sp = bp;
	} else {
		sp = t->esp;
		if (sp < t->stack_base || sp + 5 * sizeof(long) > top)
			return;
		if (note_point(w, ((unsigned long *)sp)[4]))
			return;
		bp = ((unsigned long *)sp)[3];
	}
	walk_frames(w, bp, sp, top);
}

bool kprobes_text_busy(unsigned long start, unsigned long end)
{
	struct stack_walk w = { .start = start, .end = end, .busy = false };

	for_each_task_stopped(walk_task, &w);
	return w.busy;
}

/*
 * Where every thread will resume, all at once: the optimizer's one look
 * per batch (Linux waits one synchronize_rcu_tasks() per batch for the
 * same reason).  Taken at one moment, with every other CPU stopped;
 * it stays true for code nobody can enter afterwards (a patch window's
 * tail, a detour no jump leads to any more).
 */
void text_snapshot_take(struct text_snapshot *s)
{
	struct stack_walk w = { .snap = s };

	s->nr = 0;
	s->overflow = false;
	for_each_task_stopped(walk_task, &w);
}

bool text_snapshot_busy(const struct text_snapshot *s, unsigned long start,
			unsigned long end)
{
	if (s->overflow)
		return kprobes_text_busy(start, end);	/* too deep to keep: ask */
	for (unsigned int i = 0; i < s->nr; i++)
		if (s->points[i] >= start && s->points[i] < end)
			return true;
	return false;
}

/* ---- freeing later ----------------------------------------------------------- */

struct deferred_free {
	struct list_head list;
	unsigned long start, end;
	void (*release)(void *arg);
	void *arg;
};

static LIST_HEAD(deferred_frees);
static unsigned int nr_deferred;
static DEFINE_SPINLOCK(deferred_lock);	/* the optimizer collects on any CPU */

/*
 * Queued, not looked at: the caller has just made the code unreachable
 * (a jump taken out, a probe unlinked after its grace period), and
 * kprobes_collect_garbage() looks at every queued piece at once, with
 * one stop of the other CPUs - not one stop per piece, which for a
 * batch of 256 detours on four CPUs is 256 rounds of IPIs.
 */
void kprobes_free_text_later(unsigned long start, unsigned long end,
			     void (*release)(void *arg), void *arg)
{
	struct deferred_free *d = kzalloc(sizeof(*d));

	if (!d) {
		/* Leaking is safe; freeing under a thread is not. */
		printk("kprobes: cannot track busy code at %#lx: leaked\n", start);
		return;
	}
	d->start = start;
	d->end = end;
	d->release = release;
	d->arg = arg;
	spin_lock(&deferred_lock);
	list_add_tail(&d->list, &deferred_frees);
	nr_deferred++;
	spin_unlock(&deferred_lock);
}

/* The garbage collector's one look (big: not on a stack; under kprobe_mutex). */
static struct text_snapshot garbage_snapshot;

/*
 * The optimizer thread collects after each round, registering threads
 * after each change, on whichever CPUs they run.  The caller holds
 * kprobe_mutex: releasing frees instruction slots.  One snapshot serves
 * every queued piece: nobody can enter queued code any more, so a
 * thread not inside it at the snapshot never will be.
 */
unsigned int kprobes_collect_garbage(void)
{
	struct deferred_free *d, *tmp;
	unsigned int left;

	if (!READ_ONCE(nr_deferred))
		return 0;
	text_snapshot_take(&garbage_snapshot);
	spin_lock(&deferred_lock);
	list_for_each_entry_safe(d, tmp, &deferred_frees, list) {
		if (text_snapshot_busy(&garbage_snapshot, d->start, d->end))
			continue;
		list_del(&d->list);
		nr_deferred--;
		d->release(d->arg);
		kfree(d);
	}
	left = nr_deferred;
	spin_unlock(&deferred_lock);
	return left;
}

/* Code still waiting for its threads to leave: 0 means nothing to collect. */
unsigned int kprobes_nr_deferred(void)
{
	return READ_ONCE(nr_deferred);
}

/* How often synchronize_kprobe_text() lets the others run before giving up. */
#define SYNC_MAX_YIELDS	1000

/*
 * Like Linux's synchronize_rcu_tasks() after an unregister: return only
 * when no thread is inside code we gave up.  The threads inside are
 * runnable (they were preempted), so yielding lets them leave.  From a
 * context that cannot yield we return at once; the next kprobes call
 * retries.  A thread that stays inside for SYNC_MAX_YIELDS rounds keeps
 * its code: correctness never depends on the wait.
 */
void synchronize_kprobe_text(void)
{
	unsigned int left;
	int i;

	if (!READ_ONCE(nr_deferred))
		return;
	for (i = 0; i < SYNC_MAX_YIELDS; i++) {
		if (preempt_count() || irqs_disabled())
			return;
		/* The slot allocators are kprobe_mutex's (probes/insn_slot.c). */
		kprobe_mutex_lock();
		left = kprobes_collect_garbage();
		kprobe_mutex_unlock();
		if (!left)
			return;
		yield();
	}
}
