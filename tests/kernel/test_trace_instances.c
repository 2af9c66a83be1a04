/*
 * test_trace_instances.c - suite "trace_instances": tracefs' instances/
 * as Linux 6.1's (kernel/trace/trace_instances.c): mkdir makes a trace
 * array with its own buffer and files, events enabled there record there
 * alone, rmdir takes it away (EBUSY while a reference is held), and the
 * errors mkdir and rmdir give elsewhere.  The workload is `run fib 5`:
 * 15 hits of fib.
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "trace.h"
#include "trace_array.h"
#include "trace_events.h"
#include "trace_probe.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "tracefs_suite.h"
#include "smp.h"

#define T(name)    TRACEFS_DIR "/" name
#define FOO(name)  TRACE_INSTANCES_DIR "/foo/" name
#define BAR(name)  TRACE_INSTANCES_DIR "/bar/" name
#define FIB_HITS   15

static void run_fib5(void)
{
	static char sink[256];
	struct seq_buf s;

	seq_buf_init(&s, sink, sizeof(sink));
	shell_exec("run fib 5", &s);
}

/* tin_fib's records in a trace file. */
static int records_in(const char *trace_path)
{
	rd(trace_path);
	return count(out, "tin_fib: ");
}

static void clean(void)
{
	pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo");
	pseudofs_rmdir(TRACE_INSTANCES_DIR "/bar");
	wr(T("events/enable"), "0\n");
	wr(T("kprobe_events"), "\n");
	wr(T("tracing_on"), "1\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
}

static int instances_init(struct ktest *t)
{
	tracefs_init();
	clean();
	return pseudofs_write_str(T("kprobe_events"), "p:tin_fib fib n=$arg1\n", false);
}

static void instances_exit(struct ktest *t)
{
	clean();
}

/* ---- mkdir, rmdir and their errors -------------------------------------------------- */

static void mkdir_makes_linux_files(struct ktest *t)
{
	static const char *const files[] = { "available_tracers", "buffer_size_kb",
		"buffer_total_size_kb", "current_tracer", "events/enable", "set_event",
		"set_ftrace_filter", "set_ftrace_notrace", "snapshot", "trace", "trace_options",
		"trace_pipe", "tracing_on", "options/sym-offset",
		"free_buffer", "set_event_pid", "set_event_notrace_pid", "set_ftrace_pid",
		"set_ftrace_notrace_pid", "timestamp_mode", "trace_marker_raw", "tracing_cpumask",
		"per_cpu/cpu0/snapshot",
		"events/kprobes/enable", "events/kprobes/tin_fib/enable",
		"events/kprobes/tin_fib/id", "events/kprobes/tin_fib/format" };
	char path[PSEUDOFS_PATH_MAX];

	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACE_INSTANCES_DIR), 2);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), TRACE_INSTANCES_DIR "/foo/%s", files[i]);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(path), 1);
	}
	KTEST_EXPECT_EQ(t, rd(FOO("tracing_on")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, rd(FOO("events/kprobes/tin_fib/enable")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, rd(FOO("current_tracer")), 0);
	KTEST_EXPECT_STREQ(t, out, "nop\n");
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACE_INSTANCES_DIR), 2);	/* stays, empty */
}

static void mkdir_rmdir_errors_as_linux(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), -EEXIST);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(T("events/bar")), -EPERM);	/* no mkdir there */
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(T("nosuch/bar")), -ENOENT);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(T("trace/bar")), -ENOTDIR);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(T("events")), -EPERM);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR), -EPERM);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/nosuch"), -ENOENT);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(FOO("trace")), -ENOTDIR);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(FOO("events")), -EPERM);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* ---- the records ------------------------------------------------------------------------ */

static void event_records_only_where_enabled(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("events/kprobes/tin_fib/enable")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), 0);
	/* on at the top level too: both buffers get every hit */
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace"), "\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS);
	/* off in the instance: the top level still records */
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace"), "\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), 2 * FIB_HITS);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

