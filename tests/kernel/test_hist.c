/*
 * test_hist.c - suite "hist": hist variables, expressions and actions,
 * synthetic events and the enable_hist/disable_hist triggers, each
 * against Linux 6.1's documented behaviour (Documentation/trace/
 * histogram.rst, kernel/trace/trace_events_hist.c, trace_events_synth.c):
 * the files' contents, the errors (errno, error_log) and what a hit does.
 *
 * The workload is `run sort N`: one call of sort_ints(a, N).  The
 * latency of that call is measured as Linux's docs measure a wakeup
 * latency: a kprobe at sort_ints' entry saves the time in $ts0 under
 * the task's pid, a kretprobe at its return subtracts it and fires the
 * synthetic event sort_lat.
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "trace.h"
#include "trace_events.h"
#include "string.h"
#include "sched.h"
#include "vsprintf.h"
#include "errno.h"
#include "tracefs_suite.h"

#define T(name)       TRACEFS_DIR "/" name
#define START(name)   TRACEFS_DIR "/events/kprobes/h_start/" name
#define END(name)     TRACEFS_DIR "/events/kprobes/h_end/" name
#define SYNTH(name)   TRACEFS_DIR "/events/synthetic/sort_lat/" name

#define START_VARS    "hist:keys=common_pid:ts0=common_timestamp.usecs:n0=n"
#define END_ONMATCH   "hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:" \
		      "onmatch(kprobes.h_start).trace(sort_lat,$lat,common_pid,$n0)"

static void run(const char *cmd)
{
	static char sink[256];
	struct seq_buf s;

	seq_buf_init(&s, sink, sizeof(sink));
	shell_exec(cmd, &s);
}

/* Everything off and away, the referring triggers before the referred. */
static void clean(void)
{
	struct trace_event_file *file;

	clear_event_triggers(&global_trace);		/* an event with a trigger is armed: it could not go */
	list_for_each_entry(file, &trace_event_files, list)
		trace_event_set_enabled(file->tp, false);
	if (pseudofs_lookup(SYNTH("trigger")))
		wr(SYNTH("trigger"), "\n");
	if (pseudofs_lookup(END("trigger"))) {
		wr(END("trigger"), "\n");
		wr_append(END("trigger"), "!enable_hist:kprobes:h_start\n");
	}
	if (pseudofs_lookup(START("trigger"))) {
		wr(START("trigger"), "\n");
		wr_append(START("trigger"), "!disable_hist:kprobes:h_end\n");
		wr_append(START("trigger"), "!enable_hist:kprobes:h_end\n");
	}
	wr(T("synthetic_events"), "\n");
	wr(T("kprobe_events"), "\n");
	wr(T("snapshot"), "0\n");
	wr(T("error_log"), "\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
}

static int hist_init(struct ktest *t)
{
	tracefs_init();
	clean();
	wr_append(T("kprobe_events"), "p:h_start sort_ints n=$arg2:s32\n");
	wr_append(T("kprobe_events"), "r:h_end sort_ints\n");
	wr(START("enable"), "1\n");
	wr(END("enable"), "1\n");
	return 0;
}

static void hist_exit(struct ktest *t)
{
	clean();
}

/* Is the last error_log entry this message about this command? */
static bool logged(const char *subsys, const char *msg, const char *cmd)
{
	static char want[512];

	rd(T("error_log"));
	snprintf(want, sizeof(want), "] %s: error: %s\n  Command: %s\n", subsys, msg, cmd);
	return strstr(out, want) != NULL;
}

/* ---- synthetic_events ------------------------------------------------------------------- */

static void synthetic_events_define_list_remove(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"),
				     "sort_lat u64 lat; pid_t pid; unsigned int n\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "old_form u64 a s32 b\n"), 0);
	rd(T("synthetic_events"));
	KTEST_EXPECT_STREQ(t, out, "sort_lat\tu64 lat; pid_t pid; unsigned int n\n"
				   "old_form\tu64 a; s32 b\n");
	rd(T("available_events"));
	KTEST_EXPECT_TRUE(t, strstr(out, "synthetic:sort_lat\n") != NULL);
	for (const char *const *f = (const char *const[]){ "enable", "filter", "format", "hist",
							   "id", "trigger", NULL }; *f; f++) {
		char path[128];

		snprintf(path, sizeof(path), SYNTH("%s"), *f);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(path), 1);
	}
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACEFS_DIR "/events/synthetic/enable"), 1);
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "!old_form\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "!old_form\n"), -ENOENT);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACEFS_DIR "/events/synthetic/old_form"), 0);
	KTEST_EXPECT_EQ(t, wr(T("synthetic_events"), "\n"), 0);	/* `>`: every one */
	rd(T("synthetic_events"));
	KTEST_EXPECT_STREQ(t, out, "");
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACEFS_DIR "/events/synthetic"), 0);
}

