/*
 * test_kprobes.c - suite "kprobes": the manager and the arch half, hit by
 * real probes on real code.
 *
 *   smoke        Linux's kprobes smoke test in our words
 *   handlers     what a handler sees (ip, arguments, EFLAGS), redirection
 *   bad input    every refusal, each with .text left byte-identical
 *   aggregates   several probes on one address; enable/disable
 *   reentry      a handler calling a probed function; timer interrupts
 *   faults       in a handler, in the stepped instruction
 *   stress       10,000 registrations on kernel functions under load
 */
#include "kernel.h"
#include "ktest.h"
#include "trap_watch.h"
#include "kprobes_stepmode.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include <asm/ptrace.h>
#include "kallsyms.h"
#include "errno.h"
#include <asm/extable.h>
#include <asm/irqflags.h>
#include "mm.h"
#include <asm/processor.h>
#include "sched.h"
#include "string.h"
#include "timer.h"
#include <asm/traps.h>
#include "vsprintf.h"

/* Our targets must stay real calls: no inlining, no cloning. */
#define probe_target __attribute__((__noinline__, __noclone__, __used__))

/* In kprobes_test_asm.S */
int kpt_int3_fixup(void);
int kpt_mid_insn(void);
void kpt_hlt(void);
long kpt_read_long(const long *p);
extern char kpt_read_long_insn[];
unsigned long kpt_pushf(void);
int kpt_ret(void);
extern char kpt_ret_insn[];
unsigned long kpt_long_first(void);
unsigned long kpt_cli_sti(void);
extern char kpt_sti_insn[];
unsigned long kpt_popf(unsigned long flags);
extern char kpt_popf_insn[];
void kpt_break_trampoline(void);
extern char kpt_long_first_second[];

/* ---- targets ------------------------------------------------------------------ */

probe_target int kpt_div3(int v)
{
	return v / 3;
}

probe_target int kpt_div5(int v)
{
	return v / 5;
}

probe_target int kpt_times7(int v)
{
	return v * 7;
}

/* Callers go through volatile pointers so the compiler cannot fold the calls. */
static int (*volatile call_div3)(int) = kpt_div3;
static int (*volatile call_div5)(int) = kpt_div5;
static int (*volatile call_times7)(int) = kpt_times7;

/* ---- shared recording ---------------------------------------------------------- */

static struct {
	int pre_calls, post_calls, fault_calls;
	int pre_result, post_saw;
	unsigned long ip, post_ip, arg, own_flags, regs_flags;
	int fault_trapnr;
	long nofault_ret;
	int order[8], norder;
} rec;

static void rec_reset(void)
{
	memset(&rec, 0, sizeof(rec));
}

static struct kprobe make_probe(void *addr)
{
	struct kprobe p = { .addr = addr };

	return p;
}

/*
 * Read a byte of code.  volatile: the compiler assumes nothing a call
 * does can change a function's own bytes, and would reuse a stale load.
 */
static uint8_t text_byte(void *addr)
{
	return *(volatile uint8_t *)addr;
}

/* The first argument of a function whose entry is probed: in %eax (-mregparm=3). */
static unsigned long entry_arg0(struct pt_regs *regs)
{
	return regs_get_kernel_argument(regs, 0);
}

/* ---- smoke ----------------------------------------------------------------------- */

static int smoke_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	rec.pre_result = (int)entry_arg0(regs) / 3;
	return 0;
}

static void smoke_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	rec.post_calls++;
	rec.post_saw = rec.pre_result;
}

static void kprobe_smoke(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);

	rec_reset();
	kp.pre_handler = smoke_pre;
	kp.post_handler = smoke_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, call_div3(3000), 1000);
	unregister_kprobe(&kp);

	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_saw, 1000);
	KTEST_EXPECT_EQ(t, kp.nhit, 1);
	KTEST_EXPECT_EQ(t, kp.nmissed, 0);
	KTEST_EXPECT_NE(t, text_byte(kpt_div3), BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, call_div3(30), 10);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);	/* gone: no more hits */
}

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	return 0;
}

static void kprobe_register_kprobes_array(struct ktest *t)
{
	struct kprobe a = make_probe(kpt_div3), b = make_probe(kpt_div5);
	struct kprobe *kps[] = { &a, &b };

	rec_reset();
	a.pre_handler = count_pre;
	b.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobes(kps, 2), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 2);
	KTEST_EXPECT_EQ(t, call_div3(9), 3);
	KTEST_EXPECT_EQ(t, call_div5(25), 5);
	unregister_kprobes(kps, 2);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 2);
	KTEST_EXPECT_EQ(t, a.nhit, 1);
	KTEST_EXPECT_EQ(t, b.nhit, 1);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

/* All or nothing: the second one is bad, so the first must be undone. */
static void kprobe_register_kprobes_rollback(struct ktest *t)
{
	struct kprobe a = make_probe(kpt_div3), b = make_probe(NULL);
	struct kprobe *kps[] = { &a, &b };
	uint32_t before = ktest_text_checksum();

	KTEST_EXPECT_EQ(t, register_kprobes(kps, 2), -EINVAL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	KTEST_EXPECT_TRUE(t, get_kprobe(kpt_div3) == NULL);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
}

/* ---- what handlers see ------------------------------------------------------------ */

static int regs_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	rec.ip = regs->ip;
	rec.arg = entry_arg0(regs);
	rec.own_flags = read_eflags();
	rec.regs_flags = regs->flags;
	return 0;
}

