/*
 * test_sched.c - suite "sched": the PIT tick, kernel threads, preemption,
 * preempt_disable(), msleep(), recovery from a thread stack overflow
 * through the #DF task gate, and the scheduler on every CPU: threads
 * spread over the CPUs, a bound thread stays on its CPU, every CPU
 * preempts, and sleeping and waking work from one CPU to another.
 *
 * Every wait is a bounded loop: a broken timer or scheduler makes a case
 * fail instead of hanging the run.
 */
#include "ktest.h"
#include "sched.h"
#include "shell.h"	/* crash_stack_hog, the crash demo's thread */
#include "timer.h"
#include "mm.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include "smp.h"
#include "spinlock.h"

/*
 * Busy-wait bound.  QEMU's TCG runs this loop ~30,000 times per 10 ms
 * tick, so 20 million is several seconds: hundreds of ticks, far more
 * than any case waits, yet a dead timer fails the run quickly.
 */
#define SPIN_LIMIT 20000000UL

/* Spin until jiffies reaches target; false if it never does. */
static bool wait_jiffies(unsigned long target)
{
	for (unsigned long i = 0; i < SPIN_LIMIT; i++) {
		if ((long)(jiffies - target) >= 0)
			return true;
		cpu_relax();
	}
	return false;
}

static bool page_present(unsigned long addr)
{
	unsigned long *pte = lookup_pte(addr);

	return pte && (*pte & PTE_PRESENT);
}

/* ---- the tick ----------------------------------------------------------- */

static void jiffies_advance(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, !irqs_disabled());
	unsigned long j0 = jiffies;

	KTEST_EXPECT_TRUE(t, wait_jiffies(j0 + 5));
	KTEST_EXPECT_TRUE(t, jiffies - j0 >= 5);
}

static void boot_thread_is_task0(struct ktest *t)
{
	unsigned long here = (unsigned long)&here;

	KTEST_EXPECT_EQ(t, task_pid(current), 0);
	KTEST_EXPECT_STREQ(t, task_name(current), "swapper");
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	/* Our own local lives on the stack current_stack_top() describes. */
	KTEST_EXPECT_TRUE(t, here < current_stack_top());
	KTEST_EXPECT_TRUE(t, here >= current->stack_base);
}

/* ---- create / exit / join ---------------------------------------------- */

static int return_42(void *arg)
{
	return 42;
}

static noinline void exit_from_deep_inside(int code)
{
	kthread_exit(code);
}

static int exit_minus_7(void *arg)
{
	exit_from_deep_inside(-7);
	return 0;   /* not reached */
}

static void join_returns_exit_code(struct ktest *t)
{
	struct task_struct *a = kthread_create(return_42, NULL, "ret42");
	struct task_struct *b = kthread_create(exit_minus_7, NULL, "exit-7");

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_EXPECT_STREQ(t, task_name(a), "ret42");
	KTEST_EXPECT_TRUE(t, task_pid(a) > 0);
	KTEST_EXPECT_NE(t, task_pid(a), task_pid(b));
	/* The lowest page of a thread stack is its not-present guard. */
	KTEST_EXPECT_FALSE(t, page_present(a->stack_base));
	KTEST_EXPECT_TRUE(t, page_present(a->stack_base + PAGE_SIZE));

	KTEST_EXPECT_EQ(t, kthread_join(a), 42);
	KTEST_EXPECT_EQ(t, kthread_join(b), -7);
	KTEST_EXPECT_EQ(t, kthread_join(NULL), -EINVAL);
}

static volatile bool yield_flag;

static int set_flag(void *arg)
{
	yield_flag = true;
	return 0;
}

static void yield_runs_other_thread(struct ktest *t)
{
	yield_flag = false;
	struct task_struct *th = kthread_create(set_flag, NULL, "setflag");

	KTEST_ASSERT_TRUE(t, th != NULL);
	yield();   /* the new thread is next in the ring */
	/* With more CPUs, another one may have picked it first: let it finish. */
	for (unsigned long i = 0; num_online_cpus() > 1 && !yield_flag && i < SPIN_LIMIT; i++)
		cpu_relax();
	KTEST_EXPECT_TRUE(t, yield_flag);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
}

/* ---- preemption ----------------------------------------------------------- */

#define ROUNDS  16
#define LOG_LEN (2 * ROUNDS)

static int run_log[LOG_LEN];
static int run_log_len;
static DEFINE_SPINLOCK(run_log_lock);	/* on SMP both threads log at once */

