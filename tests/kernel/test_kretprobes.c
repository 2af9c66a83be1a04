/*
 * test_kretprobes.c - suite "kretprobes": return probes on real calls.
 *
 *   values       the handler sees the return value (v / 3) and the
 *                caller's address; it may change the value
 *   entry        entry_handler runs first, its per-call data reaches the
 *                return handler; a non-zero return skips the call
 *   matching     recursion (fib(10): every return, in order, matched to
 *                its own call), nesting with a small pool (exact misses),
 *                two threads sleeping inside the same probed function;
 *                the profile counts a kretprobe's pool misses
 *   backtrace    a frame-pointer trace shows real callers, never the
 *                trampoline (Linux's test_stacktrace_on_kretprobe)
 *   lifetime     unregister while a call is in progress: it still returns
 *                to its caller and the heap comes back to where it was;
 *                a thread exiting inside a probed call frees its instance
 *   sharing      a kprobe, a second kretprobe or a jprobe on the function
 *   listing      kprobes_list_print() for k, j, r
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "rethook.h"
#include <asm/ptrace.h>
#include "kallsyms.h"
#include "errno.h"
#include <asm/irqflags.h>
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"

#define probe_target __attribute__((__noinline__, __noclone__, __used__))

/* ---- targets -------------------------------------------------------------------- */

probe_target int krt_div3(int v)
{
	return v / 3;
}

probe_target int krt_fib(int n)
{
	return n < 2 ? n : krt_fib(n - 1) + krt_fib(n - 2);
}

probe_target int krt_helper(int v)
{
	return v + 100;
}

static volatile int block_entered, block_release;

/* Sleeps until released: a call that stays in progress. */
probe_target int krt_block(int v)
{
	block_entered++;
	while (!READ_ONCE(block_release))
		msleep(1);
	return v * 2;
}

probe_target int krt_sleepy(int v)
{
	msleep(v * 3);
	return v * 11;
}

#define TRACE_DEPTH 16
static unsigned long target_trace[TRACE_DEPTH], target_raw_ret;
static int target_ntrace;

/* Traces its own call stack while a return probe owns its return slot. */
probe_target unsigned long krt_stack_target(void)
{
	target_raw_ret = (unsigned long)__builtin_return_address(0);
	target_ntrace = save_stack_trace_bp((unsigned long)__builtin_frame_address(0),
					    target_trace, TRACE_DEPTH);
	return target_trace[0];
}

static unsigned long (*volatile call_stack_target)(void) = krt_stack_target;

probe_target unsigned long krt_stack_driver(void)
{
	return call_stack_target();
}

static int (*volatile call_div3)(int) = krt_div3;
static int (*volatile call_fib)(int) = krt_fib;
static int (*volatile call_helper)(int) = krt_helper;
static int (*volatile call_block)(int) = krt_block;
static int (*volatile call_sleepy)(int) = krt_sleepy;
static unsigned long (*volatile call_stack_driver)(void) = krt_stack_driver;

/* ---- recording --------------------------------------------------------------------- */

static struct {
	int ret_calls, entry_calls, seq;
	long retval;
	unsigned long ip, ret_addr;
	int entry_seq, ret_seq, data_seen;
	int pairs[200][2], npairs;
	int order[4], norder;
} rec;

static void rec_reset(void)
{
	memset(&rec, 0, sizeof(rec));
}

/* The first argument at a probed entry: in %eax (-mregparm=3). */
static unsigned long entry_arg0(struct pt_regs *regs)
{
	return regs_get_kernel_argument(regs, 0);
}

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	rec.ret_calls++;
	rec.retval = (long)regs_return_value(regs);
	rec.ip = regs->ip;
	rec.ret_addr = (unsigned long)ri->ret_addr;
	return 0;
}

static struct kretprobe make_kretprobe(void *func, kretprobe_handler_t handler)
{
	struct kretprobe rp = { .kp = { .addr = func }, .handler = handler };