static void regs_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	rec.post_calls++;
	rec.post_ip = regs->ip;
}

static void kprobe_handler_sees_regs(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);
	unsigned long caller_flags;

	rec_reset();
	kp.pre_handler = regs_pre;
	kp.post_handler = regs_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	local_irq_enable();
	caller_flags = read_eflags();
	KTEST_EXPECT_EQ(t, call_div3(4242), 1414);
	KTEST_EXPECT_EQ(t, read_eflags() & (X86_EFLAGS_IF | X86_EFLAGS_TF),
			caller_flags & (X86_EFLAGS_IF | X86_EFLAGS_TF));
	unregister_kprobe(&kp);

	/* Past the int3, as on Linux x86: the byte after the probed one. */
	KTEST_EXPECT_EQ(t, rec.ip, (unsigned long)kpt_div3 + 1);
	KTEST_EXPECT_EQ(t, rec.arg, 4242);
	/* The handler runs with interrupts off and not single-stepping... */
	KTEST_EXPECT_EQ(t, rec.own_flags & X86_EFLAGS_IF, 0);
	KTEST_EXPECT_EQ(t, rec.own_flags & X86_EFLAGS_TF, 0);
	/* ...while regs show the probed code's flags: interrupts on. */
	KTEST_EXPECT_EQ(t, rec.regs_flags & X86_EFLAGS_IF, X86_EFLAGS_IF);
	/* The post-handler sees ip after the probed instruction. */
	KTEST_EXPECT_EQ(t, rec.post_ip,
			(unsigned long)kpt_div3 + kp.ainsn.decoded.length);
}

static int redirect_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	regs->ip = (unsigned long)kpt_times7;	/* same prototype */
	return 1;
}

static void kprobe_pre_handler_redirects(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);

	rec_reset();
	kp.pre_handler = redirect_pre;
	kp.post_handler = regs_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(6), 42);	/* kpt_times7 ran instead */
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_calls, 0);	/* no step, no post */
	KTEST_EXPECT_EQ(t, call_div3(6), 2);
}

/*
 * The hook jprobes will use: a pre-handler that leaves (returns 1) on a
 * probe with a break_handler keeps the probe active; the int3 at the
 * trampoline reaches the break_handler, which puts the registers back,
 * and the probed instruction is then stepped as usual.
 */
static struct pt_regs break_saved;
static int break_calls;

static int break_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	/* Up to flags only: sp and ss are the interrupted stack's top words. */
	memcpy(&break_saved, regs, offsetof(struct pt_regs, sp));
	regs->ip = (unsigned long)kpt_break_trampoline;
	return 1;
}

static int break_handler(struct kprobe *p, struct pt_regs *regs)
{
	break_calls++;
	if (regs->ip != (unsigned long)kpt_break_trampoline + 1)
		return 0;
	memcpy(regs, &break_saved, offsetof(struct pt_regs, sp));
	return 1;
}

static void kprobe_break_handler_hook(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);

	rec_reset();
	break_calls = 0;
	kp.pre_handler = break_pre;
	kp.break_handler = break_handler;
	kp.post_handler = regs_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(27), 9);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, break_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_ip,
			(unsigned long)kpt_div3 + kp.ainsn.decoded.length);
}

/* 2.6.11 insisted on a pre_handler.  Any handler may be NULL now. */
static void kprobe_null_handlers(struct ktest *t)
{
	struct kprobe none = make_probe(kpt_div3), post_only = make_probe(kpt_div5);

	rec_reset();
	post_only.post_handler = regs_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&none), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&post_only), 0);
	KTEST_EXPECT_EQ(t, call_div3(99), 33);
	KTEST_EXPECT_EQ(t, call_div5(100), 20);
	unregister_kprobe(&none);
	unregister_kprobe(&post_only);
	KTEST_EXPECT_EQ(t, none.nhit, 1);
	KTEST_EXPECT_EQ(t, post_only.nhit, 1);
	KTEST_EXPECT_EQ(t, rec.post_calls, 1);
}

static void kprobe_by_symbol(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "kpt_div5", .pre_handler = count_pre };
	char line[128];

	rec_reset();
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, (unsigned long)kp.addr, (unsigned long)kpt_div5);
	KTEST_EXPECT_EQ(t, call_div5(50), 10);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	sprint_kprobe(line, sizeof(line), &kp);
	KTEST_EXPECT_TRUE(t, strstr(line, "  k  kpt_div5+0x0") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(line, "[DISABLED]") == NULL);
	KTEST_EXPECT_EQ(t, disable_kprobe(&kp), 0);
	sprint_kprobe(line, sizeof(line), &kp);
	KTEST_EXPECT_TRUE(t, strstr(line, "[DISABLED]") != NULL);
	KTEST_EXPECT_EQ(t, kprobes_list_print(NULL), 0);
	unregister_kprobe(&kp);

	/* addr kept from the first time agrees with the symbol: again is fine. */
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), 0);
	unregister_kprobe(&kp);
}

/* A probe on an instruction other than the first, and one behind a probed byte. */
static void kprobe_mid_function(struct ktest *t)
{
	struct kprobe entry = make_probe(kpt_long_first);
	struct kprobe second = make_probe(kpt_long_first_second);

	rec_reset();
	entry.pre_handler = count_pre;
	second.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&entry), 0);
	/* The walk from the entry must read the int3 as the mov it replaced. */
	KTEST_EXPECT_EQ(t, register_kprobe(&second), 0);
	KTEST_EXPECT_EQ(t, kpt_long_first(), 0x11223345);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 2);
	unregister_kprobe(&second);
	unregister_kprobe(&entry);
}

