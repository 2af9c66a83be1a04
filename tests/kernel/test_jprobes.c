/*
 * test_jprobes.c - suite "jprobes": the article's three steps on real
 * functions.
 *
 *   arguments    the handler gets exactly the probed function's
 *                arguments (ints, a pointer, a struct by value, five of
 *                them), in the very stack slots the function will use
 *   isolation    what the handler does to its copies never reaches the
 *                function; the result and interrupt state are unchanged
 *   recursion    every call of a recursive function is seen, in order
 *   reentry      a handler hitting other probes (and its own) is missed
 *                and counted, nothing is corrupted
 *   mistakes     a handler without jprobe_return() is caught and
 *                recovered; a break int3 with a foreign stack is refused
 *   sharing      kprobes on the same address; a second jprobe -EEXIST
 *   refusals     not a function entry, no handler; array forms
 *   no step      after the break int3 the probed instruction is emulated
 *                or boosted, as for any kprobe: two exceptions, not three
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "kallsyms.h"
#include "errno.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "sched.h"
#include "smp.h"
#include <asm/percpu.h>
#include "string.h"
#include "vsprintf.h"
#include <asm/traps.h>
#include "trap_watch.h"

/* Real, separately compiled calls with the plain stack calling convention. */
#define probe_target __attribute__((__noinline__, __noclone__, __used__))

/* ---- targets ------------------------------------------------------------------ */

struct jpt_pair {
	int x;
	short y;
	char tag[6];
};

probe_target int jpt_args(int a, int b, const char *s, struct jpt_pair p, int e)
{
	return a * 10000 + b * 1000 + s[0] * 100 + p.x * 10 + p.y + p.tag[0] + e;
}

probe_target int jpt_fib(int n)
{
	return n < 2 ? n : jpt_fib(n - 1) + jpt_fib(n - 2);
}

/* A local on the stack gives it a frame, so it starts with push %ebp. */
probe_target int jpt_helper(int v)
{
	volatile int one = 1;

	return v + one;
}

probe_target int jpt_other(int v)
{
	return v * 2;
}

/* Starts with a register move, not a push (jprobes_targets.S). */
int jpt_load(int v);

/* Through volatile pointers: the compiler may not fold or inline the calls. */
static int (*volatile call_args)(int, int, const char *, struct jpt_pair, int) = jpt_args;
static int (*volatile call_fib)(int) = jpt_fib;
static int (*volatile call_helper)(int) = jpt_helper;
static int (*volatile call_other)(int) = jpt_other;
static int (*volatile call_load)(int) = jpt_load;

static const struct jpt_pair pair = { .x = 7, .y = -3, .tag = "tagme" };
static const char *const str = "jprobe";

/* ---- what the handlers saw ----------------------------------------------------- */

static struct {
	int calls;
	int a, b, e;
	const char *s;
	struct jpt_pair p;
	unsigned long slot_p, saved_sp;	/* where p lives, where the hit's sp was */
	unsigned long flags;
	int seq[200], nseq;
	int order[4], norder;
	int helper_ret;
} seen;

static void seen_reset(void)
{
	memset(&seen, 0, sizeof(seen));
}

static struct jprobe make_jprobe(void *func, void *entry)
{
	struct jprobe jp = { .kp = { .addr = func }, .entry = entry };

	return jp;
}

/* ---- arguments --------------------------------------------------------------------- */

static int args_handler(int a, int b, const char *s, struct jpt_pair p, int e)
{
	seen.calls++;
	seen.a = a;
	seen.b = b;
	seen.s = s;
	seen.p = p;
	seen.e = e;
	seen.slot_p = (unsigned long)&p;
	seen.saved_sp = this_cpu_ptr(&jprobe_ctlblk)->saved_sp;	/* interrupts off: our CPU's */
	seen.flags = read_eflags();
	jprobe_return();
}

