/*
 * test_eprobes.c - suite "eprobes": event probes (kernel/trace/trace_eprobe.c)
 * and the syscalls/ events they attach to (kernel/trace/trace_syscalls.c),
 * each checked against Linux 6.1: the format files, the trace lines, the
 * dynamic_events row, the ways to remove one (Linux's selftest
 * add_remove_eprobe.tc), each error with its errno and error_log caret
 * (eprobes_syntax_errors.tc), and the attached event's soft mode.  The
 * workload is the user program cat, which open()s the file it is given
 * (O_RDONLY: flags 0), read()s it and write()s it out.
 */
#include "ktest.h"
#include "pseudofs.h"
#include "process.h"
#include "trace.h"
#include "trace_events.h"
#include "seq_buf.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "tracefs_suite.h"

#define T(name)    TRACEFS_DIR "/" name
#define SYS(name)  TRACEFS_DIR "/events/syscalls/" name
#define EP(name)   TRACEFS_DIR "/events/eprobes/" name
#define CAT_FILE   "/sys/kernel/debug/kprobes/enabled"

/* Clear the trace, run `cat CAT_FILE` in ring 3, read the trace. */
static int run_cat(void)
{
	const char *argv[] = { "cat", CAT_FILE };
	struct task_struct *p;
	int err, status;

	wr(T("trace"), "\n");
	p = process_spawn("cat", argv, 2, &err);
	status = p ? process_wait(p) : err;
	rd(T("trace"));
	return status;
}

