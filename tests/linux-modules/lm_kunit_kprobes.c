// SPDX-License-Identifier: GPL-2.0
/*
 * lm_kunit_kprobes.c - the KUnit generation of Linux's kprobes self-test
 * (Linux 5.14 and later) in its own shape: only the four headers that
 * file includes, a global current_test the handlers assert through, and
 * preemptible() checked inside a handler, where Linux guarantees it is
 * false (a hit runs with preemption off and, on x86, interrupts off).
 * Everything else it needs must come through <linux/kprobes.h>, as it
 * does on Linux.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/random.h>
#include <kunit/test.h>

#define div_factor 5

static u32 seed, pre_seen, post_seen, ret_seen;
static u32 (*volatile first)(u32 value);
static u32 (*volatile second)(u32 value);
static struct kunit *current_test;

static noinline u32 lkk_target(u32 value)
{
	return value / div_factor;
}

static noinline u32 lkk_target2(u32 value)
{
	return value / div_factor + 2;
}

static int lkk_pre(struct kprobe *p, struct pt_regs *regs)
{
	KUNIT_EXPECT_FALSE(current_test, preemptible());
	pre_seen = seed / div_factor;
	return 0;
}

static void lkk_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	KUNIT_EXPECT_FALSE(current_test, preemptible());
	post_seen = pre_seen + 1;
}

static struct kprobe kp = {
	.symbol_name = "lkk_target",
	.pre_handler = lkk_pre,
	.post_handler = lkk_post,
};

static void lkk_kprobe(struct kunit *test)
{
	current_test = test;
	pre_seen = post_seen = 0;
	KUNIT_EXPECT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_EQ(test, seed / div_factor, first(seed));
	unregister_kprobe(&kp);
	KUNIT_EXPECT_NE(test, 0, pre_seen);
	KUNIT_EXPECT_EQ(test, pre_seen + 1, post_seen);
}

static int lkk_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	KUNIT_EXPECT_FALSE(current_test, preemptible());
	ret_seen = regs_return_value(regs);
	return 0;
}

static struct kretprobe rp = {
	.handler = lkk_ret,
	.kp.symbol_name = "lkk_target2",
};

static void lkk_kretprobe(struct kunit *test)
{
	current_test = test;
	ret_seen = 0;
	KUNIT_EXPECT_EQ(test, 0, register_kretprobe(&rp));
	KUNIT_EXPECT_EQ(test, seed / div_factor + 2, second(seed));
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, seed / div_factor + 2, ret_seen);
}

static int lkk_init(struct kunit *test)
{
	first = lkk_target;
	second = lkk_target2;
	do {
		seed = get_random_u32();
	} while (seed < div_factor);
	return 0;
}

static struct kunit_case lkk_cases[] = {
	KUNIT_CASE(lkk_kprobe),
	KUNIT_CASE(lkk_kretprobe),
	{}
};

static struct kunit_suite lkk_suite = {
	.name = "lm_kunit_kprobes",
	.init = lkk_init,
	.test_cases = lkk_cases,
};

kunit_test_suites(&lkk_suite);

MODULE_LICENSE("GPL");
