/* timer.h - the PIT tick.  HZ ticks per second; jiffies counts them. */
#ifndef TIMER_H
#define TIMER_H

#include <stdint.h>

#define HZ 100    /* 10 ms per tick: slow enough for TCG, fast enough to preempt */

extern volatile unsigned long jiffies;

void pit_init(void);

/* Per-tick hooks (scheduler, workloads). */
void timer_add_hook(void (*fn)(void));

#endif
