/*
 * test_kprobes_smp.c - kprobes with every CPU running probed code at once.
 *
 *   concurrent hits  every CPU hits one probe N times at the same moment:
 *                    nhit and the handlers' counts are exact, nothing is
 *                    missed (a global current_kprobe would see the other
 *                    CPU's hit as a reentry and miss it)
 *   storm            one thread registers and unregisters a probe over
 *                    and over while the other CPUs run the probed
 *                    function: no crash, every call right, no handler
 *                    runs after unregister_kprobe() returned (the grace
 *                    period), .text as it was at boot
 *   kretprobe        a thread enters a kretprobed function on one CPU and
 *                    returns on another: the instance is found, the
 *                    return address restored
 *   jprobes          a jprobe hit on every CPU at once: each handler sees
 *                    its own call's arguments (per-CPU save areas)
 *   the lock         kprobes.lock=global makes every hit take kprobe_lock
 *                    and count it; per-CPU mode takes it never
 *   missed counts    every CPU reenters a probe from a handler at once:
 *                    nmissed and the kprobe_profile line are exact
 *   rmmod            a module whose probe handler is running on other
 *                    CPUs is unloaded: rmmod waits for the hits or says
 *                    EBUSY, and never frees the handler under a CPU
 *
 * Cases that need two CPUs SKIP with one.  run_tests.py boots this suite
 * at 2 and 4 CPUs, and at 4 once more with kprobes.lock=global: the same
 * cases must pass with the 2005 design.
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include <asm/atomic.h>
#include <asm/processor.h>
#include "sched.h"
#include "smp.h"
#include "string.h"
#include <asm/ptrace.h>
#include "timer.h"
#include "module.h"
#include "kallsyms.h"
#include "errno.h"
#include "vsprintf.h"

#define HITS_PER_CPU	2000	/* concurrent hits: calls on each CPU */
#define HANDLER_PAUSES	200	/* a pre-handler this long: the CPUs' hits overlap */
#define STORM_CYCLES	10000	/* register + unregister while others call... */
#define STORM_SECONDS	8	/* ...or as many as fit in this (4 vCPUs on a busy host) */
#define STORM_MIN_CYCLES 100	/* fewer would prove little */
#define STORM_WAIT	2000	/* pauses a cycle waits for its first hit */
#define JPROBE_CALLS	1000	/* jprobe calls on each CPU */
#define MIGRATE_CPU	1	/* where the kretprobe'd thread goes */
#define SLEEP_MS	1
#define MISSES_PER_CPU	1000	/* reentered hits on each CPU */
#define BUSY_MODULE	"modtest_busyprobe"
#define RMMOD_TRIES	100	/* EBUSY answers before giving up */
#define HIT_WAIT_MS	5000	/* for the module's first hit */

/* ---- the probed functions ---------------------------------------------------- */

noinline int kpsmp_target(int x)
{
	barrier();
	return 3 * x + 1;
}

/* Called from a handler of kpsmp_target()'s probe: a probe here reenters. */
noinline int kpsmp_inner(int x)
{
	barrier();
	return x - 1;
}

noinline int kpsmp_jtarget(int a, int b)
{
	barrier();
	return a + b;
}

static volatile int mig_stage, mig_entry_cpu;

/* Sleeps in the middle, so the test can move it to another CPU. */
noinline int kpsmp_migrating(int x)
{
	mig_entry_cpu = smp_processor_id();
	WRITE_ONCE(mig_stage, 1);
	while (READ_ONCE(mig_stage) != 2)
		msleep(SLEEP_MS);
	return x + 100;
}

/* ---- a workload on every CPU ---------------------------------------------------- */

struct cpu_work {
	int (*fn)(int cpu);		/* one call; returns 0 if its result is right */
	int calls;			/* 0: until work_stop */
	atomic_t bad;			/* wrong results */
	atomic_t done;			/* calls made */
};

static atomic_t work_ready;
static volatile bool work_go, work_stop;
static struct cpu_work *work;

