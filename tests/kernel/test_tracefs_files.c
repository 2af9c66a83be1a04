/*
 * test_tracefs_files.c - suite "tracefs_files": the tracefs files around
 * the events, each checked against Linux 6.1's documented behaviour -
 * its contents, its errors (errno, error_log, the caret), and what a
 * hit then does.  The workload is `run fib 5`: 15 hits of fib with
 * n = 5 4 3 2 1 0 1 2 1 0 3 2 1 0 1 (n=0: 3, 1: 5, 2: 3, 3: 2, 4: 1, 5: 1).
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "trace.h"
#include "trace_events.h"
#include "kprobes.h"
#include "ftrace.h"
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "smp.h"
#include "tracefs_suite.h"

#define T(name)   TRACEFS_DIR "/" name
#define EV(name)  TRACEFS_DIR "/events/kprobes/tf_fib/" name

static int run_fib5(void)
{
	struct seq_buf s;
	static char sink[256];

	seq_buf_init(&s, sink, sizeof(sink));
	return shell_exec("run fib 5", &s);
}

/* Clear the trace, run fib(5), count tf_fib's records. */
static int records_of_fib5(void)
{
	wr(T("trace"), "\n");
	run_fib5();
	rd(T("trace"));
	return count(out, "tf_fib: ");
}