static void synthetic_format_is_linux_layout(struct ktest *t)
{
	char id[16], want[64];

	wr_append(T("synthetic_events"), "sort_lat u64 lat; pid_t pid; unsigned int n\n");
	rd(SYNTH("id"));
	strlcpy(id, out, sizeof(id));
	rd(SYNTH("format"));
	snprintf(want, sizeof(want), "name: sort_lat\nID: %s", id);
	KTEST_EXPECT_EQ(t, strncmp(out, want, strlen(want)), 0);
	KTEST_EXPECT_TRUE(t, strstr(out,
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:u64 lat;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned int n;\toffset:24;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"lat=%llu, pid=%d, n=%u\", REC->lat, REC->pid, REC->n\n") != NULL);
}

static void synthetic_events_errors(struct ktest *t)
{
	static const struct { const char *cmd, *msg; int err; } bad[] = {
		{ "lonely",            "Command must be of the form: <name> field[;field] ...", -EINVAL },
		{ "two words",         "Command must be of the form: <name> field[;field] ...", -EINVAL },
		{ "1bad u64 x",        "Illegal name", -EINVAL },
		{ "ok u64 1x",         "Illegal name", -EINVAL },
		{ "ok float x",        "Invalid type", -EINVAL },
		{ "ok char s[300]",    "Invalid array specification", -EINVAL },	/* 256 at most */
		{ "ok long[] stack",   "Invalid type", -EINVAL },	/* Linux 6.5's */
		{ "ok u64 x[4]",       "Invalid type", -EINVAL },	/* arrays of char only */
		{ "ok unsigned x",     "Incomplete type", -EINVAL },
		{ "ok u64 x; u32",     "Invalid field", -EINVAL },
		{ "dup u64 x",         "Event already exists", -EEXIST },
	};

	wr_append(T("synthetic_events"), "dup u32 y\n");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char line[64];

		snprintf(line, sizeof(line), "%s\n", bad[i].cmd);
		KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), line), bad[i].err);
		KTEST_EXPECT_TRUE(t, logged("synthetic_events", bad[i].msg, bad[i].cmd));
	}
	rd(T("error_log"));		/* the caret: under the field's name */
	KTEST_EXPECT_TRUE(t, strstr(out, "  Command: ok u64 1x\n"
					 "                  ^\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "  Command: ok char s[300]\n"
					 "                   ^\n") != NULL);	/* and under the array */
	KTEST_EXPECT_TRUE(t, strstr(out, "  Command: ok u64 x[4]\n"
					 "              ^\n") != NULL);	/* or the type */
	rd(T("synthetic_events"));
	KTEST_EXPECT_STREQ(t, out, "dup\tu32 y\n");	/* nothing else was made */
}

/* char[N] and char[]: Linux's layout, listing and print format, and a record of each. */
static void synthetic_string_fields(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"),
				     "strs char comm[16]; char name[]; u64 x; char[8] tag\n"), 0);
	rd(T("synthetic_events"));
	KTEST_EXPECT_STREQ(t, out, "strs\tchar[16] comm; char[] name; u64 x; char[8] tag\n");
	rd(TRACEFS_DIR "/events/synthetic/strs/format");
	KTEST_EXPECT_TRUE(t, strstr(out,
		"\tfield:char comm[];\toffset:8;\tsize:16;\tsigned:1;\n"
		"\tfield:__data_loc char[] name;\toffset:264;\tsize:8;\tsigned:1;\n"
		"\tfield:u64 x;\toffset:272;\tsize:8;\tsigned:0;\n"
		"\tfield:char tag[];\toffset:280;\tsize:8;\tsigned:1;\n\n"
		"print fmt: \"comm=%s, name=%s, x=%llu, tag=%s\", REC->comm, __get_str(name), "
		"REC->x, REC->tag\n") != NULL);
}

/*
 * Linux 6.0+: dynamic_events takes "s:[synthetic/]NAME FIELDS" and
 * "-:[synthetic/]NAME", and lists them as "s:synthetic/NAME\tFIELDS".
 */