/* Append our id once per tick, never yielding: only preemption can switch. */
static int log_my_ticks(void *arg)
{
	int id = (int)(unsigned long)arg;

	for (int round = 0; round < ROUNDS; round++) {
		spin_lock(&run_log_lock);
		if (run_log_len < LOG_LEN)
			run_log[run_log_len++] = id;
		spin_unlock(&run_log_lock);
		if (!wait_jiffies(jiffies + 1))
			return -EIO;
	}
	return 0;
}

static int last_index_of(int id)
{
	int last = -1;

	for (int i = 0; i < run_log_len; i++)
		if (run_log[i] == id)
			last = i;
	return last;
}

static void threads_interleave(struct ktest *t)
{
	run_log_len = 0;
	struct task_struct *a = kthread_create(log_my_ticks, (void *)1, "log1");
	struct task_struct *b = kthread_create(log_my_ticks, (void *)2, "log2");

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_EXPECT_EQ(t, kthread_join(a), 0);
	KTEST_EXPECT_EQ(t, kthread_join(b), 0);
	KTEST_EXPECT_EQ(t, run_log_len, LOG_LEN);

	/* Before the first thread finished, the CPU changed hands twice:
	 * 1 -> 2 -> 1 (or 2 -> 1 -> 2).  Without preemption: 0 changes. */
	int first_done = last_index_of(1) < last_index_of(2) ?
			 last_index_of(1) : last_index_of(2);
	int changes = 0;

	for (int i = 1; i <= first_done; i++)
		if (run_log[i] != run_log[i - 1])
			changes++;
	KTEST_EXPECT_TRUE(t, changes >= 2);
	if (changes < 2)
		ktest_info(t, "only %d changes before index %d", changes, first_done);
}

static volatile unsigned long spin_count;
static volatile bool spin_stop;

static int count_until_stopped(void *arg)
{
	for (unsigned long i = 0; i < SPIN_LIMIT && !spin_stop; i++)
		spin_count++;
	return 0;
}

/*
 * We are bound to our CPU for the case as well as the counter: when
 * preempt_enable() gives the CPU away, another, idle CPU could otherwise
 * take us at once and read the count before the counter ran at all (a
 * host that deschedules vCPUs makes that likely).  Bound, we come back
 * only after the counter's turn.
 */
static void preempt_disable_holds_cpu(struct ktest *t)
{
	unsigned long allowed = current->cpus_allowed;

	spin_count = 0;
	spin_stop = false;
	preempt_disable();	/* from here on we stay on this CPU: the counter joins us */
	set_cpus_allowed(current, 1UL << smp_processor_id());
	struct task_struct *th = kthread_create_on_cpu(count_until_stopped, NULL,
						       smp_processor_id(), "counter");

	if (!th) {
		preempt_enable();
		set_cpus_allowed(current, allowed);
	}
	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_EQ(t, preempt_count(), 1);
	unsigned long before = spin_count;
	bool ticked = wait_jiffies(jiffies + 5);   /* > 2 time slices */
	unsigned long after = spin_count;
	preempt_enable();
	/* The preemption owed since the slice ran out happened just now. */
	unsigned long after_enable = spin_count;

	spin_stop = true;
	set_cpus_allowed(current, allowed);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
	KTEST_EXPECT_TRUE(t, ticked);
	KTEST_EXPECT_EQ(t, after, before);
	KTEST_EXPECT_TRUE(t, after_enable > after);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

/* ---- sleeping ---------------------------------------------------------------- */

static int sleep_30ms(void *arg)
{
	unsigned long j0 = jiffies;

	msleep(30);
	return (int)(jiffies - j0);
}

static void msleep_sleeps_long_enough(struct ktest *t)
{
	unsigned long j0 = jiffies;

	msleep(50);
	KTEST_EXPECT_TRUE(t, jiffies - j0 >= 50 * HZ / 1000);

	struct task_struct *th = kthread_create(sleep_30ms, NULL, "sleeper");
	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_TRUE(t, kthread_join(th) >= 30 * HZ / 1000);
}

/* ---- stack overflow -> #DF task -> thread killed, kernel lives ---------------- */

/* The #DF task's report, read back from the console, exactly once. */
static void expect_one_overflow_report(struct ktest *t, const char *name,
				       unsigned long guard)
{
	char want[96];
	const char *hit;

	snprintf(want, sizeof(want), "stack overflow in thread '%s' (guard page %#lx)\n",
		 name, guard);
	hit = strstr(ktest_captured(), want);
	KTEST_ASSERT_TRUE(t, hit != NULL);
	KTEST_EXPECT_TRUE(t, strstr(hit + 1, want) == NULL);
}

static void overflow_once(struct ktest *t, const char *name)
{
	struct task_struct *th;
	long ret;

	ktest_capture_start();	/* before: another CPU may run it at once */
	th = kthread_create(crash_stack_hog, NULL, name);
	if (!th)
		ktest_capture_stop();
	KTEST_ASSERT_TRUE(t, th != NULL);
	unsigned long guard = th->stack_base;

	ret = kthread_join(th);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, ret, -EFAULT);
	expect_one_overflow_report(t, name, guard);
	/* join made the guard page an ordinary page again before freeing it */
	KTEST_EXPECT_TRUE(t, page_present(guard));
}

