/*
 * workloads.c - small real programs to put probes on, run by the shell's
 * `run NAME [ARGS]` (console/run.c) and called or probed directly by the
 * tests and the boot-time smoke test (probes/kprobes_smoke.c).
 *
 * Each workload is a few noinline functions with plain C arguments, so
 * $arg1, $arg2... and $retval mean what the source says (Linux i386's
 * -mregparm=3: the first three arguments in %ax, %dx, %cx, the rest on
 * the stack, the result in %ax).  The functions to probe:
 *
 *   fib(n)              recursive Fibonacci; fib(5) makes 15 calls
 *   sort_ints(a, n)     insertion sort, cmp_ints(x, y) per compare
 *   crc32_le(crc, buf, len), crc32_byte(crc, c) per byte
 *   ht_insert(key, value), ht_lookup(key), ht_hash(key):
 *                       a string hash table with chaining
 *   worker_thread(n)    wakes every timer tick and calls do_work(i), n times
 *
 * Names are global and unique, so `p fib` finds them in kallsyms.
 *
 * `run -a` runs a workload on every online CPU at once, so each must be
 * safe on several CPUs together: each keeps its data on its own stack or
 * heap; the one shared table (hash) is the caller's to hold for one run
 * at a time (console/run.c takes a mutex around it).
 */
#include "kernel.h"
#include "sched.h"
#include "timer.h"
#include "mm.h"
#include "string.h"
#include "errno.h"
#include "workloads.h"

/* ---- fib ------------------------------------------------------------------- */

noinline unsigned long fib(unsigned long n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

/* ---- sort ------------------------------------------------------------------ */

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

/* ---- hash ------------------------------------------------------------------ */

#define HT_BUCKETS 16

struct ht_entry {
	char key[HT_KEY_LEN];
	long value;
	struct ht_entry *next;
};

static struct ht_entry *ht_table[HT_BUCKETS];

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

/* ---- worker ------------------------------------------------------------------ */

#define TICK_MS    (1000 / HZ)

/*
 * Asked before each tick of work: true stops worker_thread early.  The
 * console sets it to its Ctrl-C check, so a student can stop a long
 * `run worker`; NULL (no console, the tests) runs every tick.
 */
bool (*workload_interrupted)(void);

noinline unsigned long do_work(unsigned long i)
{
	return i * i;
}

/* A thread that sleeps until the next timer tick, works, and repeats. */
noinline int worker_thread(void *arg)
{
	unsigned long n = (unsigned long)arg, sum = 0;

	for (unsigned long i = 0; i < n; i++) {
		if (workload_interrupted && workload_interrupted())
			break;
		msleep(TICK_MS);
		sum += do_work(i);
	}
	return sum;
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