#define FIB(name)  T("events/kprobes/tin_fib/" name)
#define RET(name)  T("events/kprobes/tin_ret/" name)

/* Whether tin_fib's probe is in fib's text. */
static bool fib_armed(void)
{
	struct trace_event_file *file = trace_event_file_find("kprobes", "tin_fib");

	return file && file->tp->enabled;
}

/*
 * An instance's bit and a trigger's soft mode (enable_event) hold the
 * probe together: armed while either does.  The top level records only
 * while the trigger has turned its records on; the instance's bit alone
 * never shows in the top level's enable file.
 */
static void soft_mode_and_instances(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "r:tin_ret fib\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(RET("trigger"), "enable_event:kprobes:tin_fib\n"), 0);
	rd(FIB("enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	/* off in the instance: soft mode keeps the probe armed */
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_TRUE(t, fib_armed());
	/* fib(1)'s return turns the records on: the hits after n = 5 4 3 2 1 */
	KTEST_EXPECT_EQ(t, wr(RET("enable"), "1\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS - 5);
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	rd(FIB("enable"));
	KTEST_EXPECT_STREQ(t, out, "1*\n");
	/* the trigger gone with the records on: enabled at the top level, as Linux */
	KTEST_EXPECT_EQ(t, wr(RET("enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(RET("trigger"), "!enable_event:kprobes:tin_fib\n",
					      false), 0);
	rd(FIB("enable"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	/* on in the instance, off at the top: still armed; off in both: disarmed */
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FIB("enable"), "0\n"), 0);
	KTEST_EXPECT_TRUE(t, fib_armed());
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_FALSE(t, fib_armed());
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "-:tin_ret\n", false), 0);
}

static void instances_are_independent(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/bar"), 0);
	KTEST_EXPECT_EQ(t, wr(BAR("set_event"), "kprobes:tin_fib\n"), 0);
	KTEST_EXPECT_EQ(t, rd(BAR("set_event")), 0);
	KTEST_EXPECT_STREQ(t, out, "kprobes:tin_fib\n");
	KTEST_EXPECT_EQ(t, rd(FOO("set_event")), 0);
	KTEST_EXPECT_STREQ(t, out, "");
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(BAR("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	/* tracing_on is the instance's own */
	KTEST_EXPECT_EQ(t, wr(FOO("events/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(BAR("tracing_on"), "0\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(BAR("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, rd(T("tracing_on")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");
	/* trace_pipe takes the records it prints */
	KTEST_EXPECT_EQ(t, rd(FOO("trace_pipe")), 0);
	KTEST_EXPECT_EQ(t, count(out, "tin_fib: "), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/bar"), 0);
}

static void buffer_size_kb_is_the_instances(struct ktest *t)
{
	unsigned long slots = (4 * 1024 + sizeof(struct trace_entry) - 1) / sizeof(struct trace_entry);
	char top[32], want[32];

	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	rd(T("buffer_size_kb"));
	strlcpy(top, out, sizeof(top));

	/* 4 KiB a CPU: fib(5)'s 15 hits keep the newest that fit */
	KTEST_EXPECT_EQ(t, wr(FOO("buffer_size_kb"), "4\n"), 0);
	snprintf(want, sizeof(want), "%lu\n", (slots * sizeof(struct trace_entry) + 1023) / 1024);
	KTEST_EXPECT_EQ(t, rd(FOO("buffer_size_kb")), 0);
	KTEST_EXPECT_STREQ(t, out, want);
	KTEST_EXPECT_EQ(t, wr(FOO("events/enable"), "1\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), (int)slots);
	KTEST_EXPECT_EQ(t, rd(T("buffer_size_kb")), 0);
	KTEST_EXPECT_STREQ(t, out, top);
	KTEST_EXPECT_EQ(t, wr(FOO("buffer_size_kb"), "0\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(FOO("current_tracer"), "function_graph\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* Linux 6.1 runs function in an instance (allow_instances), not function_graph. */
static void function_tracer_in_an_instance(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("available_tracers")), 0);
	KTEST_EXPECT_STREQ(t, out, "function nop\n");
	KTEST_EXPECT_EQ(t, wr(FOO("current_tracer"), "function_graph\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(FOO("set_ftrace_filter"), "fib\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("set_ftrace_filter")), 0);
	KTEST_EXPECT_STREQ(t, out, "fib\n");
	KTEST_EXPECT_EQ(t, rd(T("set_ftrace_filter")), 0);	/* the top level's is its own */
	KTEST_EXPECT_STREQ(t, out, "#### all functions enabled ####\n");
	KTEST_EXPECT_EQ(t, wr(FOO("current_tracer"), "function\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("current_tracer")), 0);
	KTEST_EXPECT_STREQ(t, out, "function\n");
	KTEST_EXPECT_EQ(t, rd(T("current_tracer")), 0);
	KTEST_EXPECT_STREQ(t, out, "nop\n");
	run_fib5();
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, "# tracer: function\n"), 1);
	KTEST_EXPECT_EQ(t, count(out, ": fib <-"), FIB_HITS);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib <-"), 0);
	/* rmdir with the tracer running: it stops, the call sites go back to nops */
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, rd(T("enabled_functions")), 0);
	KTEST_EXPECT_STREQ(t, out, "");
}

/* ---- the event's life beside the instance's ------------------------------------------------ */

static void events_come_and_go_in_instances(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "p:tin_two fib\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("events/kprobes/tin_two/enable")), 1);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_two/enable"), "1\n"), 0);
	/* enabled in an instance is in use, as Linux's */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "-:tin_two\n", false), -EBUSY);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "-:tin_two\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("events/kprobes/tin_two/enable")), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("events/kprobes/tin_fib/enable")), 1);
	/* rmdir turns the instance's events off: the event can go */
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "-:tin_fib\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "p:tin_fib fib n=$arg1\n",
					      false), 0);
}

static void rmdir_busy_while_referenced(struct ktest *t)
{
	struct trace_array *tr = trace_array_get_by_name("foo");

	KTEST_EXPECT_TRUE(t, tr != NULL);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("trace")), 1);
	KTEST_EXPECT_TRUE(t, trace_array_get_by_name("foo") == tr);	/* the same one */
	trace_array_put(tr);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), -EBUSY);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("trace")), 1);
	trace_array_put(tr);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("trace")), 0);
}