static void clean(void)
{
	struct trace_event_file *file;

	clear_event_triggers(&global_trace);		/* an event with a trigger is armed: it could not go */
	list_for_each_entry(file, &trace_event_files, list)
		trace_event_set_enabled(file->tp, false);
	wr(T("kprobe_events"), "\n");
	wr(T("uprobe_events"), "\n");
	wr(T("dynamic_events"), "\n");	/* the fprobe events, which have no file of their own */
	wr(T("tracing_on"), "1\n");
	wr(T("snapshot"), "0\n");
	if (trace_buffer_size(0) != TRACE_BUF_ENTRIES || trace_buffer_size(1) != TRACE_BUF_ENTRIES)
		trace_buffer_resize(TRACE_ALL_CPUS, TRACE_BUF_ENTRIES);
	wr(T("error_log"), "\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
}

static int files_init(struct ktest *t)
{
	tracefs_init();
	clean();
	wr_append(T("kprobe_events"), "p:tf_fib fib n=$arg1\n");
	wr(EV("enable"), "1\n");
	return 0;
}

static void files_exit(struct ktest *t)
{
	clean();
}

/* ---- the generic files ---------------------------------------------------------------------- */

static void generic_files_exist(struct ktest *t)
{
	static const char *const files[] = { "tracing_on", "trace_marker", "buffer_size_kb",
		"buffer_total_size_kb", "snapshot", "README", "set_event", "available_events",
		"dynamic_events", "events/enable", "trace", "trace_pipe", "error_log",
		"kprobe_events", "uprobe_events" };
	char path[PSEUDOFS_PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/%s", files[i]);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(path), 1);
	}
	/* events/ is there with no event at all, as in Linux. */
	clean();
	KTEST_EXPECT_EQ(t, pseudofs_lookup(T("events")), 2);
	rd(T("events/enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	/* trace_marker is write-only. */
	KTEST_EXPECT_EQ(t, rd(T("trace_marker")), -EPERM);
}

static void tracing_on_stops_recording(struct ktest *t)
{
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, wr(T("tracing_on"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 0);
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(T("tracing_on"), "abc\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("tracing_on"), "2\n"), 0);	/* any non-zero is on */
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
}

static void trace_marker_writes_a_record(struct ktest *t)
{
	wr(T("trace"), "\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_marker"), "hello marker\n"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": tracing_mark_write: hello marker\n"), 1);
	wr(T("tracing_on"), "0\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_marker"), "lost\n"), -EBADF);
}

static void buffer_size_kb_resizes(struct ktest *t)
{
	char want[32];
	unsigned long per_cpu_kb = (TRACE_BUF_ENTRIES * sizeof(struct trace_entry) + 1023) / 1024;

	snprintf(want, sizeof(want), "%lu\n", per_cpu_kb);
	rd(T("buffer_size_kb"));
	KTEST_EXPECT_STREQ(t, out, want);
	KTEST_EXPECT_EQ(t, wr(T("buffer_size_kb"), "0\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("buffer_size_kb"), "x\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("buffer_size_kb"), "99999999\n"), -ENOMEM);
	KTEST_EXPECT_STREQ(t, (rd(T("buffer_size_kb")), out), want);	/* unchanged */
	/* 4 KiB a CPU: 8 records of ours; fib(5)'s 15 hits keep the last 8. */
	KTEST_EXPECT_EQ(t, wr(T("buffer_size_kb"), "4\n"), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_size(0), (4 * 1024 + sizeof(struct trace_entry) - 1) /
						 sizeof(struct trace_entry));
	KTEST_EXPECT_EQ(t, records_of_fib5(), (int)trace_buffer_size(0));
	snprintf(want, sizeof(want), "%lu\n", num_online_cpus() *
		 ((trace_buffer_size(0) * sizeof(struct trace_entry) + 1023) / 1024));
	rd(T("buffer_total_size_kb"));
	KTEST_EXPECT_STREQ(t, out, want);
	/* One CPU alone: per_cpu/cpu0/buffer_size_kb; the top-level file says X if they differ. */
	KTEST_EXPECT_EQ(t, wr(T("per_cpu/cpu0/buffer_size_kb"), "8\n"), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_size(0), (8 * 1024 + sizeof(struct trace_entry) - 1) /
						 sizeof(struct trace_entry));
	rd(T("buffer_size_kb"));
	KTEST_EXPECT_STREQ(t, out, num_online_cpus() > 1 ? "X\n" :
			   (snprintf(want, sizeof(want), "%lu\n", (trace_buffer_size(0) *
				     sizeof(struct trace_entry) + 1023) / 1024), want));
	KTEST_EXPECT_EQ(t, wr(T("per_cpu/cpu0/buffer_size_kb"), "0\n"), -EINVAL);
}

/* ---- an event's files ------------------------------------------------------------------------ */

static void event_dir_has_linux_files(struct ktest *t)
{
	struct seq_buf s;

	seq_buf_init(&s, out, sizeof(out));
	pseudofs_list(TRACEFS_DIR "/events/kprobes/tf_fib", &s);
	KTEST_EXPECT_STREQ(t, out, "enable\nfilter\nformat\nhist\nid\ntrigger\n");
	seq_buf_init(&s, out, sizeof(out));
	pseudofs_list(TRACEFS_DIR "/events/kprobes", &s);
	KTEST_EXPECT_STREQ(t, out, "enable\nfilter\ntf_fib/\n");
}

static void format_is_linux_layout(struct ktest *t)
{
	char want[1024], id[16];

	wr_append(T("kprobe_events"), "p:tf_fmt fib a=$arg1:u8 b=$arg1:s16 c=+0($stack):string "
		  "d=$arg1:symbol e=$arg1:x64\n");
	rd(T("events/kprobes/tf_fmt/id"));
	strlcpy(id, out, sizeof(id));
	id[strlen(id) - 1] = '\0';
	snprintf(want, sizeof(want),
		 "name: tf_fmt\nID: %s\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		 "\tfield:unsigned long __probe_ip;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:u8 a;\toffset:12;\tsize:1;\tsigned:0;\n"
		 "\tfield:s16 b;\toffset:13;\tsize:2;\tsigned:1;\n"
		 "\tfield:__data_loc char[] c;\toffset:15;\tsize:4;\tsigned:1;\n"
		 "\tfield:u32 d;\toffset:19;\tsize:4;\tsigned:0;\n"
		 "\tfield:u64 e;\toffset:23;\tsize:8;\tsigned:0;\n\n"
		 "print fmt: \"(%%lx) a=%%u b=%%d c=\\\"%%s\\\" d=%%pS e=0x%%Lx\", REC->__probe_ip, "
		 "REC->a, REC->b, __get_str(c), REC->d, REC->e\n", id);
	rd(T("events/kprobes/tf_fmt/format"));
	KTEST_EXPECT_STREQ(t, out, want);

	wr_append(T("kprobe_events"), "r:tf_ret fib ret=$retval\n");
	rd(T("events/kprobes/tf_ret/format"));
	KTEST_EXPECT_TRUE(t, strstr(out, "\tfield:unsigned long __probe_func;\toffset:8;\tsize:4;\tsigned:0;\n"
				      "\tfield:unsigned long __probe_ret_ip;\toffset:12;\tsize:4;\tsigned:0;\n"
				      "\tfield:u32 ret;\toffset:16;\tsize:4;\tsigned:0;\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "print fmt: \"(%lx <- %lx) ret=0x%x\", REC->__probe_func, "
				      "REC->__probe_ret_ip, REC->ret\n") != NULL);
}

static void id_is_stable(struct ktest *t)
{
	char before[16];

	rd(EV("id"));
	strlcpy(before, out, sizeof(before));
	wr_append(T("kprobe_events"), "p:tf_other fib\n");
	wr_append(T("kprobe_events"), "-:tf_other\n");
	rd(EV("id"));
	KTEST_EXPECT_STREQ(t, out, before);
	rd(EV("format"));
	KTEST_EXPECT_TRUE(t, strncmp(out + strlen("name: tf_fib\nID: "), before, strlen(before) - 1) == 0);
}

/* ---- filters ----------------------------------------------------------------------------------- */

static int filtered(const char *filter)
{
	int ret = wr(EV("filter"), filter);

	return ret ? ret : records_of_fib5();
}

static void filter_each_operator(struct ktest *t)
{
	char pid_filter[48];

	KTEST_EXPECT_EQ(t, filtered("n == 2\n"), 3);
	KTEST_EXPECT_EQ(t, filtered("n != 2\n"), 12);
	KTEST_EXPECT_EQ(t, filtered("n < 2\n"), 8);
	KTEST_EXPECT_EQ(t, filtered("n <= 2\n"), 11);
	KTEST_EXPECT_EQ(t, filtered("n > 3\n"), 2);
	KTEST_EXPECT_EQ(t, filtered("n >= 3\n"), 4);
	KTEST_EXPECT_EQ(t, filtered("n & 1\n"), 8);
	KTEST_EXPECT_EQ(t, filtered("n == 1 || n == 5\n"), 6);
	KTEST_EXPECT_EQ(t, filtered("n > 1 && n < 4\n"), 5);
	KTEST_EXPECT_EQ(t, filtered("!(n > 1)\n"), 8);
	KTEST_EXPECT_EQ(t, filtered("(n == 0 || n == 1) && !(n == 1)\n"), 3);
	KTEST_EXPECT_EQ(t, filtered("comm ~ \"*\"\n"), 15);
	KTEST_EXPECT_EQ(t, filtered("comm ~ \"zz*\"\n"), 0);
	snprintf(pid_filter, sizeof(pid_filter), "common_pid == %d\n", task_pid(current));
	KTEST_EXPECT_EQ(t, filtered(pid_filter), 15);
	snprintf(pid_filter, sizeof(pid_filter), "comm == \"%s\"\n", task_name(current));
	KTEST_EXPECT_EQ(t, filtered(pid_filter), 15);
	rd(EV("filter"));
	KTEST_EXPECT_EQ(t, strncmp(out, "comm == ", 8), 0);
	KTEST_EXPECT_EQ(t, filtered("0\n"), 15);
	rd(EV("filter"));
	KTEST_EXPECT_STREQ(t, out, "none\n");
}

static void filter_errors_as_linux(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(EV("filter"), "x > 3\n"), -EINVAL);
	rd(EV("filter"));
	KTEST_EXPECT_STREQ(t, out, "x > 3\n  ^\nparse_error: Field not found\n");
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "] event filter parse error: error: Field not found\n"
				      "  Command: x > 3\n") != NULL);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);	/* a refused filter filters nothing */
	KTEST_EXPECT_EQ(t, wr(EV("filter"), "n > 3 && (n < 5\n"), -EINVAL);
	rd(EV("filter"));
	KTEST_EXPECT_TRUE(t, strstr(out, "parse_error: Too many '('\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(EV("filter"), "comm == sh\n"), -EINVAL);
	rd(EV("filter"));
	KTEST_EXPECT_TRUE(t, strstr(out, "parse_error: Invalid value (did you forget quotes)?\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(EV("filter"), "n ~ \"a\"\n"), -EINVAL);
	rd(EV("filter"));
	KTEST_EXPECT_TRUE(t, strstr(out, "parse_error: Expecting numeric field\n") != NULL);
}

static void group_filter(struct ktest *t)
{
	rd(TRACEFS_DIR "/events/kprobes/filter");
	KTEST_EXPECT_EQ(t, strncmp(out, "### global filter ###\n", 22), 0);
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/kprobes/filter", "n == 2\n"), 0);
	rd(EV("filter"));
	KTEST_EXPECT_STREQ(t, out, "n == 2\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 3);
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/kprobes/filter", "nosuch == 2\n"), -EINVAL);
	rd(TRACEFS_DIR "/events/kprobes/filter");
	KTEST_EXPECT_STREQ(t, out, "nosuch == 2\n^\nparse_error: Couldn't find or set field in "
			   "one of a subsystem's events\n");
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/kprobes/filter", "0\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
}

/* ---- triggers ------------------------------------------------------------------------------------ */

static void trigger_file_lists_available(struct ktest *t)
{
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "# Available triggers:\n"
			   "# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist\n");
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "nosuch\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "traceoff if x > 1\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "traceoff:abc\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "traceoff:2 if n == 1\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "traceoff\n"), -EEXIST);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "stacktrace\n"), 0);
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "stacktrace:unlimited\ntraceoff:count=2 if n == 1\n");
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!traceoff\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!stacktrace\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!stacktrace\n"), 0);	/* none: no error */
	rd(EV("trigger"));
	KTEST_EXPECT_EQ(t, strncmp(out, "# Available triggers:", 21), 0);
}