static void jprobe_sees_arguments(struct ktest *t)
{
	int want = call_args(3, -4, str, pair, 99);
	struct jprobe jp = make_jprobe(jpt_args, args_handler);
	unsigned long flags = local_irq_save();

	local_irq_enable();
	seen_reset();
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_EQ(t, call_args(3, -4, str, pair, 99), want);
	unregister_jprobe(&jp);
	local_irq_restore(flags);

	KTEST_EXPECT_EQ(t, seen.calls, 1);
	KTEST_EXPECT_EQ(t, jp.kp.nhit, 1);
	KTEST_EXPECT_EQ(t, seen.a, 3);
	KTEST_EXPECT_EQ(t, seen.b, -4);
	KTEST_EXPECT_TRUE(t, seen.s == str);
	KTEST_EXPECT_EQ(t, seen.p.x, 7);
	KTEST_EXPECT_EQ(t, seen.p.y, -3);
	KTEST_EXPECT_STREQ(t, seen.p.tag, "tagme");
	KTEST_EXPECT_EQ(t, seen.e, 99);
	/*
	 * a, b and s came in ax, dx and cx (-mregparm=3), which the handler
	 * is entered with unchanged; p, the fourth, is the probed function's
	 * own first stack slot, just above its return address.
	 */
	KTEST_EXPECT_EQ(t, seen.slot_p, seen.saved_sp + sizeof(unsigned long));
	/* The handler runs with interrupts off; the caller had them on. */
	KTEST_EXPECT_EQ(t, seen.flags & X86_EFLAGS_IF, 0);
	KTEST_EXPECT_EQ(t, jp.nbad_return, 0);
}

/*
 * Writes through volatile pointers: a handler ending in a noreturn call
 * would otherwise have its (dead) stores to arguments optimised away.
 */
static int scribble_handler(int a, int b, const char *s, struct jpt_pair p, int e)
{
	seen.calls++;
	*(volatile int *)&a = -1;
	*(volatile int *)&b = -1;
	*(const char *volatile *)&s = "XXXX";
	*(volatile int *)&p.x = 0;
	*(volatile char *)&p.tag[0] = 'Z';
	*(volatile int *)&e = 0;
	jprobe_return();
}

static void jprobe_handler_changes_are_discarded(struct ktest *t)
{
	int want = call_args(1, 2, str, pair, 5);
	struct jprobe jp = make_jprobe(jpt_args, scribble_handler);
	unsigned long flags_before, flags_after;

	seen_reset();
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	flags_before = read_eflags();
	KTEST_EXPECT_EQ(t, call_args(1, 2, str, pair, 5), want);
	flags_after = read_eflags();
	KTEST_EXPECT_EQ(t, call_args(1, 2, str, pair, 5), want);
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, seen.calls, 2);
	KTEST_EXPECT_EQ(t, flags_after & X86_EFLAGS_IF, flags_before & X86_EFLAGS_IF);
}

/* ---- recursion ------------------------------------------------------------------------ */

static int fib_handler(int n)
{
	if (seen.nseq < (int)ARRAY_SIZE(seen.seq))
		seen.seq[seen.nseq] = n;
	seen.nseq++;
	jprobe_return();
}

/* The order calls are made in (pre-order), computed without any probe. */
static int ref_seq[200], ref_nseq;

static int ref_fib(int n)
{
	if (ref_nseq < (int)ARRAY_SIZE(ref_seq))
		ref_seq[ref_nseq] = n;
	ref_nseq++;
	return n < 2 ? n : ref_fib(n - 1) + ref_fib(n - 2);
}

static void jprobe_recursive_function(struct ktest *t)
{
	struct jprobe jp = make_jprobe(jpt_fib, fib_handler);

	seen_reset();
	ref_nseq = 0;
	KTEST_EXPECT_EQ(t, ref_fib(10), 55);
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_EQ(t, call_fib(10), 55);
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, ref_nseq, 177);
	KTEST_EXPECT_EQ(t, seen.nseq, ref_nseq);
	KTEST_EXPECT_EQ(t, jp.kp.nhit, 177);
	KTEST_EXPECT_EQ(t, jp.kp.nmissed, 0);
	KTEST_EXPECT_EQ(t, memcmp(seen.seq, ref_seq, sizeof(ref_seq)), 0);
}

/* ---- reentry ------------------------------------------------------------------------ */

static int helper_pre_calls;

static int helper_pre(struct kprobe *p, struct pt_regs *regs)
{
	helper_pre_calls++;
	return 0;
}

static int other_handler_calls;

static int other_handler(int v)
{
	other_handler_calls++;
	jprobe_return();
}

/* The first time: calls a kprobed function, another jprobed one, and its own. */
static int busy_handler(int v)
{
	if (seen.calls++ == 0) {
		seen.helper_ret = call_helper(v);
		seen.helper_ret += call_other(v);
		seen.helper_ret += call_fib(v);
	}
	jprobe_return();
}

