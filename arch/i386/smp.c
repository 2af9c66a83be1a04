/*
 * smp.c - inter-processor interrupts: run a function on other CPUs, ask
 * one to reschedule.
 *
 * An IPI carries nothing but a vector: "CPU 1, take interrupt 0xFB".
 * The message itself - which function, which argument - must be left in
 * memory for the target to find.  Linux's design, ours too: each CPU has
 * a queue (call_single_queue) of call_single_data (csd) records; a
 * sender puts a csd on the target's queue and sends the IPI; the
 * target's handler empties its whole queue.
 *
 * Why a queue and not one mailbox per CPU: the local APIC has ONE
 * "pending" bit per vector (the IRR).  Two IPIs with the same vector
 * that arrive before the first is taken become one interrupt.  The
 * handler must therefore never assume one interrupt = one request; it
 * runs everything queued, so merged IPIs lose nothing (the 10,000-IPI
 * test checks exactly that).
 *
 * A csd is locked (CSD_FLAG_LOCK) from the moment it is queued until
 * the target is done with it: after the call for a waiting sender
 * ("wait": the caller spins until its function has run everywhere),
 * before the call for a sender that does not wait (it may reuse the csd
 * as soon as the target has copied func and info).
 */
#include "kernel.h"
#include "smp.h"
#include <asm/apic.h>
#include "spinlock.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include <asm/atomic.h>
#include "nokprobe.h"
#include "errno.h"

#define CSD_FLAG_LOCK	0x01	/* queued or running: do not reuse */
#define CSD_FLAG_WAIT	0x02	/* unlock only after the call */

struct call_single_data {
	struct call_single_data *next;
	smp_call_func_t func;
	void *info;
	volatile unsigned long flags;
};

/*
 * A CPU's incoming calls.  The lock is taken with the bare
 * arch_spin_lock() and interrupts off: an AP has no thread whose
 * preempt_count spin_lock() could raise.
 */
struct call_queue {
	spinlock_t lock;
	struct call_single_data *head, *tail;
};

static DEFINE_PER_CPU(struct call_queue, call_single_queue);
/* This CPU's outgoing csds, one per target (Linux's cfd_data). */
static DEFINE_PER_CPU(struct call_single_data, cfd_data[NR_CPUS]);

DEFINE_PER_CPU(unsigned long, irq_call_count);
DEFINE_PER_CPU(unsigned long, irq_resched_count);

static void flush_smp_call_function_queue(void);

/*
 * Until the target has taken (or, for a waiting sender, run) the call.
 * With interrupts on, this CPU goes on taking calls meanwhile.  With
 * them off - a sender inside an IPI handler, a caller under
 * local_irq_save() - it would not, and two CPUs can then wait on each
 * other for ever: CPU A freezes every CPU (text_quiesce.c) and waits
 * for B to answer, B spins here on a call to C, and C is the CPU A
 * froze.  So a CPU that spins with interrupts off empties its own queue
 * as it spins: B runs A's request, freezes too, and all move again
 * once A thaws them.  (Linux avoids it by forbidding the wait with
 * interrupts off instead.)
 *
 * A function of its own, never inlined: how many times its loop runs
 * depends on how fast another CPU answers, not on this one, and the
 * probe-every-instruction sweep (tests/kernel/probe_sweep.c) names it
 * so as not to expect the same instructions in every run.
 */
static noinline void csd_lock_wait(struct call_single_data *csd)
{
	while (READ_ONCE(csd->flags) & CSD_FLAG_LOCK) {
		if (irqs_disabled())
			flush_smp_call_function_queue();
		cpu_relax();
	}
}

static void csd_unlock(struct call_single_data *csd)
{
	smp_mb();	/* the call's effects before the flag's release */
	WRITE_ONCE(csd->flags, 0);
}

static void call_queue_add(int cpu, struct call_single_data *csd)
{
	struct call_queue *q = &per_cpu(call_single_queue, cpu);
	unsigned long flags = local_irq_save();

	arch_spin_lock(&q->lock);
	csd->next = NULL;
	if (q->tail)
		q->tail->next = csd;
	else
		q->head = csd;
	q->tail = csd;
	arch_spin_unlock(&q->lock);
	local_irq_restore(flags);
}

/* Queue func(info) for cpu and send the IPI; this CPU's csd for it. */
static void send_call(int cpu, smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data *csd = this_cpu_ptr(&cfd_data[cpu]);

	csd_lock_wait(csd);
	csd->func = func;
	csd->info = info;
	csd->flags = CSD_FLAG_LOCK | (wait ? CSD_FLAG_WAIT : 0);
	call_queue_add(cpu, csd);
	apic_icr_write(APIC_DM_FIXED | CALL_FUNCTION_VECTOR, cpu_apic_id[cpu]);
}

