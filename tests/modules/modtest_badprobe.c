/*
 * modtest_badprobe.c - two probes kprobes must refuse: a misspelt
 * symbol_name and a function on the kprobes blacklist.  Each refusal
 * must be explained once by kprobes itself, and the failed init by
 * insmod, both with the errno's name and meaning.
 */
#include "module.h"
#include "kprobes.h"

static int noop(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe misspelt = {
	.symbol_name = "kthread_creat",
	.pre_handler = noop,
};

static struct kprobe blacklisted = {
	.symbol_name = "do_trap",	/* kprobes' own path: NOKPROBE_SYMBOL */
	.pre_handler = noop,
};

static int __init badprobe_init(void)
{
	int ret = register_kprobe(&misspelt);

	if (ret == 0) {
		unregister_kprobe(&misspelt);
		return 0;
	}
	ret = register_kprobe(&blacklisted);
	if (ret == 0)
		unregister_kprobe(&blacklisted);
	return ret;
}

static void __exit badprobe_exit(void)
{
}

module_init(badprobe_init);
module_exit(badprobe_exit);
MODULE_LICENSE("GPL");
