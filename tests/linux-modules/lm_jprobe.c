// SPDX-License-Identifier: GPL-2.0
/*
 * lm_jprobe.c - a jprobe as Linux wrote them until 4.15: the handler has
 * the probed function's prototype, sees its arguments as parameters, and
 * ends in jprobe_return().  It probes lm_target(int a, int b), a
 * function of the "linux_modules" test suite.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

static int j_lm_target(int a, int b)
{
	pr_info("jprobe: a = %d, b = %d\n", a, b);
	/* Always end with a call to jprobe_return(). */
	jprobe_return();
	return 0;
}

static struct jprobe my_jprobe = {
	.entry = j_lm_target,
	.kp = {
		.symbol_name = "lm_target",
	},
};

static int __init jprobe_init(void)
{
	int ret = register_jprobe(&my_jprobe);

	if (ret < 0) {
		pr_err("register_jprobe failed, returned %d\n", ret);
		return -1;
	}
	pr_info("Planted jprobe at %px, handler addr %px\n",
		my_jprobe.kp.addr, my_jprobe.entry);
	return 0;
}

static void __exit jprobe_exit(void)
{
	unregister_jprobe(&my_jprobe);
	pr_info("jprobe at %px unregistered\n", my_jprobe.kp.addr);
}

module_init(jprobe_init)
module_exit(jprobe_exit)
MODULE_LICENSE("GPL");
