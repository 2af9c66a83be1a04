/* linux/smp.h - one CPU: CPU 0, always. */
#ifndef LINUX_SMP_H
#define LINUX_SMP_H

#include "preempt.h"

#define NR_CPUS			1
#define smp_processor_id()	0
#define raw_smp_processor_id()	0
#define get_cpu()		({ preempt_disable(); 0; })
#define put_cpu()		preempt_enable()
#define num_online_cpus()	1U

#endif