static void synthetic_events_in_dynamic_events(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "s:dyn_a u64 lat; int pid\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "s:synthetic/dyn_b u64 lat\n"), 0);
	rd(T("synthetic_events"));
	KTEST_EXPECT_STREQ(t, out, "dyn_a\tu64 lat; int pid\ndyn_b\tu64 lat\n");
	rd(T("dynamic_events"));
	KTEST_EXPECT_TRUE(t, strstr(out, "r10:kprobes/h_end sort_ints\n"
				      "s:synthetic/dyn_a\tu64 lat; int pid\n"
				      "s:synthetic/dyn_b\tu64 lat\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "s:other/dyn_c u64 lat\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "] synthetic_events: error: Command must be of the form: "
				      "s or -:[synthetic/]<name> field[;field] ...\n"
				      "  Command: s:other/dyn_c u64 lat\n           ^\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "s:dyn_a u64 x\n"), -EEXIST);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "s:dyn_c\n"), -EINVAL);
	/* a trigger arms it: it cannot go until the trigger does */
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/synthetic/dyn_a/trigger", "hist:keys=pid\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:synthetic/dyn_a\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/synthetic/dyn_a/trigger", "\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:synthetic/dyn_a\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:dyn_b\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:dyn_b\n"), -ENOENT);
	rd(T("synthetic_events"));
	KTEST_EXPECT_STREQ(t, out, "");
	/* `echo > dynamic_events` takes them too */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "s:dyn_a u64 lat\n"), 0);
	wr(START("enable"), "0\n");
	wr(END("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr(T("dynamic_events"), "\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "");
}

/* ---- variables, onmatch().trace() ------------------------------------------------------------ */

static void latency_through_a_synthetic_event(struct ktest *t)
{
	wr_append(T("synthetic_events"), "sort_lat u64 lat; int pid; int n\n");
	KTEST_EXPECT_EQ(t, wr(START("trigger"), START_VARS "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(END("trigger"), END_ONMATCH "\n"), 0);
	KTEST_EXPECT_EQ(t, wr(SYNTH("trigger"), "hist:keys=n:vals=lat\n"), 0);
	wr(SYNTH("enable"), "1\n");
	rd(START("trigger"));
	KTEST_EXPECT_STREQ(t, out, "hist:keys=common_pid:vals=hitcount:ts0=common_timestamp.usecs,"
				   "n0=n:sort=hitcount:size=2048:clock=global [active]\n");
	rd(END("trigger"));
	KTEST_EXPECT_STREQ(t, out, "hist:keys=common_pid:vals=hitcount:lat=common_timestamp.usecs-"
				   "$ts0:sort=hitcount:size=2048:clock=global:onmatch(kprobes.h_start)"
				   ".trace(sort_lat,$lat,common_pid,$n0) [active]\n");
	wr(T("trace"), "\n");
	run("run sort 50");
	run("run sort 100");
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, " sort_lat: lat="), 2);
	KTEST_EXPECT_TRUE(t, strstr(out, " n=50\n") && strstr(out, " n=100\n"));
	rd(SYNTH("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n:         50 } hitcount:          1  lat: ") &&
			     strstr(out, "{ n:        100 } hitcount:          1  lat: "));
	/*
	 * A return with no entry before it: $ts0 was used up, the hit is
	 * dropped.  The entry's hist is paused: with its enable at 0 the
	 * event would still count (a trigger keeps it in soft mode, as Linux).
	 */
	wr(START("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), START_VARS ":pause\n"), 0);
	run("run sort 20");
	rd(END("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "    Hits: 2\n") != NULL);
	rd(T("trace"));
	KTEST_EXPECT_EQ(t, count(out, " sort_lat: lat="), 2);
}

static void what_is_used_cannot_go(struct ktest *t)
{
	wr_append(T("synthetic_events"), "sort_lat u64 lat; int pid; int n\n");
	wr(START("trigger"), START_VARS "\n");
	wr(END("trigger"), END_ONMATCH "\n");
	/* h_end reads $ts0 and $n0: h_start's trigger and event stay (Linux: EBUSY) */
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "!" START_VARS "\n"), -EBUSY);
	wr(START("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:h_start\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "!sort_lat\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr(T("synthetic_events"), "\n"), -EBUSY);
	/* the reader goes first, then the rest may */
	KTEST_EXPECT_EQ(t, wr_append(END("trigger"), "!" END_ONMATCH "\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "!sort_lat\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "!" START_VARS "\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:h_start\n"), 0);
}

/* ---- onmax() ------------------------------------------------------------------------------------- */

static void onmax_saves_fields(struct ktest *t)
{
	wr(START("trigger"), "hist:keys=common_pid:ts0=common_timestamp\n");
	KTEST_EXPECT_EQ(t, wr(END("trigger"), "hist:keys=common_pid:lat=common_timestamp-$ts0:"
				  "onmax($lat).save(common_pid,__probe_ret_ip)\n"), 0);
	rd(END("trigger"));
	KTEST_EXPECT_STREQ(t, out, "hist:keys=common_pid:vals=hitcount:lat=common_timestamp-$ts0:"
				   "sort=hitcount:size=2048:clock=global:"
				   "onmax($lat).save(common_pid,__probe_ret_ip) [active]\n");
	run("run sort 30");
	run("run sort 300");
	rd(END("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, " } hitcount:          2\n\tmax: ") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "  common_pid: ") && strstr(out, "  __probe_ret_ip: "));
}

static void onmax_takes_a_snapshot(struct ktest *t)
{
	wr(START("trigger"), "hist:keys=common_pid:ts0=common_timestamp\n");
	KTEST_EXPECT_EQ(t, wr(END("trigger"), "hist:keys=common_pid:lat=common_timestamp-$ts0:"
				  "onmax($lat).snapshot()\n"), 0);
	run("run sort 40");
	rd(END("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "\nSnapshot taken (see tracing/snapshot).  Details:\n"
					 "\ttriggering value { onmax($lat) }: ") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "\ttriggered by event with key: { common_pid: ") != NULL);
	rd(T("snapshot"));
	KTEST_EXPECT_TRUE(t, strstr(out, " h_start: (sort_ints") != NULL);	/* the swapped trace */
}

/* ---- expressions and modifiers ------------------------------------------------------------- */

static void key_modifiers_print_as_linux(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(START("trigger"), "hist:keys=n.buckets=64:sort=n\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "hist:keys=n.log2\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "hist:keys=common_pid.execname\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "hist:keys=__probe_ip.sym-offset\n"), 0);
	run("run sort 50");
	run("run sort 100");
	rd(START("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n: ~ 0-63 } hitcount:          1\n"
					 "{ n: ~ 64-127 } hitcount:          1\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n: ~ 2^6  } hitcount:          1\n") &&
			     strstr(out, "{ n: ~ 2^7  } hitcount:          1\n"));
	KTEST_EXPECT_TRUE(t, strstr(out, "# trigger info: hist:keys=common_pid.execname:vals=hitcount"
					 ":sort=hitcount:size=2048 [active]") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "{ __probe_ip: [") && strstr(out, "] sort_ints+0x0/0x"));
}

/*
 * .syscall: a number as the name of the system call this kernel's
 * table runs for it, Linux's "%s: %-30s[%3llu]" ("unknown_syscall" for none).
 */
static void syscall_key_modifier(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(START("trigger"), "hist:keys=n.syscall:sort=n\n"), 0);
	run("run sort 3");
	run("run sort 4");
	run("run sort 499");
	rd(START("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "# trigger info: hist:keys=n.syscall:vals=hitcount:"
				      "sort=n.syscall:size=2048 [active]\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n: sys_read                      [  3] } hitcount:          1\n"
				      "{ n: sys_write                     [  4] } hitcount:          1\n"
				      "{ n: unknown_syscall               [499] } hitcount:          1\n") != NULL);
	rd(T("README"));
	KTEST_EXPECT_TRUE(t, strstr(out, "\t            .execname   display a common_pid as a program name\n"
				      "\t            .syscall    display a syscall id as a syscall name\n") != NULL);
}

static void expressions_compute(struct ktest *t)
{
	/* x = 2n+1 as a variable, read back through a synthetic event */
	wr_append(T("synthetic_events"), "sort_lat u64 x\n");
	KTEST_EXPECT_EQ(t, wr(START("trigger"), "hist:keys=common_pid:x=n*2+1:"
				  "onmatch(kprobes.h_start).trace(sort_lat,$x)\n"), -EINVAL);
	/* n is s32: x is s32, and the u64 field does not take it (Linux's type check) */
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:h_start",
				    "Param type doesn't match synthetic event field type",
				    "hist:keys=common_pid:x=n*2+1:onmatch(kprobes.h_start).trace(sort_lat,$x)"));
	wr(T("synthetic_events"), "sort_lat s32 x\n");
	KTEST_EXPECT_EQ(t, wr(START("trigger"), "hist:keys=common_pid:x=n*2+1:"
				  "onmatch(kprobes.h_start).trace(sort_lat,$x)\n"), 0);
	wr(SYNTH("enable"), "1\n");
	wr(T("trace"), "\n");
	run("run sort 21");
	rd(T("trace"));
	KTEST_EXPECT_TRUE(t, strstr(out, " sort_lat: x=43\n") != NULL);
	KTEST_EXPECT_EQ(t, wr(START("trigger"), "hist:keys=common_pid:y=n/0\n"), -EDOM);
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:h_start", "Division by zero",
				    "hist:keys=common_pid:y=n/0"));
}

