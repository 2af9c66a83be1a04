/*
 * test_user_fuzz.c - suites "user_fuzz" and "user_fuzz_long": no ring-3
 * instruction sequence may do more than end its own process.
 *
 * Each case runs user/fuzz.c in one mode, seed after seed, one process
 * at a time: random code bytes, the same single-stepped, every int $n,
 * privileged instructions, wild far transfers (iret, lret, lcall,
 * ljmp), iret into vm86, random segment loads, random system calls.
 * Each run must end - an exit or a signal; one still running after
 * FUZZ_DEADLINE_MS (an endless loop, a long nanosleep) is killed, and
 * must die of that.  Afterwards the kernel must be as it was: its text,
 * every free page and heap block.  An oops or a panic stops the boot;
 * the die chain prints the mode and seed first, and `exec fuzz MODE
 * SEED -v` in the shell replays that run.
 *
 * user_fuzz runs in `make test`; user_fuzz_long (test=user_fuzz_long,
 * `make test-all`) runs FUZZ_LONG_FACTOR times as many, other seeds.
 */
#include "ktest.h"
#include "ramfs.h"
#include "process.h"
#include "sched.h"
#include "mm.h"
#include <asm/kdebug.h>
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "timer.h"

#define FUZZ_DEADLINE_MS	200	/* a run takes a few ms; this long, it loops or sleeps */
#define WATCHDOG_POLL_MS	20
#define MSEC_PER_SEC		1000
#define FUZZ_LONG_FACTOR	20
#define FUZZ_LONG_SEED_BASE	1000000	/* the long suite's seeds: new ones */
#define NR_VECTORS		256

/* How runs ended: an exit, a signal, or killed at the deadline. */
struct fuzz_tally {
	unsigned int runs, exits, killed, by_signal[SIGSEGV + 1];
	unsigned int other_signal;	/* a higher one: a random kill(0, SIGTERM)... */
};

/* The run in progress, for the oops report (the die chain). */
static const char *fuzz_mode;
static unsigned long fuzz_seed;

static int fuzz_oops_notify(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val == DIE_OOPS && fuzz_mode) {
		console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
		printk("user_fuzz: the kernel died in run `exec fuzz %s %lu -v`\n",
		       fuzz_mode, fuzz_seed);
	}
	return NOTIFY_DONE;
}

static struct notifier_block fuzz_oops_nb = {
	.notifier_call = fuzz_oops_notify,
	.priority = DIE_PRIO_FIRST,
};

/*
 * The watchdog: a kernel thread that kills the run in progress once it
 * is past its deadline.  The case itself waits in process_wait() and
 * wakes the moment the process ends - polling would cost a tick a run.
 * The deadline is written before the pid, so a pid read goes with its
 * own deadline (or a later one: a kill of an older pid finds no one).
 */
static int watch_pid, killed_pid;
static unsigned long watch_deadline;
static bool watchdog_stop;

static int fuzz_watchdog(void *unused)
{
	while (!READ_ONCE(watchdog_stop)) {
		int pid = READ_ONCE(watch_pid);

		barrier();
		if (pid && time_after(jiffies, READ_ONCE(watch_deadline)) &&
		    kill_pid(pid, SIGKILL) == 0)
			WRITE_ONCE(killed_pid, pid);
		msleep(WATCHDOG_POLL_MS);
	}
	return 0;
}

/* Wait for p, which the watchdog kills at its deadline; its wait status. */
static int wait_or_kill(struct task_struct *p, bool *killed)
{
	int pid = p->pid, status;

	WRITE_ONCE(watch_deadline, jiffies + FUZZ_DEADLINE_MS * HZ / MSEC_PER_SEC);
	barrier();
	WRITE_ONCE(watch_pid, pid);
	status = process_wait(p);
	WRITE_ONCE(watch_pid, 0);
	*killed = READ_ONCE(killed_pid) == pid;
	return status;
}

/*
 * A run's failure, printed even while the kill reports are silenced
 * (console_loglevel is lowered during the runs).
 */