static void traceoff_and_traceon(struct ktest *t)
{
	/* traceoff with a filter runs after the record: n=5 4 3 2 1, then off. */
	wr(EV("trigger"), "traceoff:1 if n == 1\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 5);
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "traceoff:count=0 if n == 1\n");
	wr_append(EV("trigger"), "!traceoff\n");
	/* traceon without a filter runs before the record: every hit is kept. */
	wr(EV("trigger"), "traceon\n");
	wr(T("tracing_on"), "0\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	wr_append(EV("trigger"), "!traceon\n");
	/* traceoff without a filter: its own hit is not recorded. */
	wr(EV("trigger"), "traceoff\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 0);
}

static void stacktrace_records_the_calls(struct ktest *t)
{
	wr(EV("trigger"), "stacktrace:2\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	KTEST_EXPECT_EQ(t, count(out, ": <stack trace>\n => fib\n"), 2);
	KTEST_EXPECT_TRUE(t, strstr(out, " => run_fib\n") != NULL);
}

/*
 * traceon and traceoff are one kind of trigger (Linux's ETT_TRACE_ONOFF):
 * one of them per event, and `!` of either name removes it.
 */
static void traceon_traceoff_one_per_event(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "traceon\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "traceoff if common_pid == 1\n"), -EEXIST);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!traceoff\n"), 0);
	rd(EV("trigger"));
	KTEST_EXPECT_EQ(t, strncmp(out, "# Available triggers:", 21), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "traceoff:3\n"), 0);
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "traceoff:count=3\n");
}

/*
 * An event with a trigger is in soft mode, as Linux's: armed while its
 * enable is 0 ("0*"), its triggers see every hit and its records are
 * discarded; it cannot be removed while the trigger is there (EBUSY).
 */
static void trigger_arms_a_disabled_event(struct ktest *t)
{
	wr(EV("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "stacktrace:2\n"), 0);
	rd(EV("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "hist:keys=n\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 0);
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), 2);
	rd(EV("trigger"));
	KTEST_EXPECT_TRUE(t, strstr(out, "stacktrace:count=0\n") != NULL);
	rd(EV("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "    Hits: 15\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:tf_fib\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!stacktrace\n"), 0);
	rd(EV("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");		/* the hist is a trigger too */
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!hist:keys=n\n"), 0);
	rd(EV("enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:tf_fib\n"), 0);
}

#define RET(name)  TRACEFS_DIR "/events/kprobes/tf_ret/" name

/*
 * enable_event and disable_event: the event they name is in soft mode
 * (armed, "0*" or "1*"), the trigger's hits switch its records.  fib's
 * returns in run fib 5: the first comes after the hits n = 5 4 3 2 1.
 */
static void enable_event_soft_mode(struct ktest *t)
{
	wr_append(T("kprobe_events"), "r:tf_ret fib ret=$retval\n");
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "enable_event:kprobes:tf_ret\n"), 0);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "enable_event:kprobes:tf_ret:unlimited\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	KTEST_EXPECT_EQ(t, count(out, "tf_ret: "), 15);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "1*\n");
	/* One of enable_event and disable_event per event named; a soft-mode event stays. */
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "disable_event:kprobes:tf_ret\n"), -EEXIST);
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:tf_ret\n"), -EBUSY);
	/* Its records were on when the trigger went: the event stays enabled, as Linux. */
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!enable_event:kprobes:tf_ret\n"), 0);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	/* disable_event:1 with a filter: off at the first n == 0, after fib(1)'s return. */
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "disable_event:kprobes:tf_ret:1 if n == 0\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	KTEST_EXPECT_EQ(t, count(out, "tf_ret: "), 1);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "disable_event:kprobes:tf_ret:count=0 if n == 0\n");
	/* echo 1 > enable in soft mode turns the records on; the trigger's count is spent. */
	wr(RET("enable"), "1\n");
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "1*\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	KTEST_EXPECT_EQ(t, count(out, "tf_ret: "), 15);
	wr(RET("enable"), "0\n");
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	/* Removing it (any of the two names, as Linux) disarms an event whose records are off. */
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!enable_event:kprobes:tf_ret\n"), 0);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	KTEST_EXPECT_EQ(t, count(out, "tf_ret: "), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:tf_ret\n"), 0);
}

/*
 * enable_hist names an event too, but holds no soft mode: beside an
 * enable_event on the same event, removing it leaves that event's soft
 * mode to the enable_event, and removing that one leaves it off.
 */
static void enable_hist_beside_enable_event(struct ktest *t)
{
	wr_append(T("kprobe_events"), "r:tf_ret fib ret=$retval\n");
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "enable_event:kprobes:tf_ret\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "enable_hist:kprobes:tf_ret\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!enable_hist:kprobes:tf_ret\n"), 0);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "enable_event:kprobes:tf_ret:unlimited\n");
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!enable_event:kprobes:tf_ret\n"), 0);
	rd(RET("enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:tf_ret\n"), 0);
}

