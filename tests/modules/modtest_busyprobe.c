/*
 * modtest_busyprobe.c - a module whose probe handler is slow, for rmmod
 * while the probe is being hit on another CPU.
 *
 * It probes kpsmp_target() (tests/kernel/test_kprobes_smp.c), which
 * the kprobes_smp suite calls in a loop on every other CPU, and its
 * pre-handler - module code - spins a while, so that at any moment some
 * CPU is likely inside it.  The suite then unloads the module: rmmod
 * must wait for those hits (unregister_kprobe()'s grace period) or
 * refuse with -EBUSY, never free the handler's code while a CPU runs
 * it.  Freed module memory is filled with int3s (kernel/module.c), so a
 * CPU left in the handler would trap on one and oops.
 */
#include "module.h"
#include "kprobes.h"
#include <asm/processor.h>
#include <asm/atomic.h>

#define BUSY_HANDLER_PAUSES	2000	/* long enough to be caught inside */

atomic_t busyprobe_hits;		/* read by the suite through kallsyms */

static int busy_pre(struct kprobe *p, struct pt_regs *regs)
{
	for (int i = 0; i < BUSY_HANDLER_PAUSES; i++)
		cpu_relax();
	atomic_inc(&busyprobe_hits);
	return 0;
}

static struct kprobe busy_kp = {
	.symbol_name = "kpsmp_target",
	.pre_handler = busy_pre,
};

static int __init busyprobe_init(void)
{
	return register_kprobe(&busy_kp);
}

static void __exit busyprobe_exit(void)
{
	unregister_kprobe(&busy_kp);	/* waits for the hits in progress */
}

module_init(busyprobe_init);
module_exit(busyprobe_exit);
MODULE_LICENSE("GPL");
