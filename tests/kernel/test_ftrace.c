/*
 * test_ftrace.c - suite "ftrace": the call sites, the function and
 * function_graph tracers, their tracefs files, and patching every site
 * while other CPUs run them (kernel/trace/ftrace.c, docs/ftrace.md).
 */
#include "ktest.h"
#include "ftrace.h"
#include "trace.h"
#include "pseudofs.h"
#include "workloads.h"
#include "module.h"
#include "kallsyms.h"
#include <asm/atomic.h>
#include "sched.h"
#include "smp.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"

/* fib(n) makes 2 * fib(n + 1) - 1 calls of fib. */
#define FIB_N		10
#define FIB_VALUE	55
#define FIB_CALLS	177

static int site_is_nop(unsigned long ip, bool enabled, void *data)
{
	int *bad = data;

	if (enabled || memcmp((const void *)ip, ftrace_nop_replace(), MCOUNT_INSN_SIZE))
		(*bad)++;
	return 0;
}

/* After boot no site calls anything: each is the 5-byte nop. */
static void every_site_a_nop(struct ktest *t)
{
	int bad = 0;

	KTEST_EXPECT_TRUE(t, ftrace_nr_sites() > 100);
	KTEST_EXPECT_EQ(t, ftrace_location((unsigned long)fib), (unsigned long)fib);
	KTEST_EXPECT_EQ(t, ftrace_location((unsigned long)fib + 1), 0);
	ftrace_for_each_site(site_is_nop, &bad);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
}

static atomic_t fib_calls;

static void count_fib(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&fib_calls);
}

/* An ops on fib alone: one callback per call, the result unchanged. */
static void ops_counts_every_call(struct ktest *t)
{
	static struct ftrace_ops ops = { .func = count_fib };
	const char *name = "fib";

	atomic_set(&fib_calls, 0);
	KTEST_ASSERT_EQ(t, ftrace_set_filter(&ops, name, strlen(name), 1), 0);
	KTEST_ASSERT_EQ(t, register_ftrace_function(&ops), 0);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 1);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, unregister_ftrace_function(&ops), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&fib_calls), FIB_CALLS);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, atomic_read(&fib_calls), FIB_CALLS);	/* nop again */
	ftrace_free_filter(&ops);
}

static void ops_filter_refuses_unknown(struct ktest *t)
{
	static struct ftrace_ops ops = { .func = count_fib };
	const char *name = "no_such_function_anywhere";

	KTEST_EXPECT_EQ(t, ftrace_set_filter(&ops, name, strlen(name), 1), -EINVAL);
	KTEST_EXPECT_TRUE(t, ops.filter_hash == NULL);
}

static atomic_t crc_calls;

static void count_crc(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&crc_calls);
}

/*
 * One ops registered: the trampoline calls its func straight (through
 * the recursion guard if it asked for it); two: the walk, which tests
 * each filter, so neither sees the other's function.
 */
static void one_ops_called_straight(struct ktest *t)
{
	static struct ftrace_ops a = { .func = count_fib };
	static struct ftrace_ops b = { .func = count_crc, .flags = FTRACE_OPS_FL_RECURSION };
	const char *fib_name = "fib", *crc_name = "crc32_byte";

	atomic_set(&fib_calls, 0);
	atomic_set(&crc_calls, 0);
	KTEST_ASSERT_EQ(t, ftrace_set_filter(&a, fib_name, strlen(fib_name), 1), 0);
	KTEST_ASSERT_EQ(t, ftrace_set_filter(&b, crc_name, strlen(crc_name), 1), 0);
	KTEST_ASSERT_EQ(t, register_ftrace_function(&a), 0);
	KTEST_EXPECT_TRUE(t, ftrace_trace_function == count_fib);
	KTEST_EXPECT_TRUE(t, function_trace_op == &a);
	KTEST_ASSERT_EQ(t, register_ftrace_function(&b), 0);
	KTEST_EXPECT_TRUE(t, ftrace_trace_function == ftrace_ops_list_func);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, crc32_byte(0, 'x'), crc32_byte(0, 'x'));
	KTEST_EXPECT_EQ(t, unregister_ftrace_function(&a), 0);
	KTEST_EXPECT_TRUE(t, ftrace_trace_function == ftrace_ops_assist_func);
	KTEST_EXPECT_TRUE(t, function_trace_op == &b);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, crc32_byte(0, 'y'), crc32_byte(0, 'y'));
	KTEST_EXPECT_EQ(t, unregister_ftrace_function(&b), 0);
	KTEST_EXPECT_TRUE(t, ftrace_trace_function == ftrace_ops_list_func);
	KTEST_EXPECT_EQ(t, atomic_read(&fib_calls), FIB_CALLS);
	KTEST_EXPECT_EQ(t, atomic_read(&crc_calls), 4);	/* 2 calls each time, b alone */
	ftrace_free_filter(&a);
	ftrace_free_filter(&b);
}