/* Linux's -EINVAL: no such event (even to remove), a missing part, a bad count. */
static void enable_event_errors(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "enable_event:kprobes:nosuch\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "!enable_event:kprobes:nosuch\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "enable_event:kprobes\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "enable_event\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "disable_event:kprobes:tf_fib:x\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "disable_event:kprobes:tf_fib if nosuch > 1\n"),
			-EINVAL);
	rd(EV("trigger"));
	KTEST_EXPECT_EQ(t, strncmp(out, "# Available triggers:", 21), 0);
	rd(EV("enable"));
	KTEST_EXPECT_STREQ(t, out, "1\n");	/* a refused trigger left no soft mode */
}

static void snapshot_file_and_trigger(struct ktest *t)
{
	rd(T("snapshot"));
	KTEST_EXPECT_TRUE(t, strstr(out, "# * Snapshot is freed *\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(T("snapshot"), "1\n"), 0);
	rd(T("snapshot"));
	KTEST_EXPECT_TRUE(t, strstr(out, "# * Snapshot is allocated *\n") != NULL);
	/* The trigger swaps at the hit of n == 0: the records so far go to snapshot. */
	wr(EV("trigger"), "snapshot:1 if n == 0\n");
	records_of_fib5();
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: "), 9);		/* after the swap */
	rd(T("snapshot"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: "), 6);		/* 5 4 3 2 1 0 */
	KTEST_EXPECT_TRUE(t, strstr(out, "# entries-in-buffer/entries-written: 6/6") != NULL);
	KTEST_EXPECT_EQ(t, wr(T("snapshot"), "2\n"), 0);		/* clear */
	rd(T("snapshot"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: "), 0);
	wr_append(EV("trigger"), "!snapshot\n");
	KTEST_EXPECT_EQ(t, wr(T("snapshot"), "0\n"), 0);
	rd(T("snapshot"));
	KTEST_EXPECT_TRUE(t, strstr(out, "# * Snapshot is freed *\n") != NULL);
}

static void hist_counts_in_linux_format(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "hist:keys=n\n"), 0);
	run_fib5();
	rd(EV("hist"));
	KTEST_EXPECT_STREQ(t, out,
		"# event histogram\n#\n"
		"# trigger info: hist:keys=n:vals=hitcount:sort=hitcount:size=2048 [active]\n#\n\n"
		"{ n:          4 } hitcount:          1\n"
		"{ n:          5 } hitcount:          1\n"
		"{ n:          3 } hitcount:          2\n"
		"{ n:          0 } hitcount:          3\n"
		"{ n:          2 } hitcount:          3\n"
		"{ n:          1 } hitcount:          5\n"
		"\nTotals:\n    Hits: 15\n    Entries: 6\n    Dropped: 0\n");
	rd(EV("trigger"));
	KTEST_EXPECT_STREQ(t, out, "hist:keys=n:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "hist:keys=n\n"), -EEXIST);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "] hist:kprobes:tf_fib: error: Hist trigger already exists\n") != NULL);
}

static void hist_vals_sort_modifiers_filter(struct ktest *t)
{
	wr(EV("trigger"), "hist:keys=n.hex:vals=n:sort=n.descending:size=128 if n > 2\n");
	run_fib5();
	rd(EV("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out,
		"# trigger info: hist:keys=n.hex:vals=hitcount,n:sort=n.descending:size=128 if n > 2 [active]\n#\n\n"
		"{ n: 3 } hitcount:          2  n:          6\n"	/* sort= finds the val n first */
		"{ n: 5 } hitcount:          1  n:          5\n"
		"{ n: 4 } hitcount:          1  n:          4\n"
		"\nTotals:\n    Hits: 4\n    Entries: 3\n    Dropped: 0\n") != NULL);
	/* pause, continue, clear act on the trigger that matches: keys, vals, sort and filter
	 * (Linux's hist_trigger_match()); size= does not count. */
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "hist:keys=n.hex:vals=n:sort=n.descending:pause if n > 2\n"), 0);
	run_fib5();
	rd(EV("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "[paused]\n") && strstr(out, "    Hits: 4\n"));
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "hist:keys=n.hex:vals=n:sort=n.descending:clear if n > 2\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "hist:keys=n.hex:vals=n:sort=n.descending:cont if n > 2\n"), 0);
	run_fib5();
	rd(EV("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "[active]\n") && strstr(out, "    Hits: 4\n"));
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "hist:keys=common_pid:clear\n"), -ENOENT);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!hist:keys=n.hex:vals=n if n > 2\n"), 0);
	rd(EV("hist"));			/* another sort: not that trigger, and no error */
	KTEST_EXPECT_TRUE(t, strstr(out, "# event histogram") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(EV("trigger"), "!hist:keys=n.hex:vals=n:sort=n.descending if n > 2\n"), 0);
	rd(EV("hist"));
	KTEST_EXPECT_STREQ(t, out, "");
}

static void hist_errors_logged(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "hist:keys=nosuch\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "] hist:kprobes:tf_fib: error: Couldn't find field\n"
				      "  Command: hist:keys=nosuch\n"
				      "                     ^\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "hist:keys=n.bogus\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "error: Invalid field modifier\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "hist:keys=n:sort=x\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "error: Sort field must be a key or a val\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "hist:keys=n:sort=n,hitcount,n\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "error: Too many sort fields (Max = 2)\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(EV("trigger"), "hist:vals=n\n"), -EINVAL);	/* no keys */
}

/* ---- every event at once --------------------------------------------------------------------------- */

static void set_event_and_available_events(struct ktest *t)
{
	wr_append(T("kprobe_events"), "p:tf_crc crc32_byte\n");
	rd(T("available_events"));	/* the syscalls/ events, made at boot, then ours */
	KTEST_EXPECT_EQ(t, strncmp(out, "syscalls:sys_enter_exit\nsyscalls:sys_exit_exit\n", 47), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "\nkprobes:tf_fib\nkprobes:tf_crc\n") != NULL);
	rd(T("set_event"));
	KTEST_EXPECT_STREQ(t, out, "kprobes:tf_fib\n");
	rd(T("events/kprobes/enable"));
	KTEST_EXPECT_STREQ(t, out, "X\n");
	KTEST_EXPECT_EQ(t, wr_append(T("set_event"), "kprobes:tf_crc\n"), 0);
	rd(T("events/kprobes/enable"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	rd(T("events/enable"));
	KTEST_EXPECT_STREQ(t, out, "X\n");
	KTEST_EXPECT_EQ(t, wr_append(T("set_event"), "!kprobes:tf_fib\n"), 0);
	rd(T("set_event"));
	KTEST_EXPECT_STREQ(t, out, "kprobes:tf_crc\n");
	KTEST_EXPECT_EQ(t, wr_append(T("set_event"), "kprobes:nosuch\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr_append(T("set_event"), "kprobes:*\n"), 0);
	rd(T("set_event"));
	KTEST_EXPECT_STREQ(t, out, "kprobes:tf_fib\nkprobes:tf_crc\n");
	KTEST_EXPECT_EQ(t, wr(T("set_event"), "\n"), 0);	/* `>` disables all */
	rd(T("set_event"));
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr(T("events/enable"), "1\n"), 0);
	rd(T("set_event"));
	KTEST_EXPECT_TRUE(t, strstr(out, "syscalls:sys_enter_open\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "\nkprobes:tf_fib\nkprobes:tf_crc\n") != NULL);
	rd(T("events/enable"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, wr(T("events/enable"), "2\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("events/enable"), "0\n"), 0);
}

static void dynamic_events_dispatch(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "p:tf_dyn crc32_byte c=$arg2:u8\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "r:tf_dret fib\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "p:kprobes/tf_fib fib n=$arg1\np:kprobes/tf_dyn crc32_byte c=$arg2:u8\n"
			   "r10:kprobes/tf_dret fib\n");
	rd(T("kprobe_events"));
	KTEST_EXPECT_TRUE(t, strstr(out, "p:kprobes/tf_dyn crc32_byte") != NULL);
	/* An event probe on a kprobe event: ENODEV, as Linux 6.1 (suite eprobes). */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "e:tf_e kprobes.tf_fib\n"), -ENODEV);
	/* Kinds this kernel does not have are EINVAL, as Linux without them. */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "x:tf_s fib\n"), -EINVAL);
	/* A bad kprobe line fails with kprobe_events' own error and log. */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "p:tf_bad fib x=%zz\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "trace_kprobe: error: Invalid register name\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:tf_dyn\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:kprobes/tf_dret\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:tf_dyn\n"), -ENOENT);
	KTEST_EXPECT_EQ(t, wr(T("dynamic_events"), "\n"), -EBUSY);	/* tf_fib is enabled */
	wr(EV("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr(T("dynamic_events"), "\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "");
}

/*
 * f: events (Linux 6.7+'s grammar): defined, listed, enabled, filtered,
 * formatted and removed through dynamic_events alone; one record per
 * call of fib(5) at its entry and one at its exit.
 */
static void fprobe_events_in_dynamic_events(struct ktest *t)
{
	wr(EV("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "f:tf_fent fib n=$arg1\n"), 0);
	/* fib(5) nests 5 deep: more nodes than fprobe's default of 2 per CPU */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "f8 fib%return r=$retval\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "p:kprobes/tf_fib fib n=$arg1\n"
			   "f:fprobes/tf_fent fib n=$arg1\nf8:fprobes/fib__exit fib%return r=$retval\n");
	rd(TRACEFS_DIR "/events/fprobes/fib__exit/id");
	KTEST_EXPECT_TRUE(t, out[0] >= '1' && out[0] <= '9');
	rd(TRACEFS_DIR "/events/fprobes/fib__exit/format");
	KTEST_EXPECT_TRUE(t, strstr(out, "field:unsigned long __probe_ret_ip;") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "print fmt: \"(%lx <- %lx) r=") != NULL);
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/fprobes/enable", "1\n"), 0);
	wr(T("trace"), "\n");
	run_fib5();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fent: (fib+0x0/"), 15);	/* fib(5): 15 calls */
	KTEST_EXPECT_EQ(t, count(out, "fib__exit: ("), 15);
	KTEST_EXPECT_EQ(t, count(out, " <- fib) r=0x5\n"), 1);	/* the outermost returns 5 */
	/* The filter and the trigger files are every event's. */
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/fprobes/tf_fent/filter", "n == 3\n"), 0);
	wr(T("trace"), "\n");
	run_fib5();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fent: ("), 2);		/* fib(3) twice in fib(5) */
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/fprobes/fib__exit/trigger", "traceoff\n"), 0);
	wr(T("trace"), "\n");
	run_fib5();
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	wr(T("tracing_on"), "1\n");
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:fprobes/tf_fent\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/fprobes/enable", "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:fprobes/tf_fent\n"), 0);
	/* its trigger keeps fib__exit armed (soft mode): it goes with the trigger gone */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:fib__exit\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr_append(TRACEFS_DIR "/events/fprobes/fib__exit/trigger", "!traceoff\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:fib__exit\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "p:kprobes/tf_fib fib n=$arg1\n");
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
}

/* Linux 6.7's errors, each in error_log under its word. */
static void fprobe_event_errors(struct ktest *t)
{
	static const struct { const char *line; int ret; const char *msg; } bad[] = {
		{ "f fib+4\n", -EINVAL, "trace_fprobe: error: Invalid probed address or symbol\n" },
		{ "f no_such_function_here\n", -EINVAL,
		  "trace_fprobe: error: Invalid probed address or symbol\n" },
		/* a function with no call site: probes/ is built without -pg */
		{ "f get_kprobe\n", -ENOENT, "trace_fprobe: error: Invalid probed address or symbol\n" },
		{ "f4:tf_x fib\n", -EINVAL, "trace_fprobe: error: Maxactive is only for function exit\n" },
		{ "f fib x=%ax\n", -EINVAL, "trace_fprobe: error: Invalid $-valiable specified\n" },
		{ "f fib x=$retval\n", -EINVAL, "trace_fprobe: error: $retval is not available on probe\n" },
		{ "f fib%exit\n", -EINVAL, "trace_fprobe: error: Invalid probed address suffix\n" },
		{ "f fib%return x=$arg1\n", -EINVAL, "trace_fprobe: error: Invalid $-valiable specified\n" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		wr(T("error_log"), "\n");
		KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), bad[i].line), bad[i].ret);
		rd(T("error_log"));
		KTEST_EXPECT_TRUE(t, strstr(out, bad[i].msg) != NULL);
	}
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "f4 fib%return\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_TRUE(t, strstr(out, "f4:fprobes/fib__exit fib%return\n") != NULL);
	rd(T("README"));
	KTEST_EXPECT_TRUE(t, strstr(out, "\t           f[:[<group>/][<event>]] <func-name>[%return] [<args>]\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "\t    place (fprobe): <func-name>[%return]\n") != NULL);
}

/* ---- README: every line a script may rely on ------------------------------------------------------ */

static void readme_lists_only_what_is_here(struct ktest *t)
{
	static const char *const types[] = { "s8", "s16", "s32", "s64", "u8", "u16", "u32",
		"u64", "x8", "x16", "x32", "x64", "string", "symbol", "ustring" };
	static const char *const type_lines[] = { "s8/16/32/64", "u8/16/32/64", "x8/16/32/64",
		"string", "symbol", "ustring" };
	static const char *const fetchargs[] = { "%ax", "@0x100000", "@jiffies", "@jiffies+4",
		"$stack1", "$stack", "$comm", "$arg1", "+4($stack)", "-4(%sp)", "\\1", "\\\"hi\"" };
	static const char *const triggers[] = { "traceon", "traceoff", "stacktrace", "snapshot",
		"enable_event:kprobes:tf_fib", "disable_event:kprobes:tf_fib:2",
		"hist:keys=n.hex:values=n:sort=n.descending:size=256:pause",
		"hist:keys=__probe_ip.sym" };
	char line[128];

	rd(T("README"));
	KTEST_EXPECT_EQ(t, strncmp(out, "tracing mini-HOWTO:\n", 20), 0);
	/* the files it names */
	KTEST_EXPECT_TRUE(t, strstr(out, "  trace_marker\t\t- ") && strstr(out, "  dynamic_events\t\t- "));
	KTEST_EXPECT_TRUE(t, strstr(out, "current_tracer") == NULL);	/* not here: not named */
	KTEST_EXPECT_TRUE(t, strstr(out, "  instances\t\t- Make sub-buffers with: mkdir instances/foo\n") &&
			     strstr(out, "  trace_options\t\t- Set format or modify how tracing happens\n"));
	KTEST_EXPECT_TRUE(t, strstr(out, "e[:[<group>/][<event>]]") != NULL);	/* suite eprobes */
	/* every type on its "type:" lines */
	for (size_t i = 0; i < ARRAY_SIZE(type_lines); i++)
		KTEST_EXPECT_TRUE(t, strstr(out, type_lines[i]) != NULL);
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		bool mem = !strcmp(types[i], "string") || !strcmp(types[i], "ustring");

		snprintf(line, sizeof(line), "p:tf_rd fib a=%s:%s\n", mem ? "+0($stack)" : "$arg1",
			 types[i]);
		KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), line), 0);
		wr_append(T("kprobe_events"), "-:tf_rd\n");
	}
	/* every fetcharg form */
	for (size_t i = 0; i < ARRAY_SIZE(fetchargs); i++) {
		snprintf(line, sizeof(line), "p:tf_rd fib a=%s\n", fetchargs[i]);
		KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), line), 0);
		wr_append(T("kprobe_events"), "-:tf_rd\n");
	}
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "r5:tf_rd fib r=$retval\n"), 0);
	wr_append(T("kprobe_events"), "-:tf_rd\n");
	/* every trigger and hist modifier */
	for (size_t i = 0; i < ARRAY_SIZE(triggers); i++) {
		snprintf(line, sizeof(line), "%s if n > 1\n", triggers[i]);
		KTEST_EXPECT_EQ(t, wr(EV("trigger"), line), 0);
		snprintf(line, sizeof(line), "!%s if n > 1\n", triggers[i]);
		wr_append(EV("trigger"), line);
	}
}