#define fuzz_fail(t, fmt, ...)						\
do {									\
	int __level = console_loglevel;					\
									\
	console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;			\
	ktest_fail(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__);		\
	console_loglevel = __level;					\
} while (0)

/*
 * A run may fork (random system calls include fork and clone), and its
 * children may execve another program (a new comm), block on a pipe,
 * sleep, or outlive it.  Every process with a pid from the run's on is
 * one of them: kill the living; a parent reaps its zombies as it ends,
 * and an orphan is autoreaped (kernel/exit.c).  Wait until none is
 * left - one that stays (a zombie nobody reaps, a task never freed) is
 * a leak, and fails the run.
 */
#define REAP_BATCH	8
#define REAP_TIMEOUT_MS	5000

struct fuzz_children {
	int first_pid;
	int pid[REAP_BATCH];
	int alive, left;
};

static void find_fuzz_child(struct task_struct *t, void *arg)
{
	struct fuzz_children *c = arg;

	if (!task_is_process(t) || t->pid < c->first_pid)
		return;
	c->left++;
	if (t->state == TASK_DEAD || t->exit_state == EXIT_ZOMBIE)
		return;
	if (c->alive < REAP_BATCH)
		c->pid[c->alive] = t->pid;
	c->alive++;
}

/* 0 once the run's processes are all gone, or how many are left. */
static int reap_forked_children(int first_pid)
{
	unsigned long give_up = jiffies + REAP_TIMEOUT_MS * HZ / MSEC_PER_SEC;
	struct fuzz_children c;

	for (;;) {
		memset(&c, 0, sizeof(c));
		c.first_pid = first_pid;
		for_each_task(find_fuzz_child, &c);
		if (!c.left || time_after(jiffies, give_up))
			return c.left;
		for (int i = 0; i < c.alive && i < REAP_BATCH; i++)
			kill_pid(c.pid[i], SIGKILL);
		msleep(WATCHDOG_POLL_MS);	/* until the killed ones are dead and freed */
	}
}

/* One run; false (with the seed in the report) if it did not end as a process should. */
static bool fuzz_one(struct ktest *t, const char *mode, unsigned long seed,
		     struct fuzz_tally *tally)
{
	char seed_arg[16];
	const char *argv[] = { "fuzz", mode, seed_arg };
	struct task_struct *p;
	bool killed;
	int err, status, sig, pid, left;

	snprintf(seed_arg, sizeof(seed_arg), "%lu", seed);
	fuzz_mode = mode;
	fuzz_seed = seed;
	p = process_spawn("fuzz", argv, ARRAY_SIZE(argv), &err);
	if (!p) {
		fuzz_fail(t, "fuzz %s %lu: spawn: %d", mode, seed, err);
		return false;
	}
	pid = p->pid;
	status = wait_or_kill(p, &killed);
	left = reap_forked_children(pid);
	tally->runs++;
	sig = WTERMSIG(status);
	if (status < 0 || sig > _NSIG || (killed && sig != SIGKILL)) {
		fuzz_fail(t, "fuzz %s %lu: wait status %#x%s", mode,
			  seed, status, killed ? " after a kill" : "");
		return false;
	}
	if (left) {
		fuzz_fail(t, "fuzz %s %lu: %d forked process(es) never freed", mode, seed, left);
		return false;
	}
	if (killed)
		tally->killed++;
	else if (sig > SIGSEGV)
		tally->other_signal++;	/* sent by a random kill(): the process's own end */
	else if (sig)
		tally->by_signal[sig]++;
	else
		tally->exits++;
	return true;
}

struct kernel_state {
	uint32_t text;
	unsigned long pages;
	unsigned long heap_allocs;
};

static void kernel_state(struct kernel_state *s)
{
	struct heap_stats h;

	heap_get_stats(&h);
	s->text = ktest_text_checksum();
	s->pages = pages_free();
	s->heap_allocs = h.live_allocs - ramfs_heap_blocks();	/* files made are state */
}