/* ---- instructions 2.6.11 got wrong -------------------------------------------------- */

/* A probe on ret: the article's oops. */
static void kprobe_on_ret(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_ret_insn);

	rec_reset();
	kp.pre_handler = count_pre;
	kp.post_handler = regs_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, kpt_ret(), 5);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_calls, 1);
}

/* pushf from the slot must push the caller's IF and no TF. */
static void kprobe_on_pushf(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_pushf);
	unsigned long flags;

	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	local_irq_enable();
	flags = kpt_pushf();
	KTEST_EXPECT_EQ(t, flags & (X86_EFLAGS_IF | X86_EFLAGS_TF), X86_EFLAGS_IF);
	local_irq_disable();
	flags = kpt_pushf();
	local_irq_enable();
	KTEST_EXPECT_EQ(t, flags & (X86_EFLAGS_IF | X86_EFLAGS_TF), 0);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, kp.nhit, 2);
}

/* sti and popf decide IF themselves: their result must survive the step. */
static void kprobe_on_sti_popf(struct ktest *t)
{
	struct kprobe sti = make_probe(kpt_sti_insn), popf = make_probe(kpt_popf_insn);
	unsigned long base;

	rec_reset();
	sti.pre_handler = count_pre;
	popf.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&sti), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&popf), 0);
	local_irq_disable();
	KTEST_EXPECT_EQ(t, kpt_cli_sti() & (X86_EFLAGS_IF | X86_EFLAGS_TF), X86_EFLAGS_IF);
	local_irq_disable();
	base = read_eflags();
	KTEST_EXPECT_EQ(t, kpt_popf(base | X86_EFLAGS_IF | X86_EFLAGS_DF) &
			(X86_EFLAGS_IF | X86_EFLAGS_TF | X86_EFLAGS_DF),
			X86_EFLAGS_IF | X86_EFLAGS_DF);
	__asm__ __volatile__("cld");
	KTEST_EXPECT_EQ(t, kpt_popf(base & ~X86_EFLAGS_IF) & (X86_EFLAGS_IF | X86_EFLAGS_TF), 0);
	local_irq_enable();
	unregister_kprobe(&popf);
	unregister_kprobe(&sti);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 3);
}

/* An int3 that is not ours goes to the kernel (its fixup); probed, it still does. */
static void kprobe_foreign_int3(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_int3_fixup);
	struct trap_watch w;

	rec_reset();
	KTEST_ASSERT_EQ(t, trap_watch_start(&w), 0);
	KTEST_EXPECT_EQ(t, kpt_int3_fixup(), 2);
	KTEST_EXPECT_EQ(t, w.unclaimed, 1);
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);

	kp.pre_handler = count_pre;
	kp.post_handler = regs_post;
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, kpt_int3_fixup(), 2);
	unregister_kprobe(&kp);
	trap_watch_stop(&w);
	KTEST_EXPECT_EQ(t, w.unclaimed, 2);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, rec.post_calls, 1);
	KTEST_EXPECT_EQ(t, text_byte(kpt_int3_fixup), BREAKPOINT_INSTRUCTION);
}

/* ---- refusals ------------------------------------------------------------------------ */

static int data_word = 42;

static void kprobe_bad_input(struct ktest *t)
{
	uint32_t before = ktest_text_checksum();
	struct insn_slot_stats s0, s1;
	struct kprobe kp;

	insn_slot_get_stats(&s0);

	kp = make_probe(NULL);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = make_probe(&data_word);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = make_probe((char *)kpt_mid_insn + 1);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EILSEQ);
	kp = make_probe(kpt_hlt);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EILSEQ);

	kp = (struct kprobe){ .symbol_name = "do_trap" };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = (struct kprobe){ .symbol_name = "notify_die", .offset = 1 };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = (struct kprobe){ .symbol_name = "get_kprobe" };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = (struct kprobe){ .symbol_name = "no_such_function_anywhere" };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -ENOENT);	/* as Linux */
	kp = (struct kprobe){ .symbol_name = "kpt_div3", .addr = (void *)kpt_div5 };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);

	kp = make_probe(kpt_div3);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EEXIST);
	unregister_kprobe(&kp);
	unregister_kprobe(&kp);		/* twice: harmless */

	insn_slot_get_stats(&s1);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
	KTEST_EXPECT_EQ(t, s1.slots_in_use, s0.slots_in_use);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

static int count_range(void *data, unsigned long start, unsigned long end)
{
	(*(int *)data)++;
	return 0;
}

static void kprobe_blacklist(struct ktest *t)
{
	int n = 0;

	kprobe_blacklist_for_each(count_range, &n);
	KTEST_EXPECT_TRUE(t, n > 10);
	KTEST_EXPECT_TRUE(t, within_kprobe_blacklist(kallsyms_lookup_name("notify_die")));
	KTEST_EXPECT_TRUE(t, within_kprobe_blacklist(kallsyms_lookup_name("preempt_disable")));
	KTEST_EXPECT_TRUE(t, within_kprobe_blacklist(kallsyms_lookup_name("text_poke")));
	KTEST_EXPECT_FALSE(t, within_kprobe_blacklist((unsigned long)kpt_div3));
}

/* ---- aggregates, enable / disable --------------------------------------------------- */