static int work_thread(void *arg)
{
	int cpu = (int)(unsigned long)arg;

	atomic_inc(&work_ready);
	while (!READ_ONCE(work_go))
		cpu_relax();
	for (int i = 0; work->calls ? i < work->calls : !READ_ONCE(work_stop); i++) {
		if (work->fn(cpu))
			atomic_inc(&work->bad);
		atomic_inc(&work->done);
	}
	return 0;
}

/* One thread bound to each online CPU except skip (-1: none); started together. */
static int start_work(struct cpu_work *w, struct task_struct **threads, int skip)
{
	int cpu, n = 0;

	work = w;
	atomic_set(&work_ready, 0);
	work_go = work_stop = false;
	for_each_online_cpu(cpu) {
		if (cpu == skip)
			continue;
		threads[n] = kthread_create_on_cpu(work_thread, (void *)(unsigned long)cpu,
						   cpu, "kpsmp-work");
		if (threads[n])
			n++;
	}
	while (atomic_read(&work_ready) < n)
		msleep(SLEEP_MS);
	WRITE_ONCE(work_go, true);
	return n;
}

static void join_work(struct task_struct **threads, int n)
{
	WRITE_ONCE(work_stop, true);
	for (int i = 0; i < n; i++)
		kthread_join(threads[i]);
}

/* w->calls calls on every online CPU at once; returns how many CPUs ran them. */
static int run_on_every_cpu(struct cpu_work *w)
{
	static struct task_struct *threads[NR_CPUS];
	int n;

	atomic_set(&w->bad, 0);
	atomic_set(&w->done, 0);
	n = start_work(w, threads, -1);
	join_work(threads, n);
	return n;
}

static bool need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() >= 2)
		return true;
	ktest_skip(t, "needs two CPUs");
	return false;
}

/* ---- every CPU hits one probe at once ------------------------------------------ */

static atomic_t pre_count, post_count;

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	for (int i = 0; i < HANDLER_PAUSES; i++)
		cpu_relax();
	atomic_inc(&pre_count);
	return 0;
}

static void count_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	atomic_inc(&post_count);
}

static int call_target(int cpu)
{
	return kpsmp_target(cpu) != 3 * cpu + 1;
}

static void kprobe_concurrent_hits_exact(struct ktest *t)
{
	static struct cpu_work w = { .fn = call_target, .calls = HITS_PER_CPU };
	struct kprobe kp = { .addr = (kprobe_opcode_t *)kpsmp_target,
			     .pre_handler = count_pre, .post_handler = count_post };
	unsigned long want;
	int n;

	if (!need_two_cpus(t))
		return;
	atomic_set(&pre_count, 0);
	atomic_set(&post_count, 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	n = run_on_every_cpu(&w);
	unregister_kprobe(&kp);

	want = (unsigned long)n * HITS_PER_CPU;
	ktest_info(t, "%d CPUs, %lu hits, %lu missed", n, kp.nhit, kp.nmissed);
	KTEST_EXPECT_EQ(t, n, (int)num_online_cpus());
	KTEST_EXPECT_EQ(t, atomic_read(&w.bad), 0);
	KTEST_EXPECT_EQ(t, kp.nhit, want);
	KTEST_EXPECT_EQ(t, kp.nmissed, 0);
	KTEST_EXPECT_EQ(t, (unsigned long)atomic_read(&pre_count), want);
	KTEST_EXPECT_EQ(t, (unsigned long)atomic_read(&post_count), want);
}

/* ---- register/unregister storm ------------------------------------------------- */

static volatile bool storm_registered;
static atomic_t storm_hits, storm_late;

static int storm_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (!READ_ONCE(storm_registered))
		atomic_inc(&storm_late);	/* a handler after unregister returned */
	atomic_inc(&storm_hits);
	return 0;
}

static void storm_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	if (!READ_ONCE(storm_registered))
		atomic_inc(&storm_late);
}

/* Let a hit or two land before the cycle unregisters (bounded). */
static void storm_wait_for_hit(int before)
{
	for (int i = 0; i < STORM_WAIT && atomic_read(&storm_hits) == before; i++)
		cpu_relax();
}

