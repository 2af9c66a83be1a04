/*
 * test_console_input.c - COM1's input queue when it overflows, and a
 * line longer than the editor holds: either is said on the console and
 * the line is not run, never run shorter.
 */
#include "ktest.h"
#include "console_input.h"
#include "line_editor.h"
#include <asm/irqflags.h>
#include "string.h"

#define LOST 50		/* bytes that find the queue full */
#define READ_EARLY 100	/* bytes the reader takes before the rest comes */

static void feed(const char *s)
{
	while (*s)
		console_input_feed(*s++);
}

static void feed_repeat(char c, int n)
{
	while (n--)
		console_input_feed(c);
}

/*
 * A flood fills the queue and LOST bytes go missing; the reader drains
 * what came before the gap, then gets INPUT_OVERRUN once - the rest of
 * that line skipped and the loss said on the console - and then the next
 * line, whole.
 */
static void overrun_drops_the_line_and_says_so(struct ktest *t)
{
	int before_gap = 0, overruns = 0, c;
	char next[16];
	size_t n = 0;
	const char *out;

	while (console_poll() >= 0)
		;		/* nothing left from before */
	feed_repeat('x', INPUT_BUF_SIZE + LOST);
	for (int i = 0; i < READ_EARLY; i++)
		before_gap += console_poll() == 'x';
	feed("tail of the broken line\r");
	feed("echo ok\r");

	ktest_capture_start();
	while ((c = console_poll()) != -1) {
		if (c == 'x' && !overruns)
			before_gap++;
		else if (c == INPUT_OVERRUN)
			overruns++;
		else if (n < sizeof(next) - 1)
			next[n++] = c;
	}
	ktest_capture_stop();
	next[n] = '\0';

	KTEST_EXPECT_EQ(t, before_gap, INPUT_BUF_SIZE);
	KTEST_EXPECT_EQ(t, overruns, 1);
	KTEST_EXPECT_STREQ(t, next, "echo ok\r");
	out = ktest_captured();
	KTEST_EXPECT_TRUE(t, strstr(out, "console: input overrun, 50 characters dropped: "
				    "the line is not run\n") != NULL);
}

static struct line_editor le;

/* One character past the full line: Enter refuses it. */
static void a_line_too_long_is_refused(struct ktest *t)
{
	enum line_result r = LINE_MORE;
	unsigned long flags = local_irq_save();

	line_editor_init(&le, "> ");
	ktest_capture_start();		/* the echo stays off the console */
	for (int i = 0; i < CONSOLE_LINE_MAX && r == LINE_MORE; i++)
		r = line_editor_key(&le, 'a');
	if (r == LINE_MORE)
		r = line_editor_key(&le, '\r');
	ktest_capture_stop();
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, r, LINE_TOO_LONG);
	KTEST_EXPECT_EQ(t, le.len, CONSOLE_LINE_MAX - 1);
	KTEST_EXPECT_EQ(t, le.dropped, 1);

	/* The longest line that fits is a line. */
	line_editor_start(&le);
	ktest_capture_start();
	r = LINE_MORE;
	for (int i = 0; i < CONSOLE_LINE_MAX - 1 && r == LINE_MORE; i++)
		r = line_editor_key(&le, 'b');
	if (r == LINE_MORE)
		r = line_editor_key(&le, '\r');
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, r, LINE_DONE);
	KTEST_EXPECT_EQ(t, strlen(le.buf), CONSOLE_LINE_MAX - 1);
}

static struct ktest_case console_input_cases[] = {
	KTEST_CASE(overrun_drops_the_line_and_says_so),
	KTEST_CASE(a_line_too_long_is_refused),
	KTEST_END
};

static struct ktest_suite console_input_suite = {
	.name = "console_input",
	.cases = console_input_cases,
};
KTEST_SUITE(console_input_suite);
