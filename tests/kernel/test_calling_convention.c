/*
 * test_calling_convention.c - suite "calling_convention": what a probe
 * sees of a function's arguments and result under Linux i386's
 * convention, -mregparm=3 -freg-struct-return (docs/calling-convention.md).
 *
 *   example     kprobetrace.rst's i386 line, on do_sys_open: dfd=%ax
 *               filename=%dx flags=%cx mode=+4($stack)
 *   $argN       functions of 1 to 6 arguments: $arg1..$arg3 are ax, dx,
 *               cx, $arg4 on are the words above the return address
 *   jprobe      the handler gets the arguments where the function does:
 *               three in registers, the fourth in the function's own
 *               first stack slot
 *   kretprobe   the entry handler reads them with regs_get_kernel_argument(),
 *               the return handler the result in ax, a small struct in
 *               ax:dx
 *
 * Every case also checks the places themselves (ax is the first
 * argument, +4($stack) the fourth...): under the plain i386 convention,
 * every argument on the stack and a struct returned through memory,
 * each of them fails.
 */
#include "ktest.h"
#include "kprobes.h"
#include <asm/ptrace.h>
#include "pseudofs.h"
#include "pseudofs_io.h"
#include "syscalls.h"
#include "trace.h"
#include <asm/percpu.h>
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define probe_target __attribute__((__noinline__, __noclone__, __used__))

#define EVENTS	TRACEFS_DIR "/kprobe_events"
#define TRACE	TRACEFS_DIR "/trace"
#define ENABLE	TRACEFS_DIR "/events/kprobes/enable"
#define MAX_ARGS	6

/* Arguments no register or stack word holds by chance. */
static const unsigned long argv_of[MAX_ARGS] = {
	0x1a2b3c01, 0x1a2b3c02, 0x1a2b3c03, 0x1a2b3c04, 0x1a2b3c05, 0x1a2b3c06,
};

/* ---- the probed functions --------------------------------------------------------- */

probe_target unsigned long cc_args1(unsigned long a)
{
	return a;
}

probe_target unsigned long cc_args2(unsigned long a, unsigned long b)
{
	return a ^ b;
}

probe_target unsigned long cc_args3(unsigned long a, unsigned long b, unsigned long c)
{
	return a ^ b ^ c;
}

probe_target unsigned long cc_args4(unsigned long a, unsigned long b, unsigned long c,
				    unsigned long d)
{
	return a ^ b ^ c ^ d;
}

probe_target unsigned long cc_args5(unsigned long a, unsigned long b, unsigned long c,
				    unsigned long d, unsigned long e)
{
	return a ^ b ^ c ^ d ^ e;
}

probe_target unsigned long cc_args6(unsigned long a, unsigned long b, unsigned long c,
				    unsigned long d, unsigned long e, unsigned long f)
{
	return a ^ b ^ c ^ d ^ e ^ f;
}

/* Two words: -freg-struct-return hands them back in ax and dx. */
struct cc_pair {
	unsigned long lo, hi;
};

probe_target struct cc_pair cc_pair_of(unsigned long lo, unsigned long hi)
{
	return (struct cc_pair){ .lo = lo, .hi = hi };
}

/* Through volatile pointers: the compiler may not fold or inline the calls. */
static unsigned long (*volatile call1)(unsigned long) = cc_args1;
static unsigned long (*volatile call2)(unsigned long, unsigned long) = cc_args2;
static unsigned long (*volatile call3)(unsigned long, unsigned long, unsigned long) = cc_args3;
static unsigned long (*volatile call4)(unsigned long, unsigned long, unsigned long,
				       unsigned long) = cc_args4;
static unsigned long (*volatile call5)(unsigned long, unsigned long, unsigned long,
				       unsigned long, unsigned long) = cc_args5;
static unsigned long (*volatile call6)(unsigned long, unsigned long, unsigned long,
				       unsigned long, unsigned long, unsigned long) = cc_args6;
static struct cc_pair (*volatile call_pair)(unsigned long, unsigned long) = cc_pair_of;
static long (*volatile call_open)(int, const char __user *, int, umode_t) = do_sys_open;

/* Call cc_argsN with the first n of argv_of; its result. */
static unsigned long call_with(int n)
{
	const unsigned long *v = argv_of;

	switch (n) {
	case 1: return call1(v[0]);
	case 2: return call2(v[0], v[1]);
	case 3: return call3(v[0], v[1], v[2]);
	case 4: return call4(v[0], v[1], v[2], v[3]);
	case 5: return call5(v[0], v[1], v[2], v[3], v[4]);
	default: return call6(v[0], v[1], v[2], v[3], v[4], v[5]);
	}
}

/* What cc_argsN returns for argv_of. */
static unsigned long want_result(int n)
{
	unsigned long r = 0;

	for (int i = 0; i < n; i++)
		r ^= argv_of[i];
	return r;
}

/* ---- kprobe_events ------------------------------------------------------------------ */

static char out[16384];

static int define_event(const char *line)
{
	return pseudofs_write_str(EVENTS, line, false);
}

