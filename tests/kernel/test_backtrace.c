/*
 * test_backtrace.c - suite "backtrace": printk's symbol formats and the
 * stack walk (arch/i386/unwind_frame.c).
 *
 *   %pS %ps %pB      name real kernel addresses, as sprint_symbol does
 *   slot, detour     code kprobes made is named after its probe
 *   trap frames      a handler's backtrace goes through the int3's (or
 *                    the detour's) pt_regs into the probed function and
 *                    on to its caller
 *   no frame yet     a function interrupted on its first instruction,
 *                    after "push %ebp", after its epilogue, or a
 *                    frameless leaf: its caller still appears (with "?"
 *                    only where the stack had to be scanned)
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include <asm/insn.h>
#include <asm/ptrace.h>
#include "linkage.h"
#include "string.h"
#include "fprobe.h"
#include "rethook.h"
#include "workloads.h"
#include "vsprintf.h"

#define probe_target __attribute__((__noinline__, __noclone__, __used__))
#define TRACE_MAX 32

/* optprobes_asm.S: a routine, and a label inside it. */
asmlinkage unsigned long opt_mix(unsigned long x);
extern const char om_xor[];

/* A leaf that touches no stack slot: gcc gives it no frame at all. */
static volatile int bt_sink;

probe_target void bt_frameless(void)
{
	bt_sink = 1;
	bt_sink = 2;
}

/*
 * A leaf with a local on the stack: it gets a frame, torn down before the
 * ret (one that only reads its argument, in %eax, would get none).
 */
probe_target int bt_leaf(int n)
{
	volatile int three = 3;

	return n * three + 1;
}

static int (*volatile call_leaf)(int) = bt_leaf;
static unsigned long (asmlinkage *volatile call_mix)(unsigned long) = opt_mix;

probe_target int bt_caller(int n)
{
	return call_leaf(n) + 1;
}

probe_target unsigned long bt_mix_caller(unsigned long x)
{
	return call_mix(x) + 1;
}

/*
 * A genuine return address: the one this call returns to.  The barrier
 * keeps gcc from taking it for a pure function and merging two calls.
 */
static noinline unsigned long a_return_address(void)
{
	barrier();
	return (unsigned long)__builtin_return_address(0);
}

static const char *name_of(unsigned long addr)
{
	const char *name = kallsyms_lookup(addr, NULL, NULL);

	return name ? name : "(none)";
}

/* ---- %pS %ps %pB ------------------------------------------------------------------ */

static void symbol_formats(struct ktest *t)
{
	unsigned long size = 0, fn = (unsigned long)bt_caller;
	char got[KSYM_NAME_LEN], want[KSYM_NAME_LEN];

	KTEST_ASSERT_STREQ(t, kallsyms_lookup(fn, &size, NULL), "bt_caller");
	snprintf(got, sizeof(got), "%pS", (void *)(fn + 3));
	snprintf(want, sizeof(want), "bt_caller+0x3/%#lx", size);
	KTEST_EXPECT_STREQ(t, got, want);
	snprintf(got, sizeof(got), "<%ps>", (void *)(fn + 3));
	KTEST_EXPECT_STREQ(t, got, "<bt_caller>");
	/* A return address one past the end still names the function that called. */
	snprintf(got, sizeof(got), "%pB", (void *)(fn + size));
	snprintf(want, sizeof(want), "bt_caller+%#lx/%#lx", size, size);
	KTEST_EXPECT_STREQ(t, got, want);
	snprintf(got, sizeof(got), "%pZ", (void *)fn);
	snprintf(want, sizeof(want), "0x%08lx(%%pZ?)", fn);
	KTEST_EXPECT_STREQ(t, got, want);
}

/* ---- code kprobes made --------------------------------------------------------------- */