/* Does the boosted copy have a slot of its own (kprobes.step=int3)?  0 or 1. */
static unsigned int slot_of_boosted_copy(struct arch_specific_insn ainsn)
{
	return ainsn.boost_insn && ainsn.boost_insn != ainsn.insn;
}

static void kprobe_aggregate(struct ktest *t)
{
	struct kprobe kp[3];
	struct insn_slot_stats s0, s1;
	uint8_t original = text_byte(kpt_div3);

	rec_reset();
	insn_slot_get_stats(&s0);
	for (int i = 0; i < 3; i++) {
		kp[i] = make_probe(kpt_div3);
		kp[i].pre_handler = count_pre;
		KTEST_ASSERT_EQ(t, register_kprobe(&kp[i]), 0);
	}
	insn_slot_get_stats(&s1);
	/* One slot for all three, and, stepped with int3, its boosted copy's. */
	KTEST_EXPECT_EQ(t, s1.slots_in_use, s0.slots_in_use + 1 + slot_of_boosted_copy(kp[0].ainsn));
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_TRUE(t, get_kprobe(kpt_div3) != &kp[0]);	/* the aggregate */
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 3);

	KTEST_EXPECT_EQ(t, call_div3(30), 10);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 3);
	for (int i = 0; i < 3; i++)
		KTEST_EXPECT_EQ(t, kp[i].nhit, 1);

	unregister_kprobe(&kp[1]);
	KTEST_EXPECT_EQ(t, call_div3(30), 10);
	KTEST_EXPECT_EQ(t, kp[0].nhit, 2);
	KTEST_EXPECT_EQ(t, kp[1].nhit, 1);
	KTEST_EXPECT_EQ(t, kp[2].nhit, 2);
	unregister_kprobe(&kp[0]);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), BREAKPOINT_INSTRUCTION);
	unregister_kprobe(&kp[2]);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), original);	/* last one out */
	insn_slot_get_stats(&s1);
	KTEST_EXPECT_EQ(t, s1.slots_in_use, s0.slots_in_use);
	KTEST_EXPECT_TRUE(t, get_kprobe(kpt_div3) == NULL);
}

/*
 * kprobes.step: int3 by default, as Linux 6.1; switched only with no
 * probe registered (EBUSY otherwise, and nothing changes); each design
 * takes its own exceptions - one #BP and one #DB a stepped hit with TF,
 * two #BP with int3.  Fast paths off: kpt_div3's first instruction is
 * stepped, not emulated.
 */
static void kprobe_step_design_switch(struct ktest *t)
{
	static const enum kprobe_step_design designs[] = { KPROBE_SS_TF, KPROBE_SS_INT3 };
	struct kprobes_fast_paths fast;
	struct trap_watch w;

	KTEST_EXPECT_EQ(t, kprobe_step_design, KPROBE_SS_INT3);
	KTEST_EXPECT_TRUE(t, kprobe_hit_layer(KPROBE_HIT_STEP) == &kprobe_linux_hit_ops);
	KTEST_EXPECT_EQ(t, kprobe_step_design_write("sideways\n", 9, true, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, kprobe_step_design, KPROBE_SS_INT3);
	kprobes_fast_paths_off(&fast);
	for (size_t i = 0; i < ARRAY_SIZE(designs); i++) {
		enum kprobe_step_design d = designs[i], other = d == KPROBE_SS_TF ?
			KPROBE_SS_INT3 : KPROBE_SS_TF;
		const char *name = kprobe_step_design_name(d);
		struct kprobe kp = make_probe(kpt_div3);

		KTEST_ASSERT_EQ(t, kprobe_step_design_write(name, strlen(name), true, NULL), 0);
		KTEST_EXPECT_TRUE(t, kprobe_hit_layer(KPROBE_HIT_STEP) == kprobe_step_hit_ops(d));
		KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
		KTEST_EXPECT_EQ(t, kprobe_set_step_design(other), -EBUSY);
		KTEST_EXPECT_EQ(t, kprobe_step_design, d);
		KTEST_EXPECT_EQ(t, kprobe_set_step_design(d), 0);	/* no change: allowed */
		KTEST_ASSERT_EQ(t, trap_watch_start(&w), 0);
		KTEST_EXPECT_EQ(t, call_div3(30), 10);
		trap_watch_stop(&w);
		unregister_kprobe(&kp);
		ktest_info(t, "stepped with %s: %lu #BP, %lu #DB", name,
			   w.taken[X86_TRAP_BP], w.taken[X86_TRAP_DB]);
		KTEST_EXPECT_EQ(t, kp.nhit, 1);
		KTEST_EXPECT_EQ(t, w.taken[X86_TRAP_BP], d == KPROBE_SS_TF ? 1 : 2);
		KTEST_EXPECT_EQ(t, w.taken[X86_TRAP_DB], d == KPROBE_SS_TF ? 1 : 0);
	}
	kprobes_fast_paths_restore(&fast);
	KTEST_EXPECT_EQ(t, kprobe_step_design, KPROBE_SS_INT3);
}

static struct kprobe *order_probes[3];

static int order_pre_by_identity(struct kprobe *p, struct pt_regs *regs)
{
	for (int i = 0; i < 3; i++)
		if (p == order_probes[i] && rec.norder < (int)ARRAY_SIZE(rec.order))
			rec.order[rec.norder++] = i;
	return 0;
}

static void kprobe_aggregate_order(struct ktest *t)
{
	struct kprobe kp[3];
	struct kprobe *kps[3] = { &kp[0], &kp[1], &kp[2] };

	rec_reset();
	for (int i = 0; i < 3; i++) {
		kp[i] = make_probe(kpt_div5);
		kp[i].pre_handler = order_pre_by_identity;
		order_probes[i] = &kp[i];
	}
	KTEST_ASSERT_EQ(t, register_kprobes(kps, 3), 0);
	KTEST_EXPECT_EQ(t, call_div5(55), 11);
	unregister_kprobes(kps, 3);
	KTEST_ASSERT_EQ(t, rec.norder, 3);
	for (int i = 0; i < 3; i++)
		KTEST_EXPECT_EQ(t, rec.order[i], i);	/* registration order */
}

static void kprobe_disable_enable(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);
	uint8_t original = text_byte(kpt_div3);

	rec_reset();
	kp.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, disable_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), original);
	KTEST_EXPECT_EQ(t, call_div3(3), 1);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 0);
	KTEST_EXPECT_EQ(t, enable_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(3), 1);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, enable_kprobe(&kp), -EINVAL);	/* not registered */

	/* Registered disabled: in the table, not in the text. */
	kp = make_probe(kpt_div3);
	kp.pre_handler = count_pre;
	kp.flags = KPROBE_FLAG_DISABLED;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), original);
	KTEST_EXPECT_EQ(t, call_div3(3), 1);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, enable_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(3), 1);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 2);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), original);
}

