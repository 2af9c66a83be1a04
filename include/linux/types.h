/*
 * linux/types.h - Linux's fixed-size integer names for this kernel.
 * (The include/linux/ headers let a Linux module build unchanged; each
 * maps Linux's names onto what the kernel has.  docs/modules.md.)
 */
#ifndef LINUX_TYPES_H
#define LINUX_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t		u8;
typedef uint16_t	u16;
typedef uint32_t	u32;
typedef uint64_t	u64;
typedef int8_t		s8;
typedef int16_t		s16;
typedef int32_t		s32;
typedef int64_t		s64;
typedef u8  __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8  __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;

typedef long		ssize_t;
typedef int		pid_t;
typedef long long	loff_t;
typedef unsigned int	gfp_t;
typedef unsigned short	umode_t;
typedef unsigned long	phys_addr_t;
#include <asm/atomic.h>	/* atomic_t, the kernel's own */

#endif