static void clean(void)
{
	struct trace_event_file *file;

	clear_event_triggers(&global_trace);		/* an event with a trigger is armed: it could not go */
	list_for_each_entry(file, &trace_event_files, list)
		trace_event_set_enabled(file->tp, false);
	wr(T("dynamic_events"), "\n");
	wr(T("tracing_on"), "1\n");
	wr(T("error_log"), "\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
}

static int eprobes_init(struct ktest *t)
{
	tracefs_init();
	clean();
	return 0;
}

static void eprobes_exit(struct ktest *t)
{
	clean();
}

/* ---- the syscalls/ events --------------------------------------------------------------- */

/* Linux i386's layout: a long per argument after __syscall_nr, and "0x%04lx". */
static void syscall_formats_as_linux(struct ktest *t)
{
	rd(SYS("sys_enter_open/format"));
	KTEST_EXPECT_EQ(t, strncmp(out, "name: sys_enter_open\nID: ", 25), 0);
	KTEST_EXPECT_TRUE(t, strstr(out,
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:const char * filename;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:int flags;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:int mode;\toffset:20;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"filename: 0x%04lx, flags: 0x%04lx, mode: 0x%04lx\", "
		"((unsigned long)(REC->filename)), ((unsigned long)(REC->flags)), "
		"((unsigned long)(REC->mode))\n") != NULL);
	rd(SYS("sys_exit_open/format"));
	KTEST_EXPECT_TRUE(t, strstr(out,
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:long ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"0x%lx\", REC->ret\n") != NULL);
	rd(SYS("sys_enter_getpid/format"));
	KTEST_EXPECT_TRUE(t, strstr(out, "print fmt: \"\"\n") != NULL);
	rd(T("available_events"));
	KTEST_EXPECT_TRUE(t, strstr(out, "syscalls:sys_enter_open\nsyscalls:sys_exit_open\n") != NULL);
}

/* "sys_open(filename: bfff..., flags: 0, mode: 0)" and "sys_open -> 0x3", Linux's. */
static void syscall_events_record(struct ktest *t)
{
	wr(SYS("sys_enter_open/enable"), "1\n");
	wr(SYS("sys_exit_open/enable"), "1\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, " cat-"), 2);
	KTEST_EXPECT_TRUE(t, strstr(out, ": sys_open(filename: ") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, ", flags: 0, mode: 0)\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, ": sys_open -> 0x3\n") != NULL);
	/* Their filter files know the fields. */
	KTEST_EXPECT_EQ(t, wr(SYS("sys_exit_open/filter"), "ret < 0\n"), 0);
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, "sys_open -> "), 0);
	KTEST_EXPECT_EQ(t, wr(SYS("sys_exit_open/filter"), "0\n"), 0);
	wr(SYS("enable"), "0\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, " cat-"), 0);
	/* A static event is no dynamic event: "-:" does not reach it. */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:sys_enter_open\n"), -ENOENT);
}

/* ---- event probes ----------------------------------------------------------------------- */

#define EP_LINE "e:myopen syscalls/sys_enter_open file=+0($filename):ustring"

static void define_list_and_files(struct ktest *t)
{
	struct seq_buf s;

	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), EP_LINE " fl=$flags c=$comm\n"), 0);
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "e:eprobes/myopen syscalls.sys_enter_open "
			   "file=+0($filename):ustring fl=$flags c=$comm\n");

	seq_buf_init(&s, out, sizeof(out));
	pseudofs_list(EP("myopen"), &s);
	KTEST_EXPECT_STREQ(t, out, "enable\nfilter\nformat\nhist\nid\ntrigger\n");
	rd(EP("myopen/format"));
	KTEST_EXPECT_EQ(t, strncmp(out, "name: myopen\nID: ", 17), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "signed:1;\n\n"
		"\tfield:__data_loc char[] file;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:u32 fl;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc char[] c;\toffset:16;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \" file=\\\"%s\\\" fl=0x%x c=\\\"%s\\\"\", __get_str(file), REC->fl, "
		"__get_str(c)\n") != NULL);
	rd(EP("myopen/enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	/* Not in kprobe_events: dynamic_events is its only file. */
	rd(T("kprobe_events"));
	KTEST_EXPECT_STREQ(t, out, "");
}

static void records_from_the_attached_event(struct ktest *t)
{
	wr_append(T("dynamic_events"), EP_LINE " fl=$flags c=$comm nr=$__syscall_nr:s32\n");
	KTEST_EXPECT_EQ(t, wr(EP("myopen/enable"), "1\n"), 0);
	/* The attached event is in soft mode: hit, but not recorded. */
	rd(SYS("sys_enter_open/enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, ": myopen: (syscalls.sys_enter_open) file=\"" CAT_FILE
				    "\" fl=0x0 c=\"cat\" nr=5\n") != NULL);
	KTEST_EXPECT_EQ(t, count(out, "sys_open("), 0);
	/* Enabled itself too, it records as well, before the event probe. */
	wr(SYS("sys_enter_open/enable"), "1\n");
	rd(SYS("sys_enter_open/enable"));
	KTEST_EXPECT_STREQ(t, out, "1*\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, ": sys_open(") < strstr(out, ": myopen: "));
	KTEST_EXPECT_EQ(t, count(out, ": myopen: "), 1);
	wr(SYS("sys_enter_open/enable"), "0\n");
	/* Disabled: the attached event leaves soft mode. */
	KTEST_EXPECT_EQ(t, wr(EP("myopen/enable"), "0\n"), 0);
	rd(SYS("sys_enter_open/enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, ": myopen: "), 0);
}

/* "if FILTER" chooses the attached records; the event probe's own files work on its own. */
static void filters_and_triggers(struct ktest *t)
{
	wr_append(T("dynamic_events"), "e:o1 syscalls.sys_enter_open fl=$flags if flags == 1\n");
	wr_append(T("dynamic_events"), "e:o0 syscalls.sys_enter_open fl=$flags if flags == 0\n");
	wr(EP("enable"), "1\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, ": o1: "), 0);
	KTEST_EXPECT_EQ(t, count(out, ": o0: (syscalls.sys_enter_open) fl=0x0\n"), 1);
	/* its own filter, on its own fields */
	KTEST_EXPECT_EQ(t, wr(EP("o0/filter"), "fl != 0\n"), 0);
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, ": o0: "), 0);
	KTEST_EXPECT_EQ(t, wr(EP("o0/filter"), "0\n"), 0);
	/* and its triggers: a hist of its own field */
	KTEST_EXPECT_EQ(t, wr(EP("o0/trigger"), "hist:keys=fl\n"), 0);
	run_cat();
	rd(EP("o0/hist"));
	KTEST_EXPECT_TRUE(t, strstr(out, "{ fl:          0 } hitcount:          1\n") != NULL);
	wr_append(EP("o0/trigger"), "!hist:keys=fl\n");
	/* enabled: not removed, EBUSY, as Linux */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:o0\n"), -EBUSY);
	KTEST_EXPECT_EQ(t, wr(T("dynamic_events"), "\n"), -EBUSY);
	wr(EP("enable"), "0\n");
}

#define FOO(name)  TRACEFS_DIR "/instances/foo/" name

/*
 * Enabled in an instance, an event probe attaches to the attached event
 * in that instance (Linux's enable_eprobe(): find_event_file(tr, ...)):
 * soft mode there, its records there; the top level's are untouched.
 */
static void attaches_in_its_own_trace_array(struct ktest *t)
{
	wr_append(T("dynamic_events"), EP_LINE "\n");
	KTEST_EXPECT_EQ(t, pseudofs_mkdir(TRACEFS_DIR "/instances/foo"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("events/eprobes/myopen/enable"), "1\n"), 0);
	rd(FOO("events/syscalls/sys_enter_open/enable"));
	KTEST_EXPECT_STREQ(t, out, "0*\n");
	rd(SYS("sys_enter_open/enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, ": myopen: "), 0);
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": myopen: (syscalls.sys_enter_open) file=\"" CAT_FILE "\""), 1);
	/* its attached event's filter and tracing_on there are the instance's */
	KTEST_EXPECT_EQ(t, wr(FOO("events/syscalls/sys_enter_open/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace"), "\n"), 0);
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": sys_open("), 1);
	KTEST_EXPECT_EQ(t, count(out, ": myopen: "), 1);
	/* enabled at the top level as well: a record in each, once */
	KTEST_EXPECT_EQ(t, wr(EP("myopen/enable"), "1\n"), 0);
	KTEST_EXPECT_EQ(t, wr(FOO("trace"), "\n"), 0);
	KTEST_EXPECT_EQ(t, run_cat(), 0);
	KTEST_EXPECT_EQ(t, count(out, ": myopen: "), 1);
	rd(FOO("trace"));
	KTEST_EXPECT_EQ(t, count(out, ": myopen: "), 1);
	wr(EP("myopen/enable"), "0\n");
	/* rmdir lets go of the attached event there: the probe can go */
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(TRACEFS_DIR "/instances/foo"), 0);
	rd(SYS("sys_enter_open/enable"));
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:myopen\n"), 0);
}

/* Linux's selftest add_remove_eprobe.tc: each way of naming it removes it. */
static void ways_to_remove(struct ktest *t)
{
	static const char *const removals[] = {
		"-:myopen\n", "-:eprobes/myopen\n", "-:eprobes/myopen syscalls/sys_enter_open\n",
		"-:myopen syscalls/sys_enter_open\n",
		"-:myopen syscalls/sys_enter_open file=+0($filename):ustring\n",
		"-:eprobes/myopen syscalls.sys_enter_open file=+0($filename):ustring\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(removals); i++) {
		KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), EP_LINE "\n"), 0);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(EP("myopen")), 2);
		KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), removals[i]), 0);
		KTEST_EXPECT_EQ(t, pseudofs_lookup(EP("myopen")), 0);
		rd(T("dynamic_events"));
		KTEST_EXPECT_STREQ(t, out, "");
	}
	/* words that do not match: not this one */
	wr_append(T("dynamic_events"), EP_LINE "\n");
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:myopen syscalls/sys_enter_close\n"),
			-ENOENT);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:myopen syscalls/sys_enter_open x=$flags\n"),
			-ENOENT);
	/* a group of its own, and "-:GROUP/" */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "e:mygroup/ syscalls/sys_enter_open\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACEFS_DIR "/events/mygroup/sys_enter_open"), 2);
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "-:mygroup/\n"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACEFS_DIR "/events/mygroup"), 0);
}

