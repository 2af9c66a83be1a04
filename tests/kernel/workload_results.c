/*
 * workload_results.c - the kernel's workloads (kernel/workloads.c), each
 * as one function returning one number, plus a few that reach the
 * scheduler, printf and the heap.  Every result is deterministic, so a
 * probed run must return exactly what an unprobed run returned.
 */
#include "workload_results.h"
#include "workloads.h"
#include "sched.h"
#include "timer.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"

#define WL_SORT_N	24
#define WL_HASH_KEYS	6
#define WL_WORKER_TICKS	2
#define WL_HEAP_ROUNDS	8
#define TICK_MS		(1000 / HZ)

/* Folds one more value into a running hash (the multiplier of Java's String.hashCode). */
static unsigned long mix(unsigned long h, unsigned long v)
{
	return h * 31 + v;
}

unsigned long wl_fib(void)
{
	return fib(12);
}

unsigned long wl_sort(void)
{
	static int array[WL_SORT_N];
	unsigned long seed = 12345, h = 0;

	for (int i = 0; i < WL_SORT_N; i++) {
		seed = seed * 1103515245 + 12345;
		array[i] = (seed / 65536) % 1000;
	}
	sort_ints(array, WL_SORT_N);
	for (int i = 0; i < WL_SORT_N; i++)
		h = mix(h, array[i]);
	return h;
}

unsigned long wl_crc32(void)
{
	static const char text[] = "123456789";

	return ~crc32_le(~0u, (const unsigned char *)text, sizeof(text) - 1);
}

unsigned long wl_hash(void)
{
	char key[16];
	unsigned long h = 0;

	for (unsigned long i = 0; i < WL_HASH_KEYS; i++) {
		snprintf(key, sizeof(key), "key%lu", i);
		h += ht_insert(key, i * i) == 0;
	}
	for (unsigned long i = 0; i < WL_HASH_KEYS; i++) {
		snprintf(key, sizeof(key), "key%lu", i);
		h = mix(h, ht_lookup(key));
	}
	h = mix(h, ht_lookup("nokey"));
	ht_clear();
	return h;
}

unsigned long wl_worker(void)
{
	return worker_thread((void *)WL_WORKER_TICKS);
}

/* What `run worker 2` does: a thread that sleeps each tick, joined. */
unsigned long wl_thread(void)
{
	struct task_struct *t = kthread_create(worker_thread, (void *)WL_WORKER_TICKS,
					       "wl_thread");

	if (!t)
		return ~0ul;
	yield();
	msleep(TICK_MS);
	return kthread_join(t);
}

unsigned long wl_format(void)
{
	char buf[128];
	unsigned long h = 0;
	int n;

	n = snprintf(buf, sizeof(buf), "%d %i %u %x %X %o %c %s %5.2s|%-6d|%08lx %%",
		     -42, 7, 3000000000u, 0xbeef, 0xcafe, 8, 'k', "probe", "trace",
		     13, 0x1234abcdul);
	h = mix(h, n);
	for (const char *c = buf; *c; c++)
		h = mix(h, (unsigned char)*c);
	return h;
}

unsigned long wl_heap(void)
{
	void *p[WL_HEAP_ROUNDS];
	unsigned long h = 0;

	for (int i = 0; i < WL_HEAP_ROUNDS; i++) {
		p[i] = kmalloc(16 << (i % 5));
		h = mix(h, p[i] != NULL);
		if (p[i])
			memset(p[i], i, 16);
	}
	for (int i = 0; i < WL_HEAP_ROUNDS; i += 2)
		kfree(p[i]);
	for (int i = 1; i < WL_HEAP_ROUNDS; i += 2) {
		h = mix(h, p[i] ? ((unsigned char *)p[i])[15] : 0xff);
		kfree(p[i]);
	}
	return h;
}

const struct workload_result workload_results[] = {
	{ "fib", wl_fib, false }, { "sort", wl_sort, false },
	{ "crc32", wl_crc32, false }, { "hash", wl_hash, true },
	{ "worker", wl_worker, false }, { "thread", wl_thread, false },
	{ "format", wl_format, false }, { "heap", wl_heap, true },
};
const int nr_workload_results = ARRAY_SIZE(workload_results);
