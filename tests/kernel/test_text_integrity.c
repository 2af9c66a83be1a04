/*
 * test_text_integrity.c - suite "text_integrity", run after every other
 * suite (KTEST_SUITE_LAST): whatever the suites before it probed,
 * optimized, boosted or loaded, every probe is gone again and the
 * kernel's .text is byte for byte what it was at boot.
 */
#include "ktest.h"
#include "kprobes.h"

static void no_probe_left_registered(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

static void text_identical_to_boot(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
}

static struct ktest_case text_integrity_cases[] = {
	KTEST_CASE(no_probe_left_registered),
	KTEST_CASE(text_identical_to_boot),
	KTEST_END,
};

static struct ktest_suite text_integrity_suite = {
	.name = "text_integrity",
	.cases = text_integrity_cases,
};
KTEST_SUITE_LAST(text_integrity_suite);
