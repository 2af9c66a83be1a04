/*
 * random.h - pseudo-random numbers (kernel/random.c), Linux's names.
 * Good enough to vary a test's input; not for secrets.
 */
#ifndef RANDOM_H
#define RANDOM_H

#include <stddef.h>
#include <stdint.h>

uint32_t get_random_u32(void);
uint64_t get_random_u64(void);
void get_random_bytes(void *buf, size_t len);

#endif