static void report(struct ktest *t, const char *mode, const struct fuzz_tally *n)
{
	ktest_info(t, "%s: %u runs: %u exit, %u SIGSEGV, %u SIGILL, %u SIGTRAP, "
		   "%u SIGBUS, %u SIGFPE, %u SIGKILL, %u other signals, %u killed at the deadline",
		   mode, n->runs, n->exits, n->by_signal[SIGSEGV], n->by_signal[SIGILL],
		   n->by_signal[SIGTRAP], n->by_signal[SIGBUS], n->by_signal[SIGFPE],
		   n->by_signal[SIGKILL], n->other_signal, n->killed);
}

/*
 * runs seeds from first on, in mode; stop at the first bad one.  The
 * kernel's state is compared around the whole batch.
 */
static void fuzz_mode_runs(struct ktest *t, const char *mode, unsigned long first,
			   unsigned int runs)
{
	struct fuzz_tally tally = { 0 };
	struct kernel_state before, after;
	int loglevel = console_loglevel;
	struct task_struct *watchdog;
	unsigned int i;

	kernel_state(&before);
	WRITE_ONCE(watchdog_stop, false);
	watchdog = kthread_create(fuzz_watchdog, NULL, "fuzz-watchdog");
	KTEST_ASSERT_TRUE(t, watchdog != NULL);
	register_die_notifier(&fuzz_oops_nb);
	console_loglevel = 1;	/* thousands of kill reports would take the serial port minutes */
	for (i = 0; i < runs; i++)
		if (!fuzz_one(t, mode, first + i, &tally))
			break;
	console_loglevel = loglevel;
	WRITE_ONCE(watchdog_stop, true);
	kthread_join(watchdog);
	unregister_die_notifier(&fuzz_oops_nb);
	fuzz_mode = NULL;
	kernel_state(&after);
	report(t, mode, &tally);
	KTEST_EXPECT_EQ(t, tally.runs, runs);
	KTEST_EXPECT_EQ(t, after.text, before.text);
	KTEST_EXPECT_EQ(t, after.pages, before.pages);
	KTEST_EXPECT_EQ(t, after.heap_allocs, before.heap_allocs);
}

/* How many runs of each mode the short suite makes (the long one: FUZZ_LONG_FACTOR x). */
#define FUZZ_CASES(X)			\
	X(bytes, 400)			\
	X(tf, 150)			\
	X(intn, NR_VECTORS)		\
	X(priv, 200)			\
	X(far, 300)			\
	X(vm86, 100)			\
	X(seg, 200)			\
	X(syscall, 150)

static bool fuzz_long;

#define FUZZ_CASE_FN(mode, runs)					\
static void fuzz_##mode(struct ktest *t)				\
{									\
	if (fuzz_long)							\
		fuzz_mode_runs(t, #mode, FUZZ_LONG_SEED_BASE,		\
			       (runs) * FUZZ_LONG_FACTOR);		\
	else								\
		fuzz_mode_runs(t, #mode, 0, runs);			\
}
FUZZ_CASES(FUZZ_CASE_FN)

#define FUZZ_CASE_ENTRY(mode, runs) KTEST_CASE(fuzz_##mode),

static struct ktest_case user_fuzz_cases[] = {
	FUZZ_CASES(FUZZ_CASE_ENTRY)
	KTEST_END
};

static int short_init(struct ktest *t)
{
	fuzz_long = false;
	return 0;
}

static int long_init(struct ktest *t)
{
	fuzz_long = true;
	return 0;
}

static struct ktest_suite user_fuzz_suite = {
	.name = "user_fuzz",
	.cases = user_fuzz_cases,
	.init = short_init,
};
KTEST_SUITE(user_fuzz_suite);

static struct ktest_suite user_fuzz_long_suite = {
	.name = "user_fuzz_long",
	.cases = user_fuzz_cases,
	.init = long_init,
	.on_request = true,
};
KTEST_SUITE(user_fuzz_long_suite);
