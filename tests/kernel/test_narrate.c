/*
 * test_narrate.c - suite "narrate": the told story of a jprobe hit (the
 * article's three steps, with the stack bytes saved and put back) and of
 * a kretprobe hit (the trampoline swap at entry, the real return address
 * at return).  printk is captured (ktest_capture_start) and the text checked against the
 * values the handlers saw.  And the #DB and fixup steps for one
 * instruction of every class resume_execution() repairs (the labels of
 * kprobes_fixups.S): after a branch, ip is not in the slot any more.
 * (The plain kprobe story is in the tracefs suite and
 * tests/sessions/05_narrate.txt.)  The told runs turn optimization,
 * boosting and emulation off first, as a user does to watch every step:
 * narration itself changes no switch (narrate_changes_no_switch).
 */
#include "ktest.h"
#include "kprobes.h"
#include "narrate.h"
#include "string.h"
#include "vsprintf.h"
#include <asm/irqflags.h>
#include "kprobes_fixups.h"

#define probe_target __attribute__((__noinline__, __noclone__, __used__))

#define ARG_A 0x11223344	/* in ax at the hit (-mregparm=3) */
#define ARG_B 0x0a0b0c0d	/* in dx */

/* Narration on, over the slow path: the fast paths off first, as the user's. */
static struct kprobes_fast_paths fast_before;

static void narrate_slow_on(void)
{
	kprobes_fast_paths_off(&fast_before);
	kprobe_narrate_set(true);
}

static void narrate_slow_off(void)
{
	kprobe_narrate_set(false);
	kprobes_fast_paths_restore(&fast_before);
}

/* ---- what printk printed --------------------------------------------------------- */

