/*
 * test_trace_options.c - suite "trace_options": trace_clock, trace_options
 * and options/, events/header_page and header_event, each against what
 * Debian's Linux 6.1 prints (make conform-linux).  The workload is
 * `run fib 2`: 3 hits of fib (n = 2, 1, 0).
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "trace.h"
#include "trace_array.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "tracefs_suite.h"
#include "workloads.h"
#include "timer.h"
#include "ktime.h"
#include "rtc.h"
#include <asm/processor.h>

#define T(name)   TRACEFS_DIR "/" name
#define EV(name)  TRACEFS_DIR "/events/kprobes/to_fib/" name
#define FIB2_HITS 3

static void run_fib2(void)
{
	static char sink[256];
	struct seq_buf s;

	seq_buf_init(&s, sink, sizeof(sink));
	shell_exec("run fib 2", &s);
}

/* The records' stamps, oldest first. */
struct stamps {
	uint64_t ts[8];
	int n;
};

static int take_stamp(const struct trace_entry *e, void *data)
{
	struct stamps *st = data;

	if (st->n < (int)ARRAY_SIZE(st->ts))
		st->ts[st->n++] = e->ts;
	return 0;
}

static struct stamps stamps_of_fib2(void)
{
	struct stamps st = { .n = 0 };

	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	trace_buffer_for_each(TRACE_ALL_CPUS, take_stamp, &st);
	return st;
}

static const char *const linux_options[] = {
	"print-parent", "nosym-offset", "nosym-addr", "noverbose", "noraw", "nohex", "nobin",
	"noblock", "trace_printk", "annotate", "nouserstacktrace", "nosym-userobj",
	"noprintk-msg-only", "context-info", "nolatency-format", "record-cmd", "norecord-tgid",
	"overwrite", "nodisable_on_free", "irq-info", "markers", "noevent-fork",
	"nopause-on-trace", "hash-ptr", "function-trace", "nofunction-fork", "nodisplay-graph",
	"nostacktrace", "notest_nop_accept", "notest_nop_refuse",
};

static void defaults(void)
{
	static const char *const on[] = { "print-parent", "context-info", "irq-info",
		"record-cmd", "overwrite", "markers", "hash-ptr" };
	static const char *const off[] = { "sym-offset", "sym-addr", "stacktrace",
		"test_nop_accept" };
	char path[PSEUDOFS_PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(on); i++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/options/%s", on[i]);
		wr(path, "1\n");
	}
	for (size_t i = 0; i < ARRAY_SIZE(off); i++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/options/%s", off[i]);
		wr(path, "0\n");
	}
	wr(T("trace_clock"), "local\n");
	wr(T("current_tracer"), "nop\n");
	wr(T("set_ftrace_filter"), "\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
}

static int options_init(struct ktest *t)
{
	tracefs_init();
	defaults();
	wr(T("kprobe_events"), "\n");
	pseudofs_write_str(T("kprobe_events"), "p:to_fib fib n=$arg1\n", false);
	return wr(EV("enable"), "1\n");
}

static void options_exit(struct ktest *t)
{
	wr(EV("enable"), "0\n");
	wr(T("kprobe_events"), "\n");
	defaults();
}

/* ---- trace_clock ------------------------------------------------------------------------ */

static void trace_clock_lists_linux_clocks(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, rd(T("trace_clock")), 0);
	KTEST_EXPECT_STREQ(t, out,
			   "[local] global counter uptime perf mono mono_raw boot tai x86-tsc\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "tai\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("trace_clock")), 0);
	KTEST_EXPECT_STREQ(t, out,
			   "local global counter uptime perf mono mono_raw boot [tai] x86-tsc\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "global\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("trace_clock")), 0);
	KTEST_EXPECT_STREQ(t, out,
			   "local [global] counter uptime perf mono mono_raw boot tai x86-tsc\n");
	/* an unknown name changes nothing */
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "nosuch\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, rd(T("trace_clock")), 0);
	KTEST_EXPECT_STREQ(t, out,
			   "local [global] counter uptime perf mono mono_raw boot tai x86-tsc\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "  local \n"), 0);
}