static void kprobe_aggregate_disable(struct ktest *t)
{
	struct kprobe a = make_probe(kpt_div3), b = make_probe(kpt_div3);
	uint8_t original = text_byte(kpt_div3);

	rec_reset();
	a.pre_handler = count_pre;
	b.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&a), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&b), 0);
	KTEST_EXPECT_EQ(t, disable_kprobe(&a), 0);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), BREAKPOINT_INSTRUCTION);
	call_div3(3);
	KTEST_EXPECT_EQ(t, a.nhit, 0);
	KTEST_EXPECT_EQ(t, b.nhit, 1);
	KTEST_EXPECT_EQ(t, disable_kprobe(&b), 0);	/* nobody left: int3 out */
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), original);
	call_div3(3);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, enable_kprobe(&a), 0);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), BREAKPOINT_INSTRUCTION);
	call_div3(3);
	KTEST_EXPECT_EQ(t, a.nhit, 1);
	KTEST_EXPECT_EQ(t, b.nhit, 1);
	unregister_kprobe(&a);
	unregister_kprobe(&b);
	KTEST_EXPECT_EQ(t, text_byte(kpt_div3), original);

	/* A disabled member joining a live probe keeps the int3 and its silence. */
	b.flags = KPROBE_FLAG_DISABLED;
	KTEST_ASSERT_EQ(t, register_kprobe(&a), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&b), 0);
	call_div3(3);
	KTEST_EXPECT_EQ(t, a.nhit, 1);
	KTEST_EXPECT_EQ(t, b.nhit, 0);
	unregister_kprobe(&b);
	unregister_kprobe(&a);
}

/* ---- reentry ----------------------------------------------------------------------------- */

static int calls_probed_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	rec.pre_result = call_div5(500);	/* probed: a reentry */
	return 0;
}

static void kprobe_reentry_from_handler(struct ktest *t)
{
	struct kprobe outer = make_probe(kpt_div3), inner = make_probe(kpt_div5);

	rec_reset();
	outer.pre_handler = calls_probed_pre;
	inner.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&outer), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&inner), 0);
	KTEST_EXPECT_EQ(t, call_div3(90), 30);
	KTEST_EXPECT_EQ(t, rec.pre_result, 100);	/* the inner call worked */
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);		/* but not its handler */
	KTEST_EXPECT_EQ(t, inner.nmissed, 1);
	KTEST_EXPECT_EQ(t, inner.nhit, 0);
	/* Still armed, still working (2.6.11 had disarmed it): an int3, or an optprobe's jmp. */
	KTEST_EXPECT_EQ(t, text_byte(kpt_div5),
			kprobe_optimized(&inner) ? RELATIVEJUMP_OPCODE : BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, call_div5(50), 10);
	KTEST_EXPECT_EQ(t, inner.nhit, 1);
	KTEST_EXPECT_EQ(t, call_div3(9), 3);
	KTEST_EXPECT_EQ(t, outer.nhit, 2);
	KTEST_EXPECT_EQ(t, inner.nmissed, 2);
	unregister_kprobe(&inner);
	unregister_kprobe(&outer);
}

/* A handler that calls the function it probes. */
static int recursive_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	rec.pre_result = call_div3(33);
	return 0;
}

static void kprobe_reentry_same_probe(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);

	rec_reset();
	kp.pre_handler = recursive_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(12), 4);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.pre_result, 11);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, kp.nhit, 1);
	KTEST_EXPECT_EQ(t, kp.nmissed, 1);
}

/* The timer interrupt calls kpt_timer_target() while timer_probe_on is set. */
static volatile bool timer_probe_on;
static volatile unsigned long timer_target_calls;

probe_target void kpt_timer_target(void)
{
	timer_target_calls++;
}

static void kpt_timer_hook(void)
{
	if (timer_probe_on)
		kpt_timer_target();
}

static void install_timer_hook(void)
{
	static bool installed;

	if (!installed) {
		timer_add_hook(kpt_timer_hook);
		installed = true;
	}
}

static bool wait_timer_calls(unsigned long n)
{
	unsigned long start = jiffies;

	while (timer_target_calls < n)
		if (jiffies - start > HZ)
			return false;
	return true;
}