	return rp;
}

/* ---- values ------------------------------------------------------------------------ */

static void kretprobe_return_value(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_div3, ret_handler);

	rec_reset();
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, rp.maxactive, KRETPROBE_DEFAULT_MAXACTIVE);
	KTEST_EXPECT_EQ(t, call_div3(2021), 673);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, rec.retval, 673);
	KTEST_EXPECT_EQ(t, rp.kp.nhit, 1);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	/* regs->ip is where the call returns to: inside this test function. */
	KTEST_EXPECT_EQ(t, rec.ip, rec.ret_addr);
	KTEST_EXPECT_TRUE(t, rec.ip > (unsigned long)kretprobe_return_value &&
			     rec.ip < (unsigned long)kretprobe_return_value + 0x400);
	/* Unregistered: the function is plain again. */
	KTEST_EXPECT_EQ(t, call_div3(9), 3);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
}

static int change_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	regs->ax = 42;
	return 0;
}

static void kretprobe_handler_changes_return_value(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_div3, change_handler);

	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_div3(300), 42);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, call_div3(300), 100);
}

/* ---- entry handler --------------------------------------------------------------------- */

struct call_data {
	int arg;
	int seq;
};

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_data *d = (struct call_data *)ri->data;

	rec.entry_calls++;
	d->arg = (int)entry_arg0(regs);
	d->seq = ++rec.seq;
	return d->arg < 0;	/* negative arguments: not probed */
}

static int data_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_data *d = (struct call_data *)ri->data;

	rec.ret_calls++;
	rec.entry_seq = d->seq;
	rec.ret_seq = ++rec.seq;
	rec.data_seen = d->arg;
	rec.retval = (long)regs_return_value(regs);
	return 0;
}

static void kretprobe_entry_handler_data(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_div3, data_handler);

	rec_reset();
	rp.entry_handler = entry_handler;
	rp.data_size = sizeof(struct call_data);
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_div3(33), 11);
	KTEST_EXPECT_EQ(t, rec.entry_calls, 1);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, rec.entry_seq, 1);
	KTEST_EXPECT_EQ(t, rec.ret_seq, 2);
	KTEST_EXPECT_EQ(t, rec.data_seen, 33);
	KTEST_EXPECT_EQ(t, rec.retval, 11);

	/* The entry handler said no: no return probe, the instance stays free. */
	KTEST_EXPECT_EQ(t, call_div3(-9), -3);
	KTEST_EXPECT_EQ(t, rec.entry_calls, 2);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	unregister_kretprobe(&rp);
}

/* ---- matching ------------------------------------------------------------------------ */

static int pair_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(int *)ri->data = (int)entry_arg0(regs);
	return 0;
}

static int pair_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (rec.npairs < (int)ARRAY_SIZE(rec.pairs)) {
		rec.pairs[rec.npairs][0] = *(int *)ri->data;
		rec.pairs[rec.npairs][1] = (int)regs_return_value(regs);
	}
	rec.npairs++;
	return 0;
}

/* The (n, fib(n)) returns in order (post-order), computed without probes. */
static int ref_pairs[200][2], ref_npairs;

static int ref_fib(int n)
{
	int r = n < 2 ? n : ref_fib(n - 1) + ref_fib(n - 2);

	if (ref_npairs < (int)ARRAY_SIZE(ref_pairs)) {
		ref_pairs[ref_npairs][0] = n;
		ref_pairs[ref_npairs][1] = r;
	}
	ref_npairs++;
	return r;
}

static void kretprobe_recursive_fib(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_fib, pair_handler);

	rec_reset();
	ref_npairs = 0;
	ref_fib(10);
	rp.entry_handler = pair_entry;
	rp.data_size = sizeof(int);
	rp.maxactive = 20;		/* fib(10) nests 10 deep */
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_fib(10), 55);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, ref_npairs, 177);
	KTEST_EXPECT_EQ(t, rec.npairs, 177);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	KTEST_EXPECT_EQ(t, memcmp(rec.pairs, ref_pairs, sizeof(ref_pairs)), 0);
}