static void kprobe_unregister_storm(struct ktest *t)
{
	static struct task_struct *threads[NR_CPUS];
	static struct cpu_work w = { .fn = call_target, .calls = 0 };
	static struct kprobe kp;
	uint32_t before = ktest_text_checksum();
	unsigned long end = jiffies + STORM_SECONDS * HZ;
	int n, failed = 0, cycles = 0;

	if (!need_two_cpus(t))
		return;
	atomic_set(&storm_hits, 0);
	atomic_set(&storm_late, 0);
	atomic_set(&w.bad, 0);
	atomic_set(&w.done, 0);
	/* The storm runs here; every other CPU calls the function. */
	n = start_work(&w, threads, smp_processor_id());
	/* At least STORM_MIN_CYCLES however slow the host; more while time is left. */
	for (; cycles < STORM_MIN_CYCLES ||
	       (cycles < STORM_CYCLES && time_before(jiffies, end)); cycles++) {
		memset(&kp, 0, sizeof(kp));
		kp.addr = (kprobe_opcode_t *)kpsmp_target;
		kp.pre_handler = storm_pre;
		kp.post_handler = storm_post;	/* stepped: no boost, no jump */
		WRITE_ONCE(storm_registered, true);
		if (register_kprobe(&kp)) {
			failed++;
			continue;
		}
		storm_wait_for_hit(atomic_read(&storm_hits));
		unregister_kprobe(&kp);
		WRITE_ONCE(storm_registered, false);
	}
	join_work(threads, n);

	ktest_info(t, "%d cycles, %d hits, %d calls on %d CPUs", cycles,
		   atomic_read(&storm_hits), atomic_read(&w.done), n);
	KTEST_EXPECT_EQ(t, failed, 0);
	KTEST_EXPECT_EQ(t, atomic_read(&w.bad), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&storm_late), 0);
	KTEST_EXPECT_TRUE(t, atomic_read(&storm_hits) > 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
}

/* ---- a kretprobe'd call that moves to another CPU ------------------------------- */

static volatile int mig_return_cpu, mig_retval, mig_handled;

static int mig_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	mig_return_cpu = smp_processor_id();
	mig_retval = (int)regs_return_value(regs);
	mig_handled++;
	return 0;
}

static int mig_thread(void *arg)
{
	return kpsmp_migrating(5);
}

static void kretprobe_return_on_another_cpu(struct ktest *t)
{
	struct kretprobe rp = { .kp.addr = (kprobe_opcode_t *)kpsmp_migrating,
				.handler = mig_handler };
	struct task_struct *th;
	int ret;

	if (!need_two_cpus(t))
		return;
	mig_stage = 0;
	mig_handled = 0;
	mig_return_cpu = mig_entry_cpu = -1;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_TRUE(t, rp.maxactive >= 2 * (int)num_online_cpus());
	th = kthread_create_on_cpu(mig_thread, NULL, 0, "kpsmp-mig");
	KTEST_ASSERT_TRUE(t, th != NULL);
	while (READ_ONCE(mig_stage) != 1)
		msleep(SLEEP_MS);
	KTEST_EXPECT_EQ(t, kthread_bind(th, MIGRATE_CPU), 0);	/* it sleeps: moves at wake-up */
	WRITE_ONCE(mig_stage, 2);
	ret = kthread_join(th);
	unregister_kretprobe(&rp);

	KTEST_EXPECT_EQ(t, ret, 105);			/* the real return address was used */
	KTEST_EXPECT_EQ(t, mig_handled, 1);
	KTEST_EXPECT_EQ(t, mig_retval, 105);
	KTEST_EXPECT_EQ(t, mig_entry_cpu, 0);
	KTEST_EXPECT_EQ(t, mig_return_cpu, MIGRATE_CPU);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
}

/* ---- jprobes on every CPU at once ----------------------------------------------- */

static atomic_t jp_calls, jp_bad;

static int jp_entry(int a, int b)
{
	if (b != 2 * a)			/* another CPU's saved arguments */
		atomic_inc(&jp_bad);
	atomic_inc(&jp_calls);
	jprobe_return();
	return 0;
}

static int call_jtarget(int cpu)
{
	int a = cpu * 1000 + (atomic_read(&work->done) & 0xff);

	return kpsmp_jtarget(a, 2 * a) != 3 * a;
}

