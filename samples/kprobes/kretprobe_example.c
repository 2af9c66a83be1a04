/*
 * kretprobe_example.c - time every kthread_create() call and print what
 * it returned.
 *
 * entry_handler runs when the function is entered and stamps the time
 * stamp counter into this call's private data (ri->data, data_size
 * bytes), with the thread's name, kthread_create()'s third argument:
 * regs_get_kernel_argument(regs, 2), which reads cx (the kernel passes
 * its first three arguments in ax, dx, cx); ret_handler runs when it
 * returns, with the return value in regs->ax.  maxactive calls can be in progress at once; more are
 * counted in nmissed, which we report on unload.  (Like Linux's
 * samples/kprobes/kretprobe_example.c; we count TSC cycles instead of
 * nanoseconds, having no calibrated clock.)
 *
 *   make modules; make run MODULES=build/samples/kretprobe_example.ko \
 *                          CMDLINE=insmod=kretprobe_example
 */
#include "module.h"
#include "kprobes.h"
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "sched.h"

static char func_name[] = "kthread_create";

/* What entry_handler leaves for ret_handler: one per call in progress. */
struct my_data {
	uint64_t entry_stamp;
	const char *name;
};

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct my_data *data = (struct my_data *)ri->data;

	data->entry_stamp = rdtsc();
	data->name = (const char *)regs_get_kernel_argument(regs, 2);
	return 0;	/* non-zero would skip ret_handler for this call */
}

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct my_data *data = (struct my_data *)ri->data;
	unsigned long retval = regs_return_value(regs);
	uint64_t delta = rdtsc() - data->entry_stamp;

	printk("%s returned %#lx and took %llu cycles to execute (thread %s)\n",
	       func_name, retval, (unsigned long long)delta, data->name);
	return 0;
}

static struct kretprobe my_kretprobe = {
	.handler = ret_handler,
	.entry_handler = entry_handler,
	.data_size = sizeof(struct my_data),
	/* Probe up to 20 calls in progress at once. */
	.maxactive = 20,
};

static int __init kretprobe_init(void)
{
	int ret;

	my_kretprobe.kp.symbol_name = func_name;
	ret = register_kretprobe(&my_kretprobe);
	if (ret < 0) {
		printk("register_kretprobe failed, returned %d\n", ret);
		return ret;
	}
	printk("Planted return probe at %s: %p\n",
	       my_kretprobe.kp.symbol_name, my_kretprobe.kp.addr);
	return 0;
}

static void __exit kretprobe_exit(void)
{
	unregister_kretprobe(&my_kretprobe);
	printk("kretprobe at %p unregistered\n", my_kretprobe.kp.addr);
	/* nmissed > 0 suggests that maxactive was set too low. */
	printk("Missed probing %d instances of %s\n",
	       my_kretprobe.nmissed, my_kretprobe.kp.symbol_name);
}

module_init(kretprobe_init);
module_exit(kretprobe_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("print return value and duration of each kthread_create()");
