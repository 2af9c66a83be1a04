/*
 * test_sched.c - suite "sched": the PIT tick, kernel threads, preemption,
 * preempt_disable(), msleep(), and recovery from a thread stack overflow
 * through the #DF task gate.
 *
 * Every wait is a bounded loop: a broken timer or scheduler makes a case
 * fail instead of hanging the run.
 */
#include "ktest.h"
#include "sched.h"
#include "timer.h"
#include "mm.h"
#include "irqflags.h"
#include "processor.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"

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
	KTEST_EXPECT_TRUE(t, yield_flag);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
}

/* ---- preemption ----------------------------------------------------------- */

#define ROUNDS  16
#define LOG_LEN (2 * ROUNDS)

static int run_log[LOG_LEN];
static int run_log_len;

/* Append our id once per tick, never yielding: only preemption can switch. */
static int log_my_ticks(void *arg)
{
	int id = (int)(unsigned long)arg;

	for (int round = 0; round < ROUNDS; round++) {
		unsigned long flags = local_irq_save();
		if (run_log_len < LOG_LEN)
			run_log[run_log_len++] = id;
		local_irq_restore(flags);
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

static void preempt_disable_holds_cpu(struct ktest *t)
{
	spin_count = 0;
	spin_stop = false;
	struct task_struct *th = kthread_create(count_until_stopped, NULL, "counter");

	KTEST_ASSERT_TRUE(t, th != NULL);
	preempt_disable();
	KTEST_EXPECT_EQ(t, preempt_count(), 1);
	unsigned long before = spin_count;
	bool ticked = wait_jiffies(jiffies + 5);   /* > 2 time slices */
	unsigned long after = spin_count;
	preempt_enable();
	/* The preemption owed since the slice ran out happened just now. */
	unsigned long after_enable = spin_count;

	spin_stop = true;
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
	struct task_struct *th = kthread_create(crash_stack_hog, NULL, name);
	long ret;

	KTEST_ASSERT_TRUE(t, th != NULL);
	unsigned long guard = th->stack_base;

	ktest_capture_start();
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
