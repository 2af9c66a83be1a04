/* linux/kthread.h - kernel threads (include/sched.h). */
#ifndef LINUX_KTHREAD_H
#define LINUX_KTHREAD_H

#include "../sched.h"

#endif
