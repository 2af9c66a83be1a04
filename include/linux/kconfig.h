/*
 * linux/kconfig.h - the CONFIG_ options a module may test, for this
 * kernel.  Linux's build puts its configuration in front of every file
 * (-include); ours does the same with this one, so code that says
 * "#ifdef CONFIG_X86" takes the path that fits here.  Only what this
 * kernel has is defined.
 */
#ifndef LINUX_KCONFIG_H
#define LINUX_KCONFIG_H

#define CONFIG_X86		1
#define CONFIG_X86_32		1
#define CONFIG_MODULES		1
#define CONFIG_MODULE_UNLOAD	1
#define CONFIG_KALLSYMS		1
#define CONFIG_KPROBES		1
#define CONFIG_KRETPROBES	1
#define CONFIG_OPTPROBES	1
#define CONFIG_KPROBE_EVENTS	1
#define CONFIG_STACKTRACE	1
#define CONFIG_KUNIT		1
#define CONFIG_SMP		1
#define CONFIG_NR_CPUS		8	/* arch/i386/include/asm/percpu.h's NR_CPUS */
#define CONFIG_HZ		100	/* include/timer.h's HZ */

#endif
