/* linux/timekeeping.h - ktime_get() (include/ktime.h). */
#ifndef LINUX_TIMEKEEPING_H
#define LINUX_TIMEKEEPING_H

#include "ktime.h"

#endif
