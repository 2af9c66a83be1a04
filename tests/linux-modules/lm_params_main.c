// SPDX-License-Identifier: GPL-2.0
/*
 * lm_params_main.c - module parameters of every common type, a module
 * made of two objects, and printk's log levels.
 *
 *   insmod lm_params count=2 name=probe verbose=1 mask=0x10 lvl=-3
 *
 * or on the kernel command line: insmod=lm_params lm_params.count=2
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include "lm_params.h"

static int count = LM_DEFAULT_COUNT;	/* from ccflags-y */
module_param(count, int, S_IRUGO);
MODULE_PARM_DESC(count, "How many greetings");

static char *name = "world";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "Whom to greet");

static bool verbose;
module_param(verbose, bool, 0644);

static unsigned long mask = 0xff;
module_param(mask, ulong, 0);

static short level = -1;
module_param_named(lvl, level, short, 0);

static int __init lm_params_init(void)
{
	char *text = lm_greet(name, count);

	if (!text)
		return -ENOMEM;
	pr_info("lm_params: %s\n", text);
	kfree(text);
	pr_info("lm_params: count=%d name=%s verbose=%d mask=%#lx lvl=%d\n",
		count, name, verbose, mask, level);
	printk(KERN_DEBUG "lm_params: a debug line the console does not show\n");
	pr_debug("lm_params: compiled out without DEBUG\n");
	if (verbose)
		dump_stack();
	return 0;
}

static void __exit lm_params_exit(void)
{
	pr_notice("lm_params: bye\n");
}

module_init(lm_params_init)
module_exit(lm_params_exit)
MODULE_LICENSE("GPL");
MODULE_AUTHOR("kprobes-i386");
