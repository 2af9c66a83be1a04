/*
 * test_eprobe_events.c - event probe lines (lib/probe_events_parse.c's
 * eprobe_event_parse(), lib/fetch_args.c's $FIELD): every form, every
 * error with its caret position (the cases of Linux 6.1's selftest
 * eprobes_syntax_errors.tc, on this kernel's syscalls/sys_enter_open),
 * the dynamic_events listing, the "-:" match, and $FIELD fetched from a
 * fake attached record.
 */
#include "ktest_host.h"
#include "errno.h"
#include "vsprintf.h"
#include "probe_events.h"

static struct probe_event_def def;
static struct probe_parse_error err;

/* ---- a fake kernel: one attachable event and its fields ----------------------------- */

enum { F_SYSCALL_NR = 8, F_FILENAME, F_FLAGS, F_MODE };	/* after 8 common fields */

static bool fake_event_exists(const char *system, const char *event)
{
	return !strcmp(system, "syscalls") && !strcmp(event, "sys_enter_open");
}

static int fake_event_field(const char *system, const char *event, const char *name)
{
	static const char *const names[] = { "__syscall_nr", "filename", "flags", "mode" };

	if (!fake_event_exists(system, event))
		return -1;
	for (int i = 0; i < (int)ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return F_SYSCALL_NR + i;
	return -1;
}

static bool fake_filter_ok(const char *system, const char *event, const char *filter)
{
	return strcmp(filter, "bad filter") != 0;
}

static const struct probe_parse_ops ops = {
	.event_exists = fake_event_exists,
	.event_field = fake_event_field,
	.filter_ok = fake_filter_ok,
};

static int parse(const char *text)
{
	return eprobe_event_parse(text, strlen(text), &ops, &def, &err);
}

/* ---- the forms ----------------------------------------------------------------------- */

static void names_and_defaults(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("e:myopen syscalls.sys_enter_open"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_ADD);
	KTEST_EXPECT_TRUE(t, def.eprobe);
	KTEST_EXPECT_STREQ(t, def.group, "eprobes");
	KTEST_EXPECT_STREQ(t, def.event, "myopen");
	KTEST_EXPECT_STREQ(t, def.ep_system, "syscalls");
	KTEST_EXPECT_STREQ(t, def.ep_event, "sys_enter_open");
	KTEST_EXPECT_EQ(t, def.nr_args, 0);
	/* No name: the attached event's; SYSTEM/EVENT as well as SYSTEM.EVENT. */
	KTEST_ASSERT_EQ(t, parse("e syscalls/sys_enter_open"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "sys_enter_open");
	KTEST_ASSERT_EQ(t, parse("e:grp/ syscalls.sys_enter_open"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "sys_enter_open");
	KTEST_ASSERT_EQ(t, parse("e:grp.ev syscalls.sys_enter_open"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "ev");
	/* Linux reads the name after the first ':' of the word, whatever precedes it. */
	KTEST_ASSERT_EQ(t, parse("ex:myopen syscalls.sys_enter_open"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "myopen");
	KTEST_ASSERT_EQ(t, parse("  # only a comment"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_NONE);
}

static void fields_as_arguments(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("e:myopen syscalls.sys_enter_open file=+0($filename):ustring "
				 "$flags m=$mode:x16 c=$comm n=\\7 nr=$__syscall_nr:s32"), 0);
	KTEST_ASSERT_EQ(t, def.nr_args, 6);
	KTEST_EXPECT_EQ(t, def.args[0].type, FETCH_TYPE_USTRING);
	KTEST_EXPECT_EQ(t, def.args[0].nr_ops, 2);
	KTEST_EXPECT_EQ(t, def.args[0].ops[0].code, FETCH_OP_TP_ARG);
	KTEST_EXPECT_EQ(t, def.args[0].ops[0].param, F_FILENAME);
	KTEST_EXPECT_EQ(t, def.args[0].ops[1].code, FETCH_OP_DEREF);
	KTEST_EXPECT_STREQ(t, def.args[1].name, "arg2");
	KTEST_EXPECT_EQ(t, def.args[1].type, FETCH_TYPE_DEFAULT);
	KTEST_EXPECT_EQ(t, def.args[1].ops[0].param, F_FLAGS);
	KTEST_EXPECT_EQ(t, def.args[2].type, FETCH_TYPE_X16);
	/* no field called comm: the task's name, a string */
	KTEST_EXPECT_EQ(t, def.args[3].ops[0].code, FETCH_OP_COMM);
	KTEST_EXPECT_EQ(t, def.args[3].type, FETCH_TYPE_STRING);
	KTEST_EXPECT_EQ(t, def.args[4].ops[0].code, FETCH_OP_IMM);
	KTEST_EXPECT_EQ(t, def.args[5].ops[0].param, F_SYSCALL_NR);
	/* A field may be read as a string: its text. */
	KTEST_ASSERT_EQ(t, parse("e syscalls.sys_enter_open f=$filename:string"), 0);
	KTEST_EXPECT_EQ(t, def.args[0].ops[0].code, FETCH_OP_TP_ARG);
}

static void filter_after_if(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("e:o syscalls.sys_enter_open $flags   if flags  >  1 && mode == 0"), 0);
	KTEST_EXPECT_EQ(t, def.nr_args, 1);
	KTEST_EXPECT_STREQ(t, def.ep_filter, "flags > 1 && mode == 0");
	KTEST_ASSERT_EQ(t, parse("e:o syscalls.sys_enter_open if flags == 1"), 0);
	KTEST_EXPECT_EQ(t, def.nr_args, 0);
	KTEST_EXPECT_STREQ(t, def.ep_filter, "flags == 1");
	KTEST_ASSERT_EQ(t, parse("e:o syscalls.sys_enter_open $flags"), 0);
	KTEST_EXPECT_STREQ(t, def.ep_filter, "");
}

static void delete_lines(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("-:eprobes/myopen"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_DELETE);
	KTEST_EXPECT_STREQ(t, def.group, "eprobes");
	KTEST_EXPECT_STREQ(t, def.event, "myopen");
	KTEST_ASSERT_EQ(t, parse("-:myopen syscalls/sys_enter_open"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "myopen");
}

/* Linux's eprobe_dyn_event_match(): the attached event, then the arguments as listed. */
static void delete_matches_the_probe(struct ktest *t)
{
	static const char *const yes[] = { "-:myopen", "-:myopen syscalls/sys_enter_open",
		"-:eprobes/myopen syscalls.sys_enter_open",
		"-:myopen syscalls/sys_enter_open file=+0($filename):ustring" };
	static const char *const no[] = { "-:myopen syscalls/sys_enter_close",
		"-:myopen sys_enter_open", "-:myopen syscalls.sys_enter_open x=$flags",
		"-:myopen syscalls.sys_enter_open file=+0($filename):ustring extra" };

	KTEST_ASSERT_EQ(t, parse("e:myopen syscalls.sys_enter_open file=+0($filename):ustring"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		KTEST_EXPECT_TRUE(t, probe_event_match(&def, yes[i], strlen(yes[i])));
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		KTEST_EXPECT_FALSE(t, probe_event_match(&def, no[i], strlen(no[i])));
}

/* dynamic_events' row, Linux's: the group always, SYSTEM.EVENT, no filter. */
static void listing_as_linux(struct ktest *t)
{
	char buf[256];

	KTEST_ASSERT_EQ(t, parse("e syscalls/sys_enter_open $flags f=+0($filename):ustring if mode > 1"), 0);
	probe_event_show(buf, sizeof(buf), &def);
	KTEST_EXPECT_STREQ(t, buf, "e:eprobes/sys_enter_open syscalls.sys_enter_open "
			   "arg1=$flags f=+0($filename):ustring");
}

/* ---- every error, with its caret ------------------------------------------------------ */

struct bad_line {
	const char *text;
	enum probe_err code;
	int pos;
};

#define LONG65 "12345678901234567890123456789012345678901234567890123456789012345"
static const struct bad_line bad_lines[] = {
	{ "e a.",                     PROBE_ERR_NO_EVENT_INFO, 2 },
	{ "e .b",                     PROBE_ERR_NO_EVENT_INFO, 2 },
	{ "e ab",                     PROBE_ERR_NO_EVENT_INFO, 2 },
	{ "e a.b.c",                  PROBE_ERR_NO_EVENT_INFO, 2 },
	{ "e a.b",                    PROBE_ERR_BAD_ATTACH_EVENT, 2 },
	{ "e syscalls/sys_enter_open foo",        PROBE_ERR_BAD_FETCH_ARG, 26 },
	{ "e:/bar syscalls/sys_enter_open",       PROBE_ERR_NO_GROUP_NAME, 2 },
	{ "e:" LONG65 "/bar syscalls/sys_enter_open", PROBE_ERR_GROUP_TOO_LONG, 2 },
	{ "e:foo.1/bar syscalls/sys_enter_open",  PROBE_ERR_BAD_GROUP_NAME, 2 },
	{ "e: syscalls/sys_enter_open",           PROBE_ERR_NO_EVENT_NAME, 2 },
	{ "e:foo/" LONG65 " syscalls/sys_enter_open", PROBE_ERR_EVENT_TOO_LONG, 6 },
	{ "e:foo/bar.1 syscalls/sys_enter_open",  PROBE_ERR_BAD_EVENT_NAME, 6 },
	{ "e:foo/bar syscalls/sys_enter_open arg=dfd",  PROBE_ERR_BAD_FETCH_ARG, 38 },
	{ "e:foo/bar syscalls/sys_enter_open arg=$foo", PROBE_ERR_BAD_ATTACH_ARG, 34 },
	{ "e:foo/bar syscalls/sys_enter_open if",       PROBE_ERR_NO_EP_FILTER, 37 },
	/* registers, $retval, $stack, $argN: no field of the event */
	{ "e syscalls.sys_enter_open x=%ax",       PROBE_ERR_BAD_FETCH_ARG, 28 },
	{ "e syscalls.sys_enter_open $retval",     PROBE_ERR_BAD_ATTACH_ARG, 26 },
	{ "e syscalls.sys_enter_open x=$stack",    PROBE_ERR_BAD_ATTACH_ARG, 26 },
	{ "e syscalls.sys_enter_open $arg1",       PROBE_ERR_BAD_ATTACH_ARG, 26 },
	{ "e syscalls.sys_enter_open +0($nosuch)", PROBE_ERR_BAD_ATTACH_ARG, 26 },
	/* the type is checked before the field, as Linux does */
	{ "e syscalls.sys_enter_open $nosuch:u3",  PROBE_ERR_BAD_TYPE, 34 },
	{ "e syscalls.sys_enter_open @+10",        PROBE_ERR_FILE_ON_KPROBE, 26 },
	{ "e syscalls.sys_enter_open f=$flags f=$mode", PROBE_ERR_USED_ARG_NAME, 35 },
	{ "e syscalls.sys_enter_open common_pid=$flags", PROBE_ERR_USED_ARG_NAME, 26 },
	/* the attached event is looked up before the filter, the filter before the args */
	{ "e a.b x=%ax if",                        PROBE_ERR_BAD_ATTACH_EVENT, 2 },
	{ "e syscalls.sys_enter_open x=%ax if",    PROBE_ERR_NO_EP_FILTER, 35 },
};

static void every_bad_line(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_lines); i++) {
		const struct bad_line *b = &bad_lines[i];

		KTEST_EXPECT_EQ(t, parse(b->text), -EINVAL);
		if (err.code != b->code || err.pos != b->pos)
			ktest_fail(t, __FILE__, __LINE__,
				   "\"%s\": got %s (%d) at %d, want %s (%d) at %d",
				   b->text, probe_err_msg(err.code), err.code, err.pos,
				   probe_err_msg(b->code), b->code, b->pos);
		KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_NONE);
		KTEST_EXPECT_EQ(t, def.nr_args, 0);
	}
}

/* Refused with nothing to log: the kernel's filter says why; one word is no eprobe. */
static void refused_without_a_message(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("e:o syscalls.sys_enter_open $flags if bad   filter"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_NONE);
	KTEST_EXPECT_EQ(t, parse("e:o"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_NONE);
}

/* Linux's caret for a missing filter: one blank past the "if". */
static void no_filter_caret(struct ktest *t)
{
	const char *text = "e:foo/bar syscalls/sys_enter_open if";
	char buf[256];

	KTEST_ASSERT_EQ(t, parse(text), -EINVAL);
	probe_err_format(buf, sizeof(buf), text, strlen(text), &err);
	/* the text before Linux's selftest's ^ is "...sys_enter_open if ": 37 bytes */
	KTEST_EXPECT_STREQ(t, buf, "  Command: e:foo/bar syscalls/sys_enter_open if\n"
			   "           " "                                     ^\n");
}

/* ---- fetching a field of the attached record ---------------------------------------- */

static const char path[] = "/bin/hello";

static unsigned long fake_record_field(const void *ctx, unsigned long field)
{
	const unsigned long *values = ctx;

	return values[field - F_SYSCALL_NR];
}

static long host_read(void *dst, const void *src, size_t size)
{
	memcpy(dst, src, size);
	return 0;
}

static void fetch_fields(struct ktest *t)
{
	unsigned long values[] = { 5, (unsigned long)path, 0x42, 0x1ed };
	struct fetch_ops fops = { .read_mem = host_read, .read_user = host_read,
				  .event_field = fake_record_field, .ctx = values };
	struct fetch_value v;
	char s[32];

	KTEST_ASSERT_EQ(t, parse("e syscalls.sys_enter_open $flags f=$filename:string "
				 "m=$mode:u8 c=+1($filename):u8"), 0);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[0], NULL, &fops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x42);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[1], NULL, &fops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.str_len, strlen(path));
	KTEST_EXPECT_EQ(t, memcmp(s, path, v.str_len), 0);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[2], NULL, &fops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0xed);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[3], NULL, &fops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 'b');
	/* No record to read: the fetch faults, it does not crash. */
	fops.event_field = NULL;
	KTEST_EXPECT_EQ(t, fetch_arg_exec(&def.args[0], NULL, &fops, &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_TRUE(t, v.fault);
}

static struct ktest_case cases[] = {
	KTEST_CASE(names_and_defaults),
	KTEST_CASE(fields_as_arguments),
	KTEST_CASE(filter_after_if),
	KTEST_CASE(delete_lines),
	KTEST_CASE(delete_matches_the_probe),
	KTEST_CASE(listing_as_linux),
	KTEST_CASE(every_bad_line),
	KTEST_CASE(refused_without_a_message),
	KTEST_CASE(no_filter_caret),
	KTEST_CASE(fetch_fields),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
