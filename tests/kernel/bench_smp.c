/*
 * bench_smp.c - the article's global kprobe_lock against Linux's per-CPU
 * design: every CPU hits one probe at once, and we measure how much work
 * the machine gets done.
 *
 * Booted with "bench_smp" (or "bench_smp=ITERATIONS,REPEATS") on the
 * command line, the test image runs bench_smp_run() instead of the
 * shell, then leaves QEMU.  For each row one thread is bound to each
 * online CPU; all of them call bench_smp_target() ITERATIONS times,
 * starting together, interrupts off.  One line per row and repeat:
 *
 *   BENCHSMP row="classic" lock=percpu cpus=2 rep=1 iters=20000 \
 *            calls=40000 hits=40000 wall_tsc=... cpu_tsc=... \
 *            taken=0 contended=0 spin_tsc=0
 *
 * wall_tsc runs from the first CPU's start to the last CPU's end: the
 * machine's time for all the calls.  cpu_tsc is the sum of each CPU's own
 * loop time.  taken, contended and spin_tsc are kprobe_lock's per-CPU
 * counters (probes/kprobe_lock.c) summed over the CPUs: how many hits
 * took the lock, how many had to wait, and the TSC cycles they spun.
 * With kprobes.lock=percpu (the default) no hit takes it.
 *
 * Under multi-threaded TCG without icount the guest's TSC is the host's
 * TSC, so these are host cycles.  To turn them into seconds the kernel
 * counts TSC cycles over BENCH_SMP_CAL_TICKS timer ticks (QEMU's timer
 * follows the host clock) at the start and at the end of the run:
 * "BENCHSMP calibration tsc_hz_start=... tsc_hz_end=...".
 *
 * tests/bench_smp.py boots this at 1, 2 and 4 CPUs, per-CPU and with
 * kprobes.lock=global, and makes the table.  The rows repeat round
 * robin (row 1, row 2, ..., row 1, ...), so a change of load on the
 * host spreads over every row instead of landing on one.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "errno.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include <asm/percpu.h>
#include <asm/atomic.h>
#include "sched.h"
#include "smp.h"
#include "timer.h"
#include "string.h"
#include "vsprintf.h"
#include "bench.h"
#include "linkage.h"

#define BENCH_SMP_DEFAULT_ITERS	20000
#define BENCH_SMP_DEFAULT_REPS	5
#define BENCH_SMP_WARMUP_ITERS	100	/* let QEMU translate the code first */
#define BENCH_SMP_CAL_TICKS	25	/* 250 ms of timer ticks per calibration */
#define BENCH_SMP_SLEEP_MS	1
#define BENCH_SMP_ARG_LEN	32
#define CACHE_LINE		64	/* host cache line: no two CPUs' results share one */

/*
 * The probed function.  It writes nothing shared: a counter that every
 * CPU increments would bounce one cache line between the host cores and
 * stop even the "no probe" row from scaling.  asmlinkage: x comes on
 * the stack, so the body starts with a load and is long enough for the
 * optimized row's jump (with x in %eax it is lea and ret: too short).
 */
noinline asmlinkage int bench_smp_target(int x)
{
	barrier();
	return 2 * x + 1;
}

/* Hits seen by the pre-handler, per CPU for the same reason. */
static DEFINE_PER_CPU(unsigned long, bench_smp_hits);

static int bench_smp_pre(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(bench_smp_hits);
	return 0;
}

static struct kprobe bench_smp_kp;

/* ---- the rows ----------------------------------------------------------------- */

struct bench_smp_row {
	const char *name;
	bool probed;		/* false: no probe at all */
	enum bench_mode mode;
};

/* kprobes.lock=percpu: Linux's design, every hit path. */
static const struct bench_smp_row percpu_rows[] = {
	{ "no probe", false, BENCH_CLASSIC },
	{ "classic", true, BENCH_CLASSIC },
	{ "boosted", true, BENCH_BOOSTED },
	{ "optimized", true, BENCH_OPTIMIZED },
};

/*
 * kprobes.lock=global: the classic hit, which holds kprobe_lock from the
 * int3 to the end of the single step, as in 2005.  An optimized probe
 * never takes it (2005 had no jumps) and an unprobed call knows nothing
 * of it: those rows are the per-CPU boot's.
 */
static const struct bench_smp_row global_rows[] = {
	{ "classic", true, BENCH_CLASSIC },
};

/* ---- one thread per CPU ----------------------------------------------------------- */

