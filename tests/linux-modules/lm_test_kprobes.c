// SPDX-License-Identifier: GPL-2.0
/*
 * lm_test_kprobes.c - the kprobes self-test as a KUnit module, in the
 * shape of Linux's lib/test_kprobes.c: targets of its own, a global
 * current_test for the handlers, and Linux's API only.  Loading it runs
 * the suite and prints KTAP.  With kprobes switched off
 * (/sys/kernel/debug/kprobes/enabled = 0) the handlers never run and
 * the cases fail: they test the probes, not themselves.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/random.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/hardirq.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/kallsyms.h>
#include <kunit/test.h>

#define div_factor 3
#define STACK_ENTRIES 8

static u32 rand1, preh_val, posth_val;
static struct kunit *current_test;

/* The functions probed.  noinline: each must be a real call. */
static noinline u32 kprobe_target(u32 value)
{
	return value / div_factor;
}

static noinline u32 kprobe_target2(u32 value)
{
	return (value / div_factor) + 1;
}

static noinline u32 kprobe_target_alt(u32 value)
{
	return value * 2;
}

/* Never probed: one with NOKPROBE_SYMBOL, one in .kprobes.text. */
static noinline u32 kprobe_forbidden(u32 value)
{
	return value + 7;
}
NOKPROBE_SYMBOL(kprobe_forbidden);

static noinline u32 __kprobes kprobe_forbidden_text(u32 value)
{
	return value + 8;
}

/*
 * Called through pointers: gcc must not inline the calls, nor clone a
 * function for a constant argument (kprobe_target.constprop.0), which
 * would leave the symbol the probes name unused.
 */
static u32 (*volatile target)(u32 value) = kprobe_target;
static u32 (*volatile target2)(u32 value) = kprobe_target2;
static u32 (*volatile forbidden)(u32 value) = kprobe_forbidden;
static u32 (*volatile forbidden_text)(u32 value) = kprobe_forbidden_text;

/* ---- kprobes ------------------------------------------------------------- */

static int kp_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	KUNIT_EXPECT_FALSE(current_test, preemptible());
	KUNIT_EXPECT_PTR_EQ(current_test, kprobe_running(), p);
	KUNIT_EXPECT_EQ(current_test, get_kprobe_ctlblk()->kprobe_status,
			KPROBE_HIT_ACTIVE);
	/* Linux x86: the address after the int3. */
	KUNIT_EXPECT_EQ(current_test, instruction_pointer(regs),
			(unsigned long)p->addr + 1);
	KUNIT_EXPECT_EQ(current_test, regs_get_kernel_argument(regs, 0), rand1);
	/* Linux i386 (-mregparm=3): the first argument is in ax. */
	KUNIT_EXPECT_EQ(current_test, regs->ax, rand1);
	KUNIT_EXPECT_EQ(current_test,
			regs_get_register(regs, offsetof(struct pt_regs, ip)), regs->ip);
	KUNIT_EXPECT_FALSE(current_test, user_mode(regs));
	KUNIT_EXPECT_TRUE(current_test, cpu_online(smp_processor_id()));
	KUNIT_EXPECT_FALSE(current_test, in_interrupt());
	KUNIT_EXPECT_PTR_EQ(current_test, current->mm, NULL);
	KUNIT_EXPECT_EQ(current_test, task_pid_nr(current), current->pid);
	preh_val = (rand1 / div_factor);
	return 0;
}

static void kp_post_handler(struct kprobe *p, struct pt_regs *regs,
			    unsigned long flags)
{
	KUNIT_EXPECT_FALSE(current_test, preemptible());
	KUNIT_EXPECT_EQ(current_test, preh_val, (rand1 / div_factor));
	posth_val = preh_val + div_factor;
}

static struct kprobe kp = {
	.symbol_name = "kprobe_target",
	.pre_handler = kp_pre_handler,
	.post_handler = kp_post_handler
};

static void test_kprobe(struct kunit *test)
{
	current_test = test;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_EQ(test, target(rand1), rand1 / div_factor);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_NE(test, 0, preh_val);
	KUNIT_EXPECT_NE(test, 0, posth_val);
	KUNIT_EXPECT_EQ(test, kp.nhit, 1);
}

static struct kprobe kp2 = {
	.symbol_name = "kprobe_target2",
	.pre_handler = kp_pre_handler,
	.post_handler = kp_post_handler
};