/* What a pool of `pool` instances gives fib(n): probed returns and misses. */
static void ref_pool(int n, int *pool, int *probed, int *missed)
{
	bool took = *pool > 0;

	if (took)
		(*pool)--;
	else
		(*missed)++;
	if (n >= 2) {
		ref_pool(n - 1, pool, probed, missed);
		ref_pool(n - 2, pool, probed, missed);
	}
	if (took) {
		(*pool)++;
		(*probed)++;
	}
}

static void kretprobe_maxactive_misses(struct ktest *t)
{
	for (int maxactive = 1; maxactive <= 3; maxactive++) {
		struct kretprobe rp = make_kretprobe(krt_fib, pair_handler);
		int pool = maxactive, probed = 0, missed = 0;

		ref_pool(6, &pool, &probed, &missed);
		rec_reset();
		rp.entry_handler = pair_entry;
		rp.data_size = sizeof(int);
		rp.maxactive = maxactive;
		KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
		KTEST_EXPECT_EQ(t, call_fib(6), 8);
		unregister_kretprobe(&rp);
		KTEST_EXPECT_EQ(t, rec.npairs, probed);
		KTEST_EXPECT_EQ(t, rp.nmissed, missed);
		KTEST_EXPECT_EQ(t, rp.kp.nhit, 25);
		if (maxactive == 1) {
			/* Only the outermost call: everything inside it missed. */
			KTEST_EXPECT_EQ(t, missed, 24);
			KTEST_EXPECT_EQ(t, rec.pairs[0][0], 6);
			KTEST_EXPECT_EQ(t, rec.pairs[0][1], 8);
		}
	}
}

/*
 * The profile's "missed" for a kretprobe counts the calls its pool let
 * go unprobed (rp->nmissed), not only the hits stepped without handlers.
 */
static void kretprobe_profile_counts_pool_misses(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_fib, ret_handler);
	char list_line[128], want[160], got[160];

	rp.maxactive = 1;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_fib(4), 3);	/* 9 calls; only the outermost fits */
	KTEST_EXPECT_EQ(t, rp.kp.nhit, 9);
	KTEST_EXPECT_EQ(t, rp.kp.nmissed, 0);
	KTEST_EXPECT_EQ(t, rp.nmissed, 8);
	KTEST_EXPECT_EQ(t, kprobe_missed(&rp.kp), 8);

	/* Settled: the optimizer (OPTIMIZE_DELAY later) must not change the line between the two. */
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	sprint_kprobe(list_line, sizeof(list_line), &rp.kp);
	snprintf(want, sizeof(want), "%-48s hit %8lu  missed %8lu", list_line, 9ul, 8ul);
	sprint_kprobe_profile(got, sizeof(got), &rp.kp);
	KTEST_EXPECT_STREQ(t, got, want);
	unregister_kretprobe(&rp);
}

struct sleeper {
	int arg, result;
};

static int sleeper_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(int *)ri->data = (int)entry_arg0(regs);
	return 0;
}

static int sleeper_results[8][2], nsleeper_results;

static int sleeper_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	int i = __sync_fetch_and_add(&nsleeper_results, 1);	/* threads return on any CPU */

	if (i < 8) {
		sleeper_results[i][0] = *(int *)ri->data;
		sleeper_results[i][1] = (int)regs_return_value(regs);
	}
	return 0;
}

static int sleeper_thread(void *arg)
{
	struct sleeper *s = arg;

	s->result = call_sleepy(s->arg);
	return s->result;
}