/* ---- saved_cmdlines, trace_marker_raw, tracing_cpumask, free_buffer ------------------------------ */

static int fib5_thread(void *unused)
{
	return run_fib5();
}

/*
 * fib(5) run by a thread "tf-fib" (pid 0, the idle task the suite runs
 * as, is never saved, as in Linux): its line in saved_cmdlines.
 */
static void fib5_in_a_thread(char *line, size_t size)
{
	struct task_struct *k;

	wr(T("trace"), "\n");
	k = kthread_create(fib5_thread, NULL, "tf-fib");
	if (!k)
		return;
	snprintf(line, size, "%d tf-fib\n", task_pid(k));
	kthread_join(k);
}

/* Each task that left a record is remembered, "PID COMM"; a resize starts empty. */
static void saved_cmdlines_remember_the_tasks(struct ktest *t)
{
	char line[64] = "";

	rd(T("saved_cmdlines_size"));
	KTEST_EXPECT_STREQ(t, out, "128\n");
	fib5_in_a_thread(line, sizeof(line));
	rd(T("saved_cmdlines"));
	KTEST_EXPECT_EQ(t, count(out, line), 1);
	KTEST_EXPECT_EQ(t, wr(T("saved_cmdlines_size"), "4\n"), 0);
	rd(T("saved_cmdlines_size"));
	KTEST_EXPECT_STREQ(t, out, "4\n");
	rd(T("saved_cmdlines"));
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr(T("saved_cmdlines_size"), "0\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("saved_cmdlines_size"), "32769\n"), -EINVAL);
	rd(T("saved_cmdlines_size"));
	KTEST_EXPECT_STREQ(t, out, "4\n");
	wr(T("options/record-cmd"), "0\n");	/* Linux saves no name then */
	fib5_in_a_thread(line, sizeof(line));
	rd(T("saved_cmdlines"));
	KTEST_EXPECT_STREQ(t, out, "");
	wr(T("options/record-cmd"), "1\n");
	fib5_in_a_thread(line, sizeof(line));
	rd(T("saved_cmdlines"));
	KTEST_EXPECT_STREQ(t, out, line);
	KTEST_EXPECT_EQ(t, wr(T("saved_cmdlines_size"), "128\n"), 0);
}

/* trace_marker_raw: an int id, then bytes, printed as Linux's trace_raw_data(). */
static void trace_marker_raw_records_bytes(struct ktest *t)
{
	wr(T("trace"), "\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_marker_raw"), "abcd\n"), 0);	/* id 0x64636261, then '\n' */
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": # 64636261 buf: 0a\n"), 1);
	KTEST_EXPECT_EQ(t, wr(T("trace_marker_raw"), "ab"), -EINVAL);	/* shorter than the id */
	KTEST_EXPECT_EQ(t, rd(T("trace_marker_raw")), -EPERM);
	wr(T("tracing_on"), "0\n");
	KTEST_EXPECT_EQ(t, wr(T("trace_marker_raw"), "abcd"), -EBADF);
	wr(T("tracing_on"), "1\n");
}