/* ---- enable_hist / disable_hist ---------------------------------------------------------------- */

static void disable_and_enable_hist(struct ktest *t)
{
	wr(END("trigger"), "hist:keys=common_pid\n");
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "disable_hist:kprobes:h_end\n"), 0);
	rd(START("trigger"));
	KTEST_EXPECT_STREQ(t, out, "disable_hist:kprobes:h_end:unlimited\n");
	run("run sort 10");
	rd(END("hist"));		/* paused by h_start before h_end came */
	KTEST_EXPECT_TRUE(t, strstr(out, "[paused]") && strstr(out, "    Hits: 0\n"));
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "disable_hist:kprobes:h_end\n"), -EEXIST);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "!disable_hist:kprobes:h_end\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "enable_hist:kprobes:h_end:1 if n > 5\n"), 0);
	rd(START("trigger"));
	KTEST_EXPECT_STREQ(t, out, "enable_hist:kprobes:h_end:count=1 if n > 5\n");
	run("run sort 10");
	rd(END("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "[active]") && strstr(out, "    Hits: 1\n"));
	rd(START("trigger"));
	KTEST_EXPECT_STREQ(t, out, "enable_hist:kprobes:h_end:count=0 if n > 5\n");
	/* the event it names stays while it is named */
	wr(END("enable"), "0\n");
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "-:h_end\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "enable_hist:kprobes:nosuch\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "enable_hist:kprobes\n"), -EINVAL);
}

/* ---- errors, as Linux logs them ------------------------------------------------------------------ */

