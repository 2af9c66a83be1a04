/*
 * test_smoke.c - suite "smoke": the boot-time Kprobe smoke test
 * (probes/kprobes_smoke.c) judged from inside.  A smoke test that says
 * "passed" whatever happens is worse than none, so besides the good run
 * this suite makes every probe miss - the global switch
 * (disarm_all_kprobes(), /sys/kernel/debug/kprobes/enabled = 0) leaves
 * them registered but never armed - and expects the line to say which
 * probes did not fire.
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "kprobes_smoke.h"
#include "errno.h"
#include "string.h"

static void smoke_run_passes(struct ktest *t)
{
	int nr = kprobes_nr_registered();
	int ret;

	ktest_capture_start();
	ret = init_test_probes();
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(),
				    "Kprobe smoke test: passed\n") != NULL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr);	/* all gone again */
}

static void smoke_reports_probes_that_do_not_fire(struct ktest *t)
{
	const char *out;
	int ret;

	disarm_all_kprobes();
	ktest_capture_start();
	ret = init_test_probes();
	ktest_capture_stop();
	arm_all_kprobes();

	out = ktest_captured();
	KTEST_EXPECT_EQ(t, ret, -EFAULT);
	KTEST_EXPECT_TRUE(t, strstr(out, "Kprobe smoke test: FAILED: ") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "kprobe on crc32_byte: 0 pre, 0 post hits") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "jprobe on crc32_le: 0 hits") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "kretprobe on ht_hash: 0 hits") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "smoke test: passed") == NULL);
}

static struct ktest_case smoke_cases[] = {
	KTEST_CASE(smoke_run_passes),
	KTEST_CASE(smoke_reports_probes_that_do_not_fire),
	KTEST_END
};

static struct ktest_suite smoke_suite = {
	.name = "smoke",
	.cases = smoke_cases,
};
KTEST_SUITE(smoke_suite);