static void jprobe_handler_hits_probes(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)jpt_helper, .pre_handler = helper_pre };
	struct jprobe jp = make_jprobe(jpt_fib, busy_handler);
	struct jprobe other = make_jprobe(jpt_other, other_handler);

	seen_reset();
	helper_pre_calls = other_handler_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_ASSERT_EQ(t, register_jprobe(&other), 0);

	KTEST_EXPECT_EQ(t, call_fib(6), 8);
	/* Inside the handler: every probe was stepped without its handler. */
	KTEST_EXPECT_EQ(t, seen.helper_ret, (6 + 1) + 6 * 2 + 8);
	KTEST_EXPECT_EQ(t, helper_pre_calls, 0);
	KTEST_EXPECT_EQ(t, kp.nmissed, 1);
	KTEST_EXPECT_EQ(t, other_handler_calls, 0);
	KTEST_EXPECT_EQ(t, other.kp.nmissed, 1);
	/* call_fib(6) from the handler: 25 calls, all missed; fib's own 25 hit. */
	KTEST_EXPECT_EQ(t, jp.kp.nmissed, 25);
	KTEST_EXPECT_EQ(t, jp.kp.nhit, 25);
	KTEST_EXPECT_EQ(t, seen.calls, 25);

	/* Outside any handler they all work again. */
	KTEST_EXPECT_EQ(t, call_helper(1), 2);
	KTEST_EXPECT_EQ(t, call_other(1), 2);
	KTEST_EXPECT_EQ(t, helper_pre_calls, 1);
	KTEST_EXPECT_EQ(t, other_handler_calls, 1);

	unregister_jprobe(&other);
	unregister_jprobe(&jp);
	unregister_kprobe(&kp);
}

/* ---- mistakes -------------------------------------------------------------------------- */

/* Forgets jprobe_return(): its plain return lands on jprobe_handler_returned. */
static int forgetful_handler(int n)
{
	seen.calls++;
	seen.a = n;
	return -12345;
}

static void jprobe_missing_jprobe_return(struct ktest *t)
{
	struct jprobe jp = make_jprobe(jpt_fib, forgetful_handler);

	seen_reset();
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_EQ(t, call_fib(7), 13);
	KTEST_EXPECT_EQ(t, seen.calls, 41);
	KTEST_EXPECT_EQ(t, jp.nbad_return, 41);
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	unregister_jprobe(&jp);
	/* And nothing was left on the stack: this frame still works. */
	KTEST_EXPECT_EQ(t, call_fib(7), 13);
}

/* The save areas are per CPU, and the test thread may move between CPUs: add them up. */
static unsigned long jprobe_ncorrupt(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(jprobe_ctlblk, cpu).ncorrupt;
	return n;
}

/* No CPU is between a jprobe's entry and its jprobe_return(). */
static bool no_jprobe_running(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (per_cpu(jprobe_ctlblk, cpu).jp)
			return false;
	return true;
}

/*
 * A break int3 at jprobe_return's address whose stack is not the saved
 * one (here: a made-up frame, no jprobe running) must be refused and
 * reported, with the registers left alone; an int3 anywhere else is
 * simply not the jprobe's.
 */
static void jprobe_corrupt_break_refused(struct ktest *t)
{
	struct jprobe jp = make_jprobe(jpt_fib, fib_handler);
	struct pt_regs regs, copy;
	unsigned long before = jprobe_ncorrupt();

	memset(&regs, 0x5a, sizeof(regs));
	regs.ip = (unsigned long)jprobe_return_break + 1;
	copy = regs;
	KTEST_EXPECT_EQ(t, longjmp_break_handler(&jp.kp, &regs), 0);
	KTEST_EXPECT_EQ(t, jprobe_ncorrupt(), before + 1);
	KTEST_EXPECT_EQ(t, memcmp(&regs, &copy, sizeof(regs)), 0);

	regs.ip = (unsigned long)jpt_fib + 1;
	KTEST_EXPECT_EQ(t, longjmp_break_handler(&jp.kp, &regs), 0);
	KTEST_EXPECT_EQ(t, jprobe_ncorrupt(), before + 1);
}

/* ---- sharing an address ------------------------------------------------------------------ */

static int order_pre(struct kprobe *p, struct pt_regs *regs)
{
	seen.order[seen.norder++] = 1;
	return 0;
}

static void order_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	seen.order[seen.norder++] = 3;
}

static int order_handler(int v)
{
	seen.order[seen.norder++] = 2;
	jprobe_return();
}