static void hist_errors_as_linux(struct ktest *t)
{
	static const struct { const char *event, *cmd, *msg; } bad[] = {
		{ "h_end", "hist:keys=common_pid:lat=common_timestamp-$nosuch", "Couldn't find variable" },
		{ "h_end", "hist:keys=common_pid:onmatch(kprobes.nosuch).trace(sort_lat,$ts0)",
		  "Invalid subsystem or event name" },
		{ "h_end", "hist:keys=common_pid:onmatch(kprobes.h_start).trace(nosuch,$ts0)",
		  "Couldn't find synthetic event" },
		{ "h_end", "hist:keys=common_pid:onmatch(kprobes.h_start).trace(sort_lat,$ts0)",
		  "Param count doesn't match synthetic event field count" },
		{ "h_end", "hist:keys=common_pid:onmatch(kprobes.h_start).trace(sort_lat,common_pid,common_pid)",
		  "Param type doesn't match synthetic event field type" },
		{ "h_end", "hist:keys=common_pid:onmatch(kprobes.h_start).trace(sort_lat,$nope)",
		  "Couldn't find param" },
		{ "h_end", "hist:keys=common_pid:x=common_pid:onmax(x).save(common_pid)",
		  "For onmax(x) or onchange(x), x must be a variable" },
		{ "h_end", "hist:keys=common_pid:onmax($nope).save(common_pid)",
		  "Couldn't find onmax or onchange variable" },
		{ "h_end", "hist:keys=common_pid:t=common_timestamp-$ts0", "Timestamp units in expression don't match" },
		{ "h_end", "hist:keys=common_pid:t=common_timestamp:clock=local", "Couldn't set trace_clock" },
		{ "h_start", "hist:keys=common_pid:ts0=common_pid", "Variable already defined" },
		{ "h_end", "hist:keys=common_pid:x=n", "Couldn't find field" },
		{ "h_end", "hist:keys=common_pid:x=comm+1", "Couldn't find field" },	/* 6.1: no size */
	};
	char path[128], line[160];

	wr_append(T("synthetic_events"), "sort_lat u64 lat; pid_t pid\n");
	wr(START("trigger"), "hist:keys=common_pid:ts0=common_timestamp.usecs\n");
	wr_append(END("trigger"), "hist:keys=common_pid:lat=common_timestamp-$nosuch\n");
	/* $nosuch: "Couldn't find variable" at nosuch, then at $nosuch as a field, as Linux */
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "error: Couldn't find variable\n"
		"  Command: hist:keys=common_pid:lat=common_timestamp-$nosuch\n"
		"                                                      ^\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "error: Couldn't find field\n"
		"  Command: hist:keys=common_pid:lat=common_timestamp-$nosuch\n"
		"                                                     ^\n") != NULL);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char subsys[32];

		snprintf(path, sizeof(path), TRACEFS_DIR "/events/kprobes/%s/trigger", bad[i].event);
		snprintf(line, sizeof(line), "%s\n", bad[i].cmd);
		snprintf(subsys, sizeof(subsys), "hist:kprobes:%s", bad[i].event);
		KTEST_EXPECT_EQ(t, wr_append(path, line), -EINVAL);
		KTEST_EXPECT_TRUE(t, logged(subsys, bad[i].msg, bad[i].cmd));
	}
	/* a field made a variable has no sign: common_pid fits "int pid", not "pid_t pid" */
	KTEST_EXPECT_EQ(t, wr_append(END("trigger"), "hist:keys=common_pid:onmatch(kprobes.h_start)"
				     ".trace(sort_lat,$ts0,common_pid)\n"), -EINVAL);
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:h_end", "Param type doesn't match synthetic event field type",
				    "hist:keys=common_pid:onmatch(kprobes.h_start).trace(sort_lat,$ts0,common_pid)"));
	rd(END("trigger"));		/* none of them was added */
	KTEST_EXPECT_EQ(t, strncmp(out, "# Available triggers:", 21), 0);
}

