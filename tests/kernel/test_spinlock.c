/*
 * test_spinlock.c - suite "spinlock": ticket spinlocks, atomics and the
 * sleeping mutex, under load from every CPU; and the spinlock debug
 * checks, each made to fire on purpose and read back from the console.
 *
 * The torture cases put one thread on each online CPU (at least two
 * threads), line them up at a start barrier, and let each increment
 * shared counters a fixed number of times.  With the lock, or with a
 * locked instruction, the total must be exact.  With a plain "incl"
 * it must NOT be: losing updates is the proof that the CPUs really run
 * at the same time.  On one CPU an instruction is never split, so that
 * case is skipped there, with the reason, rather than passed.
 */
#include "ktest.h"
#include "spinlock.h"
#include <asm/atomic.h>
#include "mutex.h"
#include "sched.h"
#include "smp.h"
#include "timer.h"
#include <asm/processor.h>
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include <asm/irqflags.h>

#define SPIN_LIMIT	20000000UL	/* bounded waits: several seconds of TCG */
/*
 * Increments per thread under the lock.  A ticket lock hands over in
 * order, so each hand-over waits for the next ticket's vCPU to be running
 * on the host: with more vCPUs than free host cores that can be a host
 * time slice each.  A few tens of thousands stay quick even then.
 */
#define TORTURE_LOOPS	20000
/*
 * Plain increments per thread, per round, and rounds: enough that the
 * vCPUs' host threads overlap even on a busy host, which may run one
 * while the other waits for a core.
 */
#define RACE_LOOPS	4000000
#define RACE_ROUNDS	10
#define MAX_THREADS	NR_CPUS

/* ---- torture: a thread on every CPU, lined up at a start barrier ------------ */

enum torture_mode { TORTURE_SPINLOCK, TORTURE_ATOMIC, TORTURE_PLAIN, TORTURE_MUTEX };

struct torture {
	enum torture_mode mode;
	unsigned long loops;
	int nthreads;
	atomic_t ready;			/* threads at the start line */
	spinlock_t lock;
	struct mutex mutex;
	volatile unsigned long count;	/* what the lock protects */
	atomic_t atomic_count;
	unsigned long cpus_seen;	/* bit n: a thread ran on CPU n */
};

static void torture_inc(struct torture *tt)
{
	unsigned long v;

	switch (tt->mode) {
	case TORTURE_SPINLOCK:
		spin_lock(&tt->lock);
		v = tt->count;		/* read and write apart: wide open without the lock */
		tt->count = v + 1;
		spin_unlock(&tt->lock);
		break;
	case TORTURE_MUTEX:
		mutex_lock(&tt->mutex);
		v = tt->count;
		yield();		/* a mutex holder may sleep: others queue up meanwhile */
		tt->count = v + 1;
		mutex_unlock(&tt->mutex);
		break;
	case TORTURE_ATOMIC:
		atomic_inc(&tt->atomic_count);
		break;
	case TORTURE_PLAIN:
		/* One instruction, no LOCK prefix: atomic.h's lost update. */
		__asm__ __volatile__("incl %0" : "+m" (tt->count));
		break;
	}
}

static int torture_thread(void *arg)
{
	struct torture *tt = arg;
	unsigned long i;

	atomic_inc(&tt->ready);
	for (i = 0; i < SPIN_LIMIT && atomic_read(&tt->ready) < tt->nthreads; i++)
		cpu_relax();
	if (i == SPIN_LIMIT)
		return -EIO;
	for (i = 0; i < tt->loops; i++)
		torture_inc(tt);
	__asm__ __volatile__("lock orl %1, %0"
			     : "+m" (tt->cpus_seen) : "r" (1UL << smp_processor_id()));
	return 0;
}

