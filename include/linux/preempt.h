/*
 * linux/preempt.h - preemption and context tests, Linux's names.
 *
 * preempt_count() is the running thread's own count (include/sched.h);
 * kprobes raises it for a whole hit.  in_interrupt() is true inside an
 * IRQ handler (the timer's, the keyboard's), counted per thread by
 * do_irq().  A kprobe handler runs inside the int3 exception: Linux
 * 5.8 and later count that as NMI context, older ones as none; here it
 * is not an interrupt, but preemptible() is false there, as in Linux.
 */
#ifndef LINUX_PREEMPT_H
#define LINUX_PREEMPT_H

#include <stdbool.h>
#include "../sched.h"
#include <asm/irqflags.h>

#define preemptible()	(preempt_count() == 0 && !irqs_disabled())
#define in_hardirq()	(get_current()->hardirq_count != 0)
#define in_irq()	in_hardirq()
#define in_interrupt()	in_hardirq()
#define in_task()	(!in_interrupt())
#define in_atomic()	(preempt_count() != 0)

#endif