static int nop_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static void slot_and_detour_named(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)om_xor, .pre_handler = nop_pre };
	struct kprobe kp2 = { .addr = (kprobe_opcode_t *)bt_caller + 1, .pre_handler = nop_pre };
	char got[KSYM_NAME_LEN], want[KSYM_NAME_LEN];
	struct optimized_kprobe *op;

	/* om_xor is a global label: kallsyms names the address after it. */
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	snprintf(got, sizeof(got), "%pS", kp.ainsn.insn + 1);
	snprintf(want, sizeof(want), "[kprobe slot for om_xor]+0x1/%#x", MAX_INSN_SIZE);
	KTEST_EXPECT_STREQ(t, got, want);
	wait_for_kprobe_optimizer();	/* the jump: registering only queued it */
	op = kprobe_optimized(&kp) ? get_optimized_kprobe((unsigned long)kp.addr) : NULL;
	KTEST_ASSERT_TRUE(t, op != NULL);
	snprintf(got, sizeof(got), "%ps", op->optinsn.insn + 2);
	KTEST_EXPECT_STREQ(t, got, "[optprobe detour for om_xor]");
	/* Inside a C function: name+offset, as %pS would print the probed address. */
	KTEST_ASSERT_EQ(t, register_kprobe(&kp2), 0);
	snprintf(got, sizeof(got), "%ps", kp2.ainsn.insn);
	KTEST_EXPECT_STREQ(t, got, "[kprobe slot for bt_caller+0x1]");
	unregister_kprobe(&kp2);
	unregister_kprobe(&kp);
	snprintf(got, sizeof(got), "%ps", kp.ainsn.insn + 1);
	KTEST_EXPECT_TRUE(t, strncmp(got, "[kprobe", 7) != 0);	/* gone with the probe */
}

/* ---- a handler's backtrace through the trap frame --------------------------------------- */

static struct {
	struct stack_entry trace[TRACE_MAX];
	int n;
} seen;

static int unwind_pre(struct kprobe *p, struct pt_regs *regs)
{
	seen.n = unwind_stack(NULL, (unsigned long)__builtin_frame_address(0),
			      seen.trace, TRACE_MAX);
	return 0;
}

static int show_pre(struct kprobe *p, struct pt_regs *regs)
{
	show_backtrace(NULL, (unsigned long)__builtin_frame_address(0));
	return 0;
}

/* The entry for the probed address, or -1. */
static int find_trap_ip(unsigned long addr)
{
	for (int i = 0; i < seen.n; i++)
		if (seen.trace[i].kind == STACK_TRAP_IP && seen.trace[i].addr == addr)
			return i;
	return -1;
}

/* The function a return address returns into. */
static const char *caller_of(int i)
{
	return i < seen.n ? name_of(seen.trace[i].addr - 1) : "(end of trace)";
}

/* Kept out of line: each walk has a known caller of the caller. */
static noinline void walk_leaf(void)
{
	bt_caller(4);
	barrier();
}

static noinline void walk_mix(void)
{
	bt_mix_caller(77);
	barrier();
}

/*
 * Probe fn's first instruction, run walk(), and check what the handler's
 * walk found: the assembly that built the pt_regs (the entry code, or the
 * detour), fn itself from the pt_regs, then caller - fn had not pushed
 * %ebp yet, the chain alone would skip it - then walk.
 */
static void check_walk(struct ktest *t, unsigned long fn, void (*walk)(void),
		       const char *caller, const char *walker, bool optimize)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)fn, .pre_handler = unwind_pre };
	char built_by[KSYM_NAME_LEN] = "", want[KSYM_NAME_LEN];
	int i;

	kprobes_set_optimization(optimize);
	memset(&seen, 0, sizeof(seen));
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	wait_for_kprobe_optimizer();
	KTEST_EXPECT_EQ(t, kprobe_optimized(&kp), optimize);
	walk();
	i = find_trap_ip(fn);
	if (i > 0)	/* named while the detour still exists */
		sprint_symbol_no_offset(built_by, sizeof(built_by), seen.trace[i - 1].addr - 1);
	unregister_kprobe(&kp);

	KTEST_ASSERT_TRUE(t, i > 0);
	snprintf(want, sizeof(want), "[optprobe detour for %ps]", (void *)fn);
	KTEST_EXPECT_STREQ(t, built_by, optimize ? want : "vector3");	/* entry.S: #BP's own stub */
	KTEST_EXPECT_EQ(t, seen.trace[i + 1].kind, STACK_RETURN);
	KTEST_EXPECT_STREQ(t, caller_of(i + 1), caller);
	KTEST_EXPECT_STREQ(t, caller_of(i + 2), walker);
}