/* Two threads inside the same probed function at once: each gets its own return. */
static void kretprobe_threads_do_not_mix(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_sleepy, sleeper_handler);
	struct sleeper a = { .arg = 3 }, b = { .arg = 1 };
	struct task_struct *ta, *tb;

	nsleeper_results = 0;
	rp.entry_handler = sleeper_entry;
	rp.data_size = sizeof(int);
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	ta = kthread_create(sleeper_thread, &a, "krt-a");
	tb = kthread_create(sleeper_thread, &b, "krt-b");
	KTEST_ASSERT_TRUE(t, ta && tb);
	KTEST_EXPECT_EQ(t, call_sleepy(2), 22);	/* and this thread too */
	KTEST_EXPECT_EQ(t, kthread_join(ta), 33);
	KTEST_EXPECT_EQ(t, kthread_join(tb), 11);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, nsleeper_results, 3);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	for (int i = 0; i < nsleeper_results && i < 8; i++)
		KTEST_EXPECT_EQ(t, sleeper_results[i][1], sleeper_results[i][0] * 11);
}

/* ---- backtrace ----------------------------------------------------------------------- */

static unsigned long handler_trace[TRACE_DEPTH];
static int handler_ntrace;

static int trace_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	handler_ntrace = save_stack_trace_bp((unsigned long)__builtin_frame_address(0),
					     handler_trace, TRACE_DEPTH);
	rec.ip = regs->ip;
	return 0;
}

static bool trace_has(const unsigned long *trace, int n, unsigned long addr)
{
	for (int i = 0; i < n; i++)
		if (trace[i] == addr)
			return true;
	return false;
}

static void kretprobe_backtrace_shows_callers(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_stack_target, trace_handler);
	unsigned long real_ret;

	/* Unprobed: where the target returns to, inside the driver. */
	call_stack_driver();
	real_ret = target_raw_ret;
	KTEST_EXPECT_EQ(t, target_trace[0], real_ret);

	rec_reset();
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_stack_driver(), real_ret);
	unregister_kretprobe(&rp);

	/* Inside the target, its slot held the trampoline... */
	KTEST_EXPECT_EQ(t, target_raw_ret, (unsigned long)kretprobe_trampoline);
	/* ...but the unwinder showed the driver, and no trampoline anywhere. */
	KTEST_EXPECT_EQ(t, target_trace[0], real_ret);
	KTEST_EXPECT_FALSE(t, trace_has(target_trace, target_ntrace,
					(unsigned long)kretprobe_trampoline));
	/* From the return handler too: the driver is on the way back. */
	KTEST_EXPECT_EQ(t, rec.ip, real_ret);
	KTEST_EXPECT_TRUE(t, trace_has(handler_trace, handler_ntrace, real_ret));
	KTEST_EXPECT_FALSE(t, trace_has(handler_trace, handler_ntrace,
					(unsigned long)kretprobe_trampoline));
}

/* ---- lifetime ------------------------------------------------------------------------- */

static int block_thread(void *arg)
{
	return call_block(7);
}

static int count_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	rec.ret_calls++;
	return 0;
}

/*
 * A thread sleeps inside the probed function; the kretprobe is
 * unregistered and even freed under it; the thread is released.  Its
 * return must still reach its caller, and every byte the kretprobe
 * allocated must be given back.
 */
static void kretprobe_unregister_while_in_progress(struct ktest *t)
{
	struct heap_stats before, after;
	struct kretprobe *rp;
	struct task_struct *th;

	rec_reset();
	block_entered = block_release = 0;
	heap_get_stats(&before);
	rp = kzalloc(sizeof(*rp));
	KTEST_ASSERT_TRUE(t, rp != NULL);
	*rp = make_kretprobe(krt_block, count_handler);
	KTEST_ASSERT_EQ(t, register_kretprobe(rp), 0);

	th = kthread_create(block_thread, NULL, "krt-block");
	KTEST_ASSERT_TRUE(t, th != NULL);
	while (!READ_ONCE(block_entered))
		msleep(1);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 1);

	unregister_kretprobe(rp);
	memset(rp, 0x6b, sizeof(*rp));	/* any use of it now would show */
	kfree(rp);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 1);	/* the orphan */

	block_release = 1;
	KTEST_EXPECT_EQ(t, kthread_join(th), 14);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 0);			/* no handler: unregistered */
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
	heap_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.live_allocs, before.live_allocs);
	KTEST_EXPECT_EQ(t, after.live_bytes, before.live_bytes);
}

