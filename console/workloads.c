/*
 * workloads.c - small real programs to put probes on: `run NAME [ARGS]`.
 *
 * Each workload is a few noinline functions with plain C arguments, so
 * $arg1, $arg2... and $retval mean what the source says (Linux i386's
 * -mregparm=3: the first three arguments in %ax, %dx, %cx, the rest on
 * the stack, the result in %ax).  The functions to probe:
 *
 *   fib N        fib(n): recursive Fibonacci; fib(5) makes 15 calls
 *   sort N       sort_ints(a, n) insertion sort, cmp_ints(x, y) per compare
 *   crc32 TEXT   crc32_le(crc, buf, len), crc32_byte(crc, c) per byte
 *   hash N       ht_insert(key, value), ht_lookup(key), ht_hash(key):
 *                a string hash table with chaining
 *   worker N     worker_thread wakes every timer tick and calls do_work(i),
 *                N times, in a thread of its own ("worker")
 *
 * Names are global and unique, so `p fib` finds them in kallsyms.
 *
 * `run -a NAME [ARGS]` runs the workload on every online CPU at once,
 * one thread bound to each, and reports each CPU's result and time.  So
 * every workload must be safe to run on several CPUs together: each
 * keeps its data on its own stack or heap, and the one shared table
 * (hash) is held by one run at a time.
 */
#include "kernel.h"
#include "shell.h"
#include "sched.h"
#include "timer.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "workloads.h"
#include "mutex.h"
#include "smp.h"

/* ---- fib ------------------------------------------------------------------- */