/* One error: the errno, and error_log's last entry is Linux's message with its caret. */
static void expect_error(struct ktest *t, const char *line, int errno_want, const char *msg,
			 int caret)
{
	char want[512];

	wr(T("error_log"), "\n");
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), line), errno_want);
	rd(T("error_log"));
	snprintf(want, sizeof(want), "] event_probe: error: %s\n  Command: %.*s\n%*s^\n", msg,
		 (int)strlen(line) - 1, line, 11 + caret, "");
	if (!strstr(out, want))
		ktest_fail(t, __FILE__, __LINE__, "%s: error_log is\n%s", line, out);
}

/* Linux's selftest eprobes_syntax_errors.tc, on sys_enter_open. */
static void errors_as_linux(struct ktest *t)
{
	expect_error(t, "e a.\n", -EINVAL, "This requires both group and event name to attach", 2);
	expect_error(t, "e .b\n", -EINVAL, "This requires both group and event name to attach", 2);
	expect_error(t, "e a.b\n", -ENODEV, "Attached event does not exist", 2);
	expect_error(t, "e syscalls/sys_enter_open foo\n", -EINVAL, "Invalid fetch argument", 26);
	expect_error(t, "e:/bar syscalls/sys_enter_open\n", -EINVAL, "Group name is not specified", 2);
	expect_error(t, "e:foo.1/bar syscalls/sys_enter_open\n", -EINVAL,
		     "Group name must follow the same rules as C identifiers", 2);
	expect_error(t, "e: syscalls/sys_enter_open\n", -EINVAL, "Event name is not specified", 2);
	expect_error(t, "e:foo/bar.1 syscalls/sys_enter_open\n", -EINVAL,
		     "Event name must follow the same rules as C identifiers", 6);
	expect_error(t, "e:foo/bar syscalls/sys_enter_open arg=dfd\n", -EINVAL,
		     "Invalid fetch argument", 38);
	expect_error(t, "e:foo/bar syscalls/sys_enter_open arg=$foo\n", -ENOENT,
		     "Attached event does not have this field", 34);
	expect_error(t, "e:foo/bar syscalls/sys_enter_open if\n", -EINVAL,
		     "No filter rule after 'if'", 37);
	/* $retval, $stack: names of no field (Linux 6.1 looks every $NAME up) */
	expect_error(t, "e syscalls/sys_enter_open $retval\n", -ENOENT,
		     "Attached event does not have this field", 26);
	expect_error(t, "e syscalls/sys_enter_open +0($stack)\n", -ENOENT,
		     "Attached event does not have this field", 26);
	expect_error(t, "e syscalls/sys_enter_open $nosuch:u3\n", -EINVAL,
		     "Unknown type is specified", 34);
	/* Linux 6.1 attaches no event probe to a probe's event: kprobe, uprobe, eprobe. */
	wr_append(T("kprobe_events"), "p:epfib fib\n");
	expect_error(t, "e kprobes.epfib\n", -ENODEV, "Attached event does not exist", 2);
	wr_append(T("kprobe_events"), "-:epfib\n");
	wr_append(T("dynamic_events"), EP_LINE "\n");
	expect_error(t, "e eprobes.myopen\n", -ENODEV, "Attached event does not exist", 2);
	/* A name in use, by an event probe or any event: EEXIST, not a second probe. */
	expect_error(t, EP_LINE "\n", -EEXIST,
		     "Given group/event name is already used by another event", 0);
	/* A filter that does not compile: the filter's own error. */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"),
				     "e:o syscalls.sys_enter_open if nosuch > 1\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_TRUE(t, strstr(out, "] event filter parse error: error: Field not found\n"
				    "  Command: nosuch > 1\n") != NULL);
	/* One word is no line of any kind: EINVAL, nothing logged. */
	wr(T("error_log"), "\n");
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"), "e:o\n"), -EINVAL);
	rd(T("error_log"));
	KTEST_EXPECT_STREQ(t, out, "");
	/* Nothing half-made is left by any of them. */
	rd(T("dynamic_events"));
	KTEST_EXPECT_STREQ(t, out, "e:eprobes/myopen syscalls.sys_enter_open "
			   "file=+0($filename):ustring\n");
}

