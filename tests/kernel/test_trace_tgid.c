/*
 * test_trace_tgid.c - suite "trace_tgid": options/record-tgid, saved_tgids
 * and the TGID column of `trace`, as Linux 6.1 prints them.  The records
 * come from a user program (`hello`, whose getpid() is a syscalls event):
 * a process here is one task, so its tgid is its pid.  The shell is pid
 * 0, Linux's idle task's pid, which Linux never saves: "(-------)".
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "trace.h"
#include "process.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "tracefs_suite.h"

#define T(name)   TRACEFS_DIR "/" name
#define GETPID    T("events/syscalls/sys_enter_getpid/enable")

/* Run hello; its pid (its records' pid), or a negative errno. */
static int run_hello(void)
{
	static const char *const argv[] = { "hello", NULL };
	struct task_struct *p;
	int err, pid;

	p = process_spawn("hello", argv, 1, &err);
	if (!p)
		return err;
	pid = task_pid(p);
	process_wait(p);
	return pid;
}

static void run_fib1(void)
{
	static char sink[256];
	struct seq_buf s;

	seq_buf_init(&s, sink, sizeof(sink));
	shell_exec("run fib 1", &s);
}

static int tgid_init(struct ktest *t)
{
	tracefs_init();
	wr(T("kprobe_events"), "\n");
	pseudofs_write_str(T("kprobe_events"), "p:tgid_fib fib n=$arg1\n", false);
	wr(T("events/kprobes/tgid_fib/enable"), "1\n");
	return wr(GETPID, "1\n");
}

static void tgid_exit(struct ktest *t)
{
	wr(GETPID, "0\n");
	wr(T("events/kprobes/tgid_fib/enable"), "0\n");
	wr(T("kprobe_events"), "\n");
	wr(T("options/record-tgid"), "0\n");
	wr(T("options/irq-info"), "1\n");
	wr(T("trace"), "\n");
}

static void off_saves_nothing(struct ktest *t)
{
	char line[32];
	int pid;

	wr(T("options/record-tgid"), "0\n");
	KTEST_EXPECT_EQ(t, rd(T("options/record-tgid")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");		/* Linux's default */
	wr(T("trace"), "\n");
	pid = run_hello();
	KTEST_EXPECT_TRUE(t, pid > 0);
	snprintf(line, sizeof(line), "%d %d\n", pid, pid);
	KTEST_EXPECT_EQ(t, rd(T("saved_tgids")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, line) == NULL);
	KTEST_EXPECT_EQ(t, rd(T("trace")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "TGID") == NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n")
			     != NULL);
}

static void on_saves_and_prints_tgid(struct ktest *t)
{
	char line[64];
	int pid;

	KTEST_EXPECT_EQ(t, wr(T("options/record-tgid"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("trace_options")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "\nrecord-tgid\n") != NULL);
	wr(T("trace"), "\n");
	pid = run_hello();
	run_fib1();
	KTEST_EXPECT_TRUE(t, pid > 0);
	snprintf(line, sizeof(line), "%d %d\n", pid, pid);	/* its own thread group */
	KTEST_EXPECT_EQ(t, rd(T("saved_tgids")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, line) != NULL);
	KTEST_EXPECT_EQ(t, count(out, " 0\n"), 0);		/* pid 0 is never saved */
	KTEST_EXPECT_EQ(t, rd(T("trace")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out,
		"#                                          _-----=> irqs-off/BH-disabled\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out,
		"#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |           |       |   |||||     |         |\n") != NULL);
	snprintf(line, sizeof(line), "           hello-%-7d (%7d) [", pid, pid);
	KTEST_EXPECT_TRUE(t, strstr(out, line) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "-0       (-------) [") != NULL);	/* the shell's fib */
}

static void no_irq_info_header_has_tgid(struct ktest *t)
{
	wr(T("options/record-tgid"), "1\n");
	wr(T("options/irq-info"), "0\n");
	KTEST_EXPECT_EQ(t, rd(T("trace")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out,
		"#           TASK-PID       TGID    CPU#     TIMESTAMP  FUNCTION\n"
		"#              | |           |       |         |         |\n") != NULL);
	wr(T("options/irq-info"), "1\n");
}

static struct ktest_case tgid_cases[] = {
	KTEST_CASE(off_saves_nothing),
	KTEST_CASE(on_saves_and_prints_tgid),
	KTEST_CASE(no_irq_info_header_has_tgid),
	KTEST_END
};

static struct ktest_suite tgid_suite = {
	.name = "trace_tgid",
	.cases = tgid_cases,
	.init = tgid_init,
	.exit = tgid_exit,
};
KTEST_SUITE(tgid_suite);
