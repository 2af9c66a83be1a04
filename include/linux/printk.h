/*
 * linux/printk.h - printk, its KERN_* levels and the pr_*() macros
 * (include/kernel.h), dump_stack() and the console loglevel.
 */
#ifndef LINUX_PRINTK_H
#define LINUX_PRINTK_H

#include "../kernel.h"
#include "../vsprintf.h"
#include "../stacktrace.h"

#endif