static void jprobe_on_every_cpu(struct ktest *t)
{
	static struct cpu_work w = { .fn = call_jtarget, .calls = JPROBE_CALLS };
	struct jprobe jp = { .kp.addr = (kprobe_opcode_t *)kpsmp_jtarget,
			     .entry = jp_entry };
	int n;

	if (!need_two_cpus(t))
		return;
	atomic_set(&jp_calls, 0);
	atomic_set(&jp_bad, 0);
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	n = run_on_every_cpu(&w);
	unregister_jprobe(&jp);

	KTEST_EXPECT_EQ(t, atomic_read(&w.bad), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&jp_bad), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&jp_calls), n * JPROBE_CALLS);
	KTEST_EXPECT_EQ(t, jp.kp.nmissed, 0);
}

/* ---- missed hits counted on every CPU at once ------------------------------------ */

static int call_inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpsmp_inner(1);		/* its probe reenters: stepped, counted missed */
	return 0;
}

/*
 * A probe hit inside a handler is missed on that CPU (never disarmed);
 * with every CPU doing it at once nmissed must still be exact (a locked
 * increment), and so must the kprobe_profile line that shows it.
 */
static void kprobe_concurrent_misses_exact(struct ktest *t)
{
	static struct cpu_work w = { .fn = call_target, .calls = MISSES_PER_CPU };
	struct kprobe outer = { .addr = (kprobe_opcode_t *)kpsmp_target,
				.pre_handler = call_inner_pre };
	struct kprobe inner = { .addr = (kprobe_opcode_t *)kpsmp_inner,
				.pre_handler = count_pre };
	char got[160], want[160], line[128];
	unsigned long calls;
	int n;

	if (!need_two_cpus(t))
		return;
	atomic_set(&pre_count, 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&outer), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&inner), 0);
	n = run_on_every_cpu(&w);
	calls = (unsigned long)n * MISSES_PER_CPU;
	ktest_info(t, "%d CPUs: outer hit %lu, inner missed %lu", n, outer.nhit, inner.nmissed);
	KTEST_EXPECT_EQ(t, atomic_read(&w.bad), 0);
	KTEST_EXPECT_EQ(t, outer.nhit, calls);
	KTEST_EXPECT_EQ(t, outer.nmissed, 0);
	KTEST_EXPECT_EQ(t, inner.nhit, 0);
	KTEST_EXPECT_EQ(t, inner.nmissed, calls);
	KTEST_EXPECT_EQ(t, atomic_read(&pre_count), 0);	/* never ran inside */
	sprint_kprobe(line, sizeof(line), &inner);
	snprintf(want, sizeof(want), "%-48s hit %8lu  missed %8lu", line, 0ul, calls);
	sprint_kprobe_profile(got, sizeof(got), &inner);
	KTEST_EXPECT_STREQ(t, got, want);
	unregister_kprobe(&inner);
	unregister_kprobe(&outer);
}

/* ---- rmmod while the module's probe is hit elsewhere ------------------------------- */

/* Wait until the module's handler has run at least once (bounded). */
static bool wait_module_hits(const atomic_t *hits)
{
	for (int ms = 0; ms < HIT_WAIT_MS; ms += SLEEP_MS) {
		if (atomic_read(hits) > 0)
			return true;
		msleep(SLEEP_MS);
	}
	return false;
}

/*
 * modtest_busyprobe's pre-handler spins in module code on every call of
 * kpsmp_target(), which every other CPU calls in a loop.  rmmod here
 * either refuses (EBUSY) or waits: its exit's unregister_kprobe() waits a
 * grace period, which a CPU inside the handler holds up.  Either way no
 * CPU may still be in the handler when the module's memory is freed -
 * it is filled with int3s then, and a CPU left inside would oops.
 */