static void remove_events(void)
{
	pseudofs_write_str(ENABLE, "0\n", true);
	pseudofs_write_str(EVENTS, "\n", true);
}

static int cc_case_init(struct ktest *t)
{
	tracefs_init();
	remove_events();
	trace_buffer_reset(TRACE_ALL_CPUS);
	return 0;
}

static void cc_case_exit(struct ktest *t)
{
	remove_events();
	trace_buffer_reset(TRACE_ALL_CPUS);
}

/* Does the trace hold a line with this text? */
static bool traced(struct ktest *t, const char *text)
{
	pseudofs_read_into(TRACE, out, sizeof(out));
	if (strstr(out, text))
		return true;
	ktest_info(t, "no trace line with \"%s\" in:\n%s", text, out);
	return false;
}

/*
 * kprobetrace.rst's i386 example, word for word: do_sys_open(dfd,
 * filename, flags, mode) finds dfd, filename and flags in ax, dx, cx and
 * mode in the first word above its return address.  The name is a
 * kernel address: copying it from the user fails first, as Linux's
 * getname() would (-EFAULT), and nothing is opened.
 */
static void kprobetrace_i386_example(struct ktest *t)
{
	static const char name[] = "/sys/kernel/tracing/trace";
	char want[160];

	KTEST_ASSERT_EQ(t, define_event("p:myprobe do_sys_open dfd=%ax filename=%dx "
					"flags=%cx mode=+4($stack)\n"), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", true), 0);
	KTEST_EXPECT_EQ(t, call_open(7, (const char __user *)name, 0x8001, 0644), -EFAULT);
	snprintf(want, sizeof(want), ") dfd=0x7 filename=%#lx flags=0x8001 mode=0x1a4\n",
		 (unsigned long)name);
	KTEST_EXPECT_TRUE(t, traced(t, "myprobe: (do_sys_open+0x0/0x"));
	KTEST_EXPECT_TRUE(t, traced(t, want));
}

/*
 * The event line "p:ccN cc_argsN a1=$arg1 ... aN=$argN ax=%ax" and its
 * trace text: ax, where the first argument is, must agree with $arg1.
 */
static void args_event(int n, char *line, size_t line_len, char *want, size_t want_len)
{
	size_t l = snprintf(line, line_len, "p:cc%d cc_args%d", n, n);
	size_t w = snprintf(want, want_len, ")");

	for (int i = 1; i <= n; i++) {
		l += snprintf(line + l, line_len - l, " a%d=$arg%d", i, i);
		w += snprintf(want + w, want_len - w, " a%d=%#lx", i, argv_of[i - 1]);
	}
	snprintf(line + l, line_len - l, " ax=%%ax\n");
	snprintf(want + w, want_len - w, " ax=%#lx\n", argv_of[0]);
}

/* $arg1..$argN are the real arguments, for a function of N = 1 to 6. */
static void args_1_to_6_by_event(struct ktest *t)
{
	char line[160], want[160];

	for (int n = 1; n <= MAX_ARGS; n++) {
		args_event(n, line, sizeof(line), want, sizeof(want));
		KTEST_ASSERT_EQ(t, define_event(line), 0);
	}
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", true), 0);
	for (int n = 1; n <= MAX_ARGS; n++)
		KTEST_EXPECT_EQ(t, call_with(n), want_result(n));
	for (int n = 1; n <= MAX_ARGS; n++) {
		args_event(n, line, sizeof(line), want, sizeof(want));
		if (!traced(t, want))
			ktest_fail(t, __FILE__, __LINE__, "cc_args%d: $argN not the arguments", n);
	}
}

/* Where they are: ax, dx, cx, then +4, +8, +12 above the return address. */
static void args_are_where_linux_puts_them(struct ktest *t)
{
	char want[160];

	KTEST_ASSERT_EQ(t, define_event("p:where cc_args6 ax=%ax dx=%dx cx=%cx "
					"s4=+4($stack) s5=+8($stack) s6=$stack3\n"), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", true), 0);
	KTEST_EXPECT_EQ(t, call_with(6), want_result(6));
	snprintf(want, sizeof(want), ") ax=%#lx dx=%#lx cx=%#lx s4=%#lx s5=%#lx s6=%#lx\n",
		 argv_of[0], argv_of[1], argv_of[2], argv_of[3], argv_of[4], argv_of[5]);
	KTEST_EXPECT_TRUE(t, traced(t, want));
}

/* ---- a kprobe's handler: regs_get_kernel_argument() ------------------------------ */

static unsigned long seen_args[MAX_ARGS], seen_ax;
static int seen_calls;

static int args_pre(struct kprobe *p, struct pt_regs *regs)
{
	seen_calls++;
	seen_ax = regs->ax;
	for (int i = 0; i < MAX_ARGS; i++)
		seen_args[i] = regs_get_kernel_argument(regs, i);
	return 0;
}

static void kprobe_reads_every_argument(struct ktest *t)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)cc_args6, .pre_handler = args_pre };

	seen_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, call_with(6), want_result(6));
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, seen_calls, 1);
	for (int i = 0; i < MAX_ARGS; i++)
		KTEST_EXPECT_EQ(t, seen_args[i], argv_of[i]);
	KTEST_EXPECT_EQ(t, seen_ax, argv_of[0]);	/* Linux i386: the first in ax */
}