static void int3_handler_walks_into_probed_function(struct ktest *t)
{
	check_walk(t, (unsigned long)bt_leaf, walk_leaf, "bt_caller", "walk_leaf", false);
	check_walk(t, (unsigned long)opt_mix, walk_mix, "bt_mix_caller", "walk_mix", false);
}

static void optprobe_handler_walks_through_detour(struct ktest *t)
{
	check_walk(t, (unsigned long)opt_mix, walk_mix, "bt_mix_caller", "walk_mix", true);
}

/* What an oops in such a handler prints. */
static void printed_trace_names_every_frame(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)opt_mix, .pre_handler = show_pre };
	char want[KSYM_NAME_LEN];
	const char *text;

	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	wait_for_kprobe_optimizer();
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&kp));
	ktest_capture_start();
	walk_mix();
	ktest_capture_stop();
	unregister_kprobe(&kp);
	text = ktest_captured();
	KTEST_EXPECT_TRUE(t, strstr(text, "] optimized_callback+") != NULL);
	/* opt_mix's first label shares its address: kallsyms may say either. */
	snprintf(want, sizeof(want), "] [optprobe detour for %ps]+", (void *)opt_mix);
	KTEST_EXPECT_TRUE(t, strstr(text, want) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(text, " <trap frame: struct pt_regs at ") != NULL);
	snprintf(want, sizeof(want), "] %ps+0x0/", (void *)opt_mix);
	KTEST_EXPECT_TRUE(t, strstr(text, want) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(text, "] bt_mix_caller+") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(text, "] walk_mix+") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(text, "] 0x") == NULL);	/* nothing unnamed */
}

/* ---- functions caught without their frame ------------------------------------------------ */

/*
 * A pt_regs with the interrupted stack after it: sp, ss, then zeros, as
 * many as a frameless leaf's scan may read (16 words).
 */
static struct {
	struct pt_regs regs;
	unsigned long more[16];
} fake;

static int walk_fake(unsigned long ip, unsigned long word0, unsigned long word1)
{
	memset(&fake, 0, sizeof(fake));
	fake.regs.ip = ip;
	fake.regs.sp = word0;		/* kernel_stack_pointer(regs) points here */
	/* the ss slot, a 16-bit selector and its padding: here a whole stack word */
	memcpy(&fake.regs.ss, &word1, sizeof(word1));
	fake.regs.bp = 0;		/* the chain ends after the trap frame */
	return unwind_stack(&fake.regs, 0, seen.trace, TRACE_MAX);
}

/* The address of the first instruction in fn whose first byte is op, or 0. */
static unsigned long find_insn(const void *fn, uint8_t op, unsigned long size)
{
	struct insn insn;

	for (unsigned long a = (unsigned long)fn; a < (unsigned long)fn + size; a += insn.length) {
		if (insn_decode(&insn, (const void *)a, INSN_MAX_LEN) <= 0)
			return 0;
		if (*(const uint8_t *)a == op)
			return a;
	}
	return 0;
}

/* One walk from a fake trap at ip: the frameless caller found is want. */
static void expect_caller(struct ktest *t, const char *where, unsigned long ip,
			  unsigned long word0, unsigned long word1, unsigned long want)
{
	int n = walk_fake(ip, word0, word1);

	if (n != 2 || seen.trace[1].addr != want || seen.trace[1].kind != STACK_RETURN)
		ktest_fail(t, __FILE__, __LINE__, "%s (ip %pS): %d entries, [1] %#lx kind %d; "
			   "want 2, [1] %#lx kind %d", where, (void *)ip, n,
			   n > 1 ? seen.trace[1].addr : 0, n > 1 ? (int)seen.trace[1].kind : -1,
			   want, STACK_RETURN);
}