/* Linux has no limit; here each instance is a bit of enabled_in: 31 of them. */
static void instances_limits(struct ktest *t)
{
	char path[PSEUDOFS_PATH_MAX];
	int made = 0;

	for (int i = 0; i < TRACE_ARRAY_MAX; i++) {
		snprintf(path, sizeof(path), TRACE_INSTANCES_DIR "/lim%d", i);
		if (pseudofs_mkdir(path) == 0)
			made++;
		else
			break;
	}
	KTEST_EXPECT_EQ(t, made, TRACE_ARRAY_MAX - 1);
	snprintf(path, sizeof(path), TRACE_INSTANCES_DIR "/lim%d", made);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(path), -ENOSPC);
	for (int i = 0; i < made; i++) {
		snprintf(path, sizeof(path), TRACE_INSTANCES_DIR "/lim%d", i);
		KTEST_EXPECT_EQ(t, pseudofs_rmdir(path), 0);
	}
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/"
		"a_name_of_sixty_four_characters_is_one_more_than_linux_event_nam"), -ENAMETOOLONG);
}

/* ---- an instance's own options ---------------------------------------------------------- */

/* Linux 6.1's trace_options of a new instance under nop, in its order. */
static const char instance_trace_options[] =
	"print-parent\nnosym-offset\nnosym-addr\nnoverbose\nnoraw\nnohex\nnobin\nnoblock\n"
	"trace_printk\nannotate\nnouserstacktrace\nnosym-userobj\nnoprintk-msg-only\n"
	"context-info\nnolatency-format\nrecord-cmd\nnorecord-tgid\noverwrite\n"
	"nodisable_on_free\nirq-info\nmarkers\nnoevent-fork\nnopause-on-trace\nhash-ptr\n"
	"function-trace\nnofunction-fork\nnodisplay-graph\nnostacktrace\nnotest_nop_accept\n"
	"notest_nop_refuse\n";

