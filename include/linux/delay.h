/* linux/delay.h - msleep() (include/sched.h): the thread sleeps, others run. */
#ifndef LINUX_DELAY_H
#define LINUX_DELAY_H

#include "../sched.h"

#endif
