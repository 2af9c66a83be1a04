/*
 * test_optimizer.c - suite "optimizer": the kprobe optimizer thread
 * (probes/optprobes.c, docs/optprobes.md "The optimizer thread").
 *
 * `echo 1 > /sys/kernel/debug/kprobes/optimize` only queues the probes;
 * a kernel thread analyses and patches them in batches, one look at the
 * stopped threads per batch, and retries the sites a preempted thread
 * sits in.  So:
 *
 *   optimizer_thousands_under_load  ~2,300 probes (every instruction of
 *       the workload functions, 2,000 sled sites) while two threads run
 *       through them: the switch returns before the work is done, off
 *       leaves no jump, results stay right, and once settled every
 *       eligible probe is a jump and the list says exactly what .text holds
 *   optimizer_busy_site_waits  a thread preempted inside a probe's site:
 *       the switch still succeeds, the list shows the probe waiting and
 *       why, and it becomes a jump once the thread has gone
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "ftrace.h"
#include "kallsyms.h"
#include "mm.h"
#include "sched.h"
#include "timer.h"
#include "string.h"
#include "vsprintf.h"
#include "workloads.h"
#include "bench_sled.h"
#include "every_insn.h"
#include "linkage.h"

static volatile unsigned long site_hits;

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	site_hits++;
	return 0;
}

/* ---- what the list says against what .text holds ------------------------------- */

/*
 * After wait_for_kprobe_optimizer(): p's list line, its first byte and
 * the analysis must agree.  [OPTIMIZED] <=> a jmp at p->addr <=> the
 * analysis says OK; [NOT OPTIMIZED: why] <=> an int3 and that very why;
 * nothing may still be waiting.  Returns true if p is a jump.
 */
static bool check_listed_state(struct ktest *t, struct kprobe *p)
{
	uint8_t first = *(const uint8_t *)p->addr;
	char line[160], want[96];
	int why = optprobe_why_not(p);

	sprint_kprobe(line, sizeof(line), p);
	if (kprobe_ftrace(p)) {		/* a function's call site: ftrace's, never a jump */
		if (first != CALL_INSN_OPCODE || kprobe_optimized(p) || !strstr(line, "  [FTRACE]"))
			ktest_fail(t, __FILE__, __LINE__, "%s: on ftrace, but byte %#x", line, first);
		return false;
	}
	if (why == OPT_OK) {
		snprintf(want, sizeof(want), "  [OPTIMIZED]");
		if (first != RELATIVEJUMP_OPCODE || !kprobe_optimized(p))
			ktest_fail(t, __FILE__, __LINE__, "%s: eligible, but byte %#x", line, first);
	} else {
		snprintf(want, sizeof(want), "  [NOT OPTIMIZED: %s]", optprobe_refusal_name(why));
		if (first != BREAKPOINT_INSTRUCTION || kprobe_optimized(p))
			ktest_fail(t, __FILE__, __LINE__, "%s: refused, but byte %#x", line, first);
	}
	if (!strstr(line, want) || strstr(line, "[WAITING"))
		ktest_fail(t, __FILE__, __LINE__, "%s: want \"%s\"", line, want);
	return why == OPT_OK;
}

/* ---- thousands of probes, with workloads running through them --------------------- */

#define SLED_FUNCS_PROBED	400	/* x BENCH_SLED_SITES_PER_FUNC = 2,000 probes */
#define SLED_STRIDE		(BENCH_SLED_FUNCS / SLED_FUNCS_PROBED)
#define MAX_LOAD_PROBES		(SLED_FUNCS_PROBED * BENCH_SLED_SITES_PER_FUNC + 1000)
#define LOAD_TOGGLES		20
#define SETTLE_MS		2000	/* for the optimizer thread's first batch */

static volatile bool load_stop;

static void (*sled_func(int i))(void)
{
	return (void (*)(void))(bench_sled + i * SLED_STRIDE * BENCH_SLED_FUNC_SIZE);
}