static int write_file(const char *path, const char *text, bool trunc)
{
	return pseudofs_write(path, text, strlen(text), trunc);
}

static char buf[8192];

static const char *read_file(const char *path)
{
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	pseudofs_read(path, &s);
	return buf;
}

static int count_lines_with(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* current_tracer=function with set_ftrace_filter=fib: one trace line per call. */
static void function_tracer_one_line_per_call(struct ktest *t)
{
	const int n = 5, calls = 15;	/* fib(5) makes 15 calls */

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/available_tracers"),
			   "function_graph function nop\n");
	KTEST_ASSERT_EQ(t, write_file(TRACEFS_DIR "/set_ftrace_filter", "fib\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/set_ftrace_filter"), "fib\n");
	KTEST_ASSERT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "function\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/current_tracer"), "function\n");
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/enabled_functions"), "fib (1) R    \n");
	KTEST_EXPECT_EQ(t, fib(n), 5);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "nop\n", true), 0);
	read_file(TRACEFS_DIR "/trace");
	KTEST_EXPECT_TRUE(t, strstr(buf, "# tracer: nop\n") != NULL);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/enabled_functions"), "");
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "function\n", true), 0);
	KTEST_EXPECT_EQ(t, fib(n), 5);
	read_file(TRACEFS_DIR "/trace");
	KTEST_EXPECT_TRUE(t, strstr(buf, "# tracer: function\n") != NULL);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, ": fib <-"), calls);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, ": fib <-fib\n"), calls - 1);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "nop\n", true), 0);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "blk\n", true), -EINVAL);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/set_ftrace_filter", "\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/set_ftrace_filter"),
			   "#### all functions enabled ####\n");
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
}

/* function_graph on fib(2): fib() { fib(); fib(); }, each return seen. */
static void graph_tracer_draws_the_calls(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_ASSERT_EQ(t, write_file(TRACEFS_DIR "/set_graph_function", "fib\n", true), 0);
	KTEST_ASSERT_EQ(t, write_file(TRACEFS_DIR "/set_ftrace_filter", "fib\n", true), 0);
	KTEST_ASSERT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "function_graph\n", true), 0);
	KTEST_EXPECT_EQ(t, fib(2), 1);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "nop\n", true), 0);
	KTEST_EXPECT_EQ(t, this_cpu_read(current_task)->curr_ret_stack, 0);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "function_graph\n", true), 0);
	KTEST_EXPECT_EQ(t, fib(2), 1);
	read_file(TRACEFS_DIR "/trace");
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "nop\n", true), 0);
	KTEST_EXPECT_TRUE(t, strstr(buf, "# tracer: function_graph\n") != NULL);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "|  fib() {\n"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "|    fib();\n"), 2);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "|  }\n"), 1);
	write_file(TRACEFS_DIR "/set_graph_function", "\n", true);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "\n", true);
}

/* tracing_on 0 stops the function tracers' records too, as every other record. */
static void function_tracers_obey_tracing_on(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "fib\n", true);
	write_file(TRACEFS_DIR "/tracing_on", "0\n", true);
	write_file(TRACEFS_DIR "/current_tracer", "function\n", true);
	fib(3);
	read_file(TRACEFS_DIR "/trace");
	KTEST_EXPECT_EQ(t, count_lines_with(buf, ": fib <-"), 0);
	write_file(TRACEFS_DIR "/current_tracer", "function_graph\n", true);
	fib(3);
	read_file(TRACEFS_DIR "/trace");
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "fib"), 0);
	write_file(TRACEFS_DIR "/current_tracer", "nop\n", true);
	write_file(TRACEFS_DIR "/tracing_on", "1\n", true);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "\n", true);
}

