/*
 * hash.h - hash_32(), the multiplicative hash our tables use (Linux's
 * <linux/hash.h> has the same function).
 *
 * Multiply by 2^32 / golden ratio and keep the top `bits` bits.  The
 * multiplication spreads neighbouring keys - a function's first few
 * instructions, adjacent pages - over different buckets.
 */
#ifndef HASH_H
#define HASH_H

#include <stdint.h>
#include "kernel.h"

#define GOLDEN_RATIO_32	0x9e3779b9u	/* 2^32 / phi */

/* always_inline: the int3 path calls it, and must not call probeable code. */
static __always_inline
uint32_t hash_32(uint32_t val, unsigned int bits)
{
	return (val * GOLDEN_RATIO_32) >> (32 - bits);
}

#endif
