/*
 * linux/random.h - get_random_u32() (kernel/random.c), and the names
 * older Linux used for the same thing: prandom_u32() (until 6.1) and
 * random32() (until 2.6.35).
 */
#ifndef LINUX_RANDOM_H
#define LINUX_RANDOM_H

#include "types.h"
#include "../random.h"

#define prandom_u32()	get_random_u32()
#define random32()	get_random_u32()

/* A number in [0, ceil): the multiply-shift keeps it uniform enough. */
static inline u32 get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)get_random_u32() * ceil) >> 32);
}

/* A number in (floor, U32_MAX] (Linux 6.2). */
static inline u32 get_random_u32_above(u32 floor)
{
	return floor + 1 + get_random_u32_below(UINT32_MAX - floor);
}

#endif
