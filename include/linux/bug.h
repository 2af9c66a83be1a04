/*
 * linux/bug.h - WARN_ON() prints a warning and a backtrace and goes on;
 * BUG_ON() stops the kernel, as Linux's oops would.
 */
#ifndef LINUX_BUG_H
#define LINUX_BUG_H

#include "../kernel.h"
#include "../stacktrace.h"

#define WARN_ON(cond) ({						\
	int __c = !!(cond);						\
	if (__c) {							\
		printk(KERN_WARNING "WARNING: %s:%d: %s\n", __FILE__,	\
		       __LINE__, #cond);				\
		dump_stack();						\
	}								\
	__c; })
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define BUG()		panic("BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(cond)	do { if (cond) BUG(); } while (0)
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#endif