/* With v != 0 the calling thread exits in here: the call never returns. */
probe_target int krt_maybe_exit(int v)
{
	if (v)
		kthread_exit(v);
	return 5;
}

static int (*volatile call_maybe_exit)(int) = krt_maybe_exit;

static int exiting_thread(void *arg)
{
	call_maybe_exit(21);
	return -1;			/* not reached */
}

/*
 * A thread exits from inside a kretprobed call: kthread_exit() gives its
 * instance back (kprobe_flush_task), so the pool is whole again and
 * nothing is left outstanding or allocated.
 */
static void kretprobe_thread_exits_inside(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_maybe_exit, ret_handler);
	struct heap_stats before, after;
	struct task_struct *th;

	rec_reset();
	heap_get_stats(&before);
	rp.maxactive = 1;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	th = kthread_create(exiting_thread, NULL, "krt-exit");
	KTEST_ASSERT_TRUE(t, th != NULL);
	KTEST_EXPECT_EQ(t, kthread_join(th), 21);
	KTEST_EXPECT_EQ(t, rp.kp.nhit, 1);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 0);		/* it never returned */
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);

	/* The one instance is free again: this call is probed, not missed. */
	KTEST_EXPECT_EQ(t, call_maybe_exit(0), 5);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, rec.retval, 5);
	KTEST_EXPECT_EQ(t, rp.nmissed, 0);
	unregister_kretprobe(&rp);
	heap_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.live_allocs, before.live_allocs);
	KTEST_EXPECT_EQ(t, after.live_bytes, before.live_bytes);
}

/* ---- sharing ----------------------------------------------------------------------------- */

static int kp_pre_calls;

static int kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	kp_pre_calls++;
	return 0;
}

static int second_calls;
static long second_retval;

static int second_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	second_calls++;
	second_retval = (long)regs_return_value(regs);
	return 0;
}

static void kretprobe_shares_function(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_div3, ret_handler);
	struct kretprobe rp2 = make_kretprobe(krt_div3, second_handler);
	struct kprobe kp = { .addr = (kprobe_opcode_t *)krt_div3, .pre_handler = kp_pre };

	rec_reset();
	kp_pre_calls = second_calls = 0;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(30), 10);
	KTEST_EXPECT_EQ(t, kp_pre_calls, 1);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, rec.retval, 10);

	/* A second kretprobe: two trampolines chained on one return slot. */
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp2), 0);
	KTEST_EXPECT_EQ(t, call_div3(60), 20);
	KTEST_EXPECT_EQ(t, kp_pre_calls, 2);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 2);
	KTEST_EXPECT_EQ(t, second_calls, 1);
	KTEST_EXPECT_EQ(t, second_retval, 20);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);

	KTEST_EXPECT_EQ(t, register_kretprobe(&rp), -EEXIST);	/* already registered */
	unregister_kretprobe(&rp2);
	unregister_kprobe(&kp);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_TRUE(t, get_kprobe(krt_div3) == NULL);
}

static int jp_calls, jp_arg;

static int div3_jprobe(int v)
{
	jp_calls++;
	jp_arg = v;
	jprobe_return();
}

static int forgetful_jprobe(int v)
{
	jp_calls++;
	return 0;
}

/* The jprobe saves the stack with the trampoline in it and puts it back. */
static void kretprobe_with_jprobe(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_div3, ret_handler);
	struct jprobe jp = { .kp = { .addr = (kprobe_opcode_t *)krt_div3 },
			     .entry = div3_jprobe };

	rec_reset();
	jp_calls = 0;
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_div3(99), 33);
	KTEST_EXPECT_EQ(t, jp_calls, 1);
	KTEST_EXPECT_EQ(t, jp_arg, 99);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, rec.retval, 33);
	unregister_jprobe(&jp);

	/* A jprobe handler that forgets jprobe_return(): the trampoline survives. */
	jp.entry = forgetful_jprobe;
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_EQ(t, call_div3(12), 4);
	KTEST_EXPECT_EQ(t, jp.nbad_return, 1);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 2);
	KTEST_EXPECT_EQ(t, rec.retval, 4);
	unregister_jprobe(&jp);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
}