static int count(const char *needle)
{
	int n = 0;

	for (const char *p = ktest_captured(); (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* Where needle first appears in the captured text, or -1. */
static long where(const char *needle)
{
	const char *p = strstr(ktest_captured(), needle);

	return p ? p - ktest_captured() : -1;
}

/* ---- targets ---------------------------------------------------------------------- */

probe_target int narr_args(int a, int b)
{
	return a ^ b;
}

probe_target int narr_fib(int n)
{
	return n < 2 ? n : narr_fib(n - 1) + narr_fib(n - 2);
}

static int (*volatile call_args)(int, int) = narr_args;
static int (*volatile call_fib)(int) = narr_fib;

/* ---- jprobes ----------------------------------------------------------------------- */

static struct {
	int calls, a, b;
	unsigned long sp, ret;		/* the hit's sp and the return address there */
	unsigned long kret, kslot;	/* the outermost kretprobed call */
} seen;

static void remember_hit(int a, int b)
{
	seen.calls++;
	seen.a = a;
	seen.b = b;
	seen.sp = this_cpu_ptr(&jprobe_ctlblk)->saved_sp;
	memcpy(&seen.ret, this_cpu_ptr(&jprobe_ctlblk)->saved_stack, sizeof(seen.ret));
}

static int args_handler(int a, int b)
{
	remember_hit(a, b);
	jprobe_return();
}

/* Forgets jprobe_return(): the plain ret lands on jprobe_handler_returned. */
static int forgetful_handler(int a, int b)
{
	remember_hit(a, b);
	return 0;
}

/* One told jprobe hit of narr_args, with this handler. */
static int told_jprobe_hit(struct ktest *t, void *handler)
{
	struct jprobe jp = { .kp = { .addr = (kprobe_opcode_t *)narr_args },
			     .entry = handler };
	int ret;

	memset(&seen, 0, sizeof(seen));
	if (register_jprobe(&jp) != 0)
		return -1;
	narrate_slow_on();
	ktest_capture_start();
	ret = call_args(ARG_A, ARG_B);
	ktest_capture_stop();
	narrate_slow_off();
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, ret, ARG_A ^ ARG_B);
	KTEST_EXPECT_EQ(t, seen.calls, 1);
	KTEST_EXPECT_EQ(t, seen.a, ARG_A);
	KTEST_EXPECT_EQ(t, seen.b, ARG_B);
	return 0;
}

/*
 * The start of the stack dump's first line: the return address,
 * little-endian, as the narration shows it.  a and b are not on the
 * stack: they came in ax and dx, which the saved registers show.
 */
static void first_dump_line(char *buf, size_t len)
{
	const uint8_t *r = (const uint8_t *)&seen.ret;

	snprintf(buf, len, "%08lx: %02x %02x %02x %02x  ", seen.sp, r[0], r[1], r[2], r[3]);
}

static void jprobe_told_in_three_steps(struct ktest *t)
{
	char want[128];

	KTEST_ASSERT_EQ(t, told_jprobe_hit(t, args_handler), 0);

	KTEST_EXPECT_EQ(t, count("narrate: a hit of the probe at narr_args+0x0/"), 1);
	KTEST_EXPECT_EQ(t, count("finds a 'j' probe"), 1);
	KTEST_EXPECT_EQ(t, count("jprobe step 1, setjmp_pre_handler"), 1);
	/* The arguments in their registers, as the handler got them. */
	snprintf(want, sizeof(want), "registers saved: ax=%08x ", ARG_A);
	KTEST_EXPECT_EQ(t, count(want), 1);
	snprintf(want, sizeof(want), " dx=%08x\n", ARG_B);
	KTEST_EXPECT_EQ(t, count(want), 1);
	/* The same bytes twice: saved at the hit, put back at the break. */
	first_dump_line(want, sizeof(want));
	KTEST_EXPECT_EQ(t, count(want), 2);
	snprintf(want, sizeof(want), "return address %08lx (", seen.ret);
	KTEST_EXPECT_EQ(t, count(want), 1);
	KTEST_EXPECT_EQ(t, count("ip -> the handler, args_handler+0x0/"), 1);

	KTEST_EXPECT_EQ(t, count("narrate: the jprobe handler for narr_args+0x0/"), 1);
	KTEST_EXPECT_EQ(t, count("jprobe step 2, jprobe_return: sp loaded back"), 1);
	KTEST_EXPECT_EQ(t, count("(jprobe_return_break+0x0/"), 1);
	snprintf(want, sizeof(want), "sp %08lx == saved sp %08lx", seen.sp, seen.sp);
	KTEST_EXPECT_EQ(t, count(want), 1);
	snprintf(want, sizeof(want), "slot %08lx holds %08lx (jprobe_handler_returned+0x0/",
		 seen.sp, (unsigned long)jprobe_handler_returned);
	KTEST_EXPECT_EQ(t, count(want), 1);
	/* The registers of the hit: ip past the int3, as on Linux. */
	snprintf(want, sizeof(want), "registers restored: ip %08lx (narr_args+0x1/",
		 (unsigned long)narr_args + 1);
	KTEST_EXPECT_EQ(t, count(want), 1);
	snprintf(want, sizeof(want), "holds the real return address again, %08lx", seen.ret);
	KTEST_EXPECT_EQ(t, count(want), 1);

	/* In order: entry, handler, break, then the usual step of the instruction. */
	KTEST_EXPECT_TRUE(t, where("jprobe step 1") < where("pre_handler returned 1"));
	KTEST_EXPECT_TRUE(t, where("pre_handler returned 1") < where("jprobe step 2"));
	KTEST_EXPECT_TRUE(t, where("jprobe step 3") < where("register_kprobe copied"));
	KTEST_EXPECT_TRUE(t, where("register_kprobe copied") < where("8. post_handler done"));
	KTEST_EXPECT_TRUE(t, where("jprobe step 1") >= 0);
	KTEST_EXPECT_FALSE(t, kprobe_narrate_telling);
}

static void jprobe_plain_return_told(struct ktest *t)
{
	char want[128];

	KTEST_ASSERT_EQ(t, told_jprobe_hit(t, forgetful_handler), 0);
	KTEST_EXPECT_EQ(t, count("the handler returned WITHOUT jprobe_return()"), 1);
	KTEST_EXPECT_EQ(t, count("(jprobe_handler_returned_break+0x0/"), 1);
	snprintf(want, sizeof(want), "holds the real return address again, %08lx", seen.ret);
	KTEST_EXPECT_EQ(t, count(want), 1);
	KTEST_EXPECT_EQ(t, count("8. post_handler done"), 1);
}

/* ---- kretprobes --------------------------------------------------------------------- */

static int fib_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* The outermost call returns last: what stays is its instance. */
	seen.calls++;
	seen.kret = (unsigned long)ri->ret_addr;
	seen.kslot = (unsigned long)ri->stack;
	return 0;
}

static void kretprobe_swap_told(struct ktest *t)
{
	struct kretprobe rp = { .kp = { .addr = (kprobe_opcode_t *)narr_fib },
				.handler = fib_ret_handler };
	char want[128];
	int ret;

	bool rethook = kretprobe_on_rethook;

	memset(&seen, 0, sizeof(seen));
	kretprobe_on_rethook = false;	/* the told swap is 2005's, kretprobe_trampoline's */
	ret = register_kretprobe(&rp);
	kretprobe_on_rethook = rethook;
	KTEST_ASSERT_EQ(t, ret, 0);
	narrate_slow_on();
	ktest_capture_start();
	ret = call_fib(3);		/* 5 calls; only the first is told */
	ktest_capture_stop();
	narrate_slow_off();
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, ret, 2);
	KTEST_EXPECT_EQ(t, seen.calls, 5);

	KTEST_EXPECT_EQ(t, count("narrate: a hit of the probe at narr_fib+0x0/"), 1);
	KTEST_EXPECT_EQ(t, count("finds a 'r' probe"), 1);
	snprintf(want, sizeof(want), "kretprobe: return address %08lx (", seen.kret);
	KTEST_EXPECT_EQ(t, count(want), 1);
	snprintf(want, sizeof(want), "at stack slot %08lx", seen.kslot);
	KTEST_EXPECT_EQ(t, count(want), 1);
	snprintf(want, sizeof(want), "replaced by kretprobe_trampoline (%08lx)",
		 (unsigned long)kretprobe_trampoline);
	KTEST_EXPECT_EQ(t, count(want), 1);

	/* The return: only the told (outermost) call, after the four inner ones. */
	KTEST_EXPECT_EQ(t, count("narrate: the told call of narr_fib+0x0/"), 1);
	snprintf(want, sizeof(want), "popped kretprobe_trampoline from slot %08lx", seen.kslot);
	KTEST_EXPECT_EQ(t, count(want), 1);
	KTEST_EXPECT_EQ(t, count("ax=00000002, the return value"), 1);
	KTEST_EXPECT_EQ(t, count("handler fib_ret_handler+0x0/"), 1);
	snprintf(want, sizeof(want), "4. real return address %08lx (", seen.kret);
	KTEST_EXPECT_EQ(t, count(want), 1);
	KTEST_EXPECT_TRUE(t, where("8. post_handler done") < where("narrate: the told call"));
	KTEST_EXPECT_TRUE(t, where("3. the instance is found") < where("4. real return address"));
}

