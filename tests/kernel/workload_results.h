/*
 * workload_results.h - the kernel's workloads as functions that return
 * one number (what `run NAME` computes, without the printing), for
 * suites that probe code and check that results do not change.
 */
#ifndef WORKLOAD_RESULTS_H
#define WORKLOAD_RESULTS_H

#include "kernel.h"

struct workload_result {
	const char *name;
	unsigned long (*run)(void);
	bool heap;		/* computes with kmalloc()ed pointers */
};

unsigned long wl_fib(void);	/* fib(12) */
unsigned long wl_sort(void);	/* sort_ints() of a fixed sequence, hashed */
unsigned long wl_crc32(void);	/* crc32_le("123456789") */
unsigned long wl_hash(void);	/* ht_insert/ht_lookup of a few keys, hashed */
unsigned long wl_worker(void);	/* worker_thread() called directly: msleep() */
unsigned long wl_thread(void);	/* worker_thread() in a thread: create, sleep, join */
unsigned long wl_format(void);	/* snprintf() of every conversion, hashed */
unsigned long wl_heap(void);	/* kmalloc()/kfree() in a fixed pattern */

/* Every workload above, in that order. */
extern const struct workload_result workload_results[];
extern const int nr_workload_results;

#endif
