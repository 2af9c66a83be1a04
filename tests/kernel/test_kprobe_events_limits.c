/*
 * test_kprobe_events_limits.c - suite "kprobe_events_limits": what a
 * kprobe_events line may ask for and what the kernel can hold.
 *
 *   - arithmetic on the numbers a user gives: SYM+offs and @SYM+offs may
 *     not wrap past 4 GiB nor leave SYM (register_kprobe()'s symbol_name
 *     + offset the same);
 *   - every length limit of the grammar at N-1, N and N+1, and what each
 *     accepted name or line becomes: a reachable enable file, a listing,
 *     a whole trace line;
 *   - events whose probed code belongs to a module: the module goes, the
 *     event can still be disabled and removed, the heap is as before, and
 *     the module coming back re-arms it.
 *
 * Driven through pseudofs as the shell's echo and cat are.
 */
#include "ktest.h"
#include "pseudofs.h"
#include "trace.h"
#include "kprobes.h"
#include "kallsyms.h"
#include "module.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "probe_events.h"
#include "pseudofs_io.h"

#define EVENTS   TRACEFS_DIR "/kprobe_events"
#define TRACE    TRACEFS_DIR "/trace"
#define ERRLOG   TRACEFS_DIR "/error_log"
#define LIST     KPROBES_DEBUG_DIR "/list"
#define KEV      TRACEFS_DIR "/events/kprobes"

#define MOD      "modtest_basic"
#define MOD_FUNC "modtest_target"

unsigned long fib(unsigned long n);	/* kernel/workloads.c */

static char out[16384];
static char line[PROBE_LINE_MAX + 64];

static int read_file(const char *path)
{
	return pseudofs_read_into(path, out, sizeof(out));
}

/* A line with a character repeated n times at its %s. */
static const char *repeat(char c, size_t n)
{
	static char buf[2][PROBE_LINE_MAX + 1];
	static int which;
	char *b = buf[which++ & 1];

	memset(b, c, n);
	b[n] = '\0';
	return b;
}

/* The line is refused with err and why in error_log; nothing changes. */
static void expect_refused(struct ktest *t, const char *text, int err, const char *why)
{
	static char before[4096];
	unsigned int regs = kprobes_nr_registered();

	read_file(EVENTS);
	strlcpy(before, out, sizeof(before));
	pseudofs_write_str(ERRLOG, "\n", true);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, text, false), err);
	read_file(ERRLOG);
	if (!strstr(out, why))
		ktest_fail(t, __FILE__, __LINE__, "error_log for '%.60s...' lacks '%s':\n%.300s",
			   text, why, out);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), regs);
	read_file(EVENTS);
	KTEST_EXPECT_STREQ(t, out, before);
}

/* Disable and remove every kprobe event. */
static void remove_all(void)
{
	pseudofs_write_str(KEV "/enable", "0\n", true);
	for (;;) {
		char path[PSEUDOFS_PATH_MAX];
		char *slash, *end;

		read_file(EVENTS);
		if (!out[0] || pseudofs_write_str(EVENTS, "\n", true) == 0)
			break;
		/* An enabled event of another group: its group file off. */
		slash = strchr(out, ':');
		end = slash ? strchr(slash, '/') : NULL;
		if (!end)
			break;
		snprintf(path, sizeof(path), TRACEFS_DIR "/events/%.*s/enable",
			 (int)(end - slash - 1), slash + 1);
		if (pseudofs_write_str(path, "0\n", true))
			break;
	}
}

static int limits_init(struct ktest *t)
{
	tracefs_init();
	remove_all();
	trace_buffer_reset(TRACE_ALL_CPUS);
	return 0;
}

static void limits_exit(struct ktest *t)
{
	remove_all();
	if (find_module(MOD))
		rmmod(MOD);
}

static unsigned long size_of(unsigned long addr)
{
	unsigned long size = 0, offset;

	kallsyms_lookup(addr, &size, &offset);
	return size;
}

/* ---- numbers ---------------------------------------------------------------------- */