static void stack_overflow_kills_only_the_thread(struct ktest *t)
{
	/* Twice: the #DF task must be re-entrant after its iret. */
	overflow_once(t, "deep-1");
	overflow_once(t, "deep-2");

	/* The kernel is fine: the tick still runs, threads still work. */
	KTEST_EXPECT_TRUE(t, wait_jiffies(jiffies + 2));
	struct task_struct *th = kthread_create(return_42, NULL, "after");
	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_EQ(t, kthread_join(th), 42);
}

/* ---- nothing leaks ----------------------------------------------------------- */

#define MANY 8

static void join_frees_everything(struct ktest *t)
{
	struct heap_stats h0, h1;
	struct task_struct *th[MANY];
	unsigned long pages0 = pages_free();

	heap_get_stats(&h0);
	for (int i = 0; i < MANY; i++)
		th[i] = kthread_create(return_42, NULL, "many");
	KTEST_EXPECT_TRUE(t, pages_free() < pages0);
	for (int i = 0; i < MANY; i++)
		KTEST_EXPECT_EQ(t, th[i] ? kthread_join(th[i]) : -ENOMEM, 42);

	/* the overflowed threads are gone too */
	overflow_once(t, "deep-3");

	heap_get_stats(&h1);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	KTEST_EXPECT_EQ(t, h1.live_bytes, h0.live_bytes);
}

/* ---- every CPU -------------------------------------------------------------- */

#define BUSY_TICKS 6	/* long enough for three 2-tick slices */
#define SPREAD_TICKS 500	/* 5 s: only a CPU that never takes a thread runs out */

/*
 * A thread bound to one CPU spins for BUSY_TICKS, never yielding, and
 * notes every CPU it was seen on.
 */
struct busy {
	unsigned long cpus_seen;
	unsigned long samples;
	int bound_to;
	int wrong_cpu;		/* samples taken off bound_to */
};

static int busy_noting_cpus(void *arg)
{
	struct busy *b = arg;
	unsigned long end = jiffies + BUSY_TICKS;

	for (unsigned long i = 0; i < SPIN_LIMIT && time_before(jiffies, end); i++) {
		int cpu = smp_processor_id();

		b->cpus_seen |= 1UL << cpu;
		b->samples++;
		if (cpu != b->bound_to)
			b->wrong_cpu++;
	}
	return time_before(jiffies, end) ? -EIO : 0;
}

/*
 * Spin, never yielding, until every online CPU has run one of the
 * spreading threads, or SPREAD_TICKS have passed.  No fixed time: a
 * host with fewer cores than vCPUs may keep a vCPU descheduled for
 * longer than a few ticks, and only that a CPU never runs any of them
 * is a failure.
 */
static int spin_until_every_cpu_seen(void *arg)
{
	unsigned long *seen = arg;
	unsigned long all = READ_ONCE(cpu_online_mask), end = jiffies + SPREAD_TICKS;

	while ((READ_ONCE(*seen) & all) != all && time_before(jiffies, end))
		__atomic_fetch_or(seen, 1UL << smp_processor_id(), __ATOMIC_RELAXED);
	return 0;
}

/* Twice as many free threads as CPUs: every CPU runs some of them. */
static void threads_spread_over_cpus(struct ktest *t)
{
	static unsigned long seen;
	struct task_struct *th[2 * NR_CPUS];
	int n = 2 * num_online_cpus();

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU: nowhere to spread to");
		return;
	}
	seen = 0;
	for (int i = 0; i < n; i++)
		th[i] = kthread_create(spin_until_every_cpu_seen, &seen, "spread");
	for (int i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, th[i] ? kthread_join(th[i]) : -ENOMEM, 0);
	KTEST_EXPECT_EQ(t, seen, READ_ONCE(cpu_online_mask));
	ktest_info(t, "%d threads on %u CPUs: CPUs seen %#lx", n, num_online_cpus(), seen);
}