/* tracing_cpumask: Linux's hex mask; a CPU outside it records nothing. */
static void tracing_cpumask_silences_cpus(struct ktest *t)
{
	char all[16];
	int n = 0, cpu;

	for_each_online_cpu(cpu)
		n = cpu + 1;
	snprintf(all, sizeof(all), "%0*x\n", (n + 3) / 4, (1u << n) - 1);
	rd(T("tracing_cpumask"));
	KTEST_EXPECT_STREQ(t, out, all);
	KTEST_EXPECT_EQ(t, wr(T("tracing_cpumask"), "0\n"), 0);
	rd(T("tracing_cpumask"));
	KTEST_EXPECT_STREQ(t, out, n > 4 ? "00\n" : "0\n");
	KTEST_EXPECT_EQ(t, records_of_fib5(), 0);
	KTEST_EXPECT_EQ(t, wr(T("tracing_cpumask"), "zz\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("tracing_cpumask"), "100\n"), -EINVAL);	/* CPU 8: none */
	KTEST_EXPECT_EQ(t, wr(T("tracing_cpumask"), all), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
}

/* free_buffer: the buffer shrinks to its least; disable_on_free stops tracing first. */
static void free_buffer_shrinks_the_buffer(struct ktest *t)
{
	char kb[16];
	int n;

	snprintf(kb, sizeof(kb), "%u\n", (unsigned int)((2 * sizeof(struct trace_entry) + 1023) / 1024));
	KTEST_EXPECT_EQ(t, wr(T("free_buffer"), "1\n"), 0);
	rd(T("buffer_size_kb"));
	KTEST_EXPECT_STREQ(t, out, kb);
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	n = records_of_fib5();		/* 15 hits, two records a CPU kept */
	KTEST_EXPECT_TRUE(t, n >= 1 && n <= 2 * (int)num_online_cpus());
	wr(T("options/disable_on_free"), "1\n");
	KTEST_EXPECT_EQ(t, wr(T("free_buffer"), "\n"), 0);
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	wr(T("options/disable_on_free"), "0\n");
	clean();
	wr_append(T("kprobe_events"), "p:tf_fib fib n=$arg1\n");
	wr(EV("enable"), "1\n");
}

/* set_event_pid and set_event_notrace_pid: whose hits are recorded (this suite runs as pid 0). */
static void set_event_pid_filters_by_task(struct ktest *t)
{
	char line[64];

	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr(T("set_event_pid"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	fib5_in_a_thread(line, sizeof(line));		/* another task: not recorded */
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: "), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("set_event_pid"), "5 0x10\n"), 0);
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "0\n5\n16\n");
	KTEST_EXPECT_EQ(t, wr_append(T("set_event_pid"), "7 x\n"), -EINVAL);	/* all or nothing */
	KTEST_EXPECT_EQ(t, wr_append(T("set_event_pid"), "1073741824\n"), -EPERM);	/* 2^30: Linux's -1 */
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "0\n5\n16\n");
	/* Linux's sparse list: any pid below 2^30, a few KiB for a few pids */
	KTEST_EXPECT_EQ(t, wr_append(T("set_event_pid"), "1073741823 40000 32768\n"), 0);
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "0\n5\n16\n32768\n40000\n1073741823\n");
	KTEST_EXPECT_EQ(t, wr(T("set_event_pid"), "5 0x10 0\n"), 0);
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "0\n5\n16\n");
	KTEST_EXPECT_EQ(t, wr(T("set_event_pid"), "\n"), 0);
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr(T("set_event_notrace_pid"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 0);
	KTEST_EXPECT_EQ(t, wr(T("set_event_notrace_pid"), "\n"), 0);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
}

/* A child that lives until the test lets it go: its exit would take it off a list that follows. */
static volatile bool tf_may_exit;

static int waiting_thread(void *unused)
{
	while (!READ_ONCE(tf_may_exit))
		yield();
	return 0;
}

/* event-fork: a child of a listed task is listed (trace_pid_fork(), called by fork). */
static void event_fork_lists_the_children(struct ktest *t)
{
	struct task_struct *k;
	char want[32];

	wr(T("set_event_pid"), "0\n");
	WRITE_ONCE(tf_may_exit, false);
	k = kthread_create(waiting_thread, NULL, "tf-child");
	KTEST_ASSERT_TRUE(t, k != NULL);
	snprintf(want, sizeof(want), "0\n%d\n", task_pid(k));
	trace_pid_fork(current, k);			/* event-fork off: nothing */
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	wr(T("options/event-fork"), "1\n");
	trace_pid_fork(current, k);
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, want);
	wr(T("options/event-fork"), "0\n");
	WRITE_ONCE(tf_may_exit, true);
	kthread_join(k);
	wr(T("set_event_pid"), "\n");
}

/*
 * A listed task that exits leaves a list that follows tasks (event-fork,
 * function-fork), as Linux's sched_process_free probe takes it off; with
 * the option off the list stays as written, as in Linux.
 */
static void exited_task_leaves_the_pid_lists(struct ktest *t)
{
	struct task_struct *k;
	char line[48];

	for (int follow = 0; follow <= 1; follow++) {
		WRITE_ONCE(tf_may_exit, false);
		k = kthread_create(waiting_thread, NULL, "tf-exit");
		KTEST_ASSERT_TRUE(t, k != NULL);
		snprintf(line, sizeof(line), "0 %d\n", task_pid(k));
		KTEST_EXPECT_EQ(t, wr(T("set_event_pid"), line), 0);
		KTEST_EXPECT_EQ(t, wr(T("set_ftrace_notrace_pid"), line), 0);
		wr(T("options/event-fork"), follow ? "1\n" : "0\n");
		wr(T("options/function-fork"), follow ? "1\n" : "0\n");
		WRITE_ONCE(tf_may_exit, true);
		kthread_join(k);
		snprintf(line, sizeof(line), "0\n%d\n", task_pid(k));
		rd(T("set_event_pid"));
		KTEST_EXPECT_STREQ(t, out, follow ? "0\n" : line);
		rd(T("set_ftrace_notrace_pid"));
		KTEST_EXPECT_STREQ(t, out, follow ? "0\n" : line);
	}
	wr(T("options/event-fork"), "0\n");
	wr(T("options/function-fork"), "0\n");
	wr(T("set_event_pid"), "\n");
	wr(T("set_ftrace_notrace_pid"), "\n");
}

/* set_ftrace_pid, set_ftrace_notrace_pid: the function tracer skips the others. */
static void set_ftrace_pid_filters_the_function_tracer(struct ktest *t)
{
	rd(T("set_ftrace_pid"));
	KTEST_EXPECT_STREQ(t, out, "no pid\n");
	rd(T("set_ftrace_notrace_pid"));
	KTEST_EXPECT_STREQ(t, out, "no pid\n");
	wr(EV("enable"), "0\n");
	wr(T("set_ftrace_filter"), "fib\n");
	KTEST_EXPECT_EQ(t, wr(T("set_ftrace_notrace_pid"), "0\n"), 0);
	wr(T("current_tracer"), "function\n");
	wr(T("trace"), "\n");
	run_fib5();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib <-"), 0);
	KTEST_EXPECT_EQ(t, wr(T("set_ftrace_notrace_pid"), "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("set_ftrace_pid"), "0\n"), 0);
	rd(T("set_ftrace_pid"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	run_fib5();
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib <-"), 15);
	wr(T("current_tracer"), "nop\n");
	wr(T("set_ftrace_pid"), "\n");
	wr(T("set_ftrace_filter"), "\n");
	wr(EV("enable"), "1\n");
}

/* per_cpu/cpuN/snapshot: one CPU's buffer swapped in; 0 is the top-level file's alone. */
static void per_cpu_snapshot_swaps_one_cpu(struct ktest *t)
{
	char path[PSEUDOFS_PATH_MAX];
	int cpu = smp_processor_id(), in_snapshot;

	snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/snapshot", cpu);
	rd(path);
	KTEST_EXPECT_EQ(t, count(out, "# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"), 1);
	KTEST_EXPECT_EQ(t, records_of_fib5(), 15);
	KTEST_EXPECT_EQ(t, wr(path, "1\n"), 0);
	rd(path);
	in_snapshot = count(out, "tf_fib: ");
	KTEST_EXPECT_TRUE(t, in_snapshot >= 1);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: ") + in_snapshot, 15);	/* the other CPUs kept theirs */
	rd(T("snapshot"));
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: "), in_snapshot);
	KTEST_EXPECT_EQ(t, wr(path, "0\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(path, "2\n"), 0);
	rd(path);
	KTEST_EXPECT_EQ(t, count(out, "tf_fib: "), 0);
	KTEST_EXPECT_EQ(t, count(out, "# echo 2 > snapshot : Clears this cpu's snapshot buffer"), 1);
	KTEST_EXPECT_EQ(t, wr(T("snapshot"), "0\n"), 0);
	rd(T("timestamp_mode"));
	KTEST_EXPECT_STREQ(t, out, "delta [absolute]\n");
}

/* The README names each of these files, and each is there. */
static void readme_names_the_new_files(struct ktest *t)
{
	static const char *const files[] = { "trace_marker_raw", "tracing_cpumask",
		"saved_cmdlines_size", "set_graph_function", "set_graph_notrace", "max_graph_depth",
		"stack_trace", "stack_max_size", "stack_trace_filter", "set_ftrace_pid",
		"set_ftrace_notrace_pid" };
	char line[PSEUDOFS_PATH_MAX];

	rd(T("README"));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(line, sizeof(line), "\n  %s\t", files[i]);
		KTEST_EXPECT_TRUE(t, strstr(out, line) != NULL);
		snprintf(line, sizeof(line), TRACEFS_DIR "/%s", files[i]);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(line), 1);
	}
}

static struct ktest_case files_cases[] = {
	KTEST_CASE(generic_files_exist),
	KTEST_CASE(tracing_on_stops_recording),
	KTEST_CASE(trace_marker_writes_a_record),
	KTEST_CASE(buffer_size_kb_resizes),
	KTEST_CASE(event_dir_has_linux_files),
	KTEST_CASE(format_is_linux_layout),
	KTEST_CASE(id_is_stable),
	KTEST_CASE(filter_each_operator),
	KTEST_CASE(filter_errors_as_linux),
	KTEST_CASE(group_filter),
	KTEST_CASE(trigger_file_lists_available),
	KTEST_CASE(traceoff_and_traceon),
	KTEST_CASE(stacktrace_records_the_calls),
	KTEST_CASE(traceon_traceoff_one_per_event),
	KTEST_CASE(trigger_arms_a_disabled_event),
	KTEST_CASE(snapshot_file_and_trigger),
	KTEST_CASE(enable_event_soft_mode),
	KTEST_CASE(enable_hist_beside_enable_event),
	KTEST_CASE(enable_event_errors),
	KTEST_CASE(hist_counts_in_linux_format),
	KTEST_CASE(hist_vals_sort_modifiers_filter),
	KTEST_CASE(hist_errors_logged),
	KTEST_CASE(set_event_and_available_events),
	KTEST_CASE(dynamic_events_dispatch),
	KTEST_CASE(fprobe_events_in_dynamic_events),
	KTEST_CASE(fprobe_event_errors),
	KTEST_CASE(readme_lists_only_what_is_here),
	KTEST_CASE(saved_cmdlines_remember_the_tasks),
	KTEST_CASE(trace_marker_raw_records_bytes),
	KTEST_CASE(tracing_cpumask_silences_cpus),
	KTEST_CASE(free_buffer_shrinks_the_buffer),
	KTEST_CASE(readme_names_the_new_files),
	KTEST_CASE(set_event_pid_filters_by_task),
	KTEST_CASE(event_fork_lists_the_children),
	KTEST_CASE(exited_task_leaves_the_pid_lists),
	KTEST_CASE(set_ftrace_pid_filters_the_function_tracer),
	KTEST_CASE(per_cpu_snapshot_swaps_one_cpu),
	KTEST_END
};

static struct ktest_suite files_suite = {
	.name = "tracefs_files",
	.cases = files_cases,
	.init = files_init,
	.exit = files_exit,
};
KTEST_SUITE(files_suite);
