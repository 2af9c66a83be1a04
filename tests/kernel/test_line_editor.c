/*
 * test_line_editor.c - the command-line editor: cursor editing, a long
 * history, Tab completion through the shell, and other output that
 * arrives while a line is being typed.
 */
#include "ktest.h"
#include "line_editor.h"
#include "shell.h"
#include "string.h"
#include <asm/irqflags.h>
#include "vsprintf.h"
#include "trace.h"

static struct line_editor le;

static enum line_result type(const char *keys)
{
	enum line_result r = LINE_MORE;

	while (*keys && r == LINE_MORE)
		r = line_editor_key(&le, (unsigned char)*keys++);
	return r;
}

static void line_editor_keys(struct ktest *t)
{
	line_editor_init(&le, "> ");
	KTEST_EXPECT_EQ(t, type("abc\bd\x7f" "e\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "abe");
	line_editor_remember(&le);
	le.len = 0;
	KTEST_EXPECT_EQ(t, type("\n"), LINE_MORE);	/* the LF of CR LF */

	le.len = 0;
	KTEST_EXPECT_EQ(t, type("xyz\x03"), LINE_CANCEL);	/* Ctrl-C */
	KTEST_EXPECT_EQ(t, le.len, 0);

	le.len = 0;
	KTEST_EXPECT_EQ(t, type("\x1b[A\r"), LINE_DONE);	/* up arrow */
	KTEST_EXPECT_STREQ(t, le.buf, "abe");
	le.len = 0;
	le.history_pos = 0;
	KTEST_EXPECT_EQ(t, type("\x1b[A\x1b[B" "q\n"), LINE_DONE);	/* up, down */
	KTEST_EXPECT_STREQ(t, le.buf, "q");
}

static void cursor_keys_edit_in_place(struct ktest *t)
{
	line_editor_init(&le, "> ");
	KTEST_EXPECT_EQ(t, type("bd\x1b[D" "c\x1b[H" "a\x1b[F" "e\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "abcde");

	line_editor_start(&le);
	KTEST_EXPECT_EQ(t, type("one two\x17" "\x1b[1~\x1b[3~O\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "One ");

	line_editor_start(&le);
	KTEST_EXPECT_EQ(t, type("junk\x15kept\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "kept");
}

#define LINES_REMEMBERED 20	/* more than the old history kept */

static void history_keeps_many_lines(struct ktest *t)
{
	char line[16];

	line_editor_init(&le, "> ");
	for (int i = 1; i <= LINES_REMEMBERED; i++) {
		line_editor_start(&le);
		snprintf(line, sizeof(line), "cmd %d\r", i);
		type(line);
		line_editor_remember(&le);
	}
	line_editor_start(&le);
	for (int i = 0; i < LINES_REMEMBERED; i++)
		type("\x1b[A");
	KTEST_EXPECT_EQ(t, type("\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "cmd 1");
}

static void tab_completes_commands_and_paths(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, tracefs_init() == 0);	/* the files to complete */
	line_editor_init(&le, "> ");
	le.complete = shell_complete;
	KTEST_EXPECT_EQ(t, type("lsm\t\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "lsmod ");

	line_editor_start(&le);
	KTEST_EXPECT_EQ(t, type("cat /sys/kernel/tr\tkprobe_e\t\r"), LINE_DONE);
	KTEST_EXPECT_STREQ(t, le.buf, "cat /sys/kernel/tracing/kprobe_events ");

	/* "b" is blacklist or boost: Tab adds nothing and lists both. */
	line_editor_start(&le);
	ktest_capture_start();
	type("cat /sys/kernel/debug/kprobes/b\t");
	ktest_capture_stop();
	KTEST_EXPECT_STREQ(t, le.buf + le.len - 1, "b");
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "blacklist  boost") != NULL);
	type("\x03");		/* end the line on the console: KTAP goes on */
}

/*
 * printk while a line is typed: the line is blanked first ('\r',
 * spaces, '\r'), the output follows on a clean row, and the reader
 * draws prompt and line back with the cursor where it was.
 */
static void printk_hides_and_redraws_the_line(struct ktest *t)
{
	unsigned long flags = local_irq_save();
	const char *out;

	line_editor_init(&le, "> ");
	ktest_capture_start();
	line_editor_attach(&le);
	type("abc\x1b[D");
	printk("async message\n");
	line_editor_redraw_if_hidden();
	type("\x03");
	line_editor_attach(NULL);
	ktest_capture_stop();
	local_irq_restore(flags);

	out = ktest_captured();
	KTEST_EXPECT_TRUE(t, strstr(out, "\r     \rasync message\n> abc\b") != NULL);
}

static struct ktest_case line_editor_cases[] = {
	KTEST_CASE(line_editor_keys),
	KTEST_CASE(cursor_keys_edit_in_place),
	KTEST_CASE(history_keeps_many_lines),
	KTEST_CASE(tab_completes_commands_and_paths),
	KTEST_CASE(printk_hides_and_redraws_the_line),
	KTEST_END
};

static struct ktest_suite line_editor_suite = {
	.name = "line_editor",
	.cases = line_editor_cases,
};
KTEST_SUITE(line_editor_suite);