/* function_graph on fib(2) with set_graph_function=fib, the trace read back. */
static const char *graph_of_fib2(void)
{
	write_file(TRACEFS_DIR "/set_graph_function", "fib\n", true);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "fib\n", true);
	write_file(TRACEFS_DIR "/current_tracer", "function_graph\n", true);
	fib(2);
	read_file(TRACEFS_DIR "/trace");
	write_file(TRACEFS_DIR "/current_tracer", "nop\n", true);
	return buf;
}

static void graph_reset_files(void)
{
	write_file(TRACEFS_DIR "/set_graph_function", "\n", true);
	write_file(TRACEFS_DIR "/set_graph_notrace", "\n", true);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "\n", true);
	write_file(TRACEFS_DIR "/max_graph_depth", "0\n", true);
	write_file(TRACEFS_DIR "/tracing_thresh", "0\n", true);
}

/* The funcgraph-* options add and remove Linux's columns, head and lines alike. */
static void graph_options_change_the_columns(struct ktest *t)
{
	static const char *const opts[] = { "funcgraph-cpu", "funcgraph-duration",
		"funcgraph-overhead", "funcgraph-proc", "funcgraph-abstime", "funcgraph-tail" };
	char path[96];

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	graph_of_fib2();
	KTEST_EXPECT_TRUE(t, strstr(buf, "# tracer: function_graph\n#\n"
				    "# CPU  DURATION                  FUNCTION CALLS\n"
				    "# |     |   |                     |   |   |   |\n") != NULL);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, " 0)               |  fib() {\n") +
			   count_lines_with(buf, " 1)               |  fib() {\n"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, " us    |    fib();\n"), 2);
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/options/%s", opts[i]);
		KTEST_EXPECT_EQ(t, write_file(path, i < 2 ? "0\n" : "1\n", true), 0);
	}
	graph_of_fib2();
	KTEST_EXPECT_TRUE(t, strstr(buf, "#\n#     TIME         TASK/PID                      "
				    "FUNCTION CALLS\n#      |            |    |        "
				    "               |   |   |   |\n") != NULL);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, " | fib() {\n"), 1);	/* the task's column, then the call */
	KTEST_EXPECT_EQ(t, count_lines_with(buf, " |   fib();\n"), 2);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, " | } /* fib */\n"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, " us "), 0);
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/options/%s", opts[i]);
		write_file(path, i < 3 ? "1\n" : "0\n", true);
	}
	/* overrun counts are not kept: refused (sleep-time: suite fgraph_options) */
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/options/funcgraph-overrun", "1\n", true), -EINVAL);
	graph_reset_files();
}

/* tracing_thresh (us): only calls that long are drawn, each by its return alone. */
static void graph_tracing_thresh(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/tracing_thresh"), "0\n");
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/tracing_thresh", "x\n", true), -EINVAL);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/tracing_thresh", "1000000\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/tracing_thresh"), "1000000\n");
	graph_of_fib2();
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "fib"), 0);	/* nothing lasts a second */
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/tracing_thresh", "1\n", true), 0);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "fib\n", true);
	write_file(TRACEFS_DIR "/current_tracer", "function_graph\n", true);
	fib(10);	/* 177 calls: the outer one lasts far more than 1 us */
	read_file(TRACEFS_DIR "/trace");
	write_file(TRACEFS_DIR "/current_tracer", "nop\n", true);
	KTEST_EXPECT_TRUE(t, count_lines_with(buf, "} /* fib */\n") >= 1);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "fib() {"), 0);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "fib();"), 0);
	graph_reset_files();
}

/* max_graph_depth 1: fib's outer call alone, a leaf. */
static void graph_max_depth(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/max_graph_depth"), "0\n");
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/max_graph_depth", "-1\n", true), -EINVAL);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/max_graph_depth", "1\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/max_graph_depth"), "1\n");
	graph_of_fib2();
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "|  fib();\n"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "fib"), 1);
	graph_reset_files();
}

