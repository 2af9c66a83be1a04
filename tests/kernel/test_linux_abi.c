/*
 * test_linux_abi.c - suite "linux_abi": the calls a real Linux program's
 * C library makes before main() and a shell makes after it
 * (docs/busybox.md), checked from ring 3 by user/linuxabi.c: TLS
 * segments through %gs (set_thread_area, get_thread_area, kept across
 * switches and fork), the SSE registers kept per process, uname, the
 * ids, the clocks, the console's tty ioctls, getrandom, prctl,
 * ugetrlimit; and a call the kernel lacks, named once in the log.
 */
#include "ktest.h"
#include "process.h"
#include "syscalls.h"
#include "string.h"
#include <asm/unistd_32.h>

#define RSEQ_LINE	"linuxabi: syscall 386 (rseq) not implemented\n"

static int count_lines(const char *text, const char *line)
{
	int n = 0;

	for (; (text = strstr(text, line)) != NULL; text += strlen(line))
		n++;
	return n;
}

static int run_linuxabi(void)
{
	const char *argv[] = { "linuxabi" };
	struct task_struct *p;
	int err, status;

	ktest_capture_start();
	p = process_spawn("linuxabi", argv, 1, &err);
	status = p ? process_wait(p) : err;
	ktest_capture_stop();
	return status;
}

static void linux_calls_from_ring3(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run_linuxabi(), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "linuxabi: 0 failures\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "tls: %gs 0x33 reads 0x7151b10c\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "uname: Linux ") != NULL);
}

/* rseq twice: -ENOSYS both times, one line in the log (none if an earlier case made it). */
static void missing_call_is_named_once(struct ktest *t)
{
	bool told_before = syscall_ni_told(__NR_rseq);

	KTEST_EXPECT_EQ(t, run_linuxabi(), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, count_lines(ktest_captured(), RSEQ_LINE), told_before ? 0 : 1);
	KTEST_EXPECT_TRUE(t, syscall_ni_told(__NR_rseq));
	KTEST_EXPECT_EQ(t, run_linuxabi(), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, count_lines(ktest_captured(), RSEQ_LINE), 0);
}

static struct ktest_case linux_abi_cases[] = {
	KTEST_CASE(missing_call_is_named_once),
	KTEST_CASE(linux_calls_from_ring3),
	KTEST_END
};

static struct ktest_suite linux_abi_suite = {
	.name = "linux_abi",
	.cases = linux_abi_cases,
};
KTEST_SUITE(linux_abi_suite);
