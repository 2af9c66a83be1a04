/*
 * spinlock_debug.c - the reports of the spinlock checks in
 * include/spinlock.h, after Linux's kernel/locking/spinlock_debug.c.
 *
 * A locking bug usually shows as a machine that stops answering: a CPU
 * spins on a lock that will never be released, or two CPUs corrupt what
 * the lock was meant to protect.  These reports name the lock, the CPU
 * and thread that found the problem and the CPU that holds the lock,
 * with a backtrace, and the kernel goes on.
 */
#include "kernel.h"
#include "spinlock.h"
#include "stacktrace.h"
#include "printk.h"
#include "nokprobe.h"

/* The report of a report (printk's own lock misused) is not printed. */
static DEFINE_PER_CPU(int, spin_bug_depth);

atomic_t spin_bugs_reported = ATOMIC_INIT(0);

static void spin_report(spinlock_t *lock, const char *msg)
{
	struct task_struct *me = current;

	printk("BUG: spinlock %s on CPU#%d, %s/%d\n", msg, smp_processor_id(),
	       task_name(me), task_pid(me));
	printk(" lock: %s (%p), .owner_cpu: %d, tickets: owner %u next %u\n",
	       lock->name, lock, READ_ONCE(lock->owner_cpu),
	       (unsigned int)READ_ONCE(lock->owner), (unsigned int)READ_ONCE(lock->next));
	dump_stack();
	atomic_inc(&spin_bugs_reported);
}

/* Recursion or a bad unlock. */
void spin_bug(spinlock_t *lock, const char *msg)
{
	if (this_cpu_read(spin_bug_depth))
		return;
	this_cpu_inc(spin_bug_depth);
	spin_report(lock, msg);
	this_cpu_dec(spin_bug_depth);
}

/*
 * A waiter spun SPIN_DUMP_LOOPS times.  The report goes through printk,
 * so a lockup on printk's own lock cannot be reported: it would wait on
 * the very lock it reports.
 */
void spin_dump_lockup(spinlock_t *lock)
{
	if (lock == &printk_lock || this_cpu_read(spin_bug_depth))
		return;
	this_cpu_inc(spin_bug_depth);
	spin_report(lock, "lockup suspected");
	this_cpu_dec(spin_bug_depth);
}
NOKPROBE_SYMBOL(spin_bug);
NOKPROBE_SYMBOL(spin_dump_lockup);
NOKPROBE_SYMBOL(spin_report);
