/*
 * jprobes.c - call a handler with a probed function's own arguments.
 *
 * The 2005 design the LWN article describes, kept here although Linux
 * removed jprobes in 4.15 (in favour of reading arguments from pt_regs):
 * it is the clearest lesson in what a probe can do to a stack.
 *
 * A jprobe is a kprobe whose handlers are the arch half's:
 * setjmp_pre_handler() (step 1: save, jump to the handler) and
 * longjmp_break_handler() (step 3: restore when the handler traps in
 * jprobe_return()).  The manager only has to fill them in and check the
 * address is a function's entry: only there does the stack hold the
 * return address and the arguments in the places the handler's
 * prototype expects.  docs/jprobes.md walks through a hit.
 *
 * One jprobe per address: its handler leaves the hit half done until the
 * break int3, and the core keeps one break handler per address, so a
 * second jprobe there is refused with -EEXIST (probes/kprobes.c,
 * register_aggr_kprobe), as in Linux.  Ordinary kprobes (and a
 * kretprobe) may share the address; their pre-handlers run first.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include "errno.h"
#include "mm.h"

/*
 * Where p will go, as register_kprobe() resolves it (symbol_name +
 * offset, else addr + offset), and is it the first byte of a symbol?
 * kretprobes need the same: only at the entry is the top of the stack
 * the return address.
 */
int kprobe_on_func_entry(const struct kprobe *p)
{
	unsigned long addr, offset;

	if (p->symbol_name)
		addr = kallsyms_lookup_name(p->symbol_name);
	else
		addr = (unsigned long)p->addr;
	if (!addr)
		return p->symbol_name ? -ENOENT : -EINVAL;
	addr += p->offset;
	if (!kallsyms_lookup(addr, NULL, &offset) || offset != 0)
		return -EINVAL;
	return 0;
}

int register_jprobe(struct jprobe *jp)
{
	int ret;

	if (!jp->entry || !kernel_text_address((unsigned long)jp->entry)) {
		kprobe_warn_refused("register_jprobe", &jp->kp, -EINVAL,
				    "its entry handler is not kernel or module code");
		return -EINVAL;
	}
	ret = kprobe_on_func_entry(&jp->kp);
	if (ret) {
		kprobe_warn_refused("register_jprobe", &jp->kp, ret, NULL);
		return ret;
	}
	jp->nbad_return = 0;
	jp->kp.pre_handler = setjmp_pre_handler;
	jp->kp.break_handler = longjmp_break_handler;
	jp->kp.post_handler = NULL;
	return register_kprobe(&jp->kp);
}

void unregister_jprobe(struct jprobe *jp)
{
	unregister_kprobe(&jp->kp);
}

int register_jprobes(struct jprobe **jps, int num)
{
	int ret = 0;

	if (num <= 0)
		return -EINVAL;
	for (int i = 0; i < num; i++) {
		ret = register_jprobe(jps[i]);
		if (ret < 0) {
			unregister_jprobes(jps, i);
			break;
		}
	}
	return ret;
}

void unregister_jprobes(struct jprobe **jps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_jprobe(jps[i]);
}