/* "cpu" is Linux 6.1's generic cpu field: a hist reads it as common_cpu, and prints it so. */
static void cpu_is_common_cpu(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr(START("trigger"), "hist:keys=cpu\n"), 0);
	rd(START("trigger"));
	KTEST_EXPECT_STREQ(t, out, "hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	run("run sort 3");
	rd(START("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "{ common_cpu:          ") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(START("trigger"), "!hist:keys=cpu\n"), 0);
	rd(START("trigger"));
	KTEST_EXPECT_EQ(t, strncmp(out, "# Available triggers:", 21), 0);
}

/* ---- name=: one table for every trigger of a name ---------------------------------------------- */

#define NF_A(name)  TRACEFS_DIR "/events/kprobes/nf_a/" name
#define NF_B(name)  TRACEFS_DIR "/events/kprobes/nf_b/" name
#define SHARED      "hist:name=shared:keys=n"
#define SHARED_INFO "# trigger info: hist:name=shared:keys=n:vals=hitcount:sort=hitcount:size=2048 [active]\n"

/* fib's and sort_ints' n, both u32: compatible keys on two events */
static void add_fib_and_sort_events(void)
{
	wr_append(T("kprobe_events"), "p:nf_a fib n=$arg1\n");
	wr_append(T("kprobe_events"), "p:nf_b sort_ints n=$arg2\n");
}

static void named_histograms_share_one_table(struct ktest *t)
{
	add_fib_and_sort_events();
	KTEST_EXPECT_EQ(t, wr_append(NF_A("trigger"), SHARED "\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), SHARED ":size=4096\n"), 0);	/* the table's size */
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), SHARED "\n"), -EEXIST);
	run("run fib 3");		/* n = 3, 2, 1, 0, 1 */
	run("run sort 7");
	rd(NF_B("trigger"));
	KTEST_EXPECT_STREQ(t, out, SHARED ":vals=hitcount:sort=hitcount:size=2048 [active]\n");
	for (int e = 0; e < 2; e++) {		/* each event's hist file prints the one table */
		rd(e ? NF_B("hist") : NF_A("hist"));
		KTEST_EXPECT_TRUE(t, strstr(out, SHARED_INFO) != NULL);
		KTEST_EXPECT_TRUE(t, strstr(out, "{ n:          1 } hitcount:          2\n") != NULL);
		KTEST_EXPECT_TRUE(t, strstr(out, "{ n:          7 } hitcount:          1\n") != NULL);
		KTEST_EXPECT_TRUE(t, strstr(out, "Hits: 6\n    Entries: 5\n") != NULL);
	}
	/* the first one gone, the table stays for the other; a new one joins it */
	KTEST_EXPECT_EQ(t, wr_append(NF_A("trigger"), "!" SHARED "\n"), 0);
	rd(NF_A("hist"));
	KTEST_EXPECT_STREQ(t, out, "");
	run("run sort 7");
	rd(NF_B("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n:          7 } hitcount:          2\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n:          3 } hitcount:          1\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(NF_A("trigger"), SHARED " if n == 2\n"), 0);
	run("run fib 2");		/* n = 2 counted, 1 and 0 filtered out */
	rd(NF_A("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "# trigger info: hist:name=shared:keys=n:vals=hitcount:"
				      "sort=hitcount:size=2048 if n == 2 [active]\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "{ n:          2 } hitcount:          2\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "Hits: 8\n") != NULL);
	/* :clear on one clears the table of all; :pause pauses that event's alone */
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), SHARED ":clear\n"), 0);
	rd(NF_A("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "Hits: 0\n    Entries: 0\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), SHARED ":pause\n"), 0);
	run("run sort 7");
	run("run fib 2");
	rd(NF_A("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "Hits: 1\n") != NULL);
	rd(NF_B("trigger"));
	KTEST_EXPECT_TRUE(t, strstr(out, "[paused]\n") != NULL);
	/* an unnamed trigger alike is another table, and does not remove a named one */
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), "hist:keys=n\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), "!hist:keys=n\n"), 0);
	rd(NF_B("trigger"));
	KTEST_EXPECT_EQ(t, count(out, "hist:name=shared"), 1);
}

static void named_mismatch_is_refused(struct ktest *t)
{
	static const char *const bad[] = {
		SHARED ":vals=n", "hist:name=shared:keys=common_pid", "hist:name=shared:keys=n:sort=n",
		"hist:name=shared:keys=n.hex", "hist:name=shared:keys=n:x=n" };
	char line[128];

	add_fib_and_sort_events();
	wr_append(T("kprobe_events"), "p:nf_c fib n=$arg1:s32\n");	/* n of another type */
	KTEST_EXPECT_EQ(t, wr_append(NF_A("trigger"), SHARED "\n"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(line, sizeof(line), "%s\n", bad[i]);
		KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), line), -EINVAL);
		KTEST_EXPECT_TRUE(t, logged("hist:kprobes:nf_b", "Named hist trigger doesn't match "
					    "existing named trigger (includes variables)", bad[i]));
	}
	rd(T("error_log"));		/* the caret under name= */
	KTEST_EXPECT_TRUE(t, strstr(out, "  Command: hist:name=shared:keys=n:x=n\n"
				      "                ^\n") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(TRACEFS_DIR "/events/kprobes/nf_c/trigger", SHARED "\n"), -EINVAL);
	rd(NF_B("trigger"));
	KTEST_EXPECT_EQ(t, strncmp(out, "# Available triggers:", 21), 0);
}

/* ---- stacktrace keys ----------------------------------------------------------------------- */

