/*
 * workloads.h - the functions the `run` workloads are made of
 * (kernel/workloads.c), for code that calls or probes them directly:
 * the optprobes suite probes every instruction of every one of them
 * and checks that each workload still computes the same result.
 */
#ifndef WORKLOADS_H
#define WORKLOADS_H

#include "kernel.h"

#define HT_KEY_LEN 16	/* bytes in a hash-table key, the NUL included */

/* true stops worker_thread before its next tick (the console's Ctrl-C). */
extern bool (*workload_interrupted)(void);

unsigned long fib(unsigned long n);
int cmp_ints(int x, int y);
void sort_ints(int *a, int n);
uint32_t crc32_byte(uint32_t crc, unsigned char c);
uint32_t crc32_le(uint32_t crc, const unsigned char *buf, size_t len);
unsigned int ht_hash(const char *key);
int ht_insert(const char *key, long value);
long ht_lookup(const char *key);
void ht_clear(void);			/* empty the table ht_insert() fills */
unsigned long do_work(unsigned long i);
int worker_thread(void *arg);

/* The names above that are workload code (not ht_clear), NULL-terminated. */
extern const char *const workload_functions[];

#endif
