/*
 * test_probe_all.c - a probed kernel must behave exactly like an
 * unprobed one.  Linux's rule for kprobes: a probe is invisible to the
 * code it probes, or the place is refused (blacklisted, with a reason).
 *
 * Three suites:
 *   probe_invisible  the focused cases: the stepped copy of an instruction
 *                    that reads the thread's preempt_count must read what
 *                    the unprobed code reads, and sleeping under probes
 *                    is no "scheduling while atomic";
 *   probe_all        the sweep (probe_sweep.c) over the functions the
 *                    workloads execute plus a sample of the rest, in
 *                    `make test`, entry probes on ftrace; then every
 *                    call site again with kprobes.ftrace=0 (int3s on
 *                    the nops); probe_all_tf the same stepped with TF;
 *   probe_all_full   the same sweep over every function of the kernel
 *                    (`make test-all`, minutes; not run unless named).
 */
#include "ktest.h"
#include "kprobes.h"
#include "kallsyms.h"
#include <asm/insn.h>
#include "sched.h"
#include "mm.h"
#include "timer.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "string.h"
#include "probe_sweep.h"
#include "workload_results.h"

/* ---- probe every instruction of one function ------------------------------------- */

#define MAX_FN_SITES	128

struct fn_probes {
	struct kprobe kp[MAX_FN_SITES];
	int n;			/* registered */
	int sites;		/* instruction boundaries tried */
};

/*
 * A probe on every instruction boundary of the function `name`.  The
 * boundaries are all found first: once a probe is armed, its int3 is
 * what the text shows at its address.  With settle, the optimizer runs
 * after each registration: each probe becomes a jump, and the next one,
 * inside that jump's window, turns it back into an int3.
 */
static int probe_function_settled(struct ktest *t, struct fn_probes *fp, const char *name,
				  bool settle)
{
	unsigned long start = kallsyms_lookup_name(name), size, off, ip;
	struct insn insn;
	int i;

	memset(fp, 0, sizeof(*fp));
	if (!start || !kallsyms_lookup(start, &size, &off)) {
		ktest_fail(t, __FILE__, __LINE__, "%s: not in kallsyms", name);
		return -1;
	}
	for (ip = start; ip < start + size && fp->sites < MAX_FN_SITES; ip += insn.length) {
		if (insn_decode(&insn, (const void *)ip, INSN_MAX_LEN) <= 0)
			break;
		fp->kp[fp->sites++].addr = (kprobe_opcode_t *)ip;
	}
	for (i = 0; i < fp->sites; i++) {
		fp->kp[fp->n].addr = fp->kp[i].addr;
		if (register_kprobe(&fp->kp[fp->n]) == 0)
			fp->n++;
		if (settle)
			wait_for_kprobe_optimizer();
	}
	return fp->n;
}

static int probe_function(struct ktest *t, struct fn_probes *fp, const char *name)
{
	return probe_function_settled(t, fp, name, false);
}

static void unprobe_function(struct fn_probes *fp)
{
	for (int i = 0; i < fp->n; i++)
		unregister_kprobe(&fp->kp[i]);
	fp->n = 0;
}

static unsigned long total_hits(const struct fn_probes *fp)
{
	unsigned long hits = 0;

	for (int i = 0; i < fp->n; i++)
		hits += fp->kp[i].nhit;
	return hits;
}

/* ---- probe_invisible ------------------------------------------------------------- */

/*
 * What might_sleep() reads: the running thread's preempt_count, loaded
 * by one mov.  With that mov probed, it is the copy in the slot that
 * loads it, between the int3 and the #DB.
 */
static noinline int read_own_preempt_count(void)
{
	return current->preempt_count;
}

static struct fn_probes fp_a, fp_b, fp_c, fp_d;

static void stepped_copy_sees_unprobed_preempt_count(struct ktest *t)
{
	int unprobed = read_own_preempt_count(), probed;

	KTEST_ASSERT_EQ(t, unprobed, 0);
	KTEST_ASSERT_TRUE(t, probe_function(t, &fp_a, "read_own_preempt_count") > 1);
	probed = read_own_preempt_count();
	preempt_disable();
	KTEST_EXPECT_EQ(t, read_own_preempt_count(), 1);	/* a real count still shows */
	preempt_enable();
	KTEST_EXPECT_EQ(t, total_hits(&fp_a), 2 * fp_a.n);
	unprobe_function(&fp_a);
	KTEST_EXPECT_EQ(t, probed, unprobed);
}

/*
 * Every instruction of the sleeping paths probed: a thread that sleeps
 * and is joined must not look atomic to might_sleep().
 */