/*
 * Linux's options/ of an instance: not the top level's own (trace_printk,
 * printk-msg-only, record-cmd), nor function_graph's (no instance runs it).
 */
static void instance_has_linux_options(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("trace_options")), 0);
	KTEST_EXPECT_STREQ(t, out, instance_trace_options);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("options/sym-offset")), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("options/func_stack_trace")), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("options/test_nop_refuse")), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("options/record-cmd")), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("options/trace_printk")), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("options/funcgraph-proc")), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace_options"), "nosuchoption\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(FOO("options/sym-offset"), "2\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(FOO("trace_options"), "raw\n"), -EINVAL);	/* refused, as at the top */
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* Changed in the instance, the top level's stay; a new instance starts as the top level is. */
static void instance_options_are_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace_options"), "sym-offset\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("options/sym-offset")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, rd(T("options/sym-offset")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(T("options/sym-addr"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("options/sym-addr")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/bar"), 0);
	KTEST_EXPECT_EQ(t, rd(BAR("options/sym-addr")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, rd(BAR("options/sym-offset")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(T("options/sym-addr"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/bar"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* Each buffer's records print with its own options: the columns, a stack after each. */
static void instance_records_print_with_its_options(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("options/context-info"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("options/stacktrace"), "1\n"), 0);
	run_fib5();
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, "\ntin_fib: (fib"), FIB_HITS);	/* no comm-pid [cpu] ts: */
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), FIB_HITS);
	KTEST_EXPECT_EQ(t, count(out, "# entries-in-buffer"), 0);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "\ntin_fib: (fib"), 0);
	KTEST_EXPECT_EQ(t, count(out, "] d..") + count(out, "] ...") , FIB_HITS);
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* markers and overwrite act on the instance's own buffer. */
static void instance_markers_and_overwrite(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("options/markers"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace_marker"), "hello\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("trace_marker"), "hello\n"), 0);	/* the top level's are on */
	KTEST_EXPECT_EQ(t, wr(FOO("options/markers"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace_marker"), "hello\n"), 0);
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tracing_mark_write: hello"), 1);
	/* overwrite off: 4 KiB a CPU keeps fib(5)'s first hits, not its last */
	KTEST_EXPECT_EQ(t, wr(FOO("buffer_size_kb"), "4\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("options/overwrite"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	run_fib5();
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, "n=0x5"), 1);
	KTEST_EXPECT_EQ(t, rd(T("options/overwrite")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* snapshot swaps the instance's buffer into the instance's snapshot. */
static void instance_snapshot_is_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("snapshot")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# * Snapshot is freed *"), 1);
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/tin_fib/enable"), "1\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, wr(FOO("snapshot"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, records_in(FOO("snapshot")), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, rd(T("snapshot")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# * Snapshot is freed *"), 1);
	/* printed with the instance's options */
	KTEST_EXPECT_EQ(t, wr(FOO("options/context-info"), "0\n"), 0);
	rd(FOO("snapshot"));
	KTEST_EXPECT_EQ(t, count(out, "\ntin_fib: (fib"), FIB_HITS);
	KTEST_EXPECT_EQ(t, wr(FOO("snapshot"), "2\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("snapshot")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# * Snapshot is allocated *"), 1);
	KTEST_EXPECT_EQ(t, wr(FOO("snapshot"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("snapshot")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# * Snapshot is freed *"), 1);
	KTEST_EXPECT_EQ(t, wr(FOO("snapshot"), "1\n"), 0);	/* rmdir frees it */
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* ---- an instance's event files: filter, trigger, hist, error_log ----------------------------- */

#define FOO_FIB(name) FOO("events/kprobes/tin_fib/" name)
#define FOO_RET(name) FOO("events/kprobes/tin_ret/" name)

/* fib(5)'s 15 hits: n = 5 once, 4 once, 3 twice, 2 three times, 1 five times, 0 three times. */
static void instance_event_has_linux_files(struct ktest *t)
{
	static const char *const files[] = { "enable", "filter", "format", "hist", "id", "trigger" };
	char path[PSEUDOFS_PATH_MAX];

	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), FOO_FIB("%s"), files[i]);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(path), 1);
	}
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("events/kprobes/filter")), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(FOO("error_log")), 1);
	KTEST_EXPECT_EQ(t, rd(FOO_FIB("filter")), 0);
	KTEST_EXPECT_STREQ(t, out, "none\n");
	KTEST_EXPECT_EQ(t, rd(FOO_FIB("trigger")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# Available triggers:"), 1);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

static void instance_filter_is_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("filter"), "n > 3\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO_FIB("filter")), 0);
	KTEST_EXPECT_STREQ(t, out, "n > 3\n");
	KTEST_EXPECT_EQ(t, rd(T("events/kprobes/tin_fib/filter")), 0);
	KTEST_EXPECT_STREQ(t, out, "none\n");
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 2);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS);
	/* the instance's group filter reaches the instance's events only */
	KTEST_EXPECT_EQ(t, wr(FOO("events/kprobes/filter"), "n == 0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace"), "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("trace"), "\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 3);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* A bad filter or trigger of an instance's event is logged in the instance's error_log. */
static void instance_error_log_is_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(T("error_log"), ""), 0);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("error_log")), 0);
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("filter"), "nosuchfield == 1\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("trigger"), "hist:keys=nosuchfield\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, rd(FOO("error_log")), 0);
	KTEST_EXPECT_EQ(t, count(out, "event filter parse error: error: "), 1);
	KTEST_EXPECT_EQ(t, count(out, "hist:kprobes:tin_fib: error: "), 1);
	KTEST_EXPECT_EQ(t, rd(T("error_log")), 0);
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr_append(FOO("error_log"), "x\n"), -EINVAL);	/* only cleared */
	KTEST_EXPECT_EQ(t, wr(FOO("error_log"), ""), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("error_log")), 0);
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* traceoff, stacktrace and snapshot act on the instance, not on the top level. */
static void instance_triggers_act_on_the_instance(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("trigger"), "traceoff\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, rd(FOO("tracing_on")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);	/* off before its own record */
	KTEST_EXPECT_EQ(t, rd(T("tracing_on")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, wr_append(FOO_FIB("trigger"), "!traceoff\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("tracing_on"), "1\n"), 0);

	KTEST_EXPECT_EQ(t, wr(FOO_FIB("trigger"), "stacktrace if n == 5\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(FOO_FIB("trigger"), "snapshot:1 if n == 0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("trace"), "\n"), 0);
	run_fib5();
	rd(FOO("trace"));	/* the hits after the first n == 0 */
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), 0);
	KTEST_EXPECT_EQ(t, count(out, "tin_fib: "), FIB_HITS - 6);
	rd(FOO("snapshot"));	/* n = 5 4 3 2 1 0, with n == 5's stack */
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), 1);
	KTEST_EXPECT_EQ(t, count(out, "tin_fib: "), 6);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "<stack trace>"), 0);
	KTEST_EXPECT_EQ(t, count(out, "tin_fib: "), FIB_HITS);
	KTEST_EXPECT_EQ(t, rd(T("snapshot")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# * Snapshot is freed *"), 1);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);	/* its triggers go */
}

/* hist: a table per instance. */
static void instance_hist_is_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("trigger"), "hist:keys=n\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO_FIB("trigger")), 0);
	KTEST_EXPECT_STREQ(t, out, "hist:keys=n:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	run_fib5();
	KTEST_EXPECT_EQ(t, rd(FOO_FIB("hist")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n:          1 } hitcount:          5\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "    Hits: 15\n") != NULL);
	KTEST_EXPECT_EQ(t, rd(T("events/kprobes/tin_fib/hist")), 0);
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, rd(T("events/kprobes/tin_fib/trigger")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# Available triggers:"), 1);
	/* the event stays while its hist in an instance reads nothing of others': rmdir frees it */
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/*
 * enable_event names the event in its own instance: soft mode there
 * ("0*"), records there, none at the top level; rmdir drops the soft
 * mode and the event can go.
 */
static void instance_enable_event_stays_in_the_instance(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "r:tin_ret fib\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("trigger"), "enable_event:kprobes:tin_ret\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO_RET("enable")), 0);
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	KTEST_EXPECT_EQ(t, rd(RET("enable")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	run_fib5();
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tin_ret: "), FIB_HITS);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, "tin_ret: "), 0);
	KTEST_EXPECT_EQ(t, rd(FOO_RET("enable")), 0);
	KTEST_EXPECT_STREQ(t, out, "1*\n");
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "-:tin_ret\n", false), -EBUSY);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(T("kprobe_events"), "-:tin_ret\n", false), 0);
}

