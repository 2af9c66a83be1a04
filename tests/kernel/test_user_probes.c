/*
 * test_user_probes.c - suite "user_probes": kprobes on kernel code that
 * a process entered from ring 3 - the system calls.
 *
 * A probe on sys_write's first instruction reads the user's registers
 * (Linux i386's convention: syscall_call() leaves fd, buf, count in
 * %ebx, %ecx, %edx) and, through :ustring, the bytes the process asked
 * to write - from its own address space, through the safe copy.  A
 * return probe on the same call sees the count it returned, a jprobe
 * gets sys_write's own arguments, and a backtrace ends at the process's
 * frame.  Below each probed frame lies a ring-3 trap frame; the probes
 * must not care.
 */
#include "ktest.h"
#include "process.h"
#include "pseudofs.h"
#include "trace.h"
#include "kprobes.h"
#include "linkage.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "kallsyms.h"
#include "stacktrace.h"
#include "mm.h"
#include <asm/ptrace.h>
#include "uaccess.h"
#include "linux/compiler.h"
#include "pseudofs_io.h"

#define EVENTS	TRACEFS_DIR "/kprobe_events"
#define TRACE	TRACEFS_DIR "/trace"
#define ENABLE	TRACEFS_DIR "/events/kprobes/enable"

static char out[16384];

static void read_trace(void)
{
	pseudofs_read_into(TRACE, out, sizeof(out));
}

static int run_hello(void)
{
	const char *argv[] = { "hello" };
	struct task_struct *p;
	int err;

	p = process_spawn("hello", argv, 1, &err);
	return p ? process_wait(p) : err;
}

/* The hex digits after key in text, copied into val ("" if none). */
static void hex_after(const char *text, const char *key, char *val, size_t size)
{
	const char *p = strstr(text, key);
	size_t n = 0;

	if (p)
		for (p += strlen(key); n + 1 < size && strchr("0123456789abcdefx", p[n]); n++)
			val[n] = p[n];
	val[n] = '\0';
}

static int user_probes_init(struct ktest *t)
{
	tracefs_init();
	pseudofs_write_str(ENABLE, "0\n", false);
	pseudofs_write(EVENTS, "\n", 1, true);
	trace_buffer_reset(TRACE_ALL_CPUS);
	return 0;
}

static void user_probes_exit(struct ktest *t)
{
	pseudofs_write_str(ENABLE, "0\n", false);
	pseudofs_write(EVENTS, "\n", 1, true);
}

static void kprobe_on_sys_write_reads_user_args(struct ktest *t)
{
	char count[16], ret[16];

	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:sys_write_probe sys_write fd=%bx buf=%cx "
				     "count=%dx msg=+0(%cx):ustring\n", false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "r:sys_write_ret sys_write ret=$retval\n", false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", false), 0);
	KTEST_EXPECT_EQ(t, run_hello(), W_EXITCODE(0, 0));
	pseudofs_write_str(ENABLE, "0\n", false);
	read_trace();

	/* hello's first write: its printf line, from its own address space. */
	KTEST_EXPECT_TRUE(t, strstr(out, "hello-") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "sys_write_probe: (sys_write+0x0/0x") != NULL);
	/* printf formats on its stack: buf is a user address just below TASK_SIZE. */
	KTEST_EXPECT_TRUE(t, strstr(out, "fd=0x1 buf=0xbfff") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "msg=\"Hello from user space!") != NULL);
	/* The return probe sees what sys_write returned: the count it was given. */
	hex_after(out, "count=", count, sizeof(count));
	hex_after(out, "<- sys_write) ret=", ret, sizeof(ret));
	KTEST_EXPECT_TRUE(t, count[0] != '\0');
	KTEST_EXPECT_STREQ(t, ret, count);
}

