/*
 * linux/kernel.h - what Linux's kernel.h gives a module: printk and the
 * pr_*() macros, the integer types and limits, min/max, container_of,
 * ARRAY_SIZE, kstrto*(), WARN_ON/BUG_ON.
 */
#ifndef LINUX_KERNEL_H
#define LINUX_KERNEL_H

#include <stdarg.h>
#include "types.h"
#include "compiler.h"
#include "limits.h"
#include "printk.h"
#include "bug.h"
#include "err.h"
#include "../string.h"

#define min(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)	ALIGN_UP(x, a)

#endif
