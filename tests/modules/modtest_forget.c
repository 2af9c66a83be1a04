/*
 * modtest_forget.c - registers two kprobes and "forgets" them: its exit
 * function does not unregister.  The loader must do it (with a warning)
 * before freeing the handlers, or the next hit would jump into freed
 * memory.
 */
#include "module.h"
#include "kprobes.h"
#include "errno.h"

static int hits;

static int count_hit(struct kprobe *p, struct pt_regs *regs)
{
	hits++;
	return 0;
}

static struct kprobe kernel_kp = {
	.symbol_name = "kthread_create",
	.pre_handler = count_hit,
};

/* A probe on our own code (the loader unregisters it as well). */
noinline int forget_target(int x)
{
	return x + 1;
}

static struct kprobe own_kp = {
	.symbol_name = "forget_target",
	.pre_handler = count_hit,
};

static int __init forget_init(void)
{
	int ret = register_kprobe(&kernel_kp);

	if (ret)
		return ret;
	ret = register_kprobe(&own_kp);
	if (ret) {
		unregister_kprobe(&kernel_kp);
		return ret;
	}
	return forget_target(1) == 2 && hits == 1 ? 0 : -EINVAL;
}

static void __exit forget_exit(void)
{
	/* Deliberately missing: unregister_kprobe(&kernel_kp) and &own_kp. */
}

module_init(forget_init);
module_exit(forget_exit);
MODULE_LICENSE("GPL");