/* A probe hit inside a return handler is missed, like inside any handler. */
static int helper_kp_calls;

static int helper_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	helper_kp_calls++;
	return 0;
}

static int calling_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	rec.retval = call_helper(1);
	rec.ret_calls++;
	return 0;
}

static void kretprobe_handler_hits_probe(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_div3, calling_handler);
	struct kprobe kp = { .addr = (kprobe_opcode_t *)krt_helper, .pre_handler = helper_kp_pre };

	rec_reset();
	helper_kp_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_div3(6), 2);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 1);
	KTEST_EXPECT_EQ(t, rec.retval, 101);
	KTEST_EXPECT_EQ(t, helper_kp_calls, 0);
	KTEST_EXPECT_EQ(t, kp.nmissed, 1);
	KTEST_EXPECT_EQ(t, call_helper(0), 100);
	KTEST_EXPECT_EQ(t, helper_kp_calls, 1);
	unregister_kretprobe(&rp);
	unregister_kprobe(&kp);
}

/* ---- refusals and array forms ---------------------------------------------------------- */

static void kretprobe_bad_input_and_arrays(struct ktest *t)
{
	unsigned int nr = kprobes_nr_registered();
	struct heap_stats before, after;
	struct kretprobe a = make_kretprobe(krt_div3, ret_handler);
	struct kretprobe b = make_kretprobe(krt_fib, ret_handler);
	struct kretprobe bad = make_kretprobe((char *)krt_helper + 1, ret_handler);
	struct kretprobe none = make_kretprobe(krt_helper, NULL);
	struct kretprobe *good[] = { &a, &b }, *mixed[] = { &a, &b, &bad };

	heap_get_stats(&before);
	KTEST_EXPECT_EQ(t, register_kretprobe(&bad), -EINVAL);	/* not an entry */
	KTEST_EXPECT_EQ(t, register_kretprobe(&none), -EINVAL);	/* no handler at all */
	bad.kp.addr = NULL;
	bad.kp.symbol_name = "krt_helper";
	bad.kp.offset = 2;
	KTEST_EXPECT_EQ(t, register_kretprobe(&bad), -EINVAL);

	rec_reset();
	KTEST_ASSERT_EQ(t, register_kretprobes(good, 2), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr + 2);
	KTEST_EXPECT_EQ(t, call_div3(3), 1);
	KTEST_EXPECT_EQ(t, call_fib(1), 1);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 2);
	unregister_kretprobes(good, 2);
	KTEST_EXPECT_EQ(t, register_kretprobes(mixed, 3), -EINVAL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr);
	heap_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.live_allocs, before.live_allocs);
}

/* ---- seeing the probes -------------------------------------------------------------------- */

static struct {
	const struct kprobe *want;
	char line[128];
} found[3];

static int find_line(struct kprobe *p, void *data)
{
	for (int i = 0; i < 3; i++)
		if (p == found[i].want)
			sprint_kprobe(found[i].line, sizeof(found[i].line), p);
	return 0;
}

static int list_jprobe(int v)
{
	jprobe_return();
}

/*
 * One probe of each kind, listed in Linux's debugfs format, then the
 * list and the profile printed once into the boot log.
 */