#define POP_EBP_OPCODE 0x5d
#define MOV_ESP_EBP_OPCODE 0x89	/* 89 e5; gcc may put a load before it */

static void frame_not_yet_built(struct ktest *t)
{
	unsigned long fn = (unsigned long)bt_caller, size = 0, ret = a_return_address();
	unsigned long pop = 0, mov = 0;
	struct insn insn;

	KTEST_ASSERT_TRUE(t, kallsyms_lookup(fn, &size, NULL) != NULL);
	KTEST_ASSERT_EQ(t, *(const uint8_t *)fn, 0x55);	/* push %ebp; ...; mov %esp,%ebp */
	pop = find_insn(bt_caller, POP_EBP_OPCODE, size);
	KTEST_ASSERT_TRUE(t, pop != 0);
	mov = find_insn(bt_caller, MOV_ESP_EBP_OPCODE, size);
	KTEST_ASSERT_TRUE(t, mov != 0);
	KTEST_ASSERT_TRUE(t, insn_decode(&insn, (const void *)(pop + 1), INSN_MAX_LEN) > 0);

	expect_caller(t, "first instruction", fn, ret, 0, ret);
	expect_caller(t, "after push %ebp", fn + 1, 0x1234, ret, ret);
	expect_caller(t, "after pop %ebp", pop + 1, ret, 0, ret);
	expect_caller(t, "on the ret", find_insn(bt_caller, 0xc3, size), ret, 0, ret);
	/* What gcc scheduled between push and mov leaves the frame half built. */
	if (mov > fn + 1)
		expect_caller(t, "before mov %esp,%ebp", mov, 0x1234, ret, ret);
	/* After mov %esp,%ebp the frame is built: %ebp's chain is right, nothing added. */
	KTEST_EXPECT_EQ(t, walk_fake(mov + 2, ret, ret), 1);
}

static void frameless_leaf_caller(struct ktest *t)
{
	unsigned long ret = a_return_address(), second;
	struct insn insn;
	int n;

	KTEST_ASSERT_TRUE(t, *(const uint8_t *)bt_frameless != 0x55);	/* no frame */
	KTEST_ASSERT_TRUE(t, insn_decode(&insn, bt_frameless, INSN_MAX_LEN) > 0);
	second = (unsigned long)bt_frameless + insn.length;
	/* Nothing pushed before its second instruction: the return address is at sp. */
	expect_caller(t, "frameless, second instruction", second, ret, 0, ret);
	expect_caller(t, "frameless, first instruction", (unsigned long)bt_frameless, ret, 0, ret);
	/* Not a return address where one must be: the first one above is a guess. */
	n = walk_fake(second, 0x1234, ret);
	KTEST_ASSERT_EQ(t, n, 2);
	KTEST_EXPECT_EQ(t, seen.trace[0].addr, second);
	KTEST_EXPECT_EQ(t, seen.trace[1].addr, ret);
	KTEST_EXPECT_EQ(t, seen.trace[1].kind, STACK_GUESS);
	/* Nothing that looks like a return address: no guess at all. */
	KTEST_EXPECT_EQ(t, walk_fake(second, 0x1234, (unsigned long)bt_frameless), 1);
}

/* backtrace_asm.S: two pushes and sub $8 before the instruction asked about. */
void bt_leaf_pushes(void);
extern const unsigned long bt_leaf_pushed_offset;
#define BT_LEAF_PUSHED_WORDS 4

