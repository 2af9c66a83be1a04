// SPDX-License-Identifier: GPL-2.0
/*
 * lm_kretprobe.c - times a function with a kretprobe, as Linux's
 * kretprobe sample does: the entry handler stamps ktime_get() into the
 * instance's private data, the return handler prints the return value
 * and the time it took.  `add=N` makes the return handler change the
 * probed function's result by N (regs_set_return_value()).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/limits.h>
#include <linux/sched.h>

static char func_name[NAME_MAX] = "kthread_create";
module_param_string(func, func_name, NAME_MAX, S_IRUGO);
MODULE_PARM_DESC(func, "Function to kretprobe");

static int add;
module_param(add, int, 0644);
MODULE_PARM_DESC(add, "Added to the probed function's return value");

/* Per call in progress: kept in the kretprobe instance. */
struct lm_call {
	ktime_t entry_stamp;
};

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lm_call *call = (struct lm_call *)ri->data;

	if (!current->mm)	/* kernel threads only (here: always) */
		call->entry_stamp = ktime_get();
	return 0;
}
NOKPROBE_SYMBOL(entry_handler);

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long retval = regs_return_value(regs);
	struct lm_call *call = (struct lm_call *)ri->data;
	s64 delta = ktime_to_ns(ktime_sub(ktime_get(), call->entry_stamp));

	pr_info("%s returned %lu and took %lld ns to execute\n",
		func_name, retval, (long long)delta);
	if (add)
		regs_set_return_value(regs, retval + add);
	return 0;
}
NOKPROBE_SYMBOL(ret_handler);

static struct kretprobe my_kretprobe = {
	.handler = ret_handler,
	.entry_handler = entry_handler,
	.data_size = sizeof(struct lm_call),
	.maxactive = 20,
};

static int __init kretprobe_init(void)
{
	int ret;

	my_kretprobe.kp.symbol_name = func_name;
	ret = register_kretprobe(&my_kretprobe);
	if (ret < 0) {
		pr_err("register_kretprobe failed, returned %d\n", ret);
		return ret;
	}
	pr_info("Planted return probe at %s: %px\n",
		my_kretprobe.kp.symbol_name, my_kretprobe.kp.addr);
	return 0;
}

static void __exit kretprobe_exit(void)
{
	unregister_kretprobe(&my_kretprobe);
	pr_info("kretprobe at %px unregistered\n", my_kretprobe.kp.addr);
	pr_info("Missed probing %d instances of %s\n",
		my_kretprobe.nmissed, my_kretprobe.kp.symbol_name);
}

module_init(kretprobe_init)
module_exit(kretprobe_exit)
MODULE_LICENSE("GPL");