static void kprobes_list_shows_types(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)krt_helper, .pre_handler = kp_pre };
	struct jprobe jp = { .kp = { .symbol_name = "krt_fib" }, .entry = list_jprobe };
	struct kretprobe rp = make_kretprobe(krt_div3, ret_handler);
	char want[128];

	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	call_helper(1);
	call_fib(3);			/* 5 calls */
	call_div3(3);
	KTEST_EXPECT_EQ(t, disable_kprobe(&kp), 0);
	call_helper(1);			/* not counted: disabled */

	wait_for_kprobe_optimizer();	/* the list shows what the optimizer made of rp */
	memset(found, 0, sizeof(found));
	found[0].want = &kp;
	found[1].want = &jp.kp;
	found[2].want = &rp.kp;
	kprobes_for_each(find_line, NULL);

	snprintf(want, sizeof(want), "%08lx  k  krt_helper+0x0  [DISABLED]",
		 (unsigned long)krt_helper);
	KTEST_EXPECT_STREQ(t, found[0].line, want);
	snprintf(want, sizeof(want), "%08lx  j  krt_fib+0x0%s", (unsigned long)krt_fib,
		 kprobes_get_optimization() ?	/* its break-handler keeps it an int3 */
		 "  [NOT OPTIMIZED: has a post- or break-handler]" : "");
	KTEST_EXPECT_STREQ(t, found[1].line, want);
	snprintf(want, sizeof(want), "%08lx  r  krt_div3+0x0%s", (unsigned long)krt_div3,
		 kprobe_optimized(&rp.kp) ? "  [OPTIMIZED]" : "");	/* optprobes */
	KTEST_EXPECT_STREQ(t, found[2].line, want);
	KTEST_EXPECT_EQ(t, kp.nhit, 1);
	KTEST_EXPECT_EQ(t, jp.kp.nhit, 5);
	KTEST_EXPECT_EQ(t, rp.kp.nhit, 1);

	printk("kprobes list (one probe of each type):\n");
	KTEST_EXPECT_EQ(t, kprobes_list_print(NULL), 0);

	unregister_kretprobe(&rp);
	unregister_jprobe(&jp);
	unregister_kprobe(&kp);
}

/* ---- through rethook --------------------------------------------------------------------- */

/*
 * The cases above study 2005's kretprobe_trampoline and its instance
 * pools (lab 4 writes them): each case starts with kprobes.rethook off.
 * These run the same calls with it on, as Linux 5.18+ returns every
 * kretprobe, through the trampoline fprobe shares.
 */
#define RETHOOK_CASE(fn)					\
	static void fn##_rethook(struct ktest *t)		\
	{							\
		kretprobe_on_rethook = true;			\
		fn(t);						\
	}

RETHOOK_CASE(kretprobe_return_value)
RETHOOK_CASE(kretprobe_handler_changes_return_value)
RETHOOK_CASE(kretprobe_entry_handler_data)
RETHOOK_CASE(kretprobe_recursive_fib)
RETHOOK_CASE(kretprobe_maxactive_misses)
RETHOOK_CASE(kretprobe_threads_do_not_mix)
RETHOOK_CASE(kretprobe_shares_function)
RETHOOK_CASE(kretprobe_handler_hits_probe)

/*
 * The unwinder walks through a rethooked return (Linux's
 * unwind_recover_ret_addr): in the function and in the return handler
 * the slot holds arch_rethook_trampoline, the trace shows the caller.
 */
static void kretprobe_backtrace_through_rethook(struct ktest *t)
{
	struct kretprobe rp = make_kretprobe(krt_stack_target, trace_handler);
	unsigned long real_ret;

	call_stack_driver();
	real_ret = target_raw_ret;
	kretprobe_on_rethook = true;
	rec_reset();
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_TRUE(t, rp.rh != NULL);
	KTEST_EXPECT_EQ(t, call_stack_driver(), real_ret);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, target_raw_ret, (unsigned long)arch_rethook_trampoline);
	KTEST_EXPECT_EQ(t, target_trace[0], real_ret);
	KTEST_EXPECT_FALSE(t, trace_has(target_trace, target_ntrace,
					(unsigned long)arch_rethook_trampoline));
	KTEST_EXPECT_EQ(t, rec.ip, real_ret);
	KTEST_EXPECT_TRUE(t, trace_has(handler_trace, handler_ntrace, real_ret));
	KTEST_EXPECT_FALSE(t, trace_has(handler_trace, handler_ntrace,
					(unsigned long)arch_rethook_trampoline));
}