/* ---- jprobes ------------------------------------------------------------------------ */

static struct {
	int calls;
	unsigned long args[MAX_ARGS];
	unsigned long slot_d, saved_sp;
} jseen;

/* Mirrors cc_args6 exactly, as a jprobe handler must. */
static unsigned long j_args6(unsigned long a, unsigned long b, unsigned long c,
			     unsigned long d, unsigned long e, unsigned long f)
{
	jseen.calls++;
	jseen.args[0] = a;
	jseen.args[1] = b;
	jseen.args[2] = c;
	jseen.args[3] = d;
	jseen.args[4] = e;
	jseen.args[5] = f;
	jseen.slot_d = (unsigned long)&d;
	jseen.saved_sp = this_cpu_ptr(&jprobe_ctlblk)->saved_sp;
	jprobe_return();
	return 0;	/* never reached */
}

static void jprobe_handler_gets_the_arguments(struct ktest *t)
{
	struct jprobe jp = { .kp = { .addr = (kprobe_opcode_t *)cc_args6 }, .entry = j_args6 };

	memset(&jseen, 0, sizeof(jseen));
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	KTEST_EXPECT_EQ(t, call_with(6), want_result(6));
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, jseen.calls, 1);
	for (int i = 0; i < MAX_ARGS; i++)
		KTEST_EXPECT_EQ(t, jseen.args[i], argv_of[i]);
	/* d, the fourth, is cc_args6's own stack slot, right above its return address. */
	KTEST_EXPECT_EQ(t, jseen.slot_d, jseen.saved_sp + sizeof(unsigned long));
	KTEST_EXPECT_EQ(t, jp.nbad_return, 0);
}

/* ---- kretprobes --------------------------------------------------------------------- */

struct cc_entry {
	unsigned long args[MAX_ARGS];
	unsigned long ax;
};

static struct {
	int returns;
	struct cc_entry entry;
	unsigned long ret, dx;
} rseen;

static int entry_args(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct cc_entry *e = (struct cc_entry *)ri->data;

	for (int i = 0; i < MAX_ARGS; i++)
		e->args[i] = regs_get_kernel_argument(regs, i);
	e->ax = regs->ax;
	return 0;
}

static int return_value(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	rseen.returns++;
	memcpy(&rseen.entry, ri->data, sizeof(rseen.entry));
	rseen.ret = regs_return_value(regs);
	rseen.dx = regs->dx;
	return 0;
}

static void kretprobe_entry_data_and_result(struct ktest *t)
{
	struct kretprobe rp = {
		.kp = { .addr = (kprobe_opcode_t *)cc_args6 },
		.entry_handler = entry_args,
		.handler = return_value,
		.data_size = sizeof(struct cc_entry),
	};

	memset(&rseen, 0, sizeof(rseen));
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	KTEST_EXPECT_EQ(t, call_with(6), want_result(6));
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, rseen.returns, 1);
	for (int i = 0; i < MAX_ARGS; i++)
		KTEST_EXPECT_EQ(t, rseen.entry.args[i], argv_of[i]);
	KTEST_EXPECT_EQ(t, rseen.entry.ax, argv_of[0]);
	KTEST_EXPECT_EQ(t, rseen.ret, want_result(6));
}

/* -freg-struct-return: a two-word struct comes back in ax (lo) and dx (hi). */
static void kretprobe_sees_a_struct_in_ax_dx(struct ktest *t)
{
	struct kretprobe rp = { .kp = { .addr = (kprobe_opcode_t *)cc_pair_of },
				.handler = return_value };
	struct cc_pair got;

	memset(&rseen, 0, sizeof(rseen));
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	got = call_pair(argv_of[0], argv_of[1]);
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, got.lo, argv_of[0]);
	KTEST_EXPECT_EQ(t, got.hi, argv_of[1]);
	KTEST_EXPECT_EQ(t, rseen.returns, 1);
	KTEST_EXPECT_EQ(t, rseen.ret, argv_of[0]);
	KTEST_EXPECT_EQ(t, rseen.dx, argv_of[1]);
}

static struct ktest_case calling_convention_cases[] = {
	KTEST_CASE(kprobetrace_i386_example),
	KTEST_CASE(args_1_to_6_by_event),
	KTEST_CASE(args_are_where_linux_puts_them),
	KTEST_CASE(kprobe_reads_every_argument),
	KTEST_CASE(jprobe_handler_gets_the_arguments),
	KTEST_CASE(kretprobe_entry_data_and_result),
	KTEST_CASE(kretprobe_sees_a_struct_in_ax_dx),
	KTEST_END
};

static struct ktest_suite calling_convention_suite = {
	.name = "calling_convention",
	.cases = calling_convention_cases,
	.init = cc_case_init,
	.exit = cc_case_exit,
};
KTEST_SUITE(calling_convention_suite);