/* A thread bound to CPU k, preempted again and again, is only ever there. */
static void bound_thread_stays_on_its_cpu(struct ktest *t)
{
	static struct busy b[NR_CPUS];
	struct task_struct *th[NR_CPUS] = { NULL };
	int cpu;

	for_each_online_cpu(cpu) {
		b[cpu] = (struct busy){ .bound_to = cpu };
		th[cpu] = kthread_create_on_cpu(busy_noting_cpus, &b[cpu], cpu, "bound");
		KTEST_EXPECT_TRUE(t, th[cpu] != NULL);
	}
	for_each_online_cpu(cpu) {
		if (!th[cpu])
			continue;
		KTEST_EXPECT_EQ(t, kthread_join(th[cpu]), 0);
		KTEST_EXPECT_EQ(t, b[cpu].cpus_seen, 1UL << cpu);
		KTEST_EXPECT_EQ(t, b[cpu].wrong_cpu, 0);
		KTEST_EXPECT_TRUE(t, b[cpu].samples > 0);
	}
}

static int return_cpu(void *arg)
{
	return smp_processor_id();
}

/* The highest online CPU: another than ours when there are two. */
static int last_online_cpu(void)
{
	int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

/* A thread that sleeps until told to go, then says where it runs. */
static volatile bool go;

static bool go_set(void)
{
	return READ_ONCE(go);
}

static int sleep_until_go(void *arg)
{
	kthread_sleep_until(go_set);
	return smp_processor_id();
}

/*
 * Asleep means off its CPU, not only marked TASK_BLOCKED: the thread
 * sets its state before it tests `go` and calls __schedule(), so in
 * that window a wake-up finds it still running where it was, and it
 * goes on there - a bind made meanwhile takes effect only at its next
 * time slice, too late for the CPU it reports.
 */
static bool asleep(struct task_struct *th)
{
	return READ_ONCE(th->state) == TASK_BLOCKED && !READ_ONCE(th->on_cpu);
}

/* Start one, on `cpu` (-1: anywhere); return it once it is asleep. */
static struct task_struct *start_sleeper(int cpu)
{
	struct task_struct *th;

	go = false;
	th = cpu < 0 ? kthread_create(sleep_until_go, NULL, "sleeper")
		     : kthread_create_on_cpu(sleep_until_go, NULL, cpu, "sleeper");
	for (unsigned long i = 0; th && i < SPIN_LIMIT && !asleep(th); i++)
		yield();
	return th;
}

/* Tell it to go, from wherever we run. */
static void wake_sleeper(struct task_struct *th)
{
	WRITE_ONCE(go, true);
	wake_up_process(th);
}

/* Bad CPUs are refused and change nothing; a bind moves a thread. */
static void bind_checks_its_cpu(struct ktest *t)
{
	int last = last_online_cpu();
	struct task_struct *th;

	KTEST_EXPECT_TRUE(t, kthread_create_on_cpu(return_cpu, NULL, NR_CPUS, "x") == NULL);
	KTEST_EXPECT_TRUE(t, kthread_create_on_cpu(return_cpu, NULL, -1, "x") == NULL);
	if (last + 1 < NR_CPUS)	/* a CPU number QEMU did not give us */
		KTEST_EXPECT_TRUE(t, kthread_create_on_cpu(return_cpu, NULL, last + 1, "x") == NULL);

	th = start_sleeper(-1);
	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_TRUE(t, asleep(th));
	/* Asleep wherever it started: bound now, it wakes up on `last`. */
	KTEST_EXPECT_EQ(t, kthread_bind(th, NR_CPUS), -EINVAL);
	KTEST_EXPECT_EQ(t, kthread_bind(th, last), 0);
	wake_sleeper(th);
	KTEST_EXPECT_EQ(t, kthread_join(th), last);
	KTEST_EXPECT_EQ(t, kthread_bind(current, NR_CPUS), -EINVAL);
}

/* The threads_interleave case on each CPU, two bound threads at a time. */
struct tick_log {
	int entries[LOG_LEN];
	int len;
	spinlock_t lock;
};

struct tick_logger {
	struct tick_log *log;
	int id;
};

static int log_ticks_on(void *arg)
{
	struct tick_logger *lg = arg;

	for (int round = 0; round < ROUNDS; round++) {
		spin_lock(&lg->log->lock);
		if (lg->log->len < LOG_LEN)
			lg->log->entries[lg->log->len++] = lg->id;
		spin_unlock(&lg->log->lock);
		if (!wait_jiffies(jiffies + 1))
			return -EIO;
	}
	return 0;
}

/* How often the log changes hands before either writer's last entry. */
static int hand_changes(const struct tick_log *log)
{
	int last[2] = { -1, -1 }, changes = 0, end;

	for (int i = 0; i < log->len; i++)
		last[log->entries[i]] = i;
	end = last[0] < last[1] ? last[0] : last[1];
	for (int i = 1; i <= end; i++)
		if (log->entries[i] != log->entries[i - 1])
			changes++;
	return changes;
}

static void preemption_on_every_cpu(struct ktest *t)
{
	static struct tick_log logs[NR_CPUS];
	static struct tick_logger lg[NR_CPUS][2];
	struct task_struct *th[NR_CPUS][2] = { { NULL } };
	int cpu;

	for_each_online_cpu(cpu) {
		logs[cpu].len = 0;
		spin_lock_init(&logs[cpu].lock);
		for (int k = 0; k < 2; k++) {
			lg[cpu][k] = (struct tick_logger){ &logs[cpu], k };
			th[cpu][k] = kthread_create_on_cpu(log_ticks_on, &lg[cpu][k], cpu, "ticklog");
		}
	}
	for_each_online_cpu(cpu) {
		for (int k = 0; k < 2; k++)
			KTEST_EXPECT_EQ(t, th[cpu][k] ? kthread_join(th[cpu][k]) : -ENOMEM, 0);
		KTEST_EXPECT_EQ(t, logs[cpu].len, LOG_LEN);
		/* Neither thread yields: only the CPU's own tick can switch them. */
		if (hand_changes(&logs[cpu]) < 2)
			ktest_fail(t, __FILE__, __LINE__, "CPU %d: %d changes of hands, want >= 2",
				   cpu, hand_changes(&logs[cpu]));
	}
}

/* ---- sleeping and waking from one CPU to another ------------------------------ */

static void wake_up_from_another_cpu(struct ktest *t)
{
	int last = last_online_cpu();	/* the sleeper's CPU: not ours, if we can */
	struct task_struct *th = start_sleeper(last);

	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_TRUE(t, asleep(th));
	wake_sleeper(th);
	KTEST_EXPECT_EQ(t, kthread_join(th), last);
}

/* A thread is in `ps` with its CPU while it lives, and gone once joined. */
struct find_task {
	struct task_struct *want;
	bool found;
	int cpu;
};

static void look_for_task(struct task_struct *t, void *arg)
{
	struct find_task *f = arg;

	if (t == f->want) {
		f->found = true;
		f->cpu = t->cpu;
	}
}

static void for_each_task_sees_threads(struct ktest *t)
{
	struct find_task f = { 0 };
	int last = last_online_cpu();

	f.want = kthread_create_on_cpu(sleep_30ms, NULL, last, "listed");
	KTEST_ASSERT_TRUE(t, f.want != NULL);
	msleep(10);
	for_each_task(look_for_task, &f);
	KTEST_EXPECT_TRUE(t, f.found);
	KTEST_EXPECT_EQ(t, f.cpu, last);
	KTEST_EXPECT_TRUE(t, kthread_join(f.want) >= 0);
	f.found = false;
	for_each_task(look_for_task, &f);
	KTEST_EXPECT_FALSE(t, f.found);
}

static struct ktest_case sched_cases[] = {
	KTEST_CASE(jiffies_advance),
	KTEST_CASE(boot_thread_is_task0),
	KTEST_CASE(join_returns_exit_code),
	KTEST_CASE(yield_runs_other_thread),
	KTEST_CASE(threads_interleave),
	KTEST_CASE(preempt_disable_holds_cpu),
	KTEST_CASE(msleep_sleeps_long_enough),
	KTEST_CASE(stack_overflow_kills_only_the_thread),
	KTEST_CASE(join_frees_everything),
	KTEST_CASE(threads_spread_over_cpus),
	KTEST_CASE(bound_thread_stays_on_its_cpu),
	KTEST_CASE(bind_checks_its_cpu),
	KTEST_CASE(preemption_on_every_cpu),
	KTEST_CASE(wake_up_from_another_cpu),
	KTEST_CASE(for_each_task_sees_threads),
	KTEST_END
};

/*
 * Before each case: is the tick alive?  Sleeping or joining a thread
 * that waits for a tick would hang forever without it, so fail instead.
 */
static int tick_is_alive(struct ktest *t)
{
	static bool dead;

	if (!dead && (irqs_disabled() || !wait_jiffies(jiffies + 1)))
		dead = true;
	if (dead)
		ktest_info(t, "no timer tick (interrupts %s)",
			   irqs_disabled() ? "off" : "on");
	return dead ? -EIO : 0;
}

static struct ktest_suite sched_suite = {
	.name = "sched",
	.cases = sched_cases,
	.init = tick_is_alive,
};
KTEST_SUITE(sched_suite);