/* A :ustring on a kernel pointer is refused at the hit: "(fault)", never the kernel's bytes. */
static void ustring_refuses_kernel_addresses(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:kernel_ptr_probe sys_write "
				     "k=+0(@jiffies):ustring\n", false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", false), 0);
	KTEST_EXPECT_EQ(t, run_hello(), W_EXITCODE(0, 0));
	pseudofs_write_str(ENABLE, "0\n", false);
	read_trace();
	KTEST_EXPECT_TRUE(t, strstr(out, "kernel_ptr_probe: (sys_write+0x0/0x") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, " k=(fault)") != NULL);
}

/* What a backtrace taken inside a system call sees: kernel frames, then the user frame. */
static struct stack_entry seen[STACK_TRACE_MAX];
static int seen_n;

static int record_trace(struct kprobe *p, struct pt_regs *regs)
{
	if (current->mm && !seen_n)
		seen_n = unwind_stack(regs, 0, seen, ARRAY_SIZE(seen));
	return 0;
}

static void backtrace_ends_at_the_user_frame(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "sys_getpid", .pre_handler = record_trace };
	const struct stack_entry *last;

	seen_n = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, run_hello(), W_EXITCODE(0, 0));	/* hello calls getpid() */
	unregister_kprobe(&kp);
	KTEST_ASSERT_TRUE(t, seen_n >= 2);
	KTEST_EXPECT_EQ(t, seen[0].kind, STACK_TRAP_IP);	/* the probe's int3, in sys_getpid */
	KTEST_EXPECT_TRUE(t, seen[0].addr - (unsigned long)kp.addr <= 1);
	last = &seen[seen_n - 1];
	KTEST_EXPECT_EQ(t, last->kind, STACK_USER_IP);
	KTEST_EXPECT_TRUE(t, last->addr >= USER_BASE && last->addr < TASK_SIZE);
	KTEST_EXPECT_TRUE(t, user_mode((struct pt_regs *)last->regs));
}

/*
 * A jprobe on sys_write: its handler gets the same arguments sys_write
 * does - the copy of the stack it runs on ends at the stack's top, at
 * the user frame - and sys_write then runs as if nothing had happened.
 * Like sys_write, the handler is asmlinkage: a jprobe handler mirrors
 * the probed function's prototype, calling convention included.
 */
static unsigned int j_fd, j_calls;
static size_t j_count;
static char j_text[8];

static asmlinkage long j_sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	if (!j_calls++) {
		j_fd = fd;
		j_count = count;
		copy_from_user_nofault(j_text, buf, sizeof(j_text) - 1);
	}
	jprobe_return();
	return 0;	/* never reached */
}

static void jprobe_on_sys_write(struct ktest *t)
{
	struct jprobe jp = { .entry = j_sys_write, .kp = { .symbol_name = "sys_write" } };
	int status;

	j_calls = 0;
	memset(j_text, 0, sizeof(j_text));
	KTEST_ASSERT_EQ(t, register_jprobe(&jp), 0);
	ktest_capture_start();
	status = run_hello();
	ktest_capture_stop();
	unregister_jprobe(&jp);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, j_calls >= 1);
	KTEST_EXPECT_EQ(t, j_fd, 1);
	KTEST_EXPECT_TRUE(t, j_count > 20);
	KTEST_EXPECT_STREQ(t, j_text, "Hello f");
	/* The probed call still did its work, with its own arguments. */
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "Hello from user space!") != NULL);
	KTEST_EXPECT_EQ(t, jp.nbad_return, 0);
}

static struct ktest_case user_probes_cases[] = {
	KTEST_CASE(backtrace_ends_at_the_user_frame),
	KTEST_CASE(kprobe_on_sys_write_reads_user_args),
	KTEST_CASE(ustring_refuses_kernel_addresses),
	KTEST_CASE(jprobe_on_sys_write),
	KTEST_END
};

static struct ktest_suite user_probes_suite = {
	.name = "user_probes",
	.cases = user_probes_cases,
	.init = user_probes_init,
	.exit = user_probes_exit,
};
KTEST_SUITE(user_probes_suite);
