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
#include <asm/percpu.h>
#include "smp.h"
#include "mm.h"

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

/* ---- rethook's pool ------------------------------------------------------------------ */

#define POOL_NODES	8
#define POOL_ROUNDS	20000

struct pool_test_node {
	struct rethook_node node;
	int in_use;		/* a node handed out twice at once is the bug */
};

static void pool_test_handler(struct rethook_node *node, void *data, struct pt_regs *regs)
{
}

static struct rethook *pool_rh;

/* Take two nodes, give them back, many times: count double hand-outs. */
static int pool_worker(void *arg)
{
	int bad = 0;

	for (int i = 0; i < POOL_ROUNDS; i++) {
		struct rethook_node *a = rethook_try_get(pool_rh), *b = rethook_try_get(pool_rh);

		for (struct rethook_node *n = a; n; n = (n == a) ? b : NULL)
			if (__atomic_exchange_n(&container_of(n, struct pool_test_node, node)->in_use,
						1, __ATOMIC_SEQ_CST))
				bad++;
		for (struct rethook_node *n = a; n; n = (n == a) ? b : NULL) {
			__atomic_store_n(&container_of(n, struct pool_test_node, node)->in_use, 0,
					 __ATOMIC_SEQ_CST);
			rethook_recycle(n);
		}
	}
	return bad;
}

/*
 * Every CPU takes and gives back nodes at once, with no lock: no node is
 * ever out twice, none is lost, and a node given back on a CPU is the
 * next one that CPU takes (its own slot).
 */
static void rethook_pool_shared_by_cpus(struct ktest *t)
{
	struct task_struct *workers[NR_CPUS] = { NULL };
	struct rethook_node *got[POOL_NODES + 1] = { NULL };
	int cpu, bad = 0, n = 0;

	pool_rh = rethook_alloc(NULL, pool_test_handler);
	KTEST_ASSERT_TRUE(t, pool_rh != NULL);
	for (int i = 0; i < POOL_NODES; i++) {
		struct pool_test_node *tn = kzalloc(sizeof(*tn));

		KTEST_ASSERT_TRUE(t, tn != NULL);
		rethook_add_node(pool_rh, &tn->node);
	}
	for_each_online_cpu(cpu)
		workers[cpu] = kthread_create_on_cpu(pool_worker, NULL, cpu, "rethook-pool");
	for_each_online_cpu(cpu)
		if (workers[cpu])
			bad += kthread_join(workers[cpu]);
	KTEST_EXPECT_EQ(t, bad, 0);
	while (n <= POOL_NODES && (got[n] = rethook_try_get(pool_rh)))
		n++;
	KTEST_EXPECT_EQ(t, n, POOL_NODES);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			KTEST_EXPECT_TRUE(t, got[i] != got[j]);
	rethook_recycle(got[0]);
	KTEST_EXPECT_TRUE(t, pool_rh->cpu_free[smp_processor_id()] == got[0]);
	KTEST_EXPECT_TRUE(t, rethook_try_get(pool_rh) == got[0]);
	for (int i = 0; i < n; i++)
		rethook_recycle(got[i]);
	rethook_free(pool_rh);
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
	KTEST_CASE(rethook_pool_shared_by_cpus),
	KTEST_END,
};

static struct ktest_suite fprobe_suite = {
	.name = "fprobe",
	.cases = fprobe_cases,
};
KTEST_SUITE(fprobe_suite);
