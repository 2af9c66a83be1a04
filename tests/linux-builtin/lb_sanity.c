// SPDX-License-Identifier: GPL-2.0
/*
 * lb_sanity.c - the built-in kprobes sanity test in the shape Linux
 * kept from 4.15 to 5.13, after jprobes were removed: still no
 * module_init, still one global init_test_probes() that init_kprobes()
 * calls under CONFIG_KPROBES_SANITY_TEST=y, and now each kind tested
 * one at a time and as an array (register_kprobes(), register_kretprobes()).
 *
 *	make BUILTIN=tests/linux-builtin/lb_sanity.c CONFIG_KPROBES_SANITY_TEST=y
 */
#define pr_fmt(fmt) "Kprobe smoke test: " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/random.h>

#define div_factor 11

static u32 key, hits_a, hits_b, ret_a, ret_b;
static int errors, handler_errors, num_tests;
static u32 (*volatile lb_a)(u32 value);
static u32 (*volatile lb_b)(u32 value);

static noinline u32 lb_target_a(u32 value)
{
	return value / div_factor;
}

static noinline u32 lb_target_b(u32 value)
{
	return value / div_factor + 5;
}

static void check_context(const char *who)
{
	if (preemptible()) {
		handler_errors++;
		pr_err("%s is preemptible\n", who);
	}
}

static int pre_a(struct kprobe *p, struct pt_regs *regs)
{
	check_context("kprobe pre-handler");
	hits_a++;
	return 0;
}

static int pre_b(struct kprobe *p, struct pt_regs *regs)
{
	check_context("kprobe pre-handler");
	hits_b++;
	return 0;
}

static struct kprobe kp_a = { .symbol_name = "lb_target_a", .pre_handler = pre_a };
static struct kprobe kp_b = { .symbol_name = "lb_target_b", .pre_handler = pre_b };

/* Register kps, call both targets once; each probe's handler ran once. */
static int run_kprobes(struct kprobe **kps, int num)
{
	int ret;

	hits_a = hits_b = 0;
	ret = num == 1 ? register_kprobe(kps[0]) : register_kprobes(kps, num);
	if (ret < 0) {
		pr_err("register_kprobe(s) returned %d\n", ret);
		return ret;
	}
	lb_a(key);
	lb_b(key);
	if (num == 1)
		unregister_kprobe(kps[0]);
	else
		unregister_kprobes(kps, num);
	if (hits_a != 1 || hits_b != (num == 2)) {
		pr_err("kprobe handlers ran %u and %u times\n", hits_a, hits_b);
		return -1;
	}
	return 0;
}

static int test_kprobe(void)
{
	struct kprobe *kps[] = { &kp_a };

	return run_kprobes(kps, 1);
}

static int test_kprobes(void)
{
	struct kprobe *kps[] = { &kp_a, &kp_b };

	/* A probe is registered again after unregister: clear what it was given. */
	kp_a.addr = NULL;
	kp_a.flags = 0;
	return run_kprobes(kps, 2);
}

static int ret_handler_a(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	check_context("kretprobe handler");
	ret_a = regs_return_value(regs);
	return 0;
}

static int ret_handler_b(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	check_context("kretprobe handler");
	ret_b = regs_return_value(regs);
	return 0;
}

static struct kretprobe rp_a = { .handler = ret_handler_a, .kp.symbol_name = "lb_target_a" };
static struct kretprobe rp_b = { .handler = ret_handler_b, .kp.symbol_name = "lb_target_b" };

/* The handlers saw what the callers got. */
static int run_kretprobes(struct kretprobe **rps, int num)
{
	u32 got_a, got_b;
	int ret;

	ret_a = ret_b = 0;
	ret = num == 1 ? register_kretprobe(rps[0]) : register_kretprobes(rps, num);
	if (ret < 0) {
		pr_err("register_kretprobe(s) returned %d\n", ret);
		return ret;
	}
	got_a = lb_a(key);
	got_b = lb_b(key);
	if (num == 1)
		unregister_kretprobe(rps[0]);
	else
		unregister_kretprobes(rps, num);
	if (ret_a != got_a || (num == 2 && ret_b != got_b)) {
		pr_err("kretprobe handlers saw %u and %u, the callers %u and %u\n",
		       ret_a, ret_b, got_a, got_b);
		return -1;
	}
	return 0;
}

static int test_kretprobe(void)
{
	struct kretprobe *rps[] = { &rp_a };

	return run_kretprobes(rps, 1);
}

static int test_kretprobes(void)
{
	struct kretprobe *rps[] = { &rp_a, &rp_b };

	rp_a.kp.addr = NULL;
	rp_a.kp.flags = 0;
	return run_kretprobes(rps, 2);
}

int init_test_probes(void)
{
	int (*const tests[])(void) = {
		test_kprobe, test_kprobes, test_kretprobe, test_kretprobes,
	};
	unsigned int i;

	lb_a = lb_target_a;
	lb_b = lb_target_b;
	do {
		key = get_random_u32();
	} while (key <= div_factor);

	pr_info("started\n");
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		num_tests++;
		if (tests[i]() < 0)
			errors++;
	}

	if (errors)
		pr_err("BUG: %d out of %d tests failed\n", errors, num_tests);
	else if (handler_errors)
		pr_err("BUG: %d error(s) running handlers\n", handler_errors);
	else
		pr_info("passed successfully\n");
	return 0;
}
