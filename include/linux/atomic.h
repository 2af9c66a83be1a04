/*
 * linux/atomic.h - atomic_t and its operations, cmpxchg(), xchg(),
 * smp_mb() (arch/i386/include/asm/atomic.h).
 */
#ifndef LINUX_ATOMIC_H
#define LINUX_ATOMIC_H

#include <asm/atomic.h>

#endif