/* Thread i on CPU i modulo the online CPUs; 0 or the first error. */
static int run_torture(struct torture *tt, enum torture_mode mode, unsigned long loops)
{
	struct task_struct *th[MAX_THREADS];
	int ncpus = num_online_cpus(), cpu = 0, ret = 0;

	memset(tt, 0, sizeof(*tt));
	spin_lock_init(&tt->lock);
	mutex_init(&tt->mutex);
	tt->mode = mode;
	tt->loops = loops;
	tt->nthreads = ncpus < 2 ? 2 : ncpus;
	for (int i = 0; i < tt->nthreads; i++) {
		while (!cpu_online(cpu % NR_CPUS))
			cpu++;
		th[i] = kthread_create_on_cpu(torture_thread, tt, cpu % NR_CPUS, "torture");
		cpu++;
	}
	for (int i = 0; i < tt->nthreads; i++) {
		int r = th[i] ? kthread_join(th[i]) : -ENOMEM;

		if (r && !ret)
			ret = r;
	}
	return ret;
}

static void spinlock_total_is_exact(struct ktest *t)
{
	static struct torture tt;

	KTEST_ASSERT_EQ(t, run_torture(&tt, TORTURE_SPINLOCK, TORTURE_LOOPS), 0);
	KTEST_EXPECT_EQ(t, tt.count, (unsigned long)tt.nthreads * TORTURE_LOOPS);
	KTEST_EXPECT_EQ(t, tt.cpus_seen, READ_ONCE(cpu_online_mask));
	KTEST_EXPECT_FALSE(t, spin_is_locked(&tt.lock));
	ktest_info(t, "%d threads on %u CPU(s): %lu increments under the lock",
		   tt.nthreads, num_online_cpus(), tt.count);
}

static void atomic_total_is_exact(struct ktest *t)
{
	static struct torture tt;

	KTEST_ASSERT_EQ(t, run_torture(&tt, TORTURE_ATOMIC, TORTURE_LOOPS), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&tt.atomic_count), tt.nthreads * TORTURE_LOOPS);
	KTEST_EXPECT_EQ(t, tt.cpus_seen, READ_ONCE(cpu_online_mask));
}

/* The same increments with no lock: some must get lost. */
static void no_lock_loses_updates(struct ktest *t)
{
	static struct torture tt;
	unsigned long want = 0;
	int round;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU: no other CPU can come between the read and the write of an incl");
		return;
	}
	/* Bochs's runner says so: its CPUs take turns, an instruction each at least. */
	if (cmdline_has("cpus_interleaved")) {
		ktest_skip(t, "cpus_interleaved: the emulator runs its CPUs in turns in one host "
			   "thread, so no other CPU comes between the read and the write of an incl");
		return;
	}
	unsigned long j0 = jiffies;

	for (round = 0; round < RACE_ROUNDS; round++) {
		KTEST_ASSERT_EQ(t, run_torture(&tt, TORTURE_PLAIN, RACE_LOOPS), 0);
		want = (unsigned long)tt.nthreads * RACE_LOOPS;
		if (tt.count < want)
			break;
	}
	KTEST_EXPECT_TRUE(t, tt.count < want);
	ktest_info(t, "%u CPUs x %d plain incl: %lu of %lu counted, %lu lost (round %d, %lu ticks)",
		   num_online_cpus(), RACE_LOOPS, tt.count, want, want - tt.count, round + 1,
		   jiffies - j0);
}

/* ---- the basics on this CPU ------------------------------------------------- */

static void lock_unlock_trylock(struct ktest *t)
{
	DEFINE_SPINLOCK(l);
	int pc = preempt_count(), held = current->spinlocks_held;

	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
	spin_lock(&l);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&l));
	KTEST_EXPECT_EQ(t, l.owner_cpu, smp_processor_id());
	KTEST_EXPECT_EQ(t, preempt_count(), pc + 1);	/* no switch while held */
	KTEST_EXPECT_EQ(t, current->spinlocks_held, held + 1);
	spin_unlock(&l);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&l));
	KTEST_EXPECT_EQ(t, l.owner_cpu, SPIN_NO_OWNER);
	KTEST_EXPECT_EQ(t, preempt_count(), pc);
	KTEST_EXPECT_EQ(t, current->spinlocks_held, held);

	KTEST_EXPECT_EQ(t, spin_trylock(&l), 1);
	KTEST_EXPECT_EQ(t, l.next, 2);		/* two tickets handed out */
	spin_unlock(&l);
	KTEST_EXPECT_EQ(t, l.owner, 2);
	/* Taken elsewhere (tickets say so): trylock fails and changes nothing. */
	l.next = 3;
	l.owner_cpu = NR_CPUS;
	KTEST_EXPECT_EQ(t, spin_trylock(&l), 0);
	KTEST_EXPECT_EQ(t, l.next, 3);
	KTEST_EXPECT_EQ(t, preempt_count(), pc);
}

