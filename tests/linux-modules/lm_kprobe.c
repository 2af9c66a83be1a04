// SPDX-License-Identifier: GPL-2.0
/*
 * lm_kprobe.c - a kprobe module in the shape of Linux's samples: the
 * function to probe is a module parameter ("insmod lm_kprobe
 * symbol=fib"), messages go through pr_info() with the function's name
 * in front (pr_fmt), and module_init() has no semicolon after it.
 *
 * The pre-handler reports how far regs->ip is past p->addr: 1 on
 * Linux x86 (the int3 trap address), and so here.
 */
#define pr_fmt(fmt) "%s: " fmt, __func__

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

static char symbol[KSYM_NAME_LEN] = "kthread_create";
module_param_string(symbol, symbol, KSYM_NAME_LEN, S_IRUGO);
MODULE_PARM_DESC(symbol, "The function to probe");

static unsigned long hits;

static struct kprobe kp = {
	.symbol_name = symbol,
};

static int handler_pre(struct kprobe *p, struct pt_regs *regs)
{
	hits++;
	pr_info("<%s> hit %lu: ip - addr = %lu, arg0 = %lu, flags = 0x%lx\n",
		p->symbol_name, hits, instruction_pointer(regs) - (unsigned long)p->addr,
		regs_get_kernel_argument(regs, 0), regs->flags);
	return 0;
}

static void handler_post(struct kprobe *p, struct pt_regs *regs,
			 unsigned long flags)
{
	pr_debug("<%s> post-handler, ip = %lx\n", p->symbol_name, regs->ip);
}

static int __init lm_kprobe_init(void)
{
	int ret;

	kp.pre_handler = handler_pre;
	kp.post_handler = handler_post;
	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("register_kprobe(%s) failed, returned %d\n", symbol, ret);
		return ret;
	}
	pr_info("planted kprobe at 0x%px\n", kp.addr);
	return 0;
}

static void __exit lm_kprobe_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("kprobe at 0x%px unregistered after %lu hits\n", kp.addr, hits);
}

module_init(lm_kprobe_init)
module_exit(lm_kprobe_exit)
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("a kprobe on any function, named by a parameter");