static void rmmod_while_probe_hit_elsewhere(struct ktest *t)
{
	static struct task_struct *threads[NR_CPUS];
	static struct cpu_work w = { .fn = call_target, .calls = 0 };
	const atomic_t *hits;
	size_t len;
	int n, ret = -EBUSY, busy = 0, seen;

	if (!need_two_cpus(t))
		return;
	if (!find_boot_module(BUSY_MODULE, &len)) {
		ktest_skip(t, "boot without the .ko files (run via make test)");
		return;
	}
	KTEST_ASSERT_EQ(t, insmod(BUSY_MODULE), 0);
	hits = (const atomic_t *)kallsyms_lookup_name("busyprobe_hits");
	KTEST_ASSERT_TRUE(t, hits != NULL);
	atomic_set(&w.bad, 0);
	atomic_set(&w.done, 0);
	n = start_work(&w, threads, smp_processor_id());
	KTEST_EXPECT_TRUE(t, wait_module_hits(hits));
	seen = atomic_read(hits);
	for (int i = 0; i < RMMOD_TRIES && ret == -EBUSY; i++) {
		ret = rmmod(BUSY_MODULE);
		if (ret == -EBUSY) {
			busy++;
			msleep(SLEEP_MS);
		}
	}
	/* The others go on calling: the int3 is gone, the code is poisoned. */
	msleep(10 * SLEEP_MS);
	join_work(threads, n);
	ktest_info(t, "%d hits before rmmod, %d EBUSY answers, %d calls on %d CPUs",
		   seen, busy, atomic_read(&w.done), n);
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_TRUE(t, find_module(BUSY_MODULE) == NULL);
	KTEST_EXPECT_EQ(t, atomic_read(&w.bad), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

/* ---- the global lock, when booted with it --------------------------------------- */

static void kprobe_lock_matches_mode(struct kprobe *kp, struct ktest *t)
{
	struct kprobe_lock_stats a, b;

	kprobe_lock_stats_sum(&a);
	KTEST_EXPECT_EQ(t, kpsmp_target(2), 7);
	kprobe_lock_stats_sum(&b);
	KTEST_EXPECT_EQ(t, kp->nhit, 1);
	if (kprobes_global_lock)
		KTEST_EXPECT_EQ(t, b.taken, a.taken + 1);
	else
		KTEST_EXPECT_EQ(t, b.taken, a.taken);
	KTEST_EXPECT_EQ(t, kprobe_cpu, NR_CPUS);	/* given back at the end of the hit */
}

static void kprobe_global_lock_counts(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)kpsmp_target,
			     .pre_handler = count_pre, .post_handler = count_post };

	ktest_info(t, "kprobes.lock=%s", kprobes_global_lock ? "global" : "percpu");
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	kprobe_lock_matches_mode(&kp, t);
	unregister_kprobe(&kp);
}

/*
 * kprobes.step= on the command line chose the design this run steps with
 * (int3 without it): the harness boots this suite once with
 * kprobes.step=tf, and every case above must pass in both.
 */
static void step_design_from_cmdline(struct ktest *t)
{
	char word[16];
	enum kprobe_step_design want = KPROBE_SS_INT3;

	if (cmdline_value("kprobes.step", word, sizeof(word)) && !strcmp(word, "tf"))
		want = KPROBE_SS_TF;
	ktest_info(t, "stepped with %s", kprobe_step_design_name(kprobe_step_design));
	KTEST_EXPECT_EQ(t, kprobe_step_design, want);
	KTEST_EXPECT_TRUE(t, kprobe_hit_layer(KPROBE_HIT_STEP) == kprobe_step_hit_ops(want));
}

static struct ktest_case kprobes_smp_cases[] = {
	KTEST_CASE(kprobe_concurrent_hits_exact),
	KTEST_CASE(kprobe_unregister_storm),
	KTEST_CASE(kretprobe_return_on_another_cpu),
	KTEST_CASE(jprobe_on_every_cpu),
	KTEST_CASE(kprobe_global_lock_counts),
	KTEST_CASE(kprobe_concurrent_misses_exact),
	KTEST_CASE(rmmod_while_probe_hit_elsewhere),
	KTEST_CASE(step_design_from_cmdline),
	KTEST_END
};

static struct ktest_suite kprobes_smp_suite = {
	.name = "kprobes_smp",
	.cases = kprobes_smp_cases,
};
KTEST_SUITE(kprobes_smp_suite);
