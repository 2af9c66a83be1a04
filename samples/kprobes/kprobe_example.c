/*
 * kprobe_example.c - the smallest useful kprobe: a message each time
 * the kernel runs kthread_create().
 *
 * Like Linux's samples/kprobes/kprobe_example.c: the pre-handler runs
 * just before the probed instruction (the function's first), the
 * post-handler just after it was single-stepped.  Both print where the
 * CPU is and its EFLAGS; during the step the CPU runs the copy of the
 * instruction with TF set, and we see it again with TF clear.
 *
 *   make modules                          builds build/samples/kprobe_example.ko
 *   make run MODULES=build/samples/kprobe_example.ko \
 *            CMDLINE=insmod=kprobe_example
 * or, at the shell prompt: insmod kprobe_example ... rmmod kprobe_example
 */
#include "module.h"
#include "kprobes.h"

/* The function to probe.  Any kernel function not marked NOKPROBE works. */
static char symbol[] = "kthread_create";

static struct kprobe kp = {
	.symbol_name = symbol,
};

/* kprobe pre_handler: called just before the probed instruction runs. */
static int handler_pre(struct kprobe *p, struct pt_regs *regs)
{
	printk("<%s> pre_handler: p->addr = %p, ip = %lx, flags = 0x%lx\n",
	       p->symbol_name, p->addr, regs->ip, regs->flags);
	/* 0: go on and run the instruction (1 would mean "I moved ip"). */
	return 0;
}

/* kprobe post_handler: called after the probed instruction ran. */
static void handler_post(struct kprobe *p, struct pt_regs *regs,
			 unsigned long flags)
{
	printk("<%s> post_handler: p->addr = %p, flags = 0x%lx\n",
	       p->symbol_name, p->addr, regs->flags);
}

/*
 * fault_handler: called if a handler, or the single-stepped instruction,
 * faults.  Return 0: we did not fix it, let the kernel handle it.
 */
static int handler_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	printk("fault_handler: p->addr = %p, trap #%d\n", p->addr, trapnr);
	return 0;
}

static int __init kprobe_init(void)
{
	int ret;

	kp.pre_handler = handler_pre;
	kp.post_handler = handler_post;
	kp.fault_handler = handler_fault;

	ret = register_kprobe(&kp);
	if (ret < 0) {
		printk("register_kprobe failed, returned %d\n", ret);
		return ret;
	}
	printk("Planted kprobe at %p\n", kp.addr);
	return 0;
}

static void __exit kprobe_exit(void)
{
	unregister_kprobe(&kp);
	printk("kprobe at %p unregistered: %lu hit%s, %lu missed\n",
	       kp.addr, kp.nhit, kp.nhit == 1 ? "" : "s", kp.nmissed);
}

module_init(kprobe_init);
module_exit(kprobe_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("print ip and flags on each kthread_create()");
