/*
 * test_kprobes_ftrace.c - suite "kprobes_ftrace": kprobes on a
 * function's call site ride on ftrace (probes/kprobes_ftrace.c,
 * arch/i386/kprobes/ftrace.c): no exception, the regs an int3 would
 * give, exact hit counts, kretprobes, and the switch back to int3.
 */
#include "ktest.h"
#include "kprobes.h"
#include "ftrace.h"
#include "rethook.h"
#include "sched.h"
#include "workloads.h"
#include <asm/traps.h>
#include "trap_watch.h"
#include "string.h"
#include "errno.h"
#include "narrate.h"

#define FIB_N		10
#define FIB_VALUE	55
#define FIB_CALLS	177	/* 2 * fib(11) - 1 */

static unsigned long pre_ip, post_ip, pre_ret, post_calls;

static int record_pre(struct kprobe *p, struct pt_regs *regs)
{
	pre_ip = regs->ip;
	pre_ret = *(unsigned long *)kernel_stack_pointer(regs);	/* the return address */
	return 0;
}

static void record_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	post_ip = regs->ip;
	post_calls++;
}

/* fib's first byte is its call site: an ftrace probe, as Linux makes it. */
static void entry_probe_rides_ftrace(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "fib", .pre_handler = record_pre,
			     .post_handler = record_post };
	unsigned long addr = (unsigned long)fib;
	struct trap_watch w;
	char line[160];

	post_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_TRUE(t, kprobe_ftrace(&kp));
	KTEST_EXPECT_EQ(t, *(unsigned char *)addr, CALL_INSN_OPCODE);
	sprint_kprobe(line, sizeof(line), &kp);
	KTEST_EXPECT_TRUE(t, strstr(line, "fib+0x0  [FTRACE]") != NULL);
	KTEST_ASSERT_EQ(t, trap_watch_start(&w), 0);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	trap_watch_stop(&w);
	KTEST_EXPECT_EQ(t, trap_watch_taken(&w, X86_TRAP_BP), 0);
	KTEST_EXPECT_EQ(t, trap_watch_taken(&w, X86_TRAP_DB), 0);
	KTEST_EXPECT_EQ(t, kp.nhit, FIB_CALLS);
	KTEST_EXPECT_EQ(t, post_calls, FIB_CALLS);
	/* As after an int3 on the first byte, then as after stepping the nop. */
	KTEST_EXPECT_EQ(t, pre_ip, addr + 1);
	KTEST_EXPECT_EQ(t, post_ip, addr + MCOUNT_INSN_SIZE);
	KTEST_EXPECT_EQ(t, ftrace_location(pre_ret), 0);	/* inside a caller, not a site */
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, memcmp((void *)addr, ftrace_nop_replace(), MCOUNT_INSN_SIZE), 0);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
}

/* kprobes.ftrace=0's switch: the same probe is an int3 on the nop. */
static void switch_off_takes_the_int3(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "fib", .pre_handler = record_pre };
	bool on = kprobes_on_ftrace;

	kprobes_on_ftrace = false;
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), 0);
	kprobes_on_ftrace = on;
	KTEST_EXPECT_FALSE(t, kprobe_ftrace(&kp));
	KTEST_EXPECT_EQ(t, *(unsigned char *)fib, BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, kp.nhit, FIB_CALLS);
	KTEST_EXPECT_EQ(t, pre_ip, (unsigned long)fib + 1);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, memcmp((void *)fib, ftrace_nop_replace(), MCOUNT_INSN_SIZE), 0);
}

static void no_op(unsigned long ip, unsigned long parent_ip,
		  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/* While the function tracer has the site, an int3 probe cannot share it. */
static void int3_refused_on_a_live_site(struct ktest *t)
{
	static struct ftrace_ops ops = { .func = no_op };
	struct kprobe kp = { .symbol_name = "fib", .pre_handler = record_pre };
	bool on = kprobes_on_ftrace;

	KTEST_ASSERT_EQ(t, ftrace_set_filter(&ops, "fib", 3, 1), 0);
	KTEST_ASSERT_EQ(t, register_ftrace_function(&ops), 0);
	kprobes_on_ftrace = false;
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EBUSY);
	kprobes_on_ftrace = on;
	KTEST_EXPECT_EQ(t, unregister_ftrace_function(&ops), 0);
	ftrace_free_filter(&ops);
}