/* The README names the e: form and $<efield> (a script tests for them). */
static void readme_names_eprobes(struct ktest *t)
{
	rd(T("README"));
	KTEST_EXPECT_TRUE(t, strstr(out, "\t           e[:[<group>/][<event>]] <attached-group>."
				    "<attached-event> [<args>] [if <filter>]\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "(%<register>|$<efield>)") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "\t    efield: For event probes ('e' types), the field is "
				    "on of the fields\n") != NULL);
	/* and what it shows is accepted */
	KTEST_EXPECT_EQ(t, wr_append(T("dynamic_events"),
		"e:mygroup/myev syscalls.sys_enter_open a=$flags if flags > 1\n"), 0);
}

static struct ktest_case eprobes_cases[] = {
	KTEST_CASE(syscall_formats_as_linux),
	KTEST_CASE(syscall_events_record),
	KTEST_CASE(define_list_and_files),
	KTEST_CASE(records_from_the_attached_event),
	KTEST_CASE(filters_and_triggers),
	KTEST_CASE(attaches_in_its_own_trace_array),
	KTEST_CASE(ways_to_remove),
	KTEST_CASE(errors_as_linux),
	KTEST_CASE(readme_names_eprobes),
	KTEST_END
};

static struct ktest_suite eprobes_suite = {
	.name = "eprobes",
	.cases = eprobes_cases,
	.init = eprobes_init,
	.exit = eprobes_exit,
};
KTEST_SUITE(eprobes_suite);
