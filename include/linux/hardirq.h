/* linux/hardirq.h - in_interrupt() and friends (linux/preempt.h). */
#ifndef LINUX_HARDIRQ_H
#define LINUX_HARDIRQ_H

#include "preempt.h"

#endif