static unsigned long ret_calls, ret_sum, ret_bad_ip;

/* Through rethook: regs->ip is already where the function returns to. */
static int count_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ret_calls++;
	ret_sum += regs_return_value(regs);
	if (regs->ip != (unsigned long)ri->ret_addr || get_kretprobe(ri) == NULL)
		ret_bad_ip++;
	return 0;
}

/* A kretprobe's entry on the call site: every return seen, every value. */
static void kretprobe_on_a_call_site(struct ktest *t)
{
	struct kretprobe rp = { .kp.symbol_name = "fib", .handler = count_return,
				.maxactive = 20 };
	struct trap_watch w;

	ret_calls = ret_sum = ret_bad_ip = 0;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_TRUE(t, kprobe_ftrace(&rp.kp));
	KTEST_EXPECT_TRUE(t, rp.rh != NULL);		/* its return is rethook's */
	KTEST_ASSERT_EQ(t, trap_watch_start(&w), 0);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	trap_watch_stop(&w);
	KTEST_EXPECT_EQ(t, trap_watch_total(&w), 0);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, ret_calls, FIB_CALLS);
	/* fib(n) returns the sum of its two calls: every call's value, summed. */
	KTEST_EXPECT_EQ(t, ret_sum, 420);
	KTEST_EXPECT_EQ(t, ret_bad_ip, 0);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	KTEST_EXPECT_TRUE(t, rp.rh == NULL);
	KTEST_EXPECT_TRUE(t, this_cpu_read(current_task)->rethooks == NULL);
}

/* A hit inside a handler is counted as missed, as on the int3 path. */
static struct kprobe inner_kp;

static int call_fib(struct kprobe *p, struct pt_regs *regs)
{
	return fib(2) != 1;
}

static void hit_in_handler_missed(struct ktest *t)
{
	struct kprobe outer = { .symbol_name = "sort_ints", .pre_handler = call_fib };
	int v[3] = { 3, 1, 2 };

	inner_kp = (struct kprobe){ .symbol_name = "fib" };
	KTEST_ASSERT_EQ(t, register_kprobe(&inner_kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&outer), 0);
	KTEST_EXPECT_TRUE(t, kprobe_ftrace(&outer));
	sort_ints(v, 3);
	unregister_kprobe(&outer);
	unregister_kprobe(&inner_kp);
	KTEST_EXPECT_EQ(t, outer.nhit, 1);
	KTEST_EXPECT_EQ(t, inner_kp.nhit, 0);
	KTEST_EXPECT_EQ(t, inner_kp.nmissed, 3);	/* fib(2), fib(1), fib(0) */
	KTEST_EXPECT_EQ(t, v[0], 1);
}

/*
 * Narration is a layer of the ftrace hit too: while it is on, the
 * trampoline calls the told handler, which counts and runs the handlers
 * as the usual one does; off, the usual one again, which has no test.
 */
static void narration_swaps_the_callback(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "fib", .pre_handler = record_pre,
			     .post_handler = record_post };

	post_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_TRUE(t, READ_ONCE(ftrace_trace_function) == kprobe_ftrace_handler);
	kprobe_narrate_set(true);
	KTEST_EXPECT_TRUE(t, READ_ONCE(ftrace_trace_function) == kprobe_ftrace_told_handler);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	kprobe_narrate_set(false);
	KTEST_EXPECT_TRUE(t, READ_ONCE(ftrace_trace_function) == kprobe_ftrace_handler);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, kp.nhit, 2 * FIB_CALLS);
	KTEST_EXPECT_EQ(t, post_calls, 2 * FIB_CALLS);
	KTEST_EXPECT_EQ(t, post_ip, (unsigned long)fib + MCOUNT_INSN_SIZE);
}

static struct ktest_case kprobes_ftrace_cases[] = {
	KTEST_CASE(entry_probe_rides_ftrace),
	KTEST_CASE(switch_off_takes_the_int3),
	KTEST_CASE(int3_refused_on_a_live_site),
	KTEST_CASE(kretprobe_on_a_call_site),
	KTEST_CASE(hit_in_handler_missed),
	KTEST_CASE(narration_swaps_the_callback),
	KTEST_END,
};

static struct ktest_suite kprobes_ftrace_suite = {
	.name = "kprobes_ftrace",
	.cases = kprobes_ftrace_cases,
};
KTEST_SUITE(kprobes_ftrace_suite);