static void sleeping_under_probes_is_not_atomic(struct ktest *t)
{
	unsigned long result;

	probe_function(t, &fp_a, "msleep");
	probe_function(t, &fp_b, "kthread_join");
	probe_function(t, &fp_c, "yield");
	probe_function(t, &fp_d, "worker_thread");
	KTEST_EXPECT_TRUE(t, fp_a.n > 1 && fp_b.n > 1 && fp_c.n > 1 && fp_d.n > 1);
	ktest_capture_start();
	result = wl_thread();
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, total_hits(&fp_a) > 0 && total_hits(&fp_b) > 0);
	unprobe_function(&fp_a);
	unprobe_function(&fp_b);
	unprobe_function(&fp_c);
	unprobe_function(&fp_d);
	KTEST_EXPECT_EQ(t, result, wl_thread());
	if (strstr(ktest_captured(), "BUG:"))
		ktest_fail(t, __FILE__, __LINE__, "printed: %s", strstr(ktest_captured(), "BUG:"));
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

/*
 * register_kprobe() refuses to run inside a handler (-EBUSY).  With its
 * own instructions probed, each registration runs through the probes
 * already placed: the load that asks "is a hit in progress?" must not be
 * a stepped copy, or it sees its own probe as the hit.
 */
static void registering_under_probes_is_not_busy(struct ktest *t)
{
	static struct kprobe extra;

	/* Every hit stepped: a boosted or optimized copy runs after the hit. */
	kprobes_set_boosting(false);
	kprobes_set_optimization(false);
	probe_function(t, &fp_a, "register_kprobe");
	probe_function(t, &fp_b, "unregister_kprobe");
	KTEST_EXPECT_TRUE(t, fp_a.sites > 1 && fp_b.sites > 1);
	KTEST_EXPECT_EQ(t, fp_a.n, fp_a.sites);
	KTEST_EXPECT_EQ(t, fp_b.n, fp_b.sites);
	memset(&extra, 0, sizeof(extra));
	extra.addr = (kprobe_opcode_t *)read_own_preempt_count;
	KTEST_EXPECT_EQ(t, register_kprobe(&extra), 0);
	unregister_kprobe(&extra);
	KTEST_EXPECT_TRUE(t, total_hits(&fp_a) > 0 && total_hits(&fp_b) > 0);
	unprobe_function(&fp_b);
	unprobe_function(&fp_a);
	kprobes_set_boosting(true);
	kprobes_set_optimization(true);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

/*
 * The code that writes a jump's window, itself under optimized probes:
 * probes placed one by one on its instructions are each optimized, then
 * unoptimized by the next one's registration, so arch_optimize_kprobes()
 * and arch_unoptimize_kprobes() patch windows over their own code, and
 * each switch of the optimization does it again.  The patching thread
 * must never run a window it has half written.
 */
static void patching_code_under_optimized_probes(struct ktest *t)
{
	unsigned int optimized;

	probe_function_settled(t, &fp_a, "arch_optimize_kprobes", true);
	probe_function_settled(t, &fp_b, "arch_unoptimize_kprobes", true);
	KTEST_ASSERT_TRUE(t, fp_a.n > 1 && fp_b.n > 1);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	optimized = kprobes_nr_optimized();
	for (int round = 0; round < 2; round++) {
		kprobes_set_optimization(false);
		KTEST_EXPECT_EQ(t, kprobes_nr_optimized(), 0);
		kprobes_set_optimization(true);
		KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
		KTEST_EXPECT_EQ(t, kprobes_nr_optimized(), optimized);
	}
	KTEST_EXPECT_TRUE(t, optimized > 0);
	KTEST_EXPECT_TRUE(t, total_hits(&fp_a) > 0 && total_hits(&fp_b) > 0);
	unprobe_function(&fp_b);
	unprobe_function(&fp_a);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
}

/*
 * A pre-handler that turns interrupts on and waits out several time
 * slices, with another thread runnable: the tick must not preempt it in
 * the middle of the hit (kprobes raises the preempt count around its
 * handlers), yet the probed code still sees its own count of 0.
 */
#define HANDLER_TICKS	6	/* three 2-tick time slices */

static volatile unsigned long spinner_count;
static volatile bool spinner_stop;
static unsigned long spun_during_handler, count_in_handler;

static int spinner(void *arg)
{
	while (!spinner_stop)
		spinner_count++;
	return 0;
}

static int irqs_on_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long before = spinner_count, until = jiffies + HANDLER_TICKS;

	count_in_handler = preempt_count();
	local_irq_enable();
	while (time_before(jiffies, until))
		cpu_relax();
	local_irq_disable();
	spun_during_handler = spinner_count - before;
	return 0;
}

static void handler_with_interrupts_on_not_preempted(struct ktest *t)
{
	static struct kprobe kp;
	struct task_struct *other;
	int seen;

	spinner_stop = false;
	/* The spinner must compete for our CPU: both on CPU 0, the others parked. */
	sched_single_cpu_begin();
	other = kthread_create(spinner, NULL, "spinner");
	if (!other)
		sched_single_cpu_end();
	KTEST_ASSERT_TRUE(t, other != NULL);
	memset(&kp, 0, sizeof(kp));
	kp.addr = (kprobe_opcode_t *)read_own_preempt_count;
	kp.pre_handler = irqs_on_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	seen = read_own_preempt_count();
	unregister_kprobe(&kp);
	spinner_stop = true;
	kthread_join(other);
	sched_single_cpu_end();
	KTEST_EXPECT_EQ(t, kp.nhit, 1);
	KTEST_EXPECT_EQ(t, spun_during_handler, 0);	/* never scheduled away */
	KTEST_EXPECT_EQ(t, count_in_handler, 1);	/* non-preemptible, as on Linux */
	KTEST_EXPECT_EQ(t, seen, 0);			/* the probed code's own count */
	KTEST_EXPECT_TRUE(t, spinner_count > 0);	/* it did run, afterwards */
}

