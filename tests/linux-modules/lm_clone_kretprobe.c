// SPDX-License-Identifier: GPL-2.0
/*
 * lm_clone_kretprobe.c - a return probe in the shape of Linux 6.1's
 * kretprobe sample: its default target is kernel_clone, the path every
 * new process takes, and its entry handler skips kernel threads
 * (current->mm == NULL), so only a call made for a process is timed
 * and reported.  Here that is a program starting another (fork).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/sched.h>

static char func_name[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(func, func_name, KSYM_NAME_LEN, 0644);
MODULE_PARM_DESC(func, "Function to kretprobe; this module will report the function's execution time");

static unsigned int reported;	/* "returned" lines printed: the test reads it */

struct clone_call {
	ktime_t entry_stamp;
};

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct clone_call *call;

	if (!current->mm)
		return 1;	/* a kernel thread: no return handler for this call */
	call = (struct clone_call *)ri->data;
	call->entry_stamp = ktime_get();
	return 0;
}
NOKPROBE_SYMBOL(entry_handler);

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long retval = regs_return_value(regs);
	struct clone_call *call = (struct clone_call *)ri->data;
	s64 delta = ktime_to_ns(ktime_sub(ktime_get(), call->entry_stamp));

	reported++;
	pr_info("%s returned %lu and took %lld ns to execute\n",
		func_name, retval, (long long)delta);
	return 0;
}
NOKPROBE_SYMBOL(ret_handler);

static struct kretprobe my_kretprobe = {
	.handler = ret_handler,
	.entry_handler = entry_handler,
	.data_size = sizeof(struct clone_call),
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