/* kprobes.rethook's switch: a kretprobe registered while it is off keeps 2005's way. */
static void kretprobe_rethook_switch(struct ktest *t)
{
	struct kretprobe on = make_kretprobe(krt_div3, ret_handler);
	struct kretprobe off = make_kretprobe(krt_helper, ret_handler);
	char line[128];

	kretprobe_on_rethook = true;
	KTEST_ASSERT_EQ(t, register_kretprobe(&on), 0);
	kretprobe_on_rethook = false;
	KTEST_ASSERT_EQ(t, register_kretprobe(&off), 0);
	KTEST_EXPECT_TRUE(t, on.rh != NULL);
	KTEST_EXPECT_TRUE(t, off.rh == NULL);
	sprint_kprobe(line, sizeof(line), &on.kp);
	KTEST_EXPECT_TRUE(t, strstr(line, "  r  krt_div3+0x0") != NULL);
	rec_reset();
	KTEST_EXPECT_EQ(t, call_div3(30), 10);
	KTEST_EXPECT_EQ(t, call_helper(1), 101);
	KTEST_EXPECT_EQ(t, rec.ret_calls, 2);
	unregister_kretprobe(&off);
	unregister_kretprobe(&on);
}

/* ---- the suite ---------------------------------------------------------------------------- */

static bool boot_rethook;

static int kretprobes_case_init(struct ktest *t)
{
	boot_rethook = kretprobe_on_rethook;
	kretprobe_on_rethook = false;
	return 0;
}

static void kretprobes_case_exit(struct ktest *t)
{
	kretprobe_on_rethook = boot_rethook;
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	local_irq_enable();
}

static struct ktest_case kretprobes_cases[] = {
	KTEST_CASE(kretprobe_return_value),
	KTEST_CASE(kretprobe_handler_changes_return_value),
	KTEST_CASE(kretprobe_entry_handler_data),
	KTEST_CASE(kretprobe_recursive_fib),
	KTEST_CASE(kretprobe_maxactive_misses),
	KTEST_CASE(kretprobe_profile_counts_pool_misses),
	KTEST_CASE(kretprobe_threads_do_not_mix),
	KTEST_CASE(kretprobe_backtrace_shows_callers),
	KTEST_CASE(kretprobe_unregister_while_in_progress),
	KTEST_CASE(kretprobe_thread_exits_inside),
	KTEST_CASE(kretprobe_shares_function),
	KTEST_CASE(kretprobe_with_jprobe),
	KTEST_CASE(kretprobe_handler_hits_probe),
	KTEST_CASE(kretprobe_bad_input_and_arrays),
	KTEST_CASE(kprobes_list_shows_types),
	KTEST_CASE(kretprobe_return_value_rethook),
	KTEST_CASE(kretprobe_handler_changes_return_value_rethook),
	KTEST_CASE(kretprobe_entry_handler_data_rethook),
	KTEST_CASE(kretprobe_recursive_fib_rethook),
	KTEST_CASE(kretprobe_maxactive_misses_rethook),
	KTEST_CASE(kretprobe_threads_do_not_mix_rethook),
	KTEST_CASE(kretprobe_shares_function_rethook),
	KTEST_CASE(kretprobe_handler_hits_probe_rethook),
	KTEST_CASE(kretprobe_backtrace_through_rethook),
	KTEST_CASE(kretprobe_rethook_switch),
	KTEST_END
};

static struct ktest_suite kretprobes_suite = {
	.name = "kretprobes",
	.cases = kretprobes_cases,
	.init = kretprobes_case_init,
	.exit = kretprobes_case_exit,
};
KTEST_SUITE(kretprobes_suite);