static void jprobe_shares_address_with_kprobes(struct ktest *t)
{
	struct jprobe jp = make_jprobe(jpt_helper, order_handler);
	struct jprobe second = make_jprobe(jpt_helper, order_handler);
	struct kprobe before = { .addr = (kprobe_opcode_t *)jpt_helper,
				 .pre_handler = order_pre, .post_handler = order_post };
	struct kprobe after = before;

	seen_reset();
	KTEST_ASSERT_EQ(t, register_kprobe(&before), 0);
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_EQ(t, register_jprobe(&second), -EEXIST);
	KTEST_ASSERT_EQ(t, call_helper(41), 42);
	/* kprobe pre, then the jprobe handler, then (after the step) the post. */
	KTEST_EXPECT_EQ(t, seen.norder, 3);
	KTEST_EXPECT_EQ(t, seen.order[0], 1);
	KTEST_EXPECT_EQ(t, seen.order[1], 2);
	KTEST_EXPECT_EQ(t, seen.order[2], 3);

	/* A kprobe registered after the jprobe still runs before it. */
	seen_reset();
	after.post_handler = NULL;
	KTEST_ASSERT_EQ(t, register_kprobe(&after), 0);
	KTEST_EXPECT_EQ(t, call_helper(1), 2);
	KTEST_EXPECT_EQ(t, seen.norder, 4);
	KTEST_EXPECT_EQ(t, seen.order[0], 1);
	KTEST_EXPECT_EQ(t, seen.order[1], 1);
	KTEST_EXPECT_EQ(t, seen.order[2], 2);
	KTEST_EXPECT_EQ(t, seen.order[3], 3);

	/* With the jprobe gone, a new one may take its place. */
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, register_jprobe(&second), 0);
	unregister_jprobe(&second);
	unregister_kprobe(&after);
	unregister_kprobe(&before);
	KTEST_EXPECT_TRUE(t, get_kprobe(jpt_helper) == NULL);
}

/* ---- refusals and array forms ---------------------------------------------------------------- */

static void jprobe_bad_input(struct ktest *t)
{
	unsigned int nr = kprobes_nr_registered();
	struct jprobe jp = make_jprobe((char *)jpt_args + 1, args_handler);

	KTEST_EXPECT_EQ(t, register_jprobe(&jp), -EINVAL);	/* not an entry */
	jp = make_jprobe(NULL, args_handler);
	jp.kp.symbol_name = "jpt_args";
	jp.kp.offset = 1;
	KTEST_EXPECT_EQ(t, register_jprobe(&jp), -EINVAL);
	jp = make_jprobe(jpt_args, NULL);
	KTEST_EXPECT_EQ(t, register_jprobe(&jp), -EINVAL);	/* no handler */
	jp = make_jprobe(jpt_args, (void *)0x1234);
	KTEST_EXPECT_EQ(t, register_jprobe(&jp), -EINVAL);	/* handler not text */
	jp = make_jprobe(NULL, args_handler);
	jp.kp.symbol_name = "no_such_function";
	KTEST_EXPECT_EQ(t, register_jprobe(&jp), -ENOENT);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr);
}

static void jprobe_by_symbol(struct ktest *t)
{
	struct jprobe jp = make_jprobe(NULL, fib_handler);

	seen_reset();
	jp.kp.symbol_name = "jpt_fib";
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_TRUE(t, jp.kp.addr == (kprobe_opcode_t *)jpt_fib);
	KTEST_EXPECT_EQ(t, call_fib(1), 1);
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, seen.nseq, 1);
	KTEST_EXPECT_EQ(t, seen.seq[0], 1);
}

static void jprobe_array_forms(struct ktest *t)
{
	unsigned int nr = kprobes_nr_registered();
	struct jprobe a = make_jprobe(jpt_fib, fib_handler);
	struct jprobe b = make_jprobe(jpt_other, other_handler);
	struct jprobe bad = make_jprobe((char *)jpt_helper + 1, order_handler);
	struct jprobe *good[] = { &a, &b }, *mixed[] = { &a, &b, &bad };

	seen_reset();
	other_handler_calls = 0;
	KTEST_ASSERT_EQ(t, register_jprobes(good, 2), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr + 2);
	KTEST_EXPECT_EQ(t, call_fib(0), 0);
	KTEST_EXPECT_EQ(t, call_other(4), 8);
	KTEST_EXPECT_EQ(t, seen.nseq, 1);
	KTEST_EXPECT_EQ(t, other_handler_calls, 1);
	unregister_jprobes(good, 2);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr);

	/* All or nothing: the third fails, the first two are undone. */
	KTEST_EXPECT_EQ(t, register_jprobes(mixed, 3), -EINVAL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), nr);
	KTEST_EXPECT_TRUE(t, get_kprobe(jpt_fib) == NULL);
}