/* fib + 0xfffffff8 is 8 bytes before fib on i386: never accepted. */
static void offset_wrapping_past_4g_is_refused(struct ktest *t)
{
	expect_refused(t, "p:wrap fib+4294967288\n", -EINVAL,
		       "Invalid probed address or symbol");
	expect_refused(t, "p:wrap fib+0xfffffff3\n", -EINVAL,
		       "Invalid probed address or symbol");
	expect_refused(t, "p:wrap fib+4294967295\n", -EINVAL,
		       "Invalid probed address or symbol");
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

/* fib+size is the next function's first byte: refused; fib+size-1 is fib's. */
static void offset_must_stay_inside_the_symbol(struct ktest *t)
{
	unsigned long size = size_of((unsigned long)fib);
	int ret;

	KTEST_ASSERT_TRUE(t, size > 1);
	snprintf(line, sizeof(line), "p:edge fib+%lu\n", size);
	expect_refused(t, line, -EINVAL, "Invalid probed address or symbol");
	snprintf(line, sizeof(line), "p:edge fib+%lu\n", size + 1);
	expect_refused(t, line, -EINVAL, "Invalid probed address or symbol");

	/* Inside fib: accepted, or refused only for the instruction boundary. */
	pseudofs_write_str(ERRLOG, "\n", true);
	snprintf(line, sizeof(line), "p:edge fib+%lu\n", size - 1);
	ret = pseudofs_write_str(EVENTS, line, false);
	KTEST_EXPECT_TRUE(t, ret == 0 || ret == -EILSEQ);
	read_file(ERRLOG);
	KTEST_EXPECT_TRUE(t, strstr(out, "Invalid probed address") == NULL);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:start fib+0\n", false), 0);
}

/* register_kprobe(symbol_name + offset) keeps to the symbol as well. */
static void register_kprobe_offset_inside_the_symbol(struct ktest *t)
{
	unsigned long size = size_of((unsigned long)fib);
	struct kprobe kp = { .symbol_name = "fib", .offset = 0xfffffff8u };

	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = (struct kprobe){ .symbol_name = "fib", .offset = (unsigned int)size };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	kp = (struct kprobe){ .symbol_name = "fib", .offset = (unsigned int)size + 16 };
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EINVAL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	kp = (struct kprobe){ .symbol_name = "fib" };
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	KTEST_EXPECT_EQ(t, (unsigned long)kp.addr, (unsigned long)fib);
	unregister_kprobe(&kp);
}

/* @SYM+offs reads where it says, or is refused: no wrap to below SYM. */
static void memory_offset_must_not_wrap(struct ktest *t)
{
	expect_refused(t, "p:m fib x=@fib+0xffffffff\n", -EINVAL, "Invalid probed address or symbol");
	expect_refused(t, "p:m fib x=@fib+4294967292\n", -EINVAL, "Invalid probed address or symbol");
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:m fib x=@run_fib-1:x8 y=@fib+1:x8\n", false), 0);
}

/* ---- lengths ----------------------------------------------------------------------- */

/* Group and event of 63 characters each: listed, reachable, usable. */
static void longest_names_are_reachable(struct ktest *t)
{
	const char *group = repeat('g', PROBE_NAME_LEN - 1);
	const char *event = repeat('e', PROBE_NAME_LEN - 1);
	char path[PSEUDOFS_PATH_MAX], want[PSEUDOFS_PATH_MAX];

	snprintf(line, sizeof(line), "p:%s/%s fib\n", group, event);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	snprintf(path, sizeof(path), TRACEFS_DIR "/events/%s", group);
	read_file(EVENTS);
	KTEST_EXPECT_TRUE(t, strstr(out, event) != NULL);

	{
		struct seq_buf s;

		seq_buf_init(&s, out, sizeof(out));
		KTEST_EXPECT_EQ(t, pseudofs_list(path, &s), 3);	/* enable, filter, EVENT/ */
		snprintf(want, sizeof(want), "%s/\n", event);
		KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	}
	snprintf(path, sizeof(path), TRACEFS_DIR "/events/%s/%s/enable", group, event);
	KTEST_EXPECT_EQ(t, read_file(path), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, pseudofs_write_str(path, "1\n", true), 0);
	fib(3);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 5);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(path, "0\n", true), 0);
	snprintf(line, sizeof(line), "-:%s/%s\n", group, event);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	snprintf(path, sizeof(path), TRACEFS_DIR "/events/%s", group);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(path), 0);
}

/* 62 and 63 characters are names; 64 is refused with Linux's message. */
static void name_lengths_at_the_limit(struct ktest *t)
{
	const size_t n = PROBE_NAME_LEN - 1;

	snprintf(line, sizeof(line), "p:%s fib\n", repeat('a', n - 1));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	snprintf(line, sizeof(line), "p:%s fib\n", repeat('b', n));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	snprintf(line, sizeof(line), "p:%s/x fib\n", repeat('c', n));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	remove_all();
	snprintf(line, sizeof(line), "p:%s fib\n", repeat('b', n + 1));
	expect_refused(t, line, -EINVAL, "Event name is too long");
	snprintf(line, sizeof(line), "p:%s/x fib\n", repeat('c', n + 1));
	expect_refused(t, line, -EINVAL, "Group name is too long");
}

