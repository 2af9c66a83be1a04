/* timer.h - the PIT tick.  HZ ticks per second; jiffies counts them. */
#ifndef TIMER_H
#define TIMER_H

#include <stdint.h>
#include <stdbool.h>

#define HZ 100    /* 10 ms per tick: slow enough for TCG, fast enough to preempt */

extern volatile unsigned long jiffies;

void pic_init(void);
void pic_eoi(int irq);
void pic_unmask(int irq);
void pic_mask(int irq);
/* True for a spurious IRQ 7/15: the caller must then skip EOI and handler. */
bool pic_is_spurious(int irq);
void pit_init(void);

/* Per-tick hooks (scheduler, workloads). */
void timer_add_hook(void (*fn)(void));

#endif