static void irqsave_restores_flags(struct ktest *t)
{
	DEFINE_SPINLOCK(l);
	unsigned long flags;

	KTEST_ASSERT_FALSE(t, irqs_disabled());
	spin_lock_irqsave(&l, flags);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	spin_unlock_irqrestore(&l, flags);
	KTEST_EXPECT_FALSE(t, irqs_disabled());

	local_irq_disable();
	spin_lock_irqsave(&l, flags);
	spin_unlock_irqrestore(&l, flags);
	KTEST_EXPECT_TRUE(t, irqs_disabled());	/* off before, off after */
	local_irq_enable();
}

/* ---- the debug checks ------------------------------------------------------- */

/*
 * The report for lock `name`: the BUG line, the lock line and a call
 * trace, found in what the console printed since ktest_capture_start().
 */
static void expect_report(struct ktest *t, const char *what, const char *name)
{
	const char *out = ktest_captured();
	const char *bug = strstr(out, what);
	char lock_line[64];

	snprintf(lock_line, sizeof(lock_line), " lock: %s (", name);
	KTEST_ASSERT_TRUE(t, bug != NULL);
	KTEST_EXPECT_TRUE(t, strstr(bug, lock_line) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(bug, "Call Trace:") != NULL);
}

static void recursion_is_reported(struct ktest *t)
{
	DEFINE_SPINLOCK(rec_lock);
	int pc = preempt_count();
	int before = atomic_read(&spin_bugs_reported);

	ktest_capture_start();
	spin_lock(&rec_lock);
	spin_lock(&rec_lock);		/* would spin forever: reported instead */
	KTEST_EXPECT_EQ(t, rec_lock.recursion, 1);
	spin_unlock(&rec_lock);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&rec_lock));	/* the outer take still holds */
	spin_unlock(&rec_lock);
	ktest_capture_stop();

	expect_report(t, "BUG: spinlock recursion on CPU#", "rec_lock");
	KTEST_EXPECT_EQ(t, atomic_read(&spin_bugs_reported), before + 1);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&rec_lock));
	KTEST_EXPECT_EQ(t, preempt_count(), pc);
}

static void unlock_of_unlocked_is_reported(struct ktest *t)
{
	DEFINE_SPINLOCK(free_lock);
	int pc = preempt_count();

	ktest_capture_start();
	spin_unlock(&free_lock);
	ktest_capture_stop();

	expect_report(t, "BUG: spinlock already unlocked on CPU#", "free_lock");
	/* Ignored: the tickets still agree, so the lock still works. */
	KTEST_EXPECT_EQ(t, free_lock.owner, 0);
	KTEST_EXPECT_EQ(t, free_lock.next, 0);
	KTEST_EXPECT_EQ(t, preempt_count(), pc);
	spin_lock(&free_lock);
	spin_unlock(&free_lock);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&free_lock));
}

/* ---- what only a second CPU can do -------------------------------------------- */

static DEFINE_SPINLOCK(remote_lock);
static volatile int remote_stage;	/* 1: taken; 2: may go */

/* Take remote_lock on our CPU, let the test know, wait to be told to go. */
static int hold_remote_lock(void *arg)
{
	bool (*keep_holding)(void) = arg;
	unsigned long i;

	spin_lock(&remote_lock);
	WRITE_ONCE(remote_stage, 1);
	for (i = 0; i < SPIN_LIMIT && keep_holding(); i++)
		cpu_relax();
	if (spin_is_locked(&remote_lock) && remote_lock.owner_cpu == smp_processor_id())
		spin_unlock(&remote_lock);
	return i == SPIN_LIMIT ? -EIO : 0;
}

