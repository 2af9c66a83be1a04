/* linux/interrupt.h - in_interrupt() and the irq flags (local_irq_save()). */
#ifndef LINUX_INTERRUPT_H
#define LINUX_INTERRUPT_H

#include "preempt.h"
#include <asm/irqflags.h>

#endif