static void test_kprobes(struct kunit *test)
{
	struct kprobe *kps[2] = {&kp, &kp2};

	current_test = test;
	/* addr and flags must be cleared: kp was registered before. */
	kp.addr = NULL;
	kp.flags = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kprobes(kps, 2));
	preh_val = posth_val = 0;
	KUNIT_EXPECT_EQ(test, target(rand1), rand1 / div_factor);
	KUNIT_EXPECT_NE(test, 0, preh_val);
	KUNIT_EXPECT_NE(test, 0, posth_val);
	preh_val = posth_val = 0;
	KUNIT_EXPECT_EQ(test, target2(rand1), rand1 / div_factor + 1);
	KUNIT_EXPECT_NE(test, 0, preh_val);
	KUNIT_EXPECT_NE(test, 0, posth_val);
	unregister_kprobes(kps, 2);
}

/* A probe hit inside another's handler is missed, not run. */
static int kp_nested_pre(struct kprobe *p, struct pt_regs *regs)
{
	target2(rand1);
	return 0;
}

static void test_kprobe_missed(struct kunit *test)
{
	struct kprobe outer = { .symbol_name = "kprobe_target",
				.pre_handler = kp_nested_pre };
	struct kprobe inner = { .symbol_name = "kprobe_target2",
				.pre_handler = kp_pre_handler };

	current_test = test;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&inner));
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&outer));
	target(rand1);
	unregister_kprobe(&outer);
	unregister_kprobe(&inner);
	KUNIT_EXPECT_EQ(test, outer.nhit, 1);
	KUNIT_EXPECT_EQ(test, inner.nhit, 0);
	KUNIT_EXPECT_EQ(test, inner.nmissed, 1);
}

/* A pre-handler may send the CPU elsewhere: set ip, return 1. */
static int kp_redirect_pre(struct kprobe *p, struct pt_regs *regs)
{
	instruction_pointer_set(regs, (unsigned long)kprobe_target_alt);
	reset_current_kprobe();	/* the old rule; harmless where the core does it */
	return 1;
}

static void test_kprobe_redirect(struct kunit *test)
{
	struct kprobe redirect = { .symbol_name = "kprobe_target",
				   .pre_handler = kp_redirect_pre };

	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&redirect));
	KUNIT_EXPECT_EQ(test, target(rand1), rand1 * 2);
	unregister_kprobe(&redirect);
	KUNIT_EXPECT_PTR_EQ(test, kprobe_running(), NULL);
	KUNIT_EXPECT_EQ(test, target(rand1), rand1 / div_factor);
}

/* What may not be probed is refused, with Linux's errors. */
static void test_kprobe_refused(struct kunit *test)
{
	struct kprobe p = { .symbol_name = "kprobe_forbidden" };

	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&p));
	p = (struct kprobe){ .symbol_name = "kprobe_forbidden_text" };
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&p));
	p = (struct kprobe){ .symbol_name = "no_such_function_here" };
	KUNIT_EXPECT_EQ(test, -ENOENT, register_kprobe(&p));
	KUNIT_EXPECT_EQ(test, forbidden(1) + forbidden_text(1), 17);
}

/* ---- kretprobes ------------------------------------------------------------ */

struct call_stamp {
	ktime_t start;
};

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;

	KUNIT_EXPECT_FALSE(current_test, preemptible());
	stamp->start = ktime_get();
	preh_val = (rand1 / div_factor);
	return 0;
}

static int return_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long ret = regs_return_value(regs);
	struct call_stamp *stamp = (struct call_stamp *)ri->data;

	KUNIT_EXPECT_FALSE(current_test, preemptible());
	KUNIT_EXPECT_EQ(current_test, ret, rand1 / div_factor);
	KUNIT_EXPECT_NE(current_test, preh_val, 0);
	KUNIT_EXPECT_GE(current_test, ktime_to_ns(ktime_sub(ktime_get(), stamp->start)), 0);
	posth_val = ret;
	regs_set_return_value(regs, ret + 1000);
	return 0;
}

static struct kretprobe rp = {
	.handler	= return_handler,
	.entry_handler	= entry_handler,
	.data_size	= sizeof(struct call_stamp),
	.kp.symbol_name = "kprobe_target"
};

static void test_kretprobe(struct kunit *test)
{
	current_test = test;
	preh_val = posth_val = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kretprobe(&rp));
	/* The return handler changed what the caller sees. */
	KUNIT_EXPECT_EQ(test, target(rand1), rand1 / div_factor + 1000);
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, posth_val, rand1 / div_factor);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, target(rand1), rand1 / div_factor);
}