/* The other online CPU after ours; -1 on one CPU. */
static int other_cpu(void)
{
	int me = smp_processor_id();

	for (int i = 1; i < NR_CPUS; i++)
		if (cpu_online((me + i) % NR_CPUS))
			return (me + i) % NR_CPUS;
	return -1;
}

static struct task_struct *start_holder(int cpu, bool (*keep_holding)(void))
{
	struct task_struct *th;

	WRITE_ONCE(remote_stage, 0);
	th = kthread_create_on_cpu(hold_remote_lock, keep_holding, cpu, "holder");
	for (unsigned long i = 0; th && i < SPIN_LIMIT && !READ_ONCE(remote_stage); i++)
		cpu_relax();
	return th;
}

static bool until_unlocked_elsewhere(void)
{
	return READ_ONCE(remote_lock.owner_cpu) != SPIN_NO_OWNER;
}

static void unlock_by_wrong_cpu_is_reported(struct ktest *t)
{
	int cpu = other_cpu();
	struct task_struct *th;
	int pc = preempt_count();

	if (cpu < 0) {
		ktest_skip(t, "one CPU: every unlock comes from the CPU that locked");
		return;
	}
	th = start_holder(cpu, until_unlocked_elsewhere);
	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_EQ(t, READ_ONCE(remote_stage), 1);
	ktest_capture_start();
	spin_unlock(&remote_lock);	/* CPU `cpu` holds it */
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);

	expect_report(t, "BUG: spinlock wrong CPU on CPU#", "remote_lock");
	KTEST_EXPECT_FALSE(t, spin_is_locked(&remote_lock));	/* released anyway */
	KTEST_EXPECT_EQ(t, preempt_count(), pc);		/* our count untouched */
}

static int lockups_before;

static bool until_lockup_reported(void)
{
	return atomic_read(&spin_bugs_reported) == lockups_before;
}

static void lockup_is_reported(struct ktest *t)
{
	int cpu = other_cpu();
	struct task_struct *th;
	unsigned long j0;
	char owner[32];

	if (cpu < 0) {
		ktest_skip(t, "one CPU: a lock held by a thread never has a waiter on another CPU");
		return;
	}
	lockups_before = atomic_read(&spin_bugs_reported);
	th = start_holder(cpu, until_lockup_reported);
	KTEST_ASSERT_TRUE(t, th != NULL);
	ktest_capture_start();
	j0 = jiffies;
	spin_lock(&remote_lock);	/* spins until the holder sees the report */
	spin_unlock(&remote_lock);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);

	expect_report(t, "BUG: spinlock lockup suspected on CPU#", "remote_lock");
	snprintf(owner, sizeof(owner), ".owner_cpu: %d,", cpu);	/* who holds it */
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), owner) != NULL);
	KTEST_EXPECT_EQ(t, atomic_read(&spin_bugs_reported), lockups_before + 1);
	ktest_info(t, "%lu spins took %lu ticks before the report", SPIN_DUMP_LOOPS,
		   jiffies - j0);
}

/* ---- sleeping with a lock held ---------------------------------------------- */

/*
 * In a thread bound to one CPU: a thread that sleeps may wake on
 * another CPU, and then its unlock would come from the wrong one (a
 * second bug, reported as such).  Returns what the counts came back to.
 */
static int sleep_with_lock(void *arg)
{
	DEFINE_SPINLOCK(sleepy_lock);
	unsigned long *slept = arg, j0 = jiffies;

	spin_lock(&sleepy_lock);
	msleep(20);			/* a bug: reported, then it sleeps anyway */
	spin_unlock(&sleepy_lock);
	*slept = jiffies - j0;
	return preempt_count() + current->spinlocks_held;
}

static void sleeping_with_lock_is_reported(struct ktest *t)
{
	unsigned long slept = 0;
	struct task_struct *th;

	ktest_capture_start();
	th = kthread_create_on_cpu(sleep_with_lock, &slept, smp_processor_id(), "sleepy");
	KTEST_EXPECT_EQ(t, th ? kthread_join(th) : -ENOMEM, 0);	/* counts back to 0 */
	ktest_capture_stop();

	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(),
		"BUG: sleeping function msleep() called with 1 spinlock(s) held") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "Call Trace:") != NULL);
	KTEST_EXPECT_TRUE(t, slept >= 20 * HZ / 1000);
}