/* per_cpu/cpuN/: one CPU's records, counts and size, of the instance's buffer. */
static void instance_per_cpu_files(struct ktest *t)
{
	char path[PSEUDOFS_PATH_MAX], want[32];
	int records = 0, entries = 0, cpu;
	unsigned long slots;

	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	run_fib5();
	for_each_online_cpu(cpu) {
		const char *p;

		snprintf(path, sizeof(path), FOO("per_cpu/cpu%d/trace"), cpu);
		records += records_in(path);
		snprintf(path, sizeof(path), FOO("per_cpu/cpu%d/stats"), cpu);
		KTEST_EXPECT_EQ(t, rd(path), 0);
		p = strstr(out, "entries: ");
		entries += p ? (int)simple_strtoul(p + strlen("entries: "), NULL, 10) : -100;
		KTEST_EXPECT_EQ(t, count(out, "read events: 0\n"), 1);
	}
	KTEST_EXPECT_EQ(t, records, FIB_HITS);
	KTEST_EXPECT_EQ(t, entries, FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), 0);
	/* one CPU's trace emptied: the others keep theirs */
	for_each_online_cpu(cpu) {
		snprintf(path, sizeof(path), FOO("per_cpu/cpu%d/trace"), cpu);
		KTEST_EXPECT_EQ(t, wr(path, "\n"), 0);
		KTEST_EXPECT_EQ(t, records_in(path), 0);
	}
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	/* one CPU's size: the instance's file says X when they differ */
	KTEST_EXPECT_EQ(t, wr(FOO("per_cpu/cpu0/buffer_size_kb"), "8\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("per_cpu/cpu0/buffer_size_kb")), 0);
	slots = (8 * 1024 + sizeof(struct trace_entry) - 1) / sizeof(struct trace_entry);
	snprintf(want, sizeof(want), "%lu\n", (slots * sizeof(struct trace_entry) + 1023) / 1024);
	KTEST_EXPECT_STREQ(t, out, want);
	KTEST_EXPECT_EQ(t, rd(FOO("buffer_size_kb")), 0);
	KTEST_EXPECT_STREQ(t, out, num_online_cpus() > 1 ? "X\n" : want);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

/* ---- the top level's files an instance has too, acting on the instance ------------------ */

/* set_event_pid of an instance filters its records alone; the top level's, the top level's. */
static void instance_pid_filters_are_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("set_event_pid"), "12345\n"), 0);	/* not this task */
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS);
	rd(T("set_event_pid"));
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, wr(FOO("set_event_pid"), "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("set_event_notrace_pid"), "0\n"), 0);	/* this task */
	wr(T("trace"), "\n");
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), 0);
	KTEST_EXPECT_EQ(t, wr(T("set_event_notrace_pid"), "\n"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("set_ftrace_pid")), 0);
	KTEST_EXPECT_STREQ(t, out, "no pid\n");
	/* the instance's function tracer skips a task on its notrace list */
	wr(FOO_FIB("enable"), "0\n");
	wr(FOO("set_ftrace_filter"), "fib\n");
	KTEST_EXPECT_EQ(t, wr(FOO("set_ftrace_notrace_pid"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("current_tracer"), "function\n"), 0);
	run_fib5();
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib <-"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("set_ftrace_notrace_pid"), "\n"), 0);
	run_fib5();
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": fib <-"), FIB_HITS);
	KTEST_EXPECT_EQ(t, wr(FOO("set_ftrace_pid"), "0\n"), 0);	/* rmdir frees the lists */
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	wr(T("events/kprobes/tin_fib/enable"), "0\n");
}