/* The kernel's own workloads, checked against the known answers. */
static int workload_runner(void *arg)
{
	static const unsigned char text[] = "123456789";
	int nums[] = { 5, 3, 9, 1, 7 }, bad = 0;

	while (!load_stop) {
		bad += fib(15) != 610;
		bad += ~crc32_le(~0u, text, sizeof(text) - 1) != 0xcbf43926;
		sort_ints(nums, ARRAY_SIZE(nums));
		bad += nums[0] != 1 || nums[4] != 9;
		bad += ht_insert("optimizer", 42) != 0 || ht_lookup("optimizer") != 42;
		ht_clear();
	}
	return bad;
}

/* Every probed sled function, over and over. */
static int sled_runner(void *arg)
{
	while (!load_stop)
		for (int i = 0; i < SLED_FUNCS_PROBED; i++)
			sled_func(i)();
	return 0;
}

static int register_load_probes(struct kprobe *kps)
{
	int n = 0;

	for (const char *const *name = workload_functions; *name; name++)
		n += register_kprobe_every_insn(kps + n, MAX_LOAD_PROBES - n,
						kallsyms_lookup_name(*name), count_pre);
	for (int f = 0; f < SLED_FUNCS_PROBED; f++) {
		for (int s = 0; s < BENCH_SLED_SITES_PER_FUNC; s++) {
			kps[n].addr = (kprobe_opcode_t *)sled_func(f) + s * BENCH_SLED_SPACING;
			kps[n].pre_handler = count_pre;
			n += register_kprobe(&kps[n]) == 0;
		}
	}
	return n;
}

/*
 * Toggle while the threads run: on returns with the work queued, not
 * done; off returns with every jump gone.  Between toggles the
 * optimizer gets no time, some, or plenty.
 */
static void toggle_with_load(struct ktest *t, int n)
{
	for (int i = 0; i < LOAD_TOGGLES; i++) {
		bool on = i % 2 == 0;

		KTEST_EXPECT_EQ(t, kprobes_set_optimization(on), 0);
		if (on && i == 0) {
			ktest_info(t, "switch on returned with %u of %d probes optimized",
				   kprobes_nr_optimized(), n);
			KTEST_EXPECT_TRUE(t, kprobes_nr_optimized() < (unsigned int)n / 2);
		}
		if (!on)
			KTEST_EXPECT_EQ(t, kprobes_nr_optimized(), 0);
		msleep(i % 3 * 20);
	}
}

static void optimizer_thousands_under_load(struct ktest *t)
{
	struct kprobe *kps = kzalloc(MAX_LOAD_PROBES * sizeof(*kps));
	struct task_struct *wl, *sled;
	uint32_t text_before = ktest_text_checksum();
	int n, optimized = 0;
	unsigned long j0;

	KTEST_ASSERT_TRUE(t, kps != NULL);
	kprobes_set_optimization(false);
	n = register_load_probes(kps);
	ktest_info(t, "%d probes registered", n);
	KTEST_EXPECT_TRUE(t, n > 2000);
	load_stop = false;
	wl = kthread_create(workload_runner, NULL, "opt-workloads");
	sled = kthread_create(sled_runner, NULL, "opt-sled");
	KTEST_ASSERT_TRUE(t, wl && sled);
	msleep(20);
	toggle_with_load(t, n);

	KTEST_EXPECT_EQ(t, kprobes_set_optimization(true), 0);
	/* Part of it done with the threads running: by the thread, unasked. */
	for (int ms = 0; ms < SETTLE_MS && !kprobes_nr_optimized(); ms += 10)
		msleep(10);
	KTEST_EXPECT_TRUE(t, kprobes_nr_optimized() > 0);
	load_stop = true;
	KTEST_EXPECT_EQ(t, kthread_join(wl), 0);
	KTEST_EXPECT_EQ(t, kthread_join(sled), 0);
	j0 = jiffies;
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	for (int i = 0; i < n; i++)
		optimized += check_listed_state(t, &kps[i]);
	ktest_info(t, "settled %lu ms after the threads stopped: %d optimized, %d refused, %lu hits",
		   (jiffies - j0) * 1000 / HZ, optimized, n - optimized, site_hits);
	KTEST_EXPECT_EQ(t, kprobes_nr_optimized(), (unsigned int)optimized);
	KTEST_EXPECT_TRUE(t, optimized >= SLED_FUNCS_PROBED * BENCH_SLED_SITES_PER_FUNC);

	for (int i = 0; i < n; i++)
		unregister_kprobe(&kps[i]);
	kfree(kps);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), text_before);
}