/* set_graph_notrace: the function and all it calls are left out of the graph. */
static void graph_notrace_hides_the_callees(struct ktest *t)
{
	static const unsigned char data[4] = "abc";

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/set_graph_notrace"),
			   "#### no functions disabled ####\n");
	write_file(TRACEFS_DIR "/set_ftrace_filter", "crc32_le\n", true);
	write_file(TRACEFS_DIR "/set_ftrace_filter", "crc32_byte\n", false);
	KTEST_ASSERT_EQ(t, write_file(TRACEFS_DIR "/set_graph_notrace", "crc32_byte\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/set_graph_notrace"), "crc32_byte\n");
	write_file(TRACEFS_DIR "/current_tracer", "function_graph\n", true);
	crc32_le(0, data, sizeof(data));
	read_file(TRACEFS_DIR "/trace");
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "|  crc32_le();\n"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "crc32_byte"), 0);
	write_file(TRACEFS_DIR "/set_graph_notrace", "crc32_le\n", true);
	write_file(TRACEFS_DIR "/trace", "\n", true);
	crc32_le(0, data, sizeof(data));
	read_file(TRACEFS_DIR "/trace");
	write_file(TRACEFS_DIR "/current_tracer", "nop\n", true);
	KTEST_EXPECT_EQ(t, count_lines_with(buf, "crc32_"), 0);
	KTEST_EXPECT_EQ(t, this_cpu_read(current_task)->curr_ret_stack, 0);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/set_graph_notrace", "no_such_fn\n", true),
			-EINVAL);
	graph_reset_files();
}

/* dyn_ftrace_total_info: Linux's "SITES pages:N groups: N", the sites ftrace_nr_sites() counts. */
static void dyn_ftrace_total_info_counts_the_sites(struct ktest *t)
{
	char want[32];
	int n;

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	n = snprintf(want, sizeof(want), "%lu pages:", ftrace_nr_sites());
	read_file(TRACEFS_DIR "/dyn_ftrace_total_info");
	KTEST_EXPECT_EQ(t, strncmp(buf, want, n), 0);
	KTEST_EXPECT_TRUE(t, strstr(buf, " groups: 1\n") != NULL);	/* the kernel's, no module */
	KTEST_EXPECT_TRUE(t, strstr(buf, "pages:0 ") == NULL);
}

#define STACK_TRACE_HEAD "        Depth    Size   Location    ("

/* The deepest stack fib(10) reached, in Linux's table: fib's frames, deepest first. */
static void stack_tracer_finds_the_deepest(struct ktest *t)
{
	unsigned long max = 0, depth0 = 0;
	const char *line;

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_EXPECT_STREQ(t, read_file("/proc/sys/kernel/stack_tracer_enabled"), "0\n");
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/stack_max_size", "0\n", true), 0);
	read_file(TRACEFS_DIR "/stack_trace");
	KTEST_EXPECT_TRUE(t, strstr(buf, "#  Stack tracer disabled\n") != NULL);
	KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/stack_trace_filter", "fib\n", true), 0);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/stack_trace_filter"), "fib\n");
	KTEST_ASSERT_EQ(t, write_file("/proc/sys/kernel/stack_tracer_enabled", "1\n", true), 0);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 1);
	KTEST_EXPECT_EQ(t, fib(10), 55);
	KTEST_EXPECT_EQ(t, write_file("/proc/sys/kernel/stack_tracer_enabled", "0\n", true), 0);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
	kstrntoul(read_file(TRACEFS_DIR "/stack_max_size"), strlen(buf), 10, &max);
	KTEST_EXPECT_TRUE(t, max > 10 * 2 * sizeof(long));	/* ten frames of fib at least */
	read_file(TRACEFS_DIR "/stack_trace");
	KTEST_EXPECT_TRUE(t, strncmp(buf, STACK_TRACE_HEAD, strlen(STACK_TRACE_HEAD)) == 0);
	KTEST_EXPECT_TRUE(t, strstr(buf, "        -----    ----   --------\n") != NULL);
	KTEST_EXPECT_TRUE(t, count_lines_with(buf, "   fib+0x") >= 10);
	line = strstr(buf, "  0) ");
	KTEST_ASSERT_TRUE(t, line != NULL);
	for (line += 4; *line == ' '; line++)	/* "  0)     1412 ..." */
		;
	while (*line >= '0' && *line <= '9')
		depth0 = depth0 * 10 + (*line++ - '0');
	KTEST_EXPECT_EQ(t, depth0, max);
	KTEST_EXPECT_TRUE(t, strstr(buf, "Stack tracer disabled") == NULL);
	write_file(TRACEFS_DIR "/stack_trace_filter", "\n", true);
	KTEST_EXPECT_STREQ(t, read_file(TRACEFS_DIR "/stack_trace_filter"),
			   "#### all functions enabled ####\n");
}