/* ---- every fixup class: steps 9 and 11 -------------------------------------------- */

extern const char fx_call_rel[], fx_call_reg[], fx_lcall[], fx_jmp_short[], fx_jmp_near[],
	fx_jcc8_taken[], fx_jcc8_not_taken[], fx_jcc32_taken[], fx_loop_taken[],
	fx_loop_not_taken[], fx_jecxz_taken[], fx_jmp_reg[], fx_jmp_mem[], fx_ljmp[], fx_ret[],
	fx_ret_imm[], fx_lret[], fx_iret[], fx_pushf[], fx_popf[], fx_cli[], fx_bswap[],
	fx_rep_movsb[];

#define BRANCHED(cls) "outside the slot: the " cls " branched"
#define IN_SLOT	"into the slot"
#define REL_TAKEN "taken: the target counted again from the probed address"
#define KEPT "already right, kept"

/* One probed instruction, what step 6 (the #DB) and the fixup reason must say. */
static const struct told_class {
	const char *name, *addr, *db, *fixup;
} told_classes[] = {
	{ "fx_call_rel", fx_call_rel, BRANCHED("call_rel"), "the target counted again" },
	{ "fx_call_reg", fx_call_reg, BRANCHED("call_ind"), "the absolute target stays" },
	{ "fx_lcall", fx_lcall, BRANCHED("call_far"), "the absolute target stays" },
	{ "fx_jmp_short", fx_jmp_short, BRANCHED("jmp_rel"), REL_TAKEN },
	{ "fx_jmp_near", fx_jmp_near, BRANCHED("jmp_rel"), REL_TAKEN },
	{ "fx_jcc8_taken", fx_jcc8_taken, BRANCHED("jcc"), REL_TAKEN },
	{ "fx_jcc32_taken", fx_jcc32_taken, BRANCHED("jcc"), REL_TAKEN },
	{ "fx_jcc8_not_taken", fx_jcc8_not_taken, IN_SLOT, "not taken: from just past the copy" },
	{ "fx_loop_taken", fx_loop_taken, BRANCHED("loop"), REL_TAKEN },
	{ "fx_jecxz_taken", fx_jecxz_taken, BRANCHED("loop"), REL_TAKEN },
	{ "fx_loop_not_taken", fx_loop_not_taken, IN_SLOT, "not taken: from just past the copy" },
	{ "fx_jmp_reg", fx_jmp_reg, BRANCHED("jmp_ind"), KEPT },
	{ "fx_jmp_mem", fx_jmp_mem, BRANCHED("jmp_ind"), KEPT },
	{ "fx_ljmp", fx_ljmp, BRANCHED("jmp_far"), KEPT },
	{ "fx_ret", fx_ret, BRANCHED("ret"), KEPT },
	{ "fx_ret_imm", fx_ret_imm, BRANCHED("ret"), KEPT },
	{ "fx_lret", fx_lret, BRANCHED("lret"), KEPT },
	{ "fx_iret", fx_iret, BRANCHED("iret"), KEPT },
	{ "fx_pushf", fx_pushf, IN_SLOT, "the pushed flags get the TF and IF" },
	{ "fx_popf", fx_popf, IN_SLOT, "by the same offset" },
	{ "fx_bswap", fx_bswap, IN_SLOT, "by the same offset" },
	{ "fx_rep_movsb", fx_rep_movsb, "at ip", "by the same offset" },
};

