/*
 * linux/smp.h - which CPU, how many, and running a function on the
 * others: the kernel's own answers (include/smp.h, docs/smp.md).
 */
#ifndef LINUX_SMP_H
#define LINUX_SMP_H

#include "preempt.h"
#include "../smp.h"

/* This CPU's number, with preemption off until put_cpu(). */
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

#endif