struct bench_smp_cpu {
	uint64_t start, end;	/* TSC at the loop's ends */
	unsigned long bad;	/* calls that returned a wrong result */
} __aligned(CACHE_LINE);

static struct bench_smp_cpu bench_smp_cpus[NR_CPUS];
static unsigned long bench_smp_iters;
static atomic_t bench_smp_ready, bench_smp_started;
static volatile int bench_smp_workers;	/* threads started for this row, before "go" */
static volatile bool bench_smp_go;

/*
 * Interrupts stay off in the loop: a tick would add its handler's time
 * to one CPU's figure.  They are on while the worker waits for "go", so
 * that bench_smp_measure(), which says it, can run on the same CPU.  The
 * worker that shares its CPU with bench_smp_measure() starts only when
 * that thread blocks, so every worker then waits again until all have
 * arrived: the loops start within a few microseconds of each other (on
 * an idle host).  That wait keeps interrupts on too: kprobes may stop
 * every other CPU at any moment for one look at where they are
 * (text_snapshot_take(): the optimizer's batch, freeing a detour or a
 * boosted slot), and a CPU spinning with interrupts off would never
 * answer - nor would its partner, stopped, ever arrive.
 */
static int bench_smp_worker(void *arg)
{
	struct bench_smp_cpu *c = arg;
	unsigned long flags, i, bad = 0;
	int x = smp_processor_id();

	for (i = 0; i < BENCH_SMP_WARMUP_ITERS; i++)
		bench_smp_target(x);
	atomic_inc(&bench_smp_ready);
	while (!READ_ONCE(bench_smp_go))
		cpu_relax();

	atomic_inc(&bench_smp_started);
	while (atomic_read(&bench_smp_started) < READ_ONCE(bench_smp_workers))
		cpu_relax();
	flags = local_irq_save();
	c->start = rdtsc();
	for (i = 0; i < bench_smp_iters; i++)
		bad += bench_smp_target(x) != 2 * x + 1;
	c->end = rdtsc();
	local_irq_restore(flags);
	c->bad = bad;
	return 0;
}

struct bench_smp_result {
	int cpus;
	unsigned long hits, bad;
	uint64_t wall, cpu_sum;
	struct kprobe_lock_stats lock;
};

/* Start one worker per online CPU, let them go together, sum up. */
static void bench_smp_measure(struct bench_smp_result *r)
{
	static struct task_struct *threads[NR_CPUS];
	uint64_t first = ~0ull, last = 0;
	int cpu, i, n = 0;

	atomic_set(&bench_smp_ready, 0);
	atomic_set(&bench_smp_started, 0);
	WRITE_ONCE(bench_smp_go, false);
	for_each_online_cpu(cpu) {
		threads[n] = kthread_create_on_cpu(bench_smp_worker, &bench_smp_cpus[cpu],
						   cpu, "bench-smp");
		if (threads[n])
			n++;
	}
	WRITE_ONCE(bench_smp_workers, n);
	while (atomic_read(&bench_smp_ready) < n)
		msleep(BENCH_SMP_SLEEP_MS);
	for_each_online_cpu(cpu)	/* the warm-up calls hit too */
		per_cpu(bench_smp_hits, cpu) = 0;
	kprobe_lock_stats_reset();
	WRITE_ONCE(bench_smp_go, true);
	for (i = 0; i < n; i++)
		kthread_join(threads[i]);
	kprobe_lock_stats_sum(&r->lock);

	memset(r, 0, offsetof(struct bench_smp_result, lock));
	r->cpus = n;
	for_each_online_cpu(cpu) {
		const struct bench_smp_cpu *c = &bench_smp_cpus[cpu];

		if (c->start < first)
			first = c->start;
		if (c->end > last)
			last = c->end;
		r->cpu_sum += c->end - c->start;
		r->bad += c->bad;
		r->hits += per_cpu(bench_smp_hits, cpu);
	}
	r->wall = last - first;
}