static void stacktrace_keys_print_the_calls(struct ktest *t)
{
	const char *p;
	int entries;

	add_fib_and_sort_events();
	KTEST_EXPECT_EQ(t, wr_append(NF_A("trigger"), "hist:keys=stacktrace\n"), 0);
	run("run fib 2");		/* fib(2) from run_fib, fib(1) and fib(0) from two calls in fib */
	rd(NF_A("trigger"));
	KTEST_EXPECT_STREQ(t, out, "hist:keys=stacktrace:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	rd(NF_A("hist"));
	p = strstr(out, "Entries: ");
	entries = p ? p[9] - '0' : -1;
	KTEST_EXPECT_EQ(t, entries, 3);	/* three call sites, three stacks */
	KTEST_EXPECT_EQ(t, count(out, "{ stacktrace:\n         fib+0x"), 3);
	KTEST_EXPECT_EQ(t, count(out, "\n} hitcount:          1\n"), 3);
	KTEST_EXPECT_EQ(t, count(out, "         run_fib+0x"), 3);
	KTEST_EXPECT_TRUE(t, strstr(out, "Hits: 3\n") != NULL);
	/* as Linux 6.1: the word alone is the stack; with a modifier it names a field */
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), "hist:keys=stacktrace.hex\n"), -EINVAL);
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:nf_b", "Couldn't find field", "hist:keys=stacktrace.hex"));
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), "hist:keys=n:vals=stacktrace\n"), -EINVAL);
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:nf_b", "Couldn't find field", "hist:keys=n:vals=stacktrace"));
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), "hist:keys=stacktrace:sort=stacktrace\n"), -EINVAL);
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:nf_b", "Sort field must be a key or a val",
				    "hist:keys=stacktrace:sort=stacktrace"));
	KTEST_EXPECT_EQ(t, wr_append(NF_B("trigger"), "hist:keys=stacktrace,n\n"), 0);
	wr(END("enable"), "0\n");	/* h_end's return hook would stand for run_sort in the stack */
	run("run sort 4");
	rd(NF_B("hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "         run_sort+0x") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "\n, n:          4} hitcount:          1\n") != NULL);
}

/* ---- string variables ------------------------------------------------------------------ */

#define S_START(name) TRACEFS_DIR "/events/kprobes/s_start/" name
#define S_END(name)   TRACEFS_DIR "/events/kprobes/s_end/" name
#define WHO(name)     TRACEFS_DIR "/events/synthetic/who_lat/" name

/* A task's name into a variable, and from there into a synthetic event's char[] (Linux 6.1). */
static void string_variables_reach_a_synthetic_event(struct ktest *t)
{
	char want[96];

	wr_append(T("kprobe_events"), "p:s_start sort_ints n=$arg2:s32 cm=$comm\n");
	wr_append(T("kprobe_events"), "r:s_end sort_ints\n");
	wr_append(T("synthetic_events"), "who_lat u64 lat; char who[]; int n\n");
	wr_append(T("synthetic_events"), "who16 u64 lat; char who[16]\n");
	KTEST_EXPECT_EQ(t, wr(S_START("trigger"),
			      "hist:keys=common_pid:ts0=common_timestamp.usecs:c0=cm:n0=n\n"), 0);
	/* a kprobe's string is a __data_loc char[]: it fits char[], not char[16] (Linux's check) */
	KTEST_EXPECT_EQ(t, wr(S_END("trigger"), "hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(kprobes.s_start).trace(who16,$lat,$c0)\n"), -EINVAL);
	KTEST_EXPECT_TRUE(t, logged("hist:kprobes:s_end", "Param type doesn't match synthetic event field type",
		"hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(kprobes.s_start).trace(who16,$lat,$c0)"));
	KTEST_EXPECT_EQ(t, wr(S_END("trigger"), "hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(kprobes.s_start).trace(who_lat,$lat,$c0,$n0)\n"), 0);
	KTEST_EXPECT_EQ(t, wr(WHO("trigger"), "hist:keys=who,n\n"), 0);
	wr(WHO("enable"), "1\n");
	wr(T("trace"), "\n");
	run("run sort 12");
	rd(T("trace"));
	snprintf(want, sizeof(want), " who=%s n=12\n", task_name(current));
	KTEST_EXPECT_EQ(t, count(out, " who_lat: lat="), 1);
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	rd(WHO("hist"));		/* the record's string, a key there */
	snprintf(want, sizeof(want), "{ who: %-50s, n:         12 } hitcount:          1\n",
		 task_name(current));
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	/* an event's own field named comm is that field, not the generic comm (Linux's lookup order) */
	wr_append(T("kprobe_events"), "p:s_own sort_ints comm=$comm\n");
	KTEST_EXPECT_EQ(t, wr(TRACEFS_DIR "/events/kprobes/s_own/trigger", "hist:keys=common_pid:x=comm\n"), 0);
	KTEST_EXPECT_EQ(t, wr_append(TRACEFS_DIR "/events/kprobes/s_own/trigger", "hist:keys=comm\n"), 0);
	/* .save() keeps a string field too, printed as Linux prints it (a one-letter param is not one) */
	KTEST_EXPECT_EQ(t, wr_append(S_START("trigger"),
				     "hist:keys=n:t=common_timestamp:onchange($t).save(cm)\n"), 0);
	run("run sort 5");
	rd(S_START("hist"));
	snprintf(want, sizeof(want), "  cm: %-32s\n", task_name(current));
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
}