static int nop_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* The told line that starts with step, "" if none; line_len() its length. */
static const char *line_of(const char *step)
{
	const char *p = strstr(ktest_captured(), step);

	return p ? p : "";
}

static int line_len(const char *step)
{
	const char *p = line_of(step), *end = strchr(p, '\n');

	return end ? (int)(end - p) : (int)strlen(p);
}

/* N in "N byte(s) into the slot", or -1 if the line has none. */
static long slot_offset_told(void)
{
	const char *p = strstr(ktest_captured(), " " IN_SLOT);

	if (!p)
		return -1;
	while (p > ktest_captured() && p[-1] != ' ')
		p--;		/* back over "byte" or "bytes" */
	if (p > ktest_captured())
		p--;
	while (p > ktest_captured() && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return simple_strtol(p, NULL, 10);
}

/* The ip after the fixup, as step 7 tells it: "ip A -> B (". */
static unsigned long fixed_ip_told(void)
{
	unsigned long ip;

	return ktest_hex_after(strstr(ktest_captured(), "7. fixup for "),
			       " -> ", &ip) ? ip : 0;
}

/* Probe addr, run fixup_routine() once with narration on; the story is captured. */
static int told_fixup_run(const char *addr)
{
	static struct fixup_state st;
	struct kprobe kp = { .addr = (kprobe_opcode_t *)addr, .pre_handler = nop_pre };
	int ret = register_kprobe(&kp);

	if (ret)
		return ret;
	narrate_slow_on();
	ktest_capture_start();
	fixup_routine(&st);
	ktest_capture_stop();
	narrate_slow_off();
	unregister_kprobe(&kp);
	return 0;
}

static void tell_one_class(struct ktest *t, const struct told_class *c)
{
	unsigned long fixed;
	long off;

	if (told_fixup_run(c->addr)) {
		ktest_fail(t, __FILE__, __LINE__, "%s: register_kprobe failed", c->name);
		return;
	}

	off = slot_offset_told();
	fixed = fixed_ip_told();
	if (count("narrate: a hit") != 1 || !strstr(ktest_captured(), c->db) ||
	    !strstr(ktest_captured(), c->fixup))
		ktest_fail(t, __FILE__, __LINE__, "%s: want step 6 \"%s\" and fixup \"%s\"; "
			   "told: %.*s", c->name, c->db, c->fixup, line_len("6. #DB"),
			   line_of("6. #DB"));
	if (off > MAX_INSN_SIZE)
		ktest_fail(t, __FILE__, __LINE__, "%s: told %ld bytes into a %d-byte slot",
			   c->name, off, MAX_INSN_SIZE);
	if (fixed < (unsigned long)fixup_routine || fixed >= (unsigned long)fixup_routine_end)
		ktest_fail(t, __FILE__, __LINE__, "%s: step 7 puts ip at %#lx, outside fixup_routine",
			   c->name, fixed);
}

/* Stepped with TF: every class reaches the #DB and resume_execution(). */
static void every_fixup_class_told(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, kprobe_set_step_design(KPROBE_SS_TF), 0);
	for (size_t i = 0; i < ARRAY_SIZE(told_classes); i++)
		tell_one_class(t, &told_classes[i]);
	KTEST_EXPECT_EQ(t, kprobe_set_step_design(KPROBE_SS_INT3), 0);
}