noinline unsigned long fib(unsigned long n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

#define FIB_MAX 30	/* fib(30) is 1.6 million calls: a second or so */

static int run_fib(int argc, char **argv)
{
	unsigned long n = 10;

	if (argc > 1 && (kstrtoul(argv[1], 0, &n) || n > FIB_MAX)) {
		sh_printf("run fib: N must be 0..%d\n", FIB_MAX);
		return -EINVAL;
	}
	sh_printf("fib(%lu) = %lu\n", n, fib(n));
	return 0;
}

/* ---- sort ------------------------------------------------------------------ */

#define SORT_MAX 1000

#define WL_SEED 12345

/* The C standard's example rand(): fixed seed, same numbers every run. */
static int wl_rand(unsigned long *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return (*seed / 65536) % 1000;
}

noinline int cmp_ints(int x, int y)
{
	return (x > y) - (x < y);
}

noinline void sort_ints(int *a, int n)
{
	for (int i = 1; i < n; i++) {
		int v = a[i], j = i;

		while (j > 0 && cmp_ints(a[j - 1], v) > 0) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

static int run_sort(int argc, char **argv)
{
	unsigned long n = 8, seed = WL_SEED;
	int *a, ret = 0;

	if (argc > 1 && (kstrtoul(argv[1], 0, &n) || n == 0 || n > SORT_MAX)) {
		sh_printf("run sort: N must be 1..%d\n", SORT_MAX);
		return -EINVAL;
	}
	a = kmalloc(n * sizeof(*a));	/* each run its own: `run -a` */
	if (!a)
		return -ENOMEM;
	for (unsigned long i = 0; i < n; i++)
		a[i] = wl_rand(&seed);
	sort_ints(a, n);
	for (unsigned long i = 1; i < n && !ret; i++)
		if (a[i - 1] > a[i]) {
			sh_printf("run sort: NOT sorted at %lu\n", i);
			ret = -EIO;
		}
	if (!ret)
		sh_printf("sorted %lu numbers: smallest %d, largest %d\n", n, a[0], a[n - 1]);
	kfree(a);
	return ret;
}

/* ---- crc32 ----------------------------------------------------------------- */

#define CRC32_POLY_LE 0xEDB88320u	/* IEEE 802.3, bit-reversed */

noinline uint32_t crc32_byte(uint32_t crc, unsigned char c)
{
	crc ^= c;
	for (int bit = 0; bit < 8; bit++)
		crc = (crc >> 1) ^ (CRC32_POLY_LE & -(crc & 1));
	return crc;
}

noinline uint32_t crc32_le(uint32_t crc, const unsigned char *buf, size_t len)
{
	while (len--)
		crc = crc32_byte(crc, *buf++);
	return crc;
}

static int run_crc32(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "123456789";

	/* Pre- and post-inverted, as zlib and Ethernet do: the check value
	 * of "123456789" is cbf43926. */
	sh_printf("crc32(\"%s\") = %08x\n", text,
		  (unsigned int)~crc32_le(~0u, (const unsigned char *)text, strlen(text)));
	return 0;
}

/* ---- hash ------------------------------------------------------------------ */

#define HT_BUCKETS 16
#define HT_KEY_LEN 16
#define HASH_MAX   500

struct ht_entry {
	char key[HT_KEY_LEN];
	long value;
	struct ht_entry *next;
};

static struct ht_entry *ht_table[HT_BUCKETS];
static DEFINE_MUTEX(ht_mutex);	/* one `run hash` at a time fills and empties it */

/* djb2: h = h * 33 + c. */
noinline unsigned int ht_hash(const char *key)
{
	unsigned int h = 5381;

	while (*key)
		h = h * 33 + (unsigned char)*key++;
	return h % HT_BUCKETS;
}

noinline int ht_insert(const char *key, long value)
{
	struct ht_entry *e = kmalloc(sizeof(*e));
	unsigned int b = ht_hash(key);

	if (!e)
		return -ENOMEM;
	strlcpy(e->key, key, sizeof(e->key));
	e->value = value;
	e->next = ht_table[b];
	ht_table[b] = e;
	return 0;
}

/* Returns the entry's value, or -1 when the key is not there. */
noinline long ht_lookup(const char *key)
{
	for (struct ht_entry *e = ht_table[ht_hash(key)]; e; e = e->next)
		if (strcmp(e->key, key) == 0)
			return e->value;
	return -1;
}

void ht_clear(void)
{
	for (int b = 0; b < HT_BUCKETS; b++)
		while (ht_table[b]) {
			struct ht_entry *e = ht_table[b];

			ht_table[b] = e->next;
			kfree(e);
		}
}

static int run_hash(int argc, char **argv)
{
	unsigned long n = 4, found = 0;
	char key[HT_KEY_LEN];

	if (argc > 1 && (kstrtoul(argv[1], 0, &n) || n > HASH_MAX)) {
		sh_printf("run hash: N must be 0..%d\n", HASH_MAX);
		return -EINVAL;
	}
	mutex_lock(&ht_mutex);
	for (unsigned long i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "key%lu", i);
		if (ht_insert(key, i * i))
			break;
	}
	for (unsigned long i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "key%lu", i);
		found += ht_lookup(key) == (long)(i * i);
	}
	sh_printf("hash: inserted %lu keys, found %lu, \"nokey\" -> %ld\n", n, found,
		  ht_lookup("nokey"));
	ht_clear();
	mutex_unlock(&ht_mutex);
	return found == n ? 0 : -EIO;
}

/* ---- worker ------------------------------------------------------------------ */

#define WORKER_MAX 1000
#define TICK_MS    (1000 / HZ)

noinline unsigned long do_work(unsigned long i)
{
	return i * i;
}

/*
 * A thread that sleeps until the next timer tick, works, and repeats -
 * until Ctrl-C on the console (shell_interrupted()).
 */
noinline int worker_thread(void *arg)
{
	unsigned long n = (unsigned long)arg, sum = 0;

	for (unsigned long i = 0; i < n && !shell_interrupted(); i++) {
		msleep(TICK_MS);
		sum += do_work(i);
	}
	return sum;
}

static int run_worker(int argc, char **argv)
{
	unsigned long n = 5;
	struct task_struct *t;
	unsigned long start = jiffies, took;
	int sum;

	if (argc > 1 && (kstrtoul(argv[1], 0, &n) || n > WORKER_MAX)) {
		sh_printf("run worker: N must be 0..%d\n", WORKER_MAX);
		return -EINVAL;
	}
	t = kthread_create(worker_thread, (void *)n, "worker");
	if (!t)
		return -ENOMEM;
	sh_printf("worker: pid %d, %lu tick%s of work\n", task_pid(t), n, plural(n));
	sum = kthread_join(t);
	took = jiffies - start;
	if (shell_interrupted()) {
		sh_printf("worker: interrupted (Ctrl-C) after %lu tick%s\n", took, plural(took));
		return -EINTR;
	}
	sh_printf("worker: done, sum of squares %d, %lu tick%s\n", sum, took, plural(took));
	return 0;
}

/*
 * Every function above that a workload runs, by name: what `p NAME`
 * can probe, and what tests/kernel/test_optprobes.c probes at every
 * instruction (keep it in step with the functions).
 */
const char *const workload_functions[] = {
	"fib", "sort_ints", "cmp_ints", "crc32_le", "crc32_byte",
	"ht_insert", "ht_lookup", "ht_hash", "worker_thread", "do_work", NULL
};

/* ---- the table ------------------------------------------------------------------ */

const struct workload workloads[] = {
	{ "fib",    "[N]",    "fib(n), recursive (probe: fib)", run_fib },
	{ "sort",   "[N]",    "insertion sort of N numbers (sort_ints, cmp_ints)", run_sort },
	{ "crc32",  "[TEXT]", "CRC-32 of TEXT (crc32_le, crc32_byte)", run_crc32 },
	{ "hash",   "[N]",    "N keys into a hash table (ht_insert, ht_lookup, ht_hash)", run_hash },
	{ "worker", "[N]",    "a thread calls do_work(i) once per timer tick (do_work)", run_worker },
};
const int nr_workloads = ARRAY_SIZE(workloads);

/* ---- every CPU at once -------------------------------------------------------- */

/* One CPU's share of `run -a`. */
struct run_on_cpu {
	const struct workload *w;
	int argc;
	char **argv;
	struct task_struct *thread;
	int ret;
	int ran_on;		/* smp_processor_id() when it finished */
	unsigned long ticks;
};

static int run_on_cpu_thread(void *arg)
{
	struct run_on_cpu *r = arg;
	unsigned long start = jiffies;

	r->ret = r->w->run(r->argc, r->argv);
	r->ticks = jiffies - start;
	r->ran_on = smp_processor_id();
	return 0;
}

/* A thread bound to each online CPU, all started before any is joined. */
static int run_everywhere(const struct workload *w, int argc, char **argv)
{
	struct run_on_cpu r[NR_CPUS];
	unsigned long cpus = READ_ONCE(cpu_online_mask);	/* one snapshot */
	char name[TASK_NAME_LEN];
	int cpu, ret = 0;

	if (sched_single_cpu() && (cpus & ~1UL)) {
		/* Threads bound to the other CPUs would never run. */
		sh_printf("run -a: the other CPUs are parked (single-CPU mode, "
			  "docs/scheduler.md); run %s on one CPU instead\n",
			  w->name);
		return -EBUSY;
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		r[cpu] = (struct run_on_cpu){ .w = w, .argc = argc, .argv = argv,
					      .ran_on = -1 };
		if (!((cpus >> cpu) & 1))
			continue;
		snprintf(name, sizeof(name), "%s/%d", w->name, cpu);
		r[cpu].thread = kthread_create_on_cpu(run_on_cpu_thread, &r[cpu], cpu, name);
		if (!r[cpu].thread)
			r[cpu].ret = -ENOMEM;
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!((cpus >> cpu) & 1))
			continue;
		if (r[cpu].thread)
			kthread_join(r[cpu].thread);
		sh_printf("cpu %d: %s %s, %lu tick%s (ran on CPU %d)\n", cpu, w->name,
			  r[cpu].ret ? shell_strerror(r[cpu].ret) : "ok",
			  r[cpu].ticks, plural(r[cpu].ticks), r[cpu].ran_on);
		if (r[cpu].ret && !ret)
			ret = r[cpu].ret;
	}
	return ret;
}

static const struct workload *find_workload(const char *name)
{
	for (int i = 0; i < nr_workloads; i++)
		if (strcmp(name, workloads[i].name) == 0)
			return &workloads[i];
	return NULL;
}

int cmd_run(int argc, char **argv)
{
	bool all = argc >= 2 && strcmp(argv[1], "-a") == 0;
	const struct workload *w;

	if (all) {	/* run -a NAME ARGS: as run NAME ARGS, on every CPU */
		argc--;
		argv++;
	}
	w = argc >= 2 ? find_workload(argv[1]) : NULL;
	if (w)
		return all ? run_everywhere(w, argc - 1, argv + 1) : w->run(argc - 1, argv + 1);
	if (argc >= 2)
		sh_printf("run: no workload '%s'\n", argv[1]);
	sh_printf("usage: run [-a] NAME [ARGS]; -a runs it on every CPU at once.\n"
		  "The workloads and the functions to probe:\n");
	for (int i = 0; i < nr_workloads; i++) {
		char left[24];

		snprintf(left, sizeof(left), "%s %s", workloads[i].name, workloads[i].usage);
		sh_printf("  %-14s %s\n", left, workloads[i].help);
	}
	return argc >= 2 ? -ENOENT : 0;
}