/* common_pid.execname in a variable is the task's name, a char[] (Linux's update_var_execname()) */
static void execname_variable_is_a_string(struct ktest *t)
{
	char want[96];

	wr_append(T("kprobe_events"), "p:s_start sort_ints n=$arg2:s32\n");
	wr_append(T("kprobe_events"), "r:s_end sort_ints\n");
	wr_append(T("synthetic_events"), "who_lat u64 lat; char who[]; int n\n");
	KTEST_EXPECT_EQ(t, wr(S_START("trigger"), "hist:keys=common_pid:ts0=common_timestamp.usecs:"
			      "e0=common_pid.execname:n0=n\n"), 0);
	KTEST_EXPECT_EQ(t, wr(S_END("trigger"), "hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(kprobes.s_start).trace(who_lat,$lat,$e0,$n0)\n"), 0);
	wr(WHO("enable"), "1\n");
	wr(T("trace"), "\n");
	run("run sort 9");
	rd(T("trace"));
	snprintf(want, sizeof(want), " who=%s n=9\n", task_name(current));
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
}

/* ---- README: each hist line it adds names what is here ------------------------------------------- */

static void readme_hist_lines_work(struct ktest *t)
{
	static const char *const lines[] = {
		"  events/synthetic_events\t- Create/append/remove/show synthetic events\n",
		"\t\t    enable_hist:<system>:<event>\n", "\t\t    disable_hist:<system>:<event>\n",
		"[:<var1>=<field|var_ref|numeric_literal>[,<var2>=...]]", "[:<handler>.<action>]",
		"common_timestamp - to record current timestamp", "common_cpu - to record the CPU",
		".sym-offset display", ".execname   display", ".log2       display",
		".buckets=size  display", ".usecs      display", "onmatch(matching.event)",
		"onmax(var)", "onchange(var)", "trace(<synthetic_event>,param list)", "save(field,...)",
		"snapshot()                           - snapshot the trace buffer" };
	/* what those lines promise, tried */
	static const char *const start[] = {
		"hist:keys=common_pid:x=common_timestamp,y=$x,ms_per_sec=1000,t=common_timestamp/1000",
		"hist:keys=common_cpu:vals=n", "hist:keys=__probe_ip.sym-offset",
		"hist:keys=common_pid.execname", "hist:keys=n.log2", "hist:keys=n.buckets=10",
		"hist:keys=common_pid:u=common_timestamp.usecs", "enable_hist:kprobes:h_end",
		"hist:keys=stacktrace", "hist:name=histname1:keys=n" };
	static const char *const end[] = {
		"hist:keys=common_pid:l=common_timestamp-$x:onmatch(kprobes.h_start).trace(myevent,$l,common_pid)",
		"hist:keys=common_pid:m=common_timestamp-$x:onmax($m).save(common_pid)",
		"hist:keys=common_pid:c=common_timestamp-$x:onchange($c).snapshot()",
		"disable_hist:kprobes:h_start" };
	char line[192];

	rd(T("README"));
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		KTEST_EXPECT_TRUE(t, strstr(out, lines[i]) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "example: echo 'myevent u64 lat; char name[]' >> synthetic_events"));
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "myevent2 u64 lat; char name[]\n"), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "[:name=histname1]") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "the special string 'stacktrace'") != NULL);
	KTEST_EXPECT_EQ(t, wr_append(T("synthetic_events"), "myevent u64 lat; int pid\n"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(start); i++) {
		snprintf(line, sizeof(line), "%s\n", start[i]);
		KTEST_EXPECT_EQ(t, wr_append(START("trigger"), line), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(end); i++) {
		snprintf(line, sizeof(line), "%s\n", end[i]);
		KTEST_EXPECT_EQ(t, wr_append(END("trigger"), line), 0);
	}
}

static struct ktest_case hist_cases[] = {
	KTEST_CASE(synthetic_events_define_list_remove),
	KTEST_CASE(synthetic_format_is_linux_layout),
	KTEST_CASE(synthetic_events_errors),
	KTEST_CASE(synthetic_string_fields),
	KTEST_CASE(synthetic_events_in_dynamic_events),
	KTEST_CASE(latency_through_a_synthetic_event),
	KTEST_CASE(what_is_used_cannot_go),
	KTEST_CASE(onmax_saves_fields),
	KTEST_CASE(onmax_takes_a_snapshot),
	KTEST_CASE(key_modifiers_print_as_linux),
	KTEST_CASE(syscall_key_modifier),
	KTEST_CASE(expressions_compute),
	KTEST_CASE(disable_and_enable_hist),
	KTEST_CASE(hist_errors_as_linux),
	KTEST_CASE(cpu_is_common_cpu),
	KTEST_CASE(named_histograms_share_one_table),
	KTEST_CASE(named_mismatch_is_refused),
	KTEST_CASE(stacktrace_keys_print_the_calls),
	KTEST_CASE(string_variables_reach_a_synthetic_event),
	KTEST_CASE(execname_variable_is_a_string),
	KTEST_CASE(readme_hist_lines_work),
	KTEST_END
};

static struct ktest_suite hist_suite = {
	.name = "hist",
	.cases = hist_cases,
	.init = hist_init,
	.exit = hist_exit,
};
KTEST_SUITE(hist_suite);