static void kprobe_hit_from_interrupt(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_timer_target);

	install_timer_hook();
	timer_target_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	timer_probe_on = true;
	local_irq_enable();
	KTEST_EXPECT_TRUE(t, wait_timer_calls(5));
	timer_probe_on = false;
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, kp.nhit + kp.nmissed, timer_target_calls);
	KTEST_EXPECT_EQ(t, kp.nmissed, 0);
}

/* A pre-handler that lets interrupts in and waits for three ticks. */
static int irq_window_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long want = timer_target_calls + 3;

	rec.pre_calls++;
	local_irq_enable();
	rec.pre_result = wait_timer_calls(want);
	local_irq_disable();
	return 0;
}

static void kprobe_reentry_from_interrupt(struct ktest *t)
{
	struct kprobe outer = make_probe(kpt_div3), tick = make_probe(kpt_timer_target);
	unsigned long missed;

	install_timer_hook();
	rec_reset();
	timer_target_calls = 0;
	outer.pre_handler = irq_window_pre;
	tick.pre_handler = count_pre;
	KTEST_ASSERT_EQ(t, register_kprobe(&outer), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&tick), 0);
	/* The tick comes to CPU 0 (the PIC): be there, so it interrupts our hit. */
	sched_single_cpu_begin();
	timer_probe_on = true;
	local_irq_enable();
	KTEST_EXPECT_EQ(t, call_div3(21), 7);
	KTEST_EXPECT_EQ(t, rec.pre_result, 1);
	missed = tick.nmissed;
	KTEST_EXPECT_TRUE(t, missed >= 3);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);	/* tick's handler never ran inside */

	/* Afterwards the tick probe is an ordinary probe again. */
	KTEST_EXPECT_TRUE(t, wait_timer_calls(timer_target_calls + 3));
	timer_probe_on = false;
	unregister_kprobe(&tick);
	unregister_kprobe(&outer);
	sched_single_cpu_end();
	KTEST_EXPECT_EQ(t, tick.nmissed, missed);
	KTEST_EXPECT_TRUE(t, tick.nhit >= 3);
	KTEST_EXPECT_EQ(t, tick.nhit + tick.nmissed, timer_target_calls);
	KTEST_EXPECT_EQ(t, (unsigned long)rec.pre_calls, 1 + tick.nhit);
}

/* ---- faults ------------------------------------------------------------------------------ */

static volatile int fault_sink;
/* Through a variable, or the compiler sees the NULL and emits ud2 instead. */
static int *volatile null_pointer;

static int null_deref_pre(struct kprobe *p, struct pt_regs *regs)
{
	rec.pre_calls++;
	fault_sink = *null_pointer;	/* #PF inside the handler */
	return 0;
}

/* Step over the faulting instruction: decode its length at regs->ip. */
static int skip_insn_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	struct insn insn;

	rec.fault_calls++;
	rec.fault_trapnr = trapnr;
	if (insn_decode(&insn, (void *)regs->ip, INSN_MAX_LEN) < 0)
		return 0;
	regs->ip += insn.length;
	return 1;
}

static void kprobe_fault_in_handler(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);

	rec_reset();
	kp.pre_handler = null_deref_pre;
	kp.post_handler = regs_post;
	kp.fault_handler = skip_insn_fault;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_div3(300), 100);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 1);
	KTEST_EXPECT_EQ(t, rec.fault_calls, 1);
	KTEST_EXPECT_EQ(t, rec.fault_trapnr, X86_TRAP_PF);
	KTEST_EXPECT_EQ(t, rec.post_calls, 1);
}

static int nofault_pre(struct kprobe *p, struct pt_regs *regs)
{
	long v;

	rec.pre_calls++;
	rec.nofault_ret = copy_from_kernel_nofault(&v, NULL, sizeof(v));
	return 0;
}

static int declining_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	rec.fault_calls++;
	rec.fault_trapnr = trapnr;
	return 0;	/* let the fixup table have it */
}

static void kprobe_safe_read_in_handler(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_div3);
	struct trap_watch w;

	rec_reset();
	kp.pre_handler = nofault_pre;
	kp.fault_handler = declining_fault;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, trap_watch_start(&w), 0);
	KTEST_EXPECT_EQ(t, call_div3(3), 1);
	trap_watch_stop(&w);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.nofault_ret, -EFAULT);
	KTEST_EXPECT_EQ(t, rec.fault_calls, 1);
	KTEST_EXPECT_EQ(t, rec.fault_trapnr, X86_TRAP_PF);
	KTEST_EXPECT_EQ(t, w.unclaimed, 1);
}

/* The stepped copy faults: the fault must look as if it came from the text. */
static void kprobe_fault_in_stepped_insn(struct ktest *t)
{
	struct kprobe kp = make_probe(kpt_read_long_insn);
	long word = 1234;
	struct trap_watch w;

	rec_reset();
	kp.pre_handler = count_pre;
	kp.post_handler = regs_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, kpt_read_long(&word), 1234);
	KTEST_EXPECT_EQ(t, trap_watch_start(&w), 0);
	KTEST_EXPECT_EQ(t, kpt_read_long(NULL), -EFAULT);
	trap_watch_stop(&w);
	KTEST_EXPECT_EQ(t, w.unclaimed, 1);
	KTEST_EXPECT_EQ(t, w.last_unclaimed.ip, (unsigned long)kpt_read_long_insn);
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_EQ(t, kpt_read_long(&word), 1234);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rec.pre_calls, 3);
	KTEST_EXPECT_EQ(t, rec.post_calls, 2);	/* the faulting run has none */
}