/* ---- after the break: emulated, boosted or stepped ---------------------------------- */

static int count_handler(int v)
{
	seen.calls++;
	seen.a = v;
	jprobe_return();
}

/* #BP and #DB taken by ten calls of each function, and their results checked. */
static void ten_calls_each(struct ktest *t, unsigned long *bp, unsigned long *db)
{
	struct trap_watch w;

	KTEST_ASSERT_EQ(t, trap_watch_start(&w), 0);
	for (int i = 0; i < 10; i++) {
		KTEST_EXPECT_EQ(t, call_helper(i), i + 1);
		KTEST_EXPECT_EQ(t, call_load(i), i * 3 + 1);
	}
	trap_watch_stop(&w);
	*bp = trap_watch_taken(&w, X86_TRAP_BP);
	*db = trap_watch_taken(&w, X86_TRAP_DB);
}

/*
 * The break int3 hands the probed instruction to run_probed_instruction(),
 * as a pre-handler returning 0 does: jpt_helper's push %ebp is emulated,
 * jpt_load's load is stepped once and boosted from then on (Linux's
 * break path boosted too).  Each call then takes the probe's int3 and
 * the break int3 and no #DB; with both switches off, the step is back:
 * a #DB each, or with kprobes.step=int3 a third #BP.
 */
static void jprobe_break_path_skips_the_step(struct ktest *t)
{
	struct jprobe push = make_jprobe(jpt_helper, count_handler);
	struct jprobe load = make_jprobe(jpt_load, count_handler);
	bool boost = kprobes_get_boosting(), emulate = kprobes_get_emulation();
	unsigned long bp, db;

	seen_reset();
	kprobes_set_boosting(true);
	kprobes_set_emulation(true);
	KTEST_ASSERT_EQ(t, register_jprobe(&push), 0);
	KTEST_ASSERT_EQ(t, register_jprobe(&load), 0);
	KTEST_EXPECT_TRUE(t, push.kp.ainsn.emulate_op != NULL);
	KTEST_EXPECT_TRUE(t, load.kp.ainsn.emulate_op == NULL);
	KTEST_EXPECT_EQ(t, load.kp.ainsn.boostable, 0);	/* not yet: a step first */
	KTEST_EXPECT_EQ(t, call_load(5), 16);
	KTEST_EXPECT_EQ(t, load.kp.ainsn.boostable, 1);

	ten_calls_each(t, &bp, &db);
	KTEST_EXPECT_EQ(t, bp, 40);
	KTEST_EXPECT_EQ(t, db, 0);

	kprobes_set_boosting(false);
	kprobes_set_emulation(false);
	ten_calls_each(t, &bp, &db);
	if (kprobe_step_design == KPROBE_SS_TF) {	/* each step ends in a #DB */
		KTEST_EXPECT_EQ(t, bp, 40);
		KTEST_EXPECT_EQ(t, db, 20);
	} else {					/* ... in the int3 after the copy */
		KTEST_EXPECT_EQ(t, bp, 60);
		KTEST_EXPECT_EQ(t, db, 0);
	}

	kprobes_set_boosting(boost);
	kprobes_set_emulation(emulate);
	unregister_jprobe(&push);
	unregister_jprobe(&load);
	KTEST_EXPECT_EQ(t, seen.calls, 41);
	KTEST_EXPECT_EQ(t, seen.a, 9);
}

/* ---- the suite ---------------------------------------------------------------------------- */

static void jprobes_case_exit(struct ktest *t)
{
	/* Whatever a case did, no hit may be left half done. */
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_TRUE(t, no_jprobe_running());
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	local_irq_enable();
}

static struct ktest_case jprobes_cases[] = {
	KTEST_CASE(jprobe_sees_arguments),
	KTEST_CASE(jprobe_handler_changes_are_discarded),
	KTEST_CASE(jprobe_recursive_function),
	KTEST_CASE(jprobe_handler_hits_probes),
	KTEST_CASE(jprobe_missing_jprobe_return),
	KTEST_CASE(jprobe_corrupt_break_refused),
	KTEST_CASE(jprobe_shares_address_with_kprobes),
	KTEST_CASE(jprobe_bad_input),
	KTEST_CASE(jprobe_by_symbol),
	KTEST_CASE(jprobe_array_forms),
	KTEST_CASE(jprobe_break_path_skips_the_step),
	KTEST_END
};

static struct ktest_suite jprobes_suite = {
	.name = "jprobes",
	.cases = jprobes_cases,
	.exit = jprobes_case_exit,
};
KTEST_SUITE(jprobes_suite);