/* ---- a site a preempted thread sits in ------------------------------------------- */

#define BUSY_ATTEMPTS	50

static volatile bool busy_stop;

/*
 * asmlinkage: x comes on the stack, so the body starts with a load and
 * is long enough for a jump (with x in %eax it is lea and ret: too short).
 */
static asmlinkage __attribute__((__noinline__, __noipa__)) int busy_target(int x)
{
	return x * 5 + 2;
}

/*
 * Hammers the probe.  Each hit runs its handler with interrupts off, so
 * the timer tick that ends this thread's slice nearly always waits for
 * the iret and lands on the first instruction after it: in the boosted
 * slot or behind the int3, inside the bytes a jump would cover.
 */
static int busy_worker(void *arg)
{
	int bad = 0;

	while (!busy_stop)
		bad += busy_target(3) != 17;
	return bad;
}

static bool listed_waiting_busy(struct kprobe *p)
{
	char line[160];

	sprint_kprobe(line, sizeof(line), p);
	return strstr(line, "  [WAITING: a preempted thread is inside") != NULL;
}

/* Still queued for its first try: "[WAITING]" with no reason yet. */
static bool listed_queued(struct kprobe *p)
{
	char line[160];

	sprint_kprobe(line, sizeof(line), p);
	return strstr(line, "  [WAITING]") != NULL;
}

static void busy_site_case(struct ktest *t)
{
	static struct kprobe kp;
	struct task_struct *w;
	uint8_t before[8];
	int attempt, seen = 0;

	memcpy(before, busy_target, sizeof(before));
	kp = (struct kprobe){ .addr = (kprobe_opcode_t *)busy_target, .pre_handler = count_pre };
	kprobes_set_optimization(false);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	busy_stop = false;
	w = kthread_create(busy_worker, NULL, "opt-busy");
	KTEST_ASSERT_TRUE(t, w != NULL);
	for (attempt = 0; attempt < BUSY_ATTEMPTS && !seen; attempt++) {
		msleep(20);		/* the worker's slice ends somewhere in its loop */
		KTEST_EXPECT_EQ(t, kprobes_set_optimization(true), 0);
		/* The optimizer's batch, with the worker preempted. */
		for (int ms = 0; ms < SETTLE_MS && listed_queued(&kp); ms++)
			msleep(1);
		seen = listed_waiting_busy(&kp);
		if (!seen)
			kprobes_set_optimization(false);
	}
	ktest_info(t, "a busy site after %d attempt(s)", attempt);
	KTEST_EXPECT_TRUE(t, seen);
	KTEST_EXPECT_FALSE(t, kprobe_optimized(&kp));
	KTEST_EXPECT_EQ(t, optprobe_why_not(&kp), OPT_THREAD_INSIDE);
	KTEST_EXPECT_EQ(t, kprobes_set_optimization(true), 0);	/* still not an error */

	busy_stop = true;
	KTEST_EXPECT_EQ(t, kthread_join(w), 0);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	KTEST_EXPECT_TRUE(t, check_listed_state(t, &kp));
	KTEST_EXPECT_EQ(t, busy_target(3), 17);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, memcmp(busy_target, before, sizeof(before)), 0);
}

static void optimizer_busy_site_waits(struct ktest *t)
{
	/*
	 * The case is a preempted thread: with several CPUs the worker runs
	 * on its own one, and a running CPU is sent round the site by the
	 * patch window instead of being found inside it.  So every thread
	 * shares CPU 0 for the case (single-CPU mode, docs/scheduler.md).
	 */
	sched_single_cpu_begin();
	busy_site_case(t);
	sched_single_cpu_end();
}

static void optimizer_exit(struct ktest *t)
{
	kprobes_set_optimization(true);
	wait_for_kprobe_optimizer();
}

static struct ktest_case optimizer_cases[] = {
	KTEST_CASE(optimizer_busy_site_waits),
	KTEST_CASE(optimizer_thousands_under_load),
	KTEST_END
};

static struct ktest_suite optimizer_suite = {
	.name = "optimizer",
	.cases = optimizer_cases,
	.exit = optimizer_exit,
};
KTEST_SUITE(optimizer_suite);
