/* linux/ktime.h - ktime_t, ktime_get() and arithmetic (include/ktime.h). */
#ifndef LINUX_KTIME_H
#define LINUX_KTIME_H

#include "types.h"
#include "../ktime.h"

#endif