/* ---- the slot allocator --------------------------------------------------------------- */

#define SLOT_TEST_N 300		/* more than a page of either cache: 256 or 32 slots */

/*
 * One instance of the slot cache: n slots over several pages, each
 * aligned to its size and int3-filled; a freed slot is handed out
 * again, int3-filled again; all freed, the pages go back.
 */
static void slot_cache_alloc_reuse_free(struct ktest *t, struct kprobe_insn_cache *c)
{
	static kprobe_opcode_t *slots[SLOT_TEST_N];
	struct insn_slot_stats s0, s1;
	kprobe_opcode_t *again;

	insn_cache_get_stats(c, &s0);
	for (int i = 0; i < SLOT_TEST_N; i++) {
		slots[i] = __get_insn_slot(c);
		KTEST_ASSERT_TRUE(t, slots[i] != NULL);
		KTEST_EXPECT_EQ(t, (unsigned long)slots[i] % c->insn_size, 0);
		KTEST_EXPECT_EQ(t, slots[i][0], BREAKPOINT_INSTRUCTION);
		KTEST_EXPECT_EQ(t, slots[i][c->insn_size - 1], BREAKPOINT_INSTRUCTION);
		memset(slots[i], 0x90, c->insn_size);
	}
	insn_cache_get_stats(c, &s1);
	KTEST_EXPECT_EQ(t, s1.slots_in_use, s0.slots_in_use + SLOT_TEST_N);
	KTEST_EXPECT_TRUE(t, s1.pages >= s0.pages + 2);
	KTEST_EXPECT_TRUE(t, __is_insn_slot_addr(c, (unsigned long)slots[SLOT_TEST_N - 1]));
	for (int i = 1; i < SLOT_TEST_N; i++)
		KTEST_EXPECT_TRUE(t, slots[i] != slots[i - 1]);

	/* The newest page is searched first: its hole is the next slot. */
	__free_insn_slot(c, slots[SLOT_TEST_N - 1], 0);
	again = __get_insn_slot(c);
	KTEST_EXPECT_TRUE(t, again == slots[SLOT_TEST_N - 1]);
	KTEST_EXPECT_EQ(t, again[0], BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, again[c->insn_size - 1], BREAKPOINT_INSTRUCTION);

	for (int i = 0; i < SLOT_TEST_N; i++)
		__free_insn_slot(c, slots[i], 0);
	insn_cache_get_stats(c, &s1);
	KTEST_EXPECT_EQ(t, s1.slots_in_use, s0.slots_in_use);
	KTEST_EXPECT_EQ(t, s1.pages, s0.pages);
	KTEST_EXPECT_EQ(t, s1.total_frees - s0.total_frees, SLOT_TEST_N + 1);
}

/* The instruction slots int3 probes step in. */
static void kprobe_insn_slot_cache(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kprobe_insn_slots.insn_size, MAX_INSN_SIZE);
	slot_cache_alloc_reuse_free(t, &kprobe_insn_slots);
}

/* The same cache code, second instance: the optprobes' detour buffers. */
static void kprobe_optinsn_slot_cache(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kprobe_optinsn_slots.insn_size, MAX_OPTINSN_SIZE);
	slot_cache_alloc_reuse_free(t, &kprobe_optinsn_slots);
}

/* ---- stress ------------------------------------------------------------------------------ */

#define STRESS_REGISTRATIONS	10000
#define STRESS_BATCH		128
#define STRESS_MAX_SYMS		4096
/* The ~1,300 blacklisted symbols' "failed" warnings: counted, not printed. */
#define STRESS_QUIET_LOGLEVEL	MESSAGE_LOGLEVEL_DEFAULT

static unsigned long *stress_syms;
static int stress_nsyms;
static volatile bool stress_stop;
static volatile unsigned long stress_rounds, stress_errors;

static int collect_text_symbol(void *data, const char *name, unsigned long addr,
			       unsigned long size)
{
	if (stress_nsyms < STRESS_MAX_SYMS && kernel_text_address(addr) && size)
		stress_syms[stress_nsyms++] = addr;
	return 0;
}

/* Ordinary kernel work whose results we can check. */
static int stress_workload(void *arg)
{
	char buf[64];

	while (!stress_stop) {
		char *m = kmalloc(32);

		snprintf(buf, sizeof(buf), "%d-%s-%x", 42, "kprobes", 0xbeef);
		if (strcmp(buf, "42-kprobes-beef") != 0 || !m)
			stress_errors++;
		if (m) {
			memset(m, 0x5a, 32);
			if (m[31] != 0x5a)
				stress_errors++;
			kfree(m);
		}
		if (call_div3(stress_rounds % 1000 * 3) != (int)(stress_rounds % 1000))
			stress_errors++;
		stress_rounds++;
		if (stress_rounds % 64 == 0)
			yield();
	}
	return 0;
}

static unsigned long stress_hits;

static int stress_pre(struct kprobe *p, struct pt_regs *regs)
{
	stress_hits++;
	return 0;
}