/*
 * Stepped with int3 (the default): the copy falls through into the int3
 * after it, and the second #BP is told as the end of the step - no TF,
 * no #DB; a branch is emulated even with emulation off.
 */
static void int3_step_told(struct ktest *t)
{
	static const struct {
		const char *name, *addr, *fixup;
		unsigned long len;
	} stepped[] = {
		{ "fx_bswap", fx_bswap, "by the same offset", 2 },
		{ "fx_pushf", fx_pushf, "the pushed flags get the TF and IF", 1 },
	};

	KTEST_ASSERT_EQ(t, kprobe_step_design, KPROBE_SS_INT3);
	for (size_t i = 0; i < ARRAY_SIZE(stepped); i++) {
		KTEST_ASSERT_EQ(t, told_fixup_run(stepped[i].addr), 0);
		if (count("an int3 follows the copy") != 1 || count("6. #BP again") != 1 ||
		    count(stepped[i].fixup) != 1 || count("6. #DB") != 0 ||
		    count("TF set") != 0 || count("8. post_handler done") != 1)
			ktest_fail(t, __FILE__, __LINE__, "%s: want the int3 step told; told: %.*s",
				   stepped[i].name, line_len("6. #BP"), line_of("6. #BP"));
		if (fixed_ip_told() != (unsigned long)stepped[i].addr + stepped[i].len)
			ktest_fail(t, __FILE__, __LINE__, "%s: step 7 puts ip at %#lx", stepped[i].name,
				   fixed_ip_told());
	}
	KTEST_ASSERT_EQ(t, told_fixup_run(fx_jmp_short), 0);
	KTEST_EXPECT_EQ(t, count("emulated: the jmp_rel computed on regs"), 1);
	KTEST_EXPECT_EQ(t, count("6. #BP again"), 0);
}