/* ---- the mutex ------------------------------------------------------------------ */

static void mutex_trylock_and_owner(struct ktest *t)
{
	DEFINE_MUTEX(m);

	KTEST_EXPECT_FALSE(t, mutex_is_locked(&m));
	KTEST_EXPECT_EQ(t, mutex_trylock(&m), 1);
	KTEST_EXPECT_TRUE(t, m.owner == current);
	KTEST_EXPECT_EQ(t, mutex_trylock(&m), 0);
	mutex_unlock(&m);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&m));
	mutex_lock(&m);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);	/* a mutex holder stays preemptible */
	mutex_unlock(&m);
}

/* Holders yield inside: the total is exact only if the mutex excludes. */
static void mutex_total_is_exact(struct ktest *t)
{
	static struct torture tt;

	KTEST_ASSERT_EQ(t, run_torture(&tt, TORTURE_MUTEX, TORTURE_LOOPS / 100), 0);
	KTEST_EXPECT_EQ(t, tt.count, (unsigned long)tt.nthreads * (TORTURE_LOOPS / 100));
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&tt.mutex));
}

static DEFINE_MUTEX(wait_mutex);
static volatile int waiter_got_it;

static int take_wait_mutex(void *arg)
{
	mutex_lock(&wait_mutex);
	WRITE_ONCE(waiter_got_it, 1);
	mutex_unlock(&wait_mutex);
	return 0;
}

static void mutex_waiter_sleeps(struct ktest *t)
{
	struct task_struct *th;
	unsigned long i;

	waiter_got_it = 0;
	mutex_lock(&wait_mutex);
	th = kthread_create(take_wait_mutex, NULL, "waiter");
	KTEST_ASSERT_TRUE(t, th != NULL);
	/* It queues and blocks: asleep, not spinning. */
	for (i = 0; i < SPIN_LIMIT && READ_ONCE(th->state) != TASK_BLOCKED; i++)
		yield();
	KTEST_EXPECT_EQ(t, th->state, TASK_BLOCKED);
	KTEST_EXPECT_EQ(t, waiter_got_it, 0);
	mutex_unlock(&wait_mutex);	/* handed straight to the waiter */
	KTEST_EXPECT_TRUE(t, wait_mutex.owner == th || waiter_got_it);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
	KTEST_EXPECT_EQ(t, waiter_got_it, 1);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&wait_mutex));
}

static void mutex_unlock_by_non_owner_is_reported(struct ktest *t)
{
	DEFINE_MUTEX(not_mine);

	ktest_capture_start();
	mutex_unlock(&not_mine);
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(),
		"BUG: mutex not_mine: mutex_unlock() by a thread that does not own it") != NULL);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&not_mine));
}

static struct ktest_case spinlock_cases[] = {
	KTEST_CASE(lock_unlock_trylock),
	KTEST_CASE(irqsave_restores_flags),
	KTEST_CASE(spinlock_total_is_exact),
	KTEST_CASE(atomic_total_is_exact),
	KTEST_CASE(no_lock_loses_updates),
	KTEST_CASE(recursion_is_reported),
	KTEST_CASE(unlock_of_unlocked_is_reported),
	KTEST_CASE(unlock_by_wrong_cpu_is_reported),
	KTEST_CASE(lockup_is_reported),
	KTEST_CASE(sleeping_with_lock_is_reported),
	KTEST_CASE(mutex_trylock_and_owner),
	KTEST_CASE(mutex_total_is_exact),
	KTEST_CASE(mutex_waiter_sleeps),
	KTEST_CASE(mutex_unlock_by_non_owner_is_reported),
	KTEST_END
};

static struct ktest_suite spinlock_suite = {
	.name = "spinlock",
	.cases = spinlock_cases,
};
KTEST_SUITE(spinlock_suite);