static struct ktest_case probe_invisible_cases[] = {
	KTEST_CASE(stepped_copy_sees_unprobed_preempt_count),
	KTEST_CASE(sleeping_under_probes_is_not_atomic),
	KTEST_CASE(registering_under_probes_is_not_busy),
	KTEST_CASE(patching_code_under_optimized_probes),
	KTEST_CASE(handler_with_interrupts_on_not_preempted),
	KTEST_END
};

static struct ktest_suite probe_invisible_suite = {
	.name = "probe_invisible",
	.cases = probe_invisible_cases,
};
KTEST_SUITE(probe_invisible_suite);

/* ---- probe_all, probe_all_full --------------------------------------------------- */

/*
 * In `make test`, every function the workloads execute and every
 * SAMPLE_EVERY-th of the others: enough to cross the scheduler, the heap,
 * printf, the shell and the drivers in a minute of QEMU time.
 */
#define SAMPLE_EVERY	16

/*
 * The sweep in one design of the step (kprobes.step), with entry probes
 * on ftrace whatever the user's switch says (kprobes_on_ftrace, Linux's
 * default): every site once per design.
 */
static void probe_all_stepped(struct ktest *t, enum kprobe_step_design design,
			      unsigned int every)
{
	bool on_ftrace = kprobes_on_ftrace;

	KTEST_ASSERT_EQ(t, kprobe_set_step_design(design), 0);
	kprobes_on_ftrace = true;
	probe_sweep(t, every);
	kprobes_on_ftrace = on_ftrace;
	KTEST_EXPECT_EQ(t, kprobe_set_step_design(KPROBE_SS_INT3), 0);
}

static void probe_all_sampled(struct ktest *t)
{
	probe_all_stepped(t, KPROBE_SS_INT3, SAMPLE_EVERY);
}

static void probe_all_sampled_tf(struct ktest *t)
{
	probe_all_stepped(t, KPROBE_SS_TF, SAMPLE_EVERY);
}

static void probe_all_every_function(struct ktest *t)
{
	probe_all_stepped(t, KPROBE_SS_INT3, 1);
}

static void probe_all_every_function_tf(struct ktest *t)
{
	probe_all_stepped(t, KPROBE_SS_TF, 1);
}

/*
 * Entry probes as int3s (kprobes.ftrace=0) in each design: the sites
 * that change are the call sites, so every function's call site is
 * swept, not every instruction again.
 */
static void probe_all_entries_noftrace(struct ktest *t, enum kprobe_step_design design)
{
	bool on_ftrace = kprobes_on_ftrace;

	KTEST_ASSERT_EQ(t, kprobe_set_step_design(design), 0);
	kprobes_on_ftrace = false;
	probe_sweep_entries(t);
	kprobes_on_ftrace = on_ftrace;
	KTEST_EXPECT_EQ(t, kprobe_set_step_design(KPROBE_SS_INT3), 0);
}

static void probe_all_call_sites_int3(struct ktest *t)
{
	probe_all_entries_noftrace(t, KPROBE_SS_INT3);
}

static void probe_all_call_sites_int3_tf(struct ktest *t)
{
	probe_all_entries_noftrace(t, KPROBE_SS_TF);
}

static struct ktest_case probe_all_cases[] = {
	KTEST_CASE(probe_all_sampled),
	KTEST_CASE(probe_all_call_sites_int3),
	KTEST_END
};

/* The same sweep stepped with TF and a #DB (kprobes.step=tf). */
static struct ktest_case probe_all_tf_cases[] = {
	KTEST_CASE(probe_all_sampled_tf),
	KTEST_CASE(probe_all_call_sites_int3_tf),
	KTEST_END
};

static struct ktest_suite probe_all_tf_suite = {
	.name = "probe_all_tf",
	.cases = probe_all_tf_cases,
};
KTEST_SUITE(probe_all_tf_suite);

static struct ktest_suite probe_all_suite = {
	.name = "probe_all",
	.cases = probe_all_cases,
};
KTEST_SUITE(probe_all_suite);

static struct ktest_case probe_all_full_cases[] = {
	KTEST_CASE(probe_all_every_function),
	KTEST_CASE(probe_all_every_function_tf),
	KTEST_END
};

static struct ktest_suite probe_all_full_suite = {
	.name = "probe_all_full",
	.cases = probe_all_full_cases,
	.on_request = true,
};
KTEST_SUITE(probe_all_full_suite);
