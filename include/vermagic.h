/*
 * vermagic.h - the ABI facts a module must share with the kernel it is
 * loaded into (Linux's <linux/vermagic.h> and asm/module.h).
 *
 * Every module records VERMAGIC_STRING in .modinfo ("vermagic=...",
 * include/module.h); the loader refuses a module whose string is not
 * the kernel's own, before anything of it is linked or run.  Nothing
 * else could tell: a module built with the plain i386 convention links
 * and loads, and then reads its arguments from the stack while the
 * kernel passed them in %eax, %edx, %ecx.
 *
 * gcc defines no macro for -mregparm, so the build says it: the Makefile
 * passes -DCONFIG_REGPARM with -mregparm=3, as Linux 2.6.9 to 2.6.19
 * did (CONFIG_REGPARM put "REGPARM " in the vermagic of i386 modules;
 * from 2.6.20 every i386 kernel used regparm and the word went away).
 */
#ifndef VERMAGIC_H
#define VERMAGIC_H

#define MODULE_PROC_FAMILY	"686 "		/* -march=i686 */
#ifdef CONFIG_REGPARM
#define MODULE_REGPARM		"REGPARM "	/* -mregparm=3 */
#else
#define MODULE_REGPARM		""
#endif
#define MODULE_ARCH_VERMAGIC	MODULE_PROC_FAMILY MODULE_REGPARM

#define VERMAGIC_STRING		"kprobes-i386 " MODULE_ARCH_VERMAGIC

#endif
