/*
 * test_fgraph_options.c - suite "fgraph_options": function_graph's
 * sleep-time and funcgraph-irqs options, as Linux's.
 *
 *   sleep-time 1 (the default)   msleep(50)'s duration is the 50 ms it took
 *   sleep-time 0                 only the time it ran: the scheduler's hook
 *                                moves its entry time past the sleep
 *   funcgraph-irqs 1 (default)   the timer interrupt's handler is drawn
 *   funcgraph-irqs 0             nothing entered in an interrupt is
 */
#include "ktest.h"
#include "ftrace.h"
#include "trace.h"
#include "pseudofs.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "tracefs_suite.h"

#define T(name)        TRACEFS_DIR "/" name
#define SLEEP_MS       50
#define SLEPT_US       40000	/* at least this much of the sleep shows with sleep-time 1 */
#define RAN_US         20000	/* msleep itself runs for far less (a few us) */

static int fgraph_init(struct ktest *t)
{
	return tracefs_init();
}

static void graph_stop(void)
{
	wr(T("current_tracer"), "nop\n");
	wr(T("set_graph_function"), "\n");
	wr(T("set_ftrace_filter"), "\n");
	wr(T("options/sleep-time"), "1\n");
	wr(T("options/funcgraph-irqs"), "1\n");
	wr(T("trace"), "\n");
}

static void fgraph_exit(struct ktest *t)
{
	graph_stop();
}

/* Stop recording, read `trace` (drawn as a graph while function_graph is the tracer), stop it. */
static void read_graph(void)
{
	wr(T("tracing_on"), "0\n");
	rd(T("trace"));
	wr(T("current_tracer"), "nop\n");
	wr(T("tracing_on"), "1\n");
}

/*
 * The duration on the line that ends name(), in us; -1 if there is none:
 * "msleep();", or the closing brace with the name in a C comment when it
 * woke on another CPU (each CPU's records are drawn apart, as in Linux).
 */
static long graph_duration_us(const char *name)
{
	char leaf[64], tail[64];
	const char *line, *us, *p;

	snprintf(leaf, sizeof(leaf), "|  %s();\n", name);
	snprintf(tail, sizeof(tail), "} /* %s */\n", name);
	line = strstr(out, leaf);
	if (!line)
		line = strstr(out, tail);
	if (!line)
		return -1;
	while (line > out && line[-1] != '\n')
		line--;
	us = strstr(line, " us ");
	if (!us)
		return -1;
	for (p = us; p > line && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')); p--)
		;
	return (long)simple_strtoul(p, NULL, 10);
}

/* msleep(SLEEP_MS) under function_graph, its duration in us. */
static long graph_of_msleep(bool sleep_time)
{
	wr(T("options/sleep-time"), sleep_time ? "1\n" : "0\n");
	wr(T("set_graph_function"), "msleep\n");
	wr(T("set_ftrace_filter"), "msleep\n");
	wr(T("trace"), "\n");
	wr(T("current_tracer"), "function_graph\n");
	msleep(SLEEP_MS);
	read_graph();
	return graph_duration_us("msleep");
}

static void sleep_time_on_counts_the_sleep(struct ktest *t)
{
	long us;

	KTEST_EXPECT_EQ(t, rd(T("options/sleep-time")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");		/* Linux's default */
	us = graph_of_msleep(true);
	KTEST_EXPECT_TRUE(t, us >= SLEPT_US);
	graph_stop();
}

static void sleep_time_off_leaves_it_out(struct ktest *t)
{
	long us = graph_of_msleep(false);

	KTEST_EXPECT_TRUE(t, us >= 0);			/* the call is drawn */
	KTEST_EXPECT_TRUE(t, us < RAN_US);
	KTEST_EXPECT_EQ(t, rd(T("options/sleep-time")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	graph_stop();
}

/* function_graph on the timer interrupt's handler for a while: its lines. */
static int graph_of_timer_irq(bool irqs)
{
	wr(T("options/funcgraph-irqs"), irqs ? "1\n" : "0\n");
	wr(T("set_graph_function"), "timer_interrupt\n");
	wr(T("set_ftrace_filter"), "timer_interrupt\n");
	wr(T("trace"), "\n");
	wr(T("current_tracer"), "function_graph\n");
	msleep(SLEEP_MS);				/* a few ticks */
	read_graph();
	return count(out, "timer_interrupt();\n");
}

static void funcgraph_irqs_on_draws_interrupts(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, rd(T("options/funcgraph-irqs")), 0);
	KTEST_EXPECT_STREQ(t, out, "1\n");		/* Linux's default */
	KTEST_EXPECT_TRUE(t, graph_of_timer_irq(true) >= 1);
	graph_stop();
}

static void funcgraph_irqs_off_skips_them(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, graph_of_timer_irq(false), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "# tracer: function_graph\n") != NULL);
	graph_stop();
}

static struct ktest_case fgraph_cases[] = {
	KTEST_CASE(sleep_time_on_counts_the_sleep),
	KTEST_CASE(sleep_time_off_leaves_it_out),
	KTEST_CASE(funcgraph_irqs_on_draws_interrupts),
	KTEST_CASE(funcgraph_irqs_off_skips_them),
	KTEST_END
};

static struct ktest_suite fgraph_suite = {
	.name = "fgraph_options",
	.cases = fgraph_cases,
	.init = fgraph_init,
	.exit = fgraph_exit,
};
KTEST_SUITE(fgraph_suite);
