/*
 * linux/kprobes.h - kprobes, jprobes and kretprobes (include/kprobes.h),
 * with what Linux's header adds for modules:
 *   __kprobes          put a function in .kprobes.text: never probed
 *                      (the loader adds the section to the blacklist)
 *   NOKPROBE_SYMBOL()  the same for one function, in place
 *   __kretprobe_trampoline   Linux 5.15's name for the return trampoline
 *   JPROBE_ENTRY()     the cast old jprobe code wraps its handler in
 */
#ifndef LINUX_KPROBES_H
#define LINUX_KPROBES_H

#include "kernel.h"
#include <asm/ptrace.h>
#include "kallsyms.h"
/*
 * Linux's header reaches these through its own includes (smp.h,
 * spinlock.h, mutex.h, rcupdate.h -> preempt.h), and probe code relies
 * on it: lib/test_kprobes.c calls preemptible() in a handler having
 * included only kernel.h, kprobes.h, random.h and kunit/test.h.
 */
#include "preempt.h"
#include "smp.h"
#include "spinlock.h"
#include "mutex.h"
#include "../kprobes.h"
#include "../nokprobe.h"

/*
 * Linux's built-in sanity test (lib/test_kprobes.c, 2.6.25-5.13) defines
 * it and init_kprobes() calls it, here as in Linux, built with
 * CONFIG_KPROBES_SANITY_TEST=y (docs/modules.md, "Built-in files").
 */
int init_test_probes(void);

#define __kprobes	__attribute__((__section__(".kprobes.text")))
#define __kretprobe_trampoline	kretprobe_trampoline
/* 2.6-era jprobes wrote .entry = JPROBE_ENTRY(handler). */
#define JPROBE_ENTRY(handler)	((void *)(handler))

#endif
