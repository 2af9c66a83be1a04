/*
 * modtest_initfail.c - an init that fails after planting a probe and
 * allocating memory.  The loader must unload it cleanly: the probe goes,
 * the text is restored, the memory is returned.  (The leaked kmalloc()
 * is the module's own bug and is freed by its init on the error path.)
 */
#include "module.h"
#include "kprobes.h"
#include "mm.h"
#include "errno.h"

static int noop(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe kp = {
	.symbol_name = "kthread_create",
	.pre_handler = noop,
};

static int __init initfail_init(void)
{
	void *buf = kmalloc(100);

	kfree(buf);
	register_kprobe(&kp);	/* and "forget" it on the error path */
	return -EINVAL;
}

module_init(initfail_init);
MODULE_LICENSE("GPL");