/* tracing_cpumask of an instance: a CPU left out writes nothing there, and only there. */
static void instance_tracing_cpumask_is_its_own(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("tracing_cpumask")), 0);
	KTEST_EXPECT_STREQ(t, out, num_online_cpus() > 1 ? "3\n" : "1\n");
	KTEST_EXPECT_EQ(t, wr(FOO("tracing_cpumask"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_fib/enable"), "1\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, records_in(T("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, rd(T("tracing_cpumask")), 0);
	KTEST_EXPECT_STREQ(t, out, num_online_cpus() > 1 ? "3\n" : "1\n");
	KTEST_EXPECT_EQ(t, wr(FOO("tracing_cpumask"), "ff\n"), 0);
	run_fib5();
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), FIB_HITS);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	wr(T("events/kprobes/tin_fib/enable"), "0\n");
}

/* trace_marker_raw, free_buffer, timestamp_mode, per_cpu/cpuN/snapshot: the instance's buffer. */
static void instance_buffer_files_are_its_own(struct ktest *t)
{
	char path[PSEUDOFS_PATH_MAX];
	int cpu, snapshot = 0;

	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace_marker_raw"), "ABCDxy"), 0);
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, "# 44434241 buf: 78 79"), 1);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, " buf:"), 0);
	KTEST_EXPECT_EQ(t, rd(FOO("timestamp_mode")), 0);
	KTEST_EXPECT_STREQ(t, out, "delta [absolute]\n");
	/* one CPU's snapshot: that CPU's records swapped out of the instance's buffer */
	KTEST_EXPECT_EQ(t, wr(FOO_FIB("enable"), "1\n"), 0);
	run_fib5();
	for_each_online_cpu(cpu) {
		snprintf(path, sizeof(path), FOO("per_cpu/cpu%d/snapshot"), cpu);
		KTEST_EXPECT_EQ(t, wr(path, "1\n"), 0);
		snapshot += records_in(path);
	}
	KTEST_EXPECT_EQ(t, snapshot, FIB_HITS);
	KTEST_EXPECT_EQ(t, records_in(FOO("trace")), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("per_cpu/cpu0/snapshot"), "0\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, rd(T("snapshot")), 0);
	KTEST_EXPECT_EQ(t, count(out, "# * Snapshot is freed *"), 1);
	/* free_buffer: the instance's buffers shrink, the top level's stay */
	rd(T("buffer_size_kb"));
	strlcpy(path, out, sizeof(path));
	KTEST_EXPECT_EQ(t, wr(FOO("options/disable_on_free"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("free_buffer"), "1\n"), 0);
	rd(FOO("buffer_size_kb"));
	KTEST_EXPECT_STREQ(t, out, "2\n");
	rd(FOO("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	rd(T("tracing_on"));
	KTEST_EXPECT_STREQ(t, out, "1\n");
	rd(T("buffer_size_kb"));
	KTEST_EXPECT_STREQ(t, out, path);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
}

static void run_cmd(const char *cmd)
{
	static char sink[256];
	struct seq_buf s;

	seq_buf_init(&s, sink, sizeof(sink));
	shell_exec(cmd, &s);
}

#define TIN_START_VARS "hist:keys=common_pid:ts0=common_timestamp.usecs:n0=n"
#define TIN_ONMATCH    "hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:" \
		       "onmatch(kprobes.tin_s).trace(tin_lat,$lat,$n0)"

/*
 * An onmatch() action's synthetic event records in every trace array
 * where it is enabled (Linux's trace_synth() calls each one's probe),
 * whichever trace array's hist fired it.
 */
static void synthetic_event_records_where_enabled(struct ktest *t)
{
	wr_append(T("kprobe_events"), "p:tin_s sort_ints n=$arg2:s32\n");
	wr_append(T("kprobe_events"), "r:tin_e sort_ints\n");
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "tin_lat u64 lat; int n\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACE_INSTANCES_DIR "/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_s/trigger"), TIN_START_VARS "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/kprobes/tin_e/trigger"), TIN_ONMATCH "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/synthetic/tin_lat/enable"), "1\n"), 0);
	run_cmd("run sort 50");
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, " tin_lat: lat="), 1);
	KTEST_EXPECT_EQ(t, count(out, " n=50\n"), 1);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, " tin_lat: "), 0);
	KTEST_EXPECT_EQ(t, wr(T("events/synthetic/tin_lat/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/synthetic/tin_lat/filter"), "n > 60\n"), 0);
	run_cmd("run sort 70");
	run_cmd("run sort 30");
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, " tin_lat: lat="), 2);	/* 50, 70: its filter */
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, " tin_lat: lat="), 2);	/* 70, 30 */
	wr(T("events/synthetic/tin_lat/enable"), "0\n");
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACE_INSTANCES_DIR "/foo"), 0);
	wr_append(T("events/kprobes/tin_e/trigger"), "!" TIN_ONMATCH "\n");
	wr_append(T("events/kprobes/tin_s/trigger"), "!" TIN_START_VARS "\n");
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "!tin_lat\n"), 0);
	wr_append(T("kprobe_events"), "-:tin_e\n");
	wr_append(T("kprobe_events"), "-:tin_s\n");
}

