/*
 * test_stepmode.c - stepping in place vs out of line (kprobes.stepmode,
 * arch/i386/kprobes/stepmode.c; docs/kprobes-smp.md, "Why the slot").
 *
 *   outofline misses none   every CPU calls stepmode_target() at once
 *                           under a classic probe stepped in its slot:
 *                           hits == calls exactly
 *   inline misses some      the same, stepped in place: the int3 leaves
 *                           the text during each step and other CPUs run
 *                           through unseen, hits < calls.  The window is
 *                           short, so a round without a miss is retried,
 *                           up to INLINE_ROUNDS, before it counts as a
 *                           failure
 *   inline steps right      one CPU, a probe at every instruction of the
 *                           workloads, stepped out of line and then in
 *                           place: as many hits both ways, every one an
 *                           in-place step, the workloads compute what they
 *                           compute unprobed, .text is as before
 *   the switch              the debugfs words, a bad word refused with
 *                           nothing changed; boosting, optimization and
 *                           emulation are the user's switches: inline
 *                           leaves them as they were
 *
 * The first two need two CPUs and SKIP with one; run_tests.py boots the
 * suite at 1 and 2 CPUs and, as a concurrency suite, at 4.
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "kprobes_stepmode.h"
#include "smp.h"
#include "string.h"
#include "workloads.h"
#include "workload_results.h"
#include "every_insn.h"
#include "kallsyms.h"
#include "errno.h"

#define DEMO_CALLS	2000	/* calls on each CPU */
#define INLINE_ROUNDS	10	/* rounds of DEMO_CALLS before "never missed" fails */
#define MAX_WL_PROBES	600	/* every instruction of the workload functions */

static bool need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() >= 2)
		return true;
	ktest_skip(t, "needs two CPUs");
	return false;
}

static unsigned long all_in_place(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(kprobe_stepmode_stats, cpu).in_place;
	return n;
}

/* ---- every CPU at once ---------------------------------------------------------- */

static void stepmode_outofline_misses_none(struct ktest *t)
{
	uint32_t before = ktest_text_checksum();
	struct stepmode_run r;

	if (!need_two_cpus(t))
		return;
	KTEST_ASSERT_EQ(t, stepmode_demo(KPROBE_STEP_OUTOFLINE, DEMO_CALLS, &r), 0);
	ktest_info(t, "outofline: %lu of %lu calls hit on %d CPUs", r.hits, r.calls, r.cpus);
	KTEST_EXPECT_EQ(t, r.cpus, (int)num_online_cpus());
	KTEST_EXPECT_EQ(t, r.calls, (unsigned long)r.cpus * DEMO_CALLS);
	KTEST_EXPECT_EQ(t, r.hits, r.calls);
	KTEST_EXPECT_EQ(t, r.wrong, 0);
	KTEST_EXPECT_EQ(t, kprobe_stepmode, KPROBE_STEP_OUTOFLINE);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
}

static void stepmode_inline_misses_some(struct ktest *t)
{
	uint32_t before = ktest_text_checksum();
	unsigned long in_place = all_in_place();
	struct stepmode_run r;
	int round;

	if (!need_two_cpus(t))
		return;
	for (round = 1; round <= INLINE_ROUNDS; round++) {
		KTEST_ASSERT_EQ(t, stepmode_demo(KPROBE_STEP_INLINE, DEMO_CALLS, &r), 0);
		KTEST_EXPECT_EQ(t, r.wrong, 0);		/* missed, but never wrong */
		if (r.hits < r.calls)
			break;
	}
	ktest_info(t, "inline: %lu of %lu calls hit, %lu missed, round %d",
		   r.hits, r.calls, r.calls - r.hits, round);
	KTEST_EXPECT_EQ(t, r.cpus, (int)num_online_cpus());
	KTEST_EXPECT_TRUE(t, r.hits < r.calls);
	KTEST_EXPECT_TRUE(t, r.hits > 0);
	/* Every hit was an in-place step. */
	KTEST_EXPECT_TRUE(t, all_in_place() - in_place >= r.hits);
	KTEST_EXPECT_EQ(t, kprobe_stepmode, KPROBE_STEP_OUTOFLINE);	/* put back */
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);	/* no int3 left behind */
}

/* ---- one CPU: the in-place step itself ------------------------------------------------ */

static struct kprobe wl_probes[MAX_WL_PROBES];

static unsigned long probe_workloads(void)
{
	unsigned long n = 0, addr;

	memset(wl_probes, 0, sizeof(wl_probes));
	for (int i = 0; workload_functions[i]; i++) {
		addr = kallsyms_lookup_name(workload_functions[i]);
		if (addr)
			n += register_kprobe_every_insn(wl_probes + n, MAX_WL_PROBES - n,
							addr, NULL);
	}
	return n;
}

static unsigned long total_hits(unsigned long n)
{
	unsigned long hits = 0;

	for (unsigned long i = 0; i < n; i++)
		hits += wl_probes[i].nhit;
	return hits;
}

