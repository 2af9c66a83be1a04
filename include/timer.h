/* timer.h - the PIT tick.  HZ ticks per second; jiffies counts them. */
#ifndef TIMER_H
#define TIMER_H

#include <stdint.h>

#define HZ 100    /* 10 ms per tick: slow enough for TCG, fast enough to preempt */

extern volatile unsigned long jiffies;

/* Linux's jiffies comparisons: right across wrap-around (signed difference). */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)

void pit_init(void);

/* Per-tick hooks (scheduler, workloads). */
void timer_add_hook(void (*fn)(void));

#endif