/* counter: 1, 2, 3 in the order of the hits, printed as a bare number. */
static void counter_clock_counts(struct ktest *t)
{
	struct stamps st;
	char want[64];

	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "counter\n"), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_EQ(t, st.n, FIB2_HITS);
	KTEST_EXPECT_EQ(t, st.ts[1], st.ts[0] + 1);
	KTEST_EXPECT_EQ(t, st.ts[2], st.ts[1] + 1);
	rd(T("trace"));
	snprintf(want, sizeof(want), " %12llu: to_fib:", (unsigned long long)st.ts[0]);
	KTEST_EXPECT_EQ(t, count(out, want), 1);
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "local\n"), 0);
}

/* Setting a clock empties the buffer; x86-tsc counts cycles, uptime ticks. */
static void clock_change_clears_and_stamps(struct ktest *t)
{
	struct stamps st;

	run_fib2();
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "x86-tsc\n"), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_entries(), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_EQ(t, st.n, FIB2_HITS);
	KTEST_EXPECT_TRUE(t, st.ts[0] < st.ts[1] && st.ts[1] < st.ts[2]);
	KTEST_EXPECT_TRUE(t, st.ts[2] <= rdtsc());
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "uptime\n"), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_TRUE(t, st.ts[2] <= (uint64_t)jiffies && st.ts[0] + HZ > (uint64_t)jiffies);
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "global\n"), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_TRUE(t, st.ts[0] <= st.ts[1] && st.ts[1] <= st.ts[2]);
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "local\n"), 0);
}

/*
 * tai: the wall time (TAI = UTC while tai_offset is 0, as on a Linux no
 * NTP daemon told otherwise), in seconds since the epoch: the RTC's
 * at boot, carried on by the local clock.  That clock's rate was
 * measured over a few ticks, which come late on a busy host (a third
 * late has been seen with eight QEMUs on two cores): the wall time may
 * drift from the RTC by as much as the time since boot, never by the 56
 * years a clock counting from boot, or from no RTC, would be off.
 */
static void tai_clock_is_the_rtc_wall_time(struct ktest *t)
{
	int64_t rtc, uptime = (int64_t)(trace_clock_read(TRACE_CLOCK_LOCAL) / NSEC_PER_SEC);
	int64_t slack = 2 + uptime;
	struct rtc_time tm;
	struct stamps st;
	char want[32];

	KTEST_ASSERT_EQ(t, mach_get_cmos_time(&tm), 0);
	rtc = rtc_tm_to_time64(&tm);
	KTEST_EXPECT_TRUE(t, tm.tm_year >= 120);		/* QEMU's RTC is the host's: 2020 or later */
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "tai\n"), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_EQ(t, st.n, FIB2_HITS);
	KTEST_EXPECT_TRUE(t, st.ts[0] <= st.ts[1] && st.ts[1] <= st.ts[2]);
	KTEST_EXPECT_TRUE(t, (int64_t)(st.ts[0] / NSEC_PER_SEC) >= rtc - slack &&
			     (int64_t)(st.ts[2] / NSEC_PER_SEC) <= rtc + slack);
	rd(T("trace"));		/* printed as seconds.microseconds, the epoch's seconds */
	snprintf(want, sizeof(want), " %lu.", (unsigned long)(st.ts[0] / NSEC_PER_SEC));
	KTEST_EXPECT_EQ(t, count(out, want) >= 1, 1);
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "local\n"), 0);
}