/* A fetcharg's name: 32 characters; its expression: 63. */
static void argument_lengths_at_the_limit(struct ktest *t)
{
	snprintf(line, sizeof(line), "p:a fib %s=%%ax\n", repeat('n', PROBE_ARG_NAME_MAX));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	snprintf(line, sizeof(line), "p:b fib %s=%%ax\n", repeat('n', PROBE_ARG_NAME_MAX + 1));
	expect_refused(t, line, -EINVAL, "Argument name is too long");
	remove_all();
	/* \"...\" of n-4 characters is an expression of n. */
	snprintf(line, sizeof(line), "p:c fib s=\\\"%s\":string\n",
		 repeat('x', PROBE_ARG_TEXT_MAX - 3 - 7));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	remove_all();
	snprintf(line, sizeof(line), "p:c fib s=\\\"%s\":string\n",
		 repeat('x', PROBE_ARG_TEXT_MAX - 3 - 7 + 1));
	expect_refused(t, line, -EINVAL, "Argument expression is too long");
}

/* A line of PROBE_LINE_MAX bytes (padded by a comment) is one; one more is not. */
static void whole_line_at_the_limit(struct ktest *t)
{
	static const char head[] = "p:l fib #";

	snprintf(line, sizeof(line), "%s%s", head, repeat('#', PROBE_LINE_MAX - (sizeof(head) - 1)));
	KTEST_ASSERT_EQ(t, strlen(line), PROBE_LINE_MAX);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	remove_all();
	strlcat(line, "#", sizeof(line));
	expect_refused(t, line, -EINVAL, "Line is too long");
}

/* A record whose text is longer than any fixed buffer prints whole. */
static void long_trace_line_prints_whole(struct ktest *t)
{
	const unsigned int nr = TRACE_PAYLOAD_MAX / sizeof(struct fetch_value);
	size_t n = strlcpy(line, "p:wide fib", sizeof(line));
	char last[64];

	for (unsigned int i = 0; i < nr; i++)
		n += snprintf(line + n, sizeof(line) - n, " %s%02u=%%ip:symbol",
			      repeat('w', PROBE_ARG_NAME_MAX - 2), i);
	strlcat(line, "\n", sizeof(line));
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(KEV "/wide/enable", "1\n", true), 0);
	fib(1);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/wide/enable", "0\n", true), 0);
	read_file(TRACE);
	snprintf(last, sizeof(last), "%s%02u=fib+0x", repeat('w', PROBE_ARG_NAME_MAX - 2), nr - 1);
	KTEST_EXPECT_TRUE(t, strstr(out, last) != NULL);
	KTEST_EXPECT_TRUE(t, strlen(out) > 1024);
}

/* ---- a module's functions ---------------------------------------------------------- */

static int call_module_target(void)
{
	int (*target)(int, int) = (int (*)(int, int))kallsyms_lookup_name(MOD_FUNC);

	return target ? target(4, 2) : -1;
}

static bool have_module(struct ktest *t)
{
	size_t len;

	if (find_boot_module(MOD, &len))
		return true;
	ktest_skip(t, MOD ".ko is not a boot module (make test-modules)");
	return false;
}

/* Heap figures after the one-time allocations (the parser's buffer). */
static void heap_now(struct heap_stats *h)
{
	pseudofs_write_str(EVENTS, "\n", false);
	heap_get_stats(h);
}

/* MOD:SYM, Linux's form: the module's own symbol, listed as written. */
static void module_symbol_by_module_name(struct ktest *t)
{
	if (!have_module(t))
		return;
	KTEST_ASSERT_EQ(t, insmod(MOD), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:modsym " MOD ":" MOD_FUNC " a=$arg1:u32\n",
					      false), 0);
	read_file(EVENTS);
	KTEST_EXPECT_TRUE(t, strstr(out, "p:kprobes/modsym " MOD ":" MOD_FUNC " a=$arg1:u32\n") != NULL);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(KEV "/modsym/enable", "1\n", true), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	KTEST_EXPECT_EQ(t, call_module_target(), 42);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/modsym/enable", "0\n", true), 0);
	read_file(TRACE);
	KTEST_EXPECT_TRUE(t, strstr(out, "modsym: (" MOD_FUNC "+0x0/0x") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, " a=4\n") != NULL);
	expect_refused(t, "p:nomod no_such_module:" MOD_FUNC "\n", -EINVAL,
		       "Invalid probed address or symbol");
	remove_all();
	KTEST_EXPECT_EQ(t, rmmod(MOD), 0);
}