/* cli and sti are emulated: no step at all, so no #DB to tell. */
static void emulated_cli_told_without_step(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, told_fixup_run(fx_cli), 0);
	KTEST_EXPECT_EQ(t, count("emulated: the cli computed on regs"), 1);
	KTEST_EXPECT_EQ(t, count("6. #DB"), 0);
}

/*
 * Narration observes: turning it on changes no switch, and a hit the
 * fast paths take is told as it runs - narr_fib's first instruction,
 * push %ebp, emulated with no step, its result as unprobed.
 */
static void narrate_changes_no_switch(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)narr_fib, .pre_handler = nop_pre };
	struct kprobes_fast_paths fast;

	kprobes_fast_paths_off(&fast);
	kprobes_set_emulation(true);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	ktest_capture_start();
	kprobe_narrate_set(true);
	KTEST_EXPECT_TRUE(t, kprobes_get_emulation());
	KTEST_EXPECT_FALSE(t, kprobes_get_boosting());
	KTEST_EXPECT_EQ(t, call_fib(3), 2);
	kprobe_narrate_set(false);
	ktest_capture_stop();
	unregister_kprobe(&kp);
	kprobes_fast_paths_restore(&fast);
	KTEST_EXPECT_TRUE(t, kprobes_get_emulation() == fast.emulate);
	KTEST_EXPECT_EQ(t, count("narrate: on: emulate - "), 1);	/* and it says so */
	KTEST_EXPECT_EQ(t, count("narrate: a hit of the probe at narr_fib+0x0/"), 1);
	KTEST_EXPECT_EQ(t, count("no step, no #DB"), 1);
	KTEST_EXPECT_EQ(t, count("6. #DB"), 0);
	KTEST_EXPECT_EQ(t, kp.nhit, 5);
}

/* Off: the hooks stay quiet and tell nothing. */
static void narrate_off_tells_nothing(struct ktest *t)
{
	struct jprobe jp = { .kp = { .addr = (kprobe_opcode_t *)narr_args },
			     .entry = args_handler };
	struct kretprobe rp = { .kp = { .addr = (kprobe_opcode_t *)narr_fib },
				.handler = fib_ret_handler };
	unsigned long told = kprobe_narrate_hits;

	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, call_args(ARG_A, ARG_B), ARG_A ^ ARG_B);
	KTEST_EXPECT_EQ(t, call_fib(3), 2);
	ktest_capture_stop();
	unregister_kretprobe(&rp);
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, jp.kp.nhit, 1);
	KTEST_EXPECT_EQ(t, rp.kp.nhit, 5);
	KTEST_EXPECT_EQ(t, kprobe_narrate_hits, told);
	KTEST_EXPECT_EQ(t, count("narrate"), 0);
}

/* ---- the suite ---------------------------------------------------------------------------- */

static void narrate_case_exit(struct ktest *t)
{
	ktest_capture_stop();
	kprobe_narrate_set(false);
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_TRUE(t, this_cpu_ptr(&jprobe_ctlblk)->jp == NULL);	/* this CPU's; others may run */
	KTEST_EXPECT_EQ(t, kretprobe_outstanding(), 0);
	local_irq_enable();
}

static struct ktest_case narrate_cases[] = {
	KTEST_CASE(jprobe_told_in_three_steps),
	KTEST_CASE(jprobe_plain_return_told),
	KTEST_CASE(kretprobe_swap_told),
	KTEST_CASE(every_fixup_class_told),
	KTEST_CASE(int3_step_told),
	KTEST_CASE(emulated_cli_told_without_step),
	KTEST_CASE(narrate_changes_no_switch),
	KTEST_CASE(narrate_off_tells_nothing),
	KTEST_END
};

static struct ktest_suite narrate_suite = {
	.name = "narrate",
	.cases = narrate_cases,
	.exit = narrate_case_exit,
};
KTEST_SUITE(narrate_suite);