/* Run every workload, check its result; returns the probes' hits meanwhile. */
static unsigned long run_workloads(struct ktest *t, const unsigned long *want,
				   unsigned long n)
{
	unsigned long before = total_hits(n);

	for (int i = 0; i < nr_workload_results; i++)
		KTEST_EXPECT_EQ(t, workload_results[i].run(), want[i]);
	return total_hits(n) - before;
}

/*
 * The same probes, the same workloads, stepped out of line and then in
 * place: the same hits (the int3 came back after every step), all of
 * them in-place steps, the unprobed results.
 */
static void stepmode_inline_steps_correctly(struct ktest *t)
{
	unsigned long want[nr_workload_results], n, slot_hits, hits, in_place;
	uint32_t before = ktest_text_checksum();

	struct kprobes_fast_paths fast;
	bool on_ftrace = kprobes_on_ftrace;

	for (int i = 0; i < nr_workload_results; i++)
		want[i] = workload_results[i].run();
	kprobes_fast_paths_off(&fast);	/* every hit steps: none emulated, boosted, optimized */
	kprobes_on_ftrace = false;	/* every probe an int3, function entries too */
	/* In place is a TF step: compare it with the TF step out of line, branches stepped too. */
	KTEST_ASSERT_EQ(t, kprobe_set_step_design(KPROBE_SS_TF), 0);
	n = probe_workloads();
	kprobes_on_ftrace = on_ftrace;
	KTEST_EXPECT_TRUE(t, n > 0);
	slot_hits = run_workloads(t, want, n);
	KTEST_ASSERT_EQ(t, kprobe_set_stepmode(KPROBE_STEP_INLINE), 0);
	in_place = all_in_place();
	hits = run_workloads(t, want, n);
	in_place = all_in_place() - in_place;
	for (unsigned long i = 0; i < n; i++)
		unregister_kprobe(&wl_probes[i]);
	kprobe_set_stepmode(KPROBE_STEP_OUTOFLINE);
	KTEST_EXPECT_EQ(t, kprobe_set_step_design(KPROBE_SS_INT3), 0);
	kprobes_fast_paths_restore(&fast);
	ktest_info(t, "%lu probes; out of line %lu hits; in place %lu hits, %lu in-place steps",
		   n, slot_hits, hits, in_place);
	KTEST_EXPECT_TRUE(t, hits > 0);
	KTEST_EXPECT_EQ(t, hits, slot_hits);
	KTEST_EXPECT_EQ(t, in_place, hits);	/* every hit stepped at its own address */
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
}

/* ---- the switch ------------------------------------------------------------------ */

static int write_word(const char *word)
{
	return kprobe_stepmode_write(word, strlen(word), true, NULL);
}

static void stepmode_switch(struct ktest *t)
{
	bool opt = kprobes_get_optimization(), boost = kprobes_get_boosting();
	bool emulate = kprobes_get_emulation();

	KTEST_EXPECT_EQ(t, kprobe_stepmode, KPROBE_STEP_OUTOFLINE);	/* the default */
	KTEST_EXPECT_EQ(t, write_word("sideways\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, write_word("inlin"), -EINVAL);
	KTEST_EXPECT_EQ(t, kprobe_stepmode, KPROBE_STEP_OUTOFLINE);
	KTEST_ASSERT_EQ(t, write_word("inline\n"), 0);
	KTEST_EXPECT_EQ(t, kprobe_stepmode, KPROBE_STEP_INLINE);
	KTEST_EXPECT_EQ(t, kprobes_get_optimization(), opt);	/* the user's switches */
	KTEST_EXPECT_EQ(t, kprobes_get_boosting(), boost);
	KTEST_EXPECT_EQ(t, kprobes_get_emulation(), emulate);
	KTEST_EXPECT_TRUE(t, kprobe_hit_layer(KPROBE_HIT_STEP) == &kprobe_inplace_hit_ops);
	KTEST_ASSERT_EQ(t, write_word("outofline"), 0);
	KTEST_EXPECT_EQ(t, kprobe_stepmode, KPROBE_STEP_OUTOFLINE);
	KTEST_EXPECT_TRUE(t, kprobe_hit_layer(KPROBE_HIT_STEP) == &kprobe_linux_hit_ops);
	KTEST_EXPECT_EQ(t, kprobes_get_optimization(), opt);
	KTEST_EXPECT_EQ(t, kprobes_get_boosting(), boost);
	KTEST_EXPECT_EQ(t, kprobes_get_emulation(), emulate);
}

static struct ktest_case stepmode_cases[] = {
	KTEST_CASE(stepmode_switch),
	KTEST_CASE(stepmode_inline_steps_correctly),
	KTEST_CASE(stepmode_outofline_misses_none),
	KTEST_CASE(stepmode_inline_misses_some),
	KTEST_END
};

static struct ktest_suite stepmode_suite = {
	.name = "stepmode",
	.cases = stepmode_cases,
};
KTEST_SUITE(stepmode_suite);