/* Enabled events on a module function; rmmod; disable and remove work. */
static void module_gone_event_can_be_disabled_and_removed(struct ktest *t)
{
	struct heap_stats h0, h1;

	if (!have_module(t))
		return;
	heap_now(&h0);
	KTEST_ASSERT_EQ(t, insmod(MOD), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:modev " MOD_FUNC " a=$arg1\n"
				     "r:modret " MOD_FUNC " ret=$retval\n", false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(KEV "/enable", "1\n", true), 0);
	KTEST_EXPECT_EQ(t, call_module_target(), 42);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 2);

	KTEST_ASSERT_EQ(t, rmmod(MOD), 0);
	read_file(LIST);
	KTEST_EXPECT_TRUE(t, strstr(out, "[GONE]") != NULL);
	read_file(EVENTS);
	KTEST_EXPECT_TRUE(t, strstr(out, "p:kprobes/modev " MOD_FUNC " a=$arg1\n") != NULL);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/modev/enable", "0\n", true), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/enable", "0\n", true), 0);
	read_file(KEV "/enable");
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "-:modev\n", false), 0);
	/* Enabled again while gone, then cleared: all or nothing still holds. */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/modret/enable", "1\n", true), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "\n", true), -EBUSY);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/modret/enable", "0\n", true), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "\n", true), 0);
	read_file(LIST);
	KTEST_EXPECT_TRUE(t, strstr(out, "[GONE]") == NULL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	heap_get_stats(&h1);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	KTEST_EXPECT_EQ(t, h1.live_bytes, h0.live_bytes);
}

/* The module comes back: an event still defined hits again, as it was set. */
static void module_back_rearms_event(struct ktest *t)
{
	struct heap_stats h0, h1;

	if (!have_module(t))
		return;
	heap_now(&h0);
	KTEST_ASSERT_EQ(t, insmod(MOD), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:modev " MOD_FUNC " a=$arg1\n"
				     "r:modret " MOD_FUNC " ret=$retval\n"
				     "p:modoff " MOD_FUNC "\n", false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(KEV "/modev/enable", "1\n", true), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(KEV "/modret/enable", "1\n", true), 0);
	KTEST_ASSERT_EQ(t, rmmod(MOD), 0);

	for (int round = 0; round < 3; round++) {
		trace_buffer_reset(TRACE_ALL_CPUS);
		KTEST_ASSERT_EQ(t, insmod(MOD), 0);
		/* Armed before init ran: init's own call was traced too. */
		KTEST_EXPECT_TRUE(t, trace_buffer_written() >= 2);
		trace_buffer_reset(TRACE_ALL_CPUS);
		read_file(LIST);
		KTEST_EXPECT_TRUE(t, strstr(out, "[GONE]") == NULL);
		KTEST_EXPECT_EQ(t, call_module_target(), 42);
		/* modev and modret hit; modoff stayed disabled. */
		KTEST_EXPECT_EQ(t, trace_buffer_written(), 2);
		read_file(TRACE);
		KTEST_EXPECT_TRUE(t, strstr(out, "modev: (" MOD_FUNC "+0x0/") != NULL);
		KTEST_EXPECT_TRUE(t, strstr(out, " <- " MOD_FUNC ") ret=0x2a\n") != NULL);
		KTEST_ASSERT_EQ(t, rmmod(MOD), 0);
	}
	KTEST_EXPECT_EQ(t, pseudofs_write_str(KEV "/enable", "0\n", true), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "\n", true), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	heap_get_stats(&h1);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	KTEST_EXPECT_EQ(t, h1.live_bytes, h0.live_bytes);
}

static struct ktest_case limits_cases[] = {
	KTEST_CASE(offset_wrapping_past_4g_is_refused),
	KTEST_CASE(offset_must_stay_inside_the_symbol),
	KTEST_CASE(register_kprobe_offset_inside_the_symbol),
	KTEST_CASE(memory_offset_must_not_wrap),
	KTEST_CASE(longest_names_are_reachable),
	KTEST_CASE(name_lengths_at_the_limit),
	KTEST_CASE(argument_lengths_at_the_limit),
	KTEST_CASE(whole_line_at_the_limit),
	KTEST_CASE(long_trace_line_prints_whole),
	KTEST_CASE(module_symbol_by_module_name),
	KTEST_CASE(module_gone_event_can_be_disabled_and_removed),
	KTEST_CASE(module_back_rearms_event),
	KTEST_END
};

static struct ktest_suite limits_suite = {
	.name = "kprobe_events_limits",
	.cases = limits_cases,
	.init = limits_init,
	.exit = limits_exit,
};
KTEST_SUITE(limits_suite);