/* Queue func(info) on every online CPU in mask but this one. */
static void call_many_send(unsigned long mask, smp_call_func_t func,
			   void *info, bool wait)
{
	int me = smp_processor_id(), cpu;

	for_each_online_cpu(cpu)
		if (cpu != me && (mask >> cpu) & 1)
			send_call(cpu, func, info, wait);
}

/* Until each of them has run (or, without wait, taken) its call. */
static void call_many_wait(unsigned long mask)
{
	int me = smp_processor_id(), cpu;

	for_each_online_cpu(cpu)
		if (cpu != me && (mask >> cpu) & 1)
			csd_lock_wait(this_cpu_ptr(&cfd_data[cpu]));
}

/*
 * The csds used are this CPU's: stay on it until done.  With interrupts
 * off (an IPI handler, say) nothing can move us anyway, and the count of
 * the thread we interrupted is left alone.
 */
static bool pin_this_cpu(void)
{
	if (irqs_disabled())
		return false;
	preempt_disable();
	return true;
}

static void unpin_this_cpu(bool pinned)
{
	if (pinned)
		preempt_enable();
}

/*
 * Run func(info) on every online CPU in mask except this one.  With
 * wait, return only when every one of them has returned from func.
 * Must not be called with interrupts off and wait: two CPUs doing that
 * to each other would each spin forever on a call the other can never
 * take (Linux warns the same).
 */
void smp_call_function_many(unsigned long mask, smp_call_func_t func,
			    void *info, bool wait)
{
	bool pinned = pin_this_cpu();

	if (wait && !pinned)
		printk("smp_call_function_many: waiting with interrupts off on CPU %d\n",
		       smp_processor_id());
	call_many_send(mask, func, info, wait);
	if (wait)
		call_many_wait(mask);
	unpin_this_cpu(pinned);
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	unsigned long flags;

	if (!cpu_online(cpu))
		return -ENXIO;
	if (cpu == smp_processor_id()) {
		flags = local_irq_save();	/* as if the IPI had come */
		func(info);
		local_irq_restore(flags);
		return 0;
	}
	smp_call_function_many(1UL << cpu, func, info, wait);
	return 0;
}

/* Every other online CPU. */
void smp_call_function(smp_call_func_t func, void *info, int wait)
{
	smp_call_function_many(cpu_online_mask, func, info, wait);
}

/*
 * Every online CPU, this one included: the others first, then here
 * (with interrupts off, as in an IPI handler), then wait for the others.
 */
void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	bool pinned = pin_this_cpu();
	unsigned long flags;

	call_many_send(cpu_online_mask, func, info, wait);
	flags = local_irq_save();
	func(info);
	local_irq_restore(flags);
	if (wait)
		call_many_wait(cpu_online_mask);
	unpin_this_cpu(pinned);
}

/*
 * This CPU's incoming calls (Linux's flush_smp_call_function_queue()),
 * from CALL_FUNCTION_VECTOR's handler below or from csd_lock_wait():
 * take the whole queue at once, then run it, so a call that comes in
 * meanwhile - even from a func run here - is taken by the next flush.
 * A csd's func and info are read before it is unlocked, because a
 * sender that does not wait may refill it the moment it is.
 */
static void flush_smp_call_function_queue(void)
{
	struct call_queue *q = this_cpu_ptr(&call_single_queue);
	struct call_single_data *csd, *next;

	if (!READ_ONCE(q->head))
		return;		/* nothing queued: no need for the lock */
	arch_spin_lock(&q->lock);
	csd = q->head;
	q->head = q->tail = NULL;
	arch_spin_unlock(&q->lock);

	for (; csd; csd = next) {
		smp_call_func_t func = csd->func;
		void *info = csd->info;
		bool wait = csd->flags & CSD_FLAG_WAIT;

		next = csd->next;
		if (!wait)
			csd_unlock(csd);
		func(info);
		if (wait)
			csd_unlock(csd);
	}
}

/* CALL_FUNCTION_VECTOR: one interrupt may carry several merged IPIs' calls. */
void generic_smp_call_function_interrupt(void)
{
	this_cpu_inc(irq_call_count);
	flush_smp_call_function_queue();
}

/*
 * RESCHEDULE_VECTOR: the interrupt is the whole message.  Taking it
 * wakes a CPU out of hlt, and the return from it is where a CPU that
 * runs threads looks for a better one to run.
 */
void smp_reschedule_interrupt(void)
{
	this_cpu_inc(irq_resched_count);
}

void smp_send_reschedule(int cpu)
{
	if (cpu_online(cpu) && cpu != smp_processor_id())
		apic_icr_write(APIC_DM_FIXED | RESCHEDULE_VECTOR, cpu_apic_id[cpu]);
}

NOKPROBE_SYMBOL(generic_smp_call_function_interrupt);
NOKPROBE_SYMBOL(flush_smp_call_function_queue);
NOKPROBE_SYMBOL(smp_reschedule_interrupt);
NOKPROBE_SYMBOL(csd_unlock);
