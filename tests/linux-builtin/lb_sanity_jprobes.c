// SPDX-License-Identifier: GPL-2.0
/*
 * lb_sanity_jprobes.c - the built-in kprobes sanity test in the shape
 * Linux kept from 2.6.25 to 4.14: no module_init at all, one global
 * init_test_probes() that init_kprobes() calls when the kernel is built
 * with CONFIG_KPROBES_SANITY_TEST=y, messages under the prefix "Kprobe
 * smoke test: ", and a jprobe among the probes.  Build it in with
 *
 *	make BUILTIN=tests/linux-builtin/lb_sanity_jprobes.c CONFIG_KPROBES_SANITY_TEST=y
 *
 * Each check counts as one test; a handler that finds something wrong
 * counts a handler error.  The last line says which.
 */
#define pr_fmt(fmt) "Kprobe smoke test: " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/random.h>

#define div_factor 7

static u32 key, pre_val, post_val, jp_val, ret_val;
static int errors, handler_errors, num_tests;
static u32 (*volatile lb_first)(u32 value);
static u32 (*volatile lb_second)(u32 value);

static noinline u32 lb_target(u32 value)
{
	return value / div_factor;
}

static noinline u32 lb_target2(u32 value)
{
	return value / div_factor + 3;
}

static int lb_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (preemptible()) {
		handler_errors++;
		pr_err("pre-handler is preemptible\n");
	}
	pre_val = key / div_factor;
	return 0;
}

static void lb_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	if (preemptible()) {
		handler_errors++;
		pr_err("post-handler is preemptible\n");
	}
	post_val = pre_val + 1;
}

static struct kprobe kp = {
	.symbol_name = "lb_target",
	.pre_handler = lb_pre,
	.post_handler = lb_post,
};

/* One kprobe: both handlers ran, once, around the real call. */
static int test_kprobe(void)
{
	int ret;

	pre_val = post_val = 0;
	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("register_kprobe returned %d\n", ret);
		return ret;
	}
	lb_first(key);
	unregister_kprobe(&kp);
	if (pre_val == 0 || post_val != pre_val + 1) {
		pr_err("kprobe handlers did not run (pre %u, post %u)\n",
		       pre_val, post_val);
		return -1;
	}
	return 0;
}

/* The jprobe's entry sees the argument the caller passed. */
static u32 lb_jentry(u32 value)
{
	if (preemptible()) {
		handler_errors++;
		pr_err("jprobe entry is preemptible\n");
	}
	jp_val = value;
	jprobe_return();
	return 0;
}

static struct jprobe jp = {
	.entry = JPROBE_ENTRY(lb_jentry),
	.kp.symbol_name = "lb_target2",
};

static int test_jprobe(void)
{
	int ret;

	jp_val = 0;
	ret = register_jprobe(&jp);
	if (ret < 0) {
		pr_err("register_jprobe returned %d\n", ret);
		return ret;
	}
	lb_second(key);
	unregister_jprobe(&jp);
	if (jp_val != key) {
		pr_err("jprobe entry saw %u, not %u\n", jp_val, key);
		return -1;
	}
	return 0;
}

/* The kretprobe's handler sees the value the caller got. */
static int lb_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (preemptible()) {
		handler_errors++;
		pr_err("kretprobe handler is preemptible\n");
	}
	ret_val = regs_return_value(regs);
	return 0;
}

static struct kretprobe rp = {
	.handler = lb_ret,
	.kp.symbol_name = "lb_target",
};

static int test_kretprobe(void)
{
	u32 got;
	int ret;

	ret_val = 0;
	ret = register_kretprobe(&rp);
	if (ret < 0) {
		pr_err("register_kretprobe returned %d\n", ret);
		return ret;
	}
	got = lb_first(key);
	unregister_kretprobe(&rp);
	if (ret_val != got) {
		pr_err("kretprobe handler saw %u, the caller %u\n", ret_val, got);
		return -1;
	}
	return 0;
}

int init_test_probes(void)
{
	lb_first = lb_target;
	lb_second = lb_target2;
	do {
		key = get_random_u32();
	} while (key <= div_factor);

	pr_info("started\n");
	num_tests++;
	if (test_kprobe() < 0)
		errors++;
	num_tests++;
	if (test_jprobe() < 0)
		errors++;
	num_tests++;
	if (test_kretprobe() < 0)
		errors++;

	if (errors)
		pr_err("BUG: %d out of %d tests failed\n", errors, num_tests);
	else if (handler_errors)
		pr_err("BUG: %d error(s) running handlers\n", handler_errors);
	else
		pr_info("passed successfully\n");
	return 0;
}
