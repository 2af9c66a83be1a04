/* linux/jiffies.h - the tick counter and HZ (include/timer.h). */
#ifndef LINUX_JIFFIES_H
#define LINUX_JIFFIES_H

#include "../timer.h"

#define MSEC_PER_SEC	1000UL
static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return (ms * HZ + MSEC_PER_SEC - 1) / MSEC_PER_SEC;
}
static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return j * (MSEC_PER_SEC / HZ);
}

#endif