/* ---- stack traces ------------------------------------------------------------ */

static unsigned long trace[STACK_ENTRIES];
static unsigned int trace_len;

static int stacktrace_pre(struct kprobe *p, struct pt_regs *regs)
{
	trace_len = stack_trace_save_regs(regs, trace, STACK_ENTRIES, 0);
	return 0;
}

static noinline u32 stacktrace_driver(void)
{
	return target(rand1) + 1;
}
static u32 (*volatile driver)(void) = stacktrace_driver;

static bool in_function(struct kunit *test, unsigned long addr, const char *name)
{
	const char *sym = kallsyms_lookup(addr, NULL, NULL);

	if (sym && strcmp(sym, name) == 0)
		return true;
	kunit_info(test, "%px is in %s, not in %s", (void *)addr, sym ? sym : "?", name);
	return false;
}

/* From a probe: the probed function, then its caller. */
static void test_stacktrace_on_kprobe(struct kunit *test)
{
	struct kprobe p = { .symbol_name = "kprobe_target",
			    .pre_handler = stacktrace_pre };

	trace_len = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&p));
	driver();
	unregister_kprobe(&p);
	KUNIT_ASSERT_GE(test, trace_len, 2);
	KUNIT_EXPECT_EQ(test, trace[0], (unsigned long)p.addr);
	KUNIT_EXPECT_TRUE(test, in_function(test, trace[1], "stacktrace_driver"));
}

/* Without a probe: entry 0 is the caller of stack_trace_save(). */
static void test_stacktrace_save(struct kunit *test)
{
	unsigned long all[STACK_TRACE_MAX];
	unsigned int n = stack_trace_save(all, STACK_TRACE_MAX, 0);

	KUNIT_ASSERT_GE(test, n, 2);
	KUNIT_EXPECT_TRUE(test, in_function(test, all[0], "test_stacktrace_save"));
	/* skipnr drops the innermost entries. */
	KUNIT_EXPECT_EQ(test, stack_trace_save(trace, STACK_ENTRIES, 1), min_t(unsigned int, n - 1, STACK_ENTRIES));
	KUNIT_EXPECT_EQ(test, trace[0], all[1]);
}

/* ---- the rest of what probe code leans on ------------------------------------- */

static void test_helpers(struct kunit *test)
{
	u32 draws[8], same = 0;
	ktime_t t0 = ktime_get(), t1;
	u8 *buf = kzalloc(64, GFP_KERNEL);
	u32 *arr = kunit_kzalloc(test, 4 * sizeof(u32), GFP_KERNEL);

	for (int i = 0; i < 8; i++)
		draws[i] = i & 1 ? prandom_u32() : get_random_u32();
	for (int i = 1; i < 8; i++)
		same += draws[i] == draws[0];
	KUNIT_EXPECT_LT(test, same, 7);
	KUNIT_EXPECT_LT(test, get_random_u32_below(10), 10);
	(void)random32();
	t1 = ktime_get();
	KUNIT_EXPECT_GE(test, ktime_to_ns(ktime_sub(t1, t0)), 0);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, arr);
	KUNIT_EXPECT_EQ(test, buf[0] | buf[63] | arr[3], 0);
	kfree(buf);
	KUNIT_EXPECT_TRUE(test, preemptible());
	KUNIT_EXPECT_FALSE(test, in_interrupt());
	KUNIT_EXPECT_PTR_EQ(test, kprobe_running(), NULL);
	KUNIT_EXPECT_NE(test, (unsigned long)__kretprobe_trampoline, 0);
}

static int kprobes_test_init(struct kunit *test)
{
	rand1 = get_random_u32_above(div_factor);
	preh_val = posth_val = 0;
	return 0;
}

static struct kunit_case kprobes_testcases[] = {
	KUNIT_CASE(test_kprobe),
	KUNIT_CASE(test_kprobes),
	KUNIT_CASE(test_kprobe_missed),
	KUNIT_CASE(test_kprobe_redirect),
	KUNIT_CASE(test_kprobe_refused),
	KUNIT_CASE(test_kretprobe),
	KUNIT_CASE(test_stacktrace_on_kprobe),
	KUNIT_CASE(test_stacktrace_save),
	KUNIT_CASE(test_helpers),
	{}
};

static struct kunit_suite kprobes_test_suite = {
	.name = "lm_kprobes_test",
	.init = kprobes_test_init,
	.test_cases = kprobes_testcases,
};

kunit_test_suites(&kprobes_test_suite);

MODULE_LICENSE("GPL");
