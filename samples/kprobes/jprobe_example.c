/*
 * jprobe_example.c - see the arguments of every kthread_create() call.
 *
 * A jprobe's handler has the same prototype as the probed function, so
 * the arguments arrive as ordinary C parameters: the kernel enters the
 * handler with the registers of the hit - the first three arguments in
 * ax, dx, cx, as the kernel's -mregparm=3 passes them - on a copy of the
 * probed function's stack frame, where any others are; jprobe_return()
 * puts everything back and lets the real function run.  The handler
 * must be compiled with the kernel's convention: every module is, and
 * the loader refuses one that is not (its vermagic, docs/modules.md).
 * (Like Linux's samples/kprobes/jprobe_example.c, from the days it had
 * jprobes.)
 *
 *   make modules; make run MODULES=build/samples/jprobe_example.ko \
 *                          CMDLINE=insmod=jprobe_example
 */
#include "module.h"
#include "kprobes.h"
#include "sched.h"

/*
 * Mirror of kthread_create(): same arguments, same order.  It must end
 * with jprobe_return(), never with a plain return.
 */
static struct task_struct *j_kthread_create(int (*fn)(void *), void *arg,
					    const char *name)
{
	printk("jprobe: fn = %p, arg = %p, name = %s\n", (void *)fn, arg, name);
	jprobe_return();
	return NULL;	/* never reached */
}

static struct jprobe my_jprobe = {
	.entry = j_kthread_create,
	.kp = {
		.symbol_name = "kthread_create",
	},
};

static int __init jprobe_init(void)
{
	int ret = register_jprobe(&my_jprobe);

	if (ret < 0) {
		printk("register_jprobe failed, returned %d\n", ret);
		return ret;
	}
	printk("Planted jprobe at %p, handler addr %p\n",
	       my_jprobe.kp.addr, my_jprobe.entry);
	return 0;
}

static void __exit jprobe_exit(void)
{
	unregister_jprobe(&my_jprobe);
	printk("jprobe at %p unregistered: %lu hit%s, %lu missed\n",
	       my_jprobe.kp.addr, my_jprobe.kp.nhit,
	       my_jprobe.kp.nhit == 1 ? "" : "s", my_jprobe.kp.nmissed);
}

module_init(jprobe_init);
module_exit(jprobe_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("print the arguments of each kthread_create()");