/* An instance's clock is its own. */
static void instance_clock_is_its_own(struct ktest *t)
{
	struct stamps st = { .n = 0 };
	struct trace_array *tr;
	char want[64];

	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/clk"), 0);
	KTEST_EXPECT_EQ(t, wr(TRACE_INSTANCES_DIR "/clk/trace_clock", "counter\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("trace_clock")), 0);
	KTEST_EXPECT_EQ(t, count(out, "[local]"), 1);
	KTEST_EXPECT_EQ(t, wr(TRACE_INSTANCES_DIR "/clk/events/kprobes/to_fib/enable", "1\n"), 0);
	run_fib2();
	tr = trace_array_get_by_name("clk");
	ring_buffer_for_each(tr->buffer, TRACE_ALL_CPUS, false, take_stamp, &st);
	trace_array_put(tr);
	KTEST_EXPECT_EQ(t, st.n, FIB2_HITS);
	KTEST_EXPECT_EQ(t, st.ts[2], st.ts[0] + 2);	/* counts, in the instance only */
	rd(TRACE_INSTANCES_DIR "/clk/trace");
	snprintf(want, sizeof(want), " %12llu: to_fib:", (unsigned long long)st.ts[0]);
	KTEST_EXPECT_EQ(t, count(out, want), 1);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/clk"), 0);
}

/* ---- trace_options and options/ ------------------------------------------------------------- */

static void trace_options_lists_linux_options(struct ktest *t)
{
	char want[1024] = "";

	for (size_t i = 0; i < ARRAY_SIZE(linux_options); i++) {
		strlcat(want, linux_options[i], sizeof(want));
		strlcat(want, "\n", sizeof(want));
	}
	KTEST_EXPECT_EQ(t, rd(T("trace_options")), 0);
	KTEST_EXPECT_STREQ(t, out, want);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(T("options/funcgraph-proc")), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(T("options/func_stack_trace")), 1);
	/* the function tracer's own options replace nop's in the list */
	KTEST_EXPECT_EQ(t, wr(T("current_tracer"), "function\n"), 0);
	rd(T("trace_options"));
	KTEST_EXPECT_EQ(t, count(out, "nofunc_stack_trace\nnofunc-no-repeats\n"), 1);
	KTEST_EXPECT_EQ(t, count(out, "test_nop"), 0);
	KTEST_EXPECT_EQ(t, wr(T("current_tracer"), "nop\n"), 0);
}

static void option_files_and_errors(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, rd(T("options/sym-offset")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(T("options/overwrite"), "2\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "nosuchoption\n"), -EINVAL);
	/* nop's test options: one accepted, one refused, as Linux's */
	KTEST_EXPECT_EQ(t, wr(T("options/test_nop_accept"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("options/test_nop_refuse"), "1\n"), -EINVAL);
	rd(T("trace_options"));
	KTEST_EXPECT_EQ(t, count(out, "\ntest_nop_accept\nnotest_nop_refuse\n"), 1);
	/* a vacuous one is kept; a refused one keeps its default */
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "nohash-ptr\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("options/hash-ptr")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "raw\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "noraw\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "hash-ptr\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("options/test_nop_accept"), "0\n"), 0);
}

/* context-info and irq-info: the columns and the head, as Linux 6.1 draws them. */
static void context_and_irq_info(struct ktest *t)
{
	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	KTEST_EXPECT_EQ(t, wr(T("options/irq-info"), "0\n"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"), 1);
	KTEST_EXPECT_EQ(t, count(out, "irqs-off"), 0);
	KTEST_EXPECT_EQ(t, count(out, "]  "), FIB2_HITS);	/* "[000] ", no flags, " " and the stamp */
	KTEST_EXPECT_EQ(t, wr(T("options/context-info"), "0\n"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "# tracer: nop\n#\nto_fib: (fib+0x0/"), 1);
	KTEST_EXPECT_EQ(t, count(out, "entries-in-buffer"), 0);
	KTEST_EXPECT_EQ(t, wr(T("options/context-info"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("options/irq-info"), "1\n"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "irqs-off"), 1);
}

/* record-cmd 0: the task's name is not recorded, `trace` says <...>. */
static void record_cmd_off(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "norecord-cmd\n"), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "<...>-"), FIB2_HITS);
	KTEST_EXPECT_EQ(t, wr(T("trace_options"), "record-cmd\n"), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "<...>-"), 0);
}

/* The function tracer's line: print-parent, sym-offset, sym-addr. */
static void function_line_options(struct ktest *t)
{
	char want[48];

	KTEST_EXPECT_EQ(t, wr(T("set_ftrace_filter"), "fib\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("current_tracer"), "function\n"), 0);
	run_fib2();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib <-run_fib\n"), 1);
	KTEST_EXPECT_EQ(t, wr(T("options/print-parent"), "0\n"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib\n"), FIB2_HITS);
	KTEST_EXPECT_EQ(t, wr(T("options/sym-offset"), "1\n"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib+0x0/0x"), FIB2_HITS);
	KTEST_EXPECT_EQ(t, wr(T("options/sym-offset"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("options/sym-addr"), "1\n"), 0);
	rd(T("trace"));
	snprintf(want, sizeof(want), ": fib <%08lx>\n", (unsigned long)fib);
	KTEST_EXPECT_EQ(t, count(out, want), FIB2_HITS);
	defaults();
}

/* overwrite 0: a full buffer keeps its oldest records; markers 0: trace_marker refuses. */
static void overwrite_and_markers(struct ktest *t)
{
	struct stamps st;

	KTEST_EXPECT_EQ(t, wr(T("buffer_size_kb"), "1\n"), 0);	/* two records a CPU */
	KTEST_EXPECT_EQ(t, wr(T("trace_clock"), "counter\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("options/overwrite"), "0\n"), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_EQ(t, st.n, (int)trace_buffer_size(0));
	KTEST_EXPECT_EQ(t, st.ts[1], st.ts[0] + 1);		/* the first two hits */
	KTEST_EXPECT_EQ(t, wr(T("options/overwrite"), "1\n"), 0);
	st = stamps_of_fib2();
	KTEST_EXPECT_EQ(t, st.n, (int)trace_buffer_size(0));	/* the last two */
	trace_buffer_resize(TRACE_ALL_CPUS, TRACE_BUF_ENTRIES);
	KTEST_EXPECT_EQ(t, wr(T("options/markers"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("trace_marker"), "hello\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("options/markers"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("trace_marker"), "hello\n"), 0);
	defaults();
}

/* stacktrace: a <stack trace> record after each event's. */
static void stacktrace_option(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(T("options/stacktrace"), "1\n"), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), FIB2_HITS);
	KTEST_EXPECT_EQ(t, wr(T("options/stacktrace"), "0\n"), 0);
}

/* ---- events/header_page and header_event --------------------------------------------------- */

static void headers_are_linux_i386(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, rd(T("events/header_page")), 0);
	KTEST_EXPECT_STREQ(t, out,
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n");
	KTEST_EXPECT_EQ(t, rd(T("events/header_event")), 0);
	KTEST_EXPECT_STREQ(t, out,
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n");
}

static struct ktest_case options_cases[] = {
	KTEST_CASE(trace_clock_lists_linux_clocks),
	KTEST_CASE(counter_clock_counts),
	KTEST_CASE(clock_change_clears_and_stamps),
	KTEST_CASE(instance_clock_is_its_own),
	KTEST_CASE(tai_clock_is_the_rtc_wall_time),
	KTEST_CASE(trace_options_lists_linux_options),
	KTEST_CASE(option_files_and_errors),
	KTEST_CASE(context_and_irq_info),
	KTEST_CASE(record_cmd_off),
	KTEST_CASE(function_line_options),
	KTEST_CASE(overwrite_and_markers),
	KTEST_CASE(stacktrace_option),
	KTEST_CASE(headers_are_linux_i386),
	KTEST_END
};

static struct ktest_suite options_suite = {
	.name = "trace_options",
	.cases = options_cases,
	.init = options_init,
	.exit = options_exit,
};
KTEST_SUITE(options_suite);