static struct ktest_case instances_cases[] = {
	KTEST_CASE(mkdir_makes_linux_files),
	KTEST_CASE(mkdir_rmdir_errors_as_linux),
	KTEST_CASE(event_records_only_where_enabled),
	KTEST_CASE(instances_are_independent),
	KTEST_CASE(soft_mode_and_instances),
	KTEST_CASE(buffer_size_kb_is_the_instances),
	KTEST_CASE(function_tracer_in_an_instance),
	KTEST_CASE(events_come_and_go_in_instances),
	KTEST_CASE(rmdir_busy_while_referenced),
	KTEST_CASE(instances_limits),
	KTEST_CASE(instance_has_linux_options),
	KTEST_CASE(instance_options_are_its_own),
	KTEST_CASE(instance_records_print_with_its_options),
	KTEST_CASE(instance_markers_and_overwrite),
	KTEST_CASE(instance_snapshot_is_its_own),
	KTEST_CASE(instance_per_cpu_files),
	KTEST_CASE(instance_event_has_linux_files),
	KTEST_CASE(instance_filter_is_its_own),
	KTEST_CASE(instance_error_log_is_its_own),
	KTEST_CASE(instance_triggers_act_on_the_instance),
	KTEST_CASE(instance_hist_is_its_own),
	KTEST_CASE(instance_enable_event_stays_in_the_instance),
	KTEST_CASE(instance_pid_filters_are_its_own),
	KTEST_CASE(instance_tracing_cpumask_is_its_own),
	KTEST_CASE(instance_buffer_files_are_its_own),
	KTEST_CASE(synthetic_event_records_where_enabled),
	KTEST_END
};

static struct ktest_suite instances_suite = {
	.name = "trace_instances",
	.cases = instances_cases,
	.init = instances_init,
	.exit = instances_exit,
};
KTEST_SUITE(instances_suite);