static void bench_smp_row(const struct bench_smp_row *row, unsigned long rep)
{
	const char *lock = kprobes_global_lock ? "global" : "percpu";
	struct bench_smp_result r;
	unsigned long calls;
	bool mode_ok = true;
	int err = 0;

	bench_set_mode(row->mode);
	if (row->probed) {
		bench_smp_kp = (struct kprobe){ .addr = (kprobe_opcode_t *)bench_smp_target,
						.pre_handler = bench_smp_pre };
		err = register_kprobe(&bench_smp_kp);
	}
	wait_for_kprobe_optimizer();	/* the optimized row: the jump is in */
	if (err) {
		printk("BENCHSMP row=\"%s\" lock=%s error=%d (%s)\n", row->name, lock,
		       err, errno_name(err));
		bench_set_mode(BENCH_OPTIMIZED);
		return;
	}
	bench_smp_measure(&r);
	if (row->probed) {
		mode_ok = bench_mode_taken(bench_smp_kp.addr, row->mode);
		unregister_kprobe(&bench_smp_kp);
	}
	bench_set_mode(BENCH_OPTIMIZED);	/* the defaults: both on */

	calls = (unsigned long)r.cpus * bench_smp_iters;
	printk("BENCHSMP row=\"%s\" lock=%s cpus=%d rep=%lu iters=%lu calls=%lu hits=%lu wall_tsc=%llu cpu_tsc=%llu taken=%lu contended=%lu spin_tsc=%llu\n",
	       row->name, lock, r.cpus, rep, bench_smp_iters, calls,
	       row->probed ? r.hits : calls, r.wall, r.cpu_sum, r.lock.taken,
	       r.lock.contended, r.lock.spin_cycles);
	if (!mode_ok)
		printk("BENCHSMP row=\"%s\" lock=%s error=probe did not take the %s path\n",
		       row->name, lock, bench_mode_names[row->mode]);
	if (row->probed && r.hits != calls)
		printk("BENCHSMP row=\"%s\" lock=%s error=hits %lu != calls %lu\n",
		       row->name, lock, r.hits, calls);
	if (r.bad || r.cpus != (int)num_online_cpus())
		printk("BENCHSMP row=\"%s\" lock=%s error=%lu wrong results, %d of %u CPUs ran\n",
		       row->name, lock, r.bad, r.cpus, num_online_cpus());
}

/* ---- the clock ------------------------------------------------------------------ */

/*
 * TSC cycles per second, counted over BENCH_SMP_CAL_TICKS timer ticks
 * from one tick's edge to another's.  QEMU's timer follows the host
 * clock when there is no icount, so this is host time.
 */
static uint64_t bench_smp_tsc_hz(void)
{
	unsigned long j = jiffies;
	uint64_t t0;

	while (jiffies == j)
		cpu_relax();
	t0 = rdtsc();
	j = jiffies;
	while (jiffies - j < BENCH_SMP_CAL_TICKS)
		cpu_relax();
	return (rdtsc() - t0) * HZ / BENCH_SMP_CAL_TICKS;
}

/* "ITERATIONS" or "ITERATIONS,REPEATS"; anything unreadable keeps the default. */
static void bench_smp_args(const char *value, unsigned long *iters, unsigned long *reps)
{
	char buf[BENCH_SMP_ARG_LEN];
	char *comma;
	unsigned long v;

	*iters = BENCH_SMP_DEFAULT_ITERS;
	*reps = BENCH_SMP_DEFAULT_REPS;
	if (!value)
		return;
	strlcpy(buf, value, sizeof(buf));
	comma = strchr(buf, ',');
	if (comma) {
		*comma = '\0';
		if (!kstrtoul(comma + 1, 10, &v) && v > 0)
			*reps = v;
	}
	if (!kstrtoul(buf, 10, &v) && v > 0)
		*iters = v;
}

static void bench_smp_run(const char *value)
{
	const struct bench_smp_row *rows = kprobes_global_lock ? global_rows : percpu_rows;
	size_t nrows = kprobes_global_lock ? ARRAY_SIZE(global_rows) : ARRAY_SIZE(percpu_rows);
	unsigned long reps, rep;
	uint64_t hz_start;
	size_t i;

	bench_smp_args(value, &bench_smp_iters, &reps);
	hz_start = bench_smp_tsc_hz();
	printk("BENCHSMP start cpus=%u lock=%s iters=%lu reps=%lu rows=%zu\n",
	       num_online_cpus(), kprobes_global_lock ? "global" : "percpu",
	       bench_smp_iters, reps, nrows);
	for (rep = 1; rep <= reps; rep++)
		for (i = 0; i < nrows; i++)
			bench_smp_row(&rows[i], rep);
	printk("BENCHSMP calibration ticks=%d tsc_hz_start=%llu tsc_hz_end=%llu\n",
	       BENCH_SMP_CAL_TICKS, hz_start, bench_smp_tsc_hz());
	printk("BENCHSMP done\n");
	qemu_exit(QEMU_EXIT_PASS);
}
DEFINE_BOOT_MODE("bench_smp", bench_smp_run);