static void frameless_leaf_pushes_counted(struct ktest *t)
{
	unsigned long decoy = a_return_address(), ret = a_return_address();
	unsigned long ip = (unsigned long)bt_leaf_pushes + bt_leaf_pushed_offset;
	int n;

	KTEST_ASSERT_TRUE(t, decoy != ret);
	/* A return address among the pushed words must not be taken for its own. */
	memset(&fake, 0, sizeof(fake));
	fake.regs.ip = ip;
	fake.regs.sp = decoy;
	fake.more[BT_LEAF_PUSHED_WORDS - 2] = ret;	/* sp, ss, more[0], more[1] pushed */
	n = unwind_stack(&fake.regs, 0, seen.trace, TRACE_MAX);
	KTEST_ASSERT_EQ(t, n, 2);
	KTEST_EXPECT_EQ(t, seen.trace[1].addr, ret);
	KTEST_EXPECT_EQ(t, seen.trace[1].kind, STACK_RETURN);
}

/* Optimization on (the cases that want the int3 path turn it off). */
static bool optimization_before;

/* ---- through rethook ---------------------------------------------------------------- */

static unsigned long exit_trace[TRACE_MAX], exit_ret;
static int exit_ntrace;

/* fib's outermost return: the trace from inside rethook's return path. */
static void trace_on_exit(struct fprobe *fp, unsigned long ip, struct pt_regs *regs)
{
	if (exit_ntrace)
		return;
	exit_ret = regs->ip;
	exit_ntrace = save_stack_trace_bp((unsigned long)__builtin_frame_address(0),
					  exit_trace, TRACE_MAX);
}

static unsigned long (*volatile call_fib)(unsigned long) = fib;

/*
 * An fprobe's exit handler runs under arch_rethook_trampoline, whose
 * frame record's return address is the trampoline itself: the unwinder
 * shows where fib really returns to instead (unwind_recover_ret_addr).
 */
static void unwinder_walks_through_rethook(struct ktest *t)
{
	static struct fprobe fp = { .exit_handler = trace_on_exit };
	bool found = false, trampoline = false;

	exit_ntrace = 0;
	KTEST_ASSERT_EQ(t, register_fprobe(&fp, "fib", NULL), 0);
	KTEST_EXPECT_EQ(t, call_fib(1), 1);
	KTEST_EXPECT_EQ(t, unregister_fprobe(&fp), 0);
	KTEST_ASSERT_TRUE(t, exit_ntrace > 0);
	for (int i = 0; i < exit_ntrace; i++) {
		found |= exit_trace[i] == exit_ret;
		trampoline |= exit_trace[i] == (unsigned long)arch_rethook_trampoline;
	}
	KTEST_EXPECT_TRUE(t, found);
	KTEST_EXPECT_FALSE(t, trampoline);
	KTEST_EXPECT_TRUE(t, exit_ret > (unsigned long)unwinder_walks_through_rethook &&
			     exit_ret < (unsigned long)unwinder_walks_through_rethook + 0x200);
}

static int backtrace_init(struct ktest *t)
{
	optimization_before = kprobes_get_optimization();
	kprobes_set_optimization(true);
	return 0;
}

static void backtrace_exit(struct ktest *t)
{
	ktest_capture_stop();
	kprobes_set_optimization(optimization_before);
}

static struct ktest_case backtrace_cases[] = {
	KTEST_CASE(symbol_formats),
	KTEST_CASE(slot_and_detour_named),
	KTEST_CASE(int3_handler_walks_into_probed_function),
	KTEST_CASE(optprobe_handler_walks_through_detour),
	KTEST_CASE(printed_trace_names_every_frame),
	KTEST_CASE(frame_not_yet_built),
	KTEST_CASE(frameless_leaf_caller),
	KTEST_CASE(frameless_leaf_pushes_counted),
	KTEST_CASE(unwinder_walks_through_rethook),
	KTEST_END
};

static struct ktest_suite backtrace_suite = {
	.name = "backtrace",
	.cases = backtrace_cases,
	.init = backtrace_init,
	.exit = backtrace_exit,
};
KTEST_SUITE(backtrace_suite);