/* Register up to STRESS_BATCH probes starting at symbol *next; returns how many. */
static int stress_register_batch(struct kprobe *kps, int *next, int *einval,
				 int *eilseq)
{
	int n = 0, ret, loglevel = console_loglevel;

	while (n < STRESS_BATCH) {
		kps[n] = make_probe((void *)stress_syms[*next]);
		kps[n].pre_handler = stress_pre;
		*next = (*next + 1) % stress_nsyms;
		console_loglevel = STRESS_QUIET_LOGLEVEL;
		ret = register_kprobe(&kps[n]);
		console_loglevel = loglevel;
		if (ret == 0)
			n++;
		else if (ret == -EINVAL)
			(*einval)++;	/* blacklisted */
		else if (ret == -EILSEQ)
			(*eilseq)++;	/* hlt, ud2, data... */
		else
			stress_errors++;
	}
	return n;
}

static void kprobe_stress(struct ktest *t)
{
	static struct kprobe kps[STRESS_BATCH];
	static struct kprobe *kpp[STRESS_BATCH];
	struct heap_stats h0, h1;
	struct insn_slot_stats s0, s1;
	uint32_t before = ktest_text_checksum();
	struct task_struct *worker;
	int registered = 0, einval = 0, eilseq = 0, next = 0;

	heap_get_stats(&h0);
	insn_slot_get_stats(&s0);
	stress_syms = kmalloc(STRESS_MAX_SYMS * sizeof(*stress_syms));
	KTEST_ASSERT_TRUE(t, stress_syms != NULL);
	stress_nsyms = 0;
	kallsyms_on_each_symbol(collect_text_symbol, NULL);
	KTEST_ASSERT_TRUE(t, stress_nsyms > STRESS_BATCH);

	stress_stop = false;
	stress_rounds = stress_errors = stress_hits = 0;
	worker = kthread_create(stress_workload, NULL, "kp-stress");
	KTEST_ASSERT_TRUE(t, worker != NULL);

	while (registered < STRESS_REGISTRATIONS) {
		int n = stress_register_batch(kps, &next, &einval, &eilseq);

		registered += n;
		msleep(10);		/* let the worker and the timer run into them */
		for (int i = 0; i < n; i++)
			kpp[i] = &kps[i];
		unregister_kprobes(kpp, n);	/* a grace period per 16, not per probe */
	}
	stress_stop = true;
	kthread_join(worker);
	kfree(stress_syms);

	ktest_info(t, "%d registrations over %d symbols (refused: %d blacklisted, %d unsteppable), %lu hits, %lu worker rounds",
		   registered, stress_nsyms, einval, eilseq, stress_hits, stress_rounds);
	heap_get_stats(&h1);
	insn_slot_get_stats(&s1);
	KTEST_EXPECT_EQ(t, stress_errors, 0);
	KTEST_EXPECT_TRUE(t, stress_hits > 0);
	KTEST_EXPECT_TRUE(t, stress_rounds > 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	KTEST_EXPECT_EQ(t, h1.live_bytes, h0.live_bytes);
	KTEST_EXPECT_EQ(t, s1.slots_in_use, s0.slots_in_use);
	KTEST_EXPECT_EQ(t, s1.pages, s0.pages);
}

/* Last: with no probe left anywhere, .text is what it was at boot. */
static void kprobe_text_unchanged_since_boot(struct ktest *t)
{
	if (kprobes_nr_registered() != 0) {
		ktest_skip(t, "probes from another suite are still registered");
		return;
	}
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
}

/* ---- the suite ------------------------------------------------------------------------------ */

static void kprobes_case_exit(struct ktest *t)
{
	/* Whatever a case did, no hit may be left half done. */
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	local_irq_enable();
}

static struct ktest_case kprobes_cases[] = {
	KTEST_CASE(kprobe_smoke),
	KTEST_CASE(kprobe_register_kprobes_array),
	KTEST_CASE(kprobe_register_kprobes_rollback),
	KTEST_CASE(kprobe_handler_sees_regs),
	KTEST_CASE(kprobe_pre_handler_redirects),
	KTEST_CASE(kprobe_break_handler_hook),
	KTEST_CASE(kprobe_null_handlers),
	KTEST_CASE(kprobe_by_symbol),
	KTEST_CASE(kprobe_mid_function),
	KTEST_CASE(kprobe_on_ret),
	KTEST_CASE(kprobe_on_pushf),
	KTEST_CASE(kprobe_on_sti_popf),
	KTEST_CASE(kprobe_foreign_int3),
	KTEST_CASE(kprobe_bad_input),
	KTEST_CASE(kprobe_blacklist),
	KTEST_CASE(kprobe_aggregate),
	KTEST_CASE(kprobe_step_design_switch),
	KTEST_CASE(kprobe_aggregate_order),
	KTEST_CASE(kprobe_disable_enable),
	KTEST_CASE(kprobe_aggregate_disable),
	KTEST_CASE(kprobe_reentry_from_handler),
	KTEST_CASE(kprobe_reentry_same_probe),
	KTEST_CASE(kprobe_hit_from_interrupt),
	KTEST_CASE(kprobe_reentry_from_interrupt),
	KTEST_CASE(kprobe_fault_in_handler),
	KTEST_CASE(kprobe_safe_read_in_handler),
	KTEST_CASE(kprobe_fault_in_stepped_insn),
	KTEST_CASE(kprobe_insn_slot_cache),
	KTEST_CASE(kprobe_optinsn_slot_cache),
	KTEST_CASE(kprobe_stress),
	KTEST_CASE(kprobe_text_unchanged_since_boot),
	KTEST_END
};

static struct ktest_suite kprobes_suite = {
	.name = "kprobes",
	.cases = kprobes_cases,
	.exit = kprobes_case_exit,
};
KTEST_SUITE(kprobes_suite);
