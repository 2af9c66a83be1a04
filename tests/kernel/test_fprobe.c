/*
 * test_fprobe.c - suite "fprobe": one callback on many functions, exact
 * entry and exit counts, filters and notfilters (kernel/trace/fprobe.c).
 */
#include "ktest.h"
#include "fprobe.h"
#include "rethook.h"
#include "workloads.h"
#include "trap_watch.h"
#include "kallsyms.h"
#include "sched.h"
#include "string.h"
#include "errno.h"

#define FIB_N		10
#define FIB_VALUE	55
#define FIB_CALLS	177	/* 2 * fib(11) - 1 */

static unsigned long entries_fib, entries_sort, entries_other, exits_fib, exits_sort;
static unsigned long exit_ret_sum;

static void on_entry(struct fprobe *fp, unsigned long ip, struct pt_regs *regs)
{
	if (ip == (unsigned long)fib)
		entries_fib++;
	else if (ip == (unsigned long)sort_ints)
		entries_sort++;
	else
		entries_other++;
}

static void on_exit(struct fprobe *fp, unsigned long ip, struct pt_regs *regs)
{
	if (ip == (unsigned long)fib) {
		exits_fib++;
		exit_ret_sum += regs_return_value(regs);
	} else if (ip == (unsigned long)sort_ints) {
		exits_sort++;
	}
}

static void reset_counts(void)
{
	entries_fib = entries_sort = entries_other = exits_fib = exits_sort = exit_ret_sum = 0;
}

/*
 * fib and sort_ints, but not cmp_ints: every call counted once, at both
 * ends.  fib(10) nests 10 deep: more nodes than Linux's default of 2 per
 * function per CPU.
 */
static void exact_counts_on_many_functions(struct ktest *t)
{
	static struct fprobe fp = { .entry_handler = on_entry, .exit_handler = on_exit,
				    .nr_maxactive = 32 };
	int v[4] = { 4, 2, 3, 1 };
	struct trap_watch w;

	reset_counts();
	KTEST_ASSERT_EQ(t, register_fprobe(&fp, "fib sort_ints cmp_ints", "cmp_ints"), 0);
	KTEST_EXPECT_EQ(t, fp.ops.filter_hash->count, 3);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 2);
	KTEST_ASSERT_EQ(t, trap_watch_start(&w), 0);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	sort_ints(v, 4);
	trap_watch_stop(&w);
	KTEST_EXPECT_EQ(t, unregister_fprobe(&fp), 0);
	KTEST_EXPECT_EQ(t, trap_watch_total(&w), 0);
	KTEST_EXPECT_EQ(t, entries_fib, FIB_CALLS);
	KTEST_EXPECT_EQ(t, exits_fib, FIB_CALLS);
	KTEST_EXPECT_EQ(t, exit_ret_sum, 420);	/* every fib call's value */
	KTEST_EXPECT_EQ(t, entries_sort, 1);
	KTEST_EXPECT_EQ(t, exits_sort, 1);
	KTEST_EXPECT_EQ(t, entries_other, 0);	/* cmp_ints left out */
	KTEST_EXPECT_EQ(t, fp.nmissed, 0);
	KTEST_EXPECT_EQ(t, v[0], 1);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
	KTEST_EXPECT_TRUE(t, this_cpu_read(current_task)->rethooks == NULL);
	fib(FIB_N);
	KTEST_EXPECT_EQ(t, entries_fib, FIB_CALLS);	/* gone */
}

/* No exit handler: no rethook at all, entries only. */
static void entry_only_by_address(struct ktest *t)
{
	static struct fprobe fp = { .entry_handler = on_entry };
	unsigned long addrs[] = { (unsigned long)fib };

	reset_counts();
	KTEST_ASSERT_EQ(t, register_fprobe_ips(&fp, addrs, 1), 0);
	KTEST_EXPECT_TRUE(t, fp.rethook == NULL);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, unregister_fprobe(&fp), 0);
	KTEST_EXPECT_EQ(t, entries_fib, FIB_CALLS);
	KTEST_EXPECT_EQ(t, exits_fib, 0);
}

/* Too few nodes for a deep recursion: the calls without one are missed. */
static void missed_without_a_node(struct ktest *t)
{
	static struct fprobe fp = { .entry_handler = on_entry, .exit_handler = on_exit,
				    .nr_maxactive = 4 };

	reset_counts();
	KTEST_ASSERT_EQ(t, register_fprobe(&fp, "fib", NULL), 0);
	KTEST_EXPECT_EQ(t, fib(FIB_N), FIB_VALUE);
	KTEST_EXPECT_EQ(t, unregister_fprobe(&fp), 0);
	KTEST_EXPECT_EQ(t, entries_fib, FIB_CALLS);
	KTEST_EXPECT_EQ(t, exits_fib + fp.nmissed, FIB_CALLS);
	KTEST_EXPECT_TRUE(t, fp.nmissed > 0);
}

static void bad_filters_refused(struct ktest *t)
{
	static struct fprobe fp = { .entry_handler = on_entry };

	KTEST_EXPECT_EQ(t, register_fprobe(&fp, "no_such_function_at_all", NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, register_fprobe(&fp, "fib", "fib"), -EINVAL);	/* none left */
	KTEST_EXPECT_EQ(t, register_fprobe(&fp, "", NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, ftrace_nr_enabled(), 0);
}

static struct ktest_case fprobe_cases[] = {
	KTEST_CASE(exact_counts_on_many_functions),
	KTEST_CASE(entry_only_by_address),
	KTEST_CASE(missed_without_a_node),
	KTEST_CASE(bad_filters_refused),
	KTEST_END,
};

static struct ktest_suite fprobe_suite = {
	.name = "fprobe",
	.cases = fprobe_cases,
};
KTEST_SUITE(fprobe_suite);