/* ---- every site, while other CPUs run them ----------------------------------------- */

#define SMP_ROUNDS	4

static volatile bool load_stop;

static int fib_worker(void *arg)
{
	int bad = 0;

	while (!READ_ONCE(load_stop))
		if (fib(12) != 144)
			bad++;
	return bad;
}

/*
 * The function tracer on every site and off again, a few times, while
 * the other CPUs call fib: no wrong result, and .text as boot left it.
 */
static void every_site_on_and_off_under_load(struct ktest *t)
{
	struct task_struct *workers[NR_CPUS] = { NULL };
	int cpu, bad = 0;

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	load_stop = false;
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			workers[cpu] = kthread_create_on_cpu(fib_worker, NULL, cpu, "fib-load");
	for (int i = 0; i < SMP_ROUNDS; i++) {
		KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "function\n", true), 0);
		KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), ftrace_nr_sites());
		msleep(20);
		KTEST_EXPECT_EQ(t, write_file(TRACEFS_DIR "/current_tracer", "nop\n", true), 0);
		KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
	}
	WRITE_ONCE(load_stop, true);
	for_each_online_cpu(cpu)
		if (workers[cpu])
			bad += kthread_join(workers[cpu]);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
}

/* ---- a module's sites --------------------------------------------------------------- */

static void module_sites_patched(struct ktest *t)
{
	static struct ftrace_ops ops = { .func = count_fib };
	unsigned long before = ftrace_nr_sites(), target;
	const char *name = "modtest_target";
	int (*fn)(int, int);
	size_t len;

	if (!find_boot_module("modtest_basic", &len)) {
		ktest_skip(t, "modtest_basic.ko is not a boot module (make test-modules)");
		return;
	}
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	target = kallsyms_lookup_name(name);
	KTEST_EXPECT_TRUE(t, ftrace_nr_sites() > before);
	KTEST_EXPECT_EQ(t, ftrace_location(target), target);
	KTEST_EXPECT_EQ(t, memcmp((const void *)target, ftrace_nop_replace(), MCOUNT_INSN_SIZE), 0);
	atomic_set(&fib_calls, 0);
	KTEST_EXPECT_EQ(t, ftrace_set_filter(&ops, name, strlen(name), 1), 0);
	KTEST_EXPECT_EQ(t, register_ftrace_function(&ops), 0);
	fn = (void *)target;
	KTEST_EXPECT_EQ(t, fn(4, 2), 42);
	KTEST_EXPECT_EQ(t, fn(1, 3), 13);
	KTEST_EXPECT_EQ(t, unregister_ftrace_function(&ops), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&fib_calls), 2);
	ftrace_free_filter(&ops);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
	KTEST_EXPECT_EQ(t, ftrace_nr_sites(), before);
}

static struct ktest_case ftrace_cases[] = {
	KTEST_CASE(every_site_a_nop),
	KTEST_CASE(ops_counts_every_call),
	KTEST_CASE(ops_filter_refuses_unknown),
	KTEST_CASE(one_ops_called_straight),
	KTEST_CASE(function_tracer_one_line_per_call),
	KTEST_CASE(graph_tracer_draws_the_calls),
	KTEST_CASE(function_tracers_obey_tracing_on),
	KTEST_CASE(graph_options_change_the_columns),
	KTEST_CASE(graph_tracing_thresh),
	KTEST_CASE(graph_max_depth),
	KTEST_CASE(graph_notrace_hides_the_callees),
	KTEST_CASE(stack_tracer_finds_the_deepest),
	KTEST_CASE(dyn_ftrace_total_info_counts_the_sites),
	KTEST_CASE(every_site_on_and_off_under_load),
	KTEST_CASE(module_sites_patched),
	KTEST_END,
};

static struct ktest_suite ftrace_suite = {
	.name = "ftrace",
	.cases = ftrace_cases,
};
KTEST_SUITE(ftrace_suite);
