/*
 * kretprobe_rethook.c - kretprobes that return through rethook, as every
 * kretprobe does in Linux 5.18+ (CONFIG_KRETPROBE_ON_RETHOOK).  Here the
 * ones whose entry is a function's call site, the ftrace kind: their
 * entry is an ftrace callback, their return the shared
 * arch_rethook_trampoline, and neither takes an exception.
 *
 * Each kretprobe owns a rethook whose nodes carry a kretprobe_instance,
 * so the handlers see what they see on the int3 path: ri->ret_addr,
 * ri->data, get_kretprobe(ri) (ri->rph is the kretprobe's holder).
 */
#include "kernel.h"
#include "mm.h"
#include "errno.h"
#include "kallsyms.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "ftrace.h"
#include "rethook.h"
#include "nokprobe.h"

struct kretprobe_rethook_node {
	struct rethook_node node;
	struct kretprobe_instance ri;	/* ends in rp->data_size bytes of data */
};

/* While a return handler runs it is the running probe, as on the int3 path. */
static struct kprobe rethook_kprobe = {
	.addr = (kprobe_opcode_t *)arch_rethook_trampoline,
};

static void kretprobe_rethook_handler(struct rethook_node *node, void *data,
				      struct pt_regs *regs)
{
	struct kretprobe_rethook_node *krn = container_of(node, struct kretprobe_rethook_node, node);
	struct kretprobe *rp = data;

	if (!rp->handler)
		return;
	if (this_cpu_read(current_kprobe)) {
		kprobe_count_inc((unsigned long *)&rp->nmissed);
		return;
	}
	krn->ri.ret_addr = (kprobe_opcode_t *)node->ret_addr;
	krn->ri.stack = (unsigned long *)node->frame;	/* the slot the address came from */
	this_cpu_write(current_kprobe, &rethook_kprobe);
	set_kprobe_status(KPROBE_HIT_ACTIVE);
	rp->handler(&krn->ri, regs);
	this_cpu_write(current_kprobe, NULL);
}
NOKPROBE_SYMBOL(kretprobe_rethook_handler);

/* What an entry handler sees; the return handler's come from the node. */
static noinline int kretprobe_rethook_entry(struct kretprobe *rp, struct kretprobe_instance *ri,
					    struct pt_regs *regs)
{
	ri->stack = (unsigned long *)kernel_stack_pointer(regs);
	ri->ret_addr = (kprobe_opcode_t *)*ri->stack;
	return rp->entry_handler(ri, regs);
}
NOKPROBE_SYMBOL(kretprobe_rethook_entry);

int pre_handler_kretprobe_rethook(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct rethook_node *node = rethook_try_get(rp->rh);

	if (!node) {
		kprobe_count_inc((unsigned long *)&rp->nmissed);	/* maxactive calls in progress */
		return 0;
	}
	if (rp->entry_handler &&
	    kretprobe_rethook_entry(rp, &container_of(node, struct kretprobe_rethook_node, node)->ri,
				    regs))
		rethook_recycle(node);	/* not this call */
	else
		rethook_hook(node, regs, kprobe_ftrace(p));
	return 0;
}
NOKPROBE_SYMBOL(pre_handler_kretprobe_rethook);

/* Where the kretprobe will be: its call site, if it names one. */
static unsigned long kretprobe_site(const struct kretprobe *rp)
{
	unsigned long addr = rp->kp.symbol_name ? kallsyms_lookup_name(rp->kp.symbol_name) :
			     (unsigned long)rp->kp.addr;

	return addr ? ftrace_location(addr + rp->kp.offset) : 0;
}

/*
 * From register_kretprobe(): a kretprobe on a call site, while kprobes
 * ride on ftrace, returns through rethook.  0 (nothing to do) or -ENOMEM.
 */
int kretprobe_rethook_init(struct kretprobe *rp)
{
	rp->rh = NULL;
	if (!kprobes_on_ftrace || !kretprobe_site(rp))
		return 0;
	rp->rh = rethook_alloc(rp, kretprobe_rethook_handler);
	if (!rp->rh)
		return -ENOMEM;
	for (int i = 0; i < rp->maxactive; i++) {
		struct kretprobe_rethook_node *krn = kzalloc(sizeof(*krn) + rp->data_size);

		if (!krn) {
			kretprobe_rethook_free(rp);
			return -ENOMEM;
		}
		krn->ri.rph = rp->rph;
		rethook_add_node(rp->rh, &krn->node);
	}
	return 0;
}

/* After unregistering: calls in flight return on their own and free their node. */
void kretprobe_rethook_free(struct kretprobe *rp)
{
	if (rp->rh)
		rethook_free(rp->rh);
	rp->rh = NULL;
}
