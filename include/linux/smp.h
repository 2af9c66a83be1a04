/*
 * linux/smp.h - which CPU am I, and how many are there: the kernel's
 * own smp_processor_id() (one %fs-relative load), num_online_cpus(),
 * and get_cpu()/put_cpu(), which keep the caller on its CPU meanwhile.
 */
#ifndef LINUX_SMP_H
#define LINUX_SMP_H

#include "preempt.h"
#include "../smp.h"

#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

#endif
