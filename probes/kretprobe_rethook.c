/*
 * kretprobe_rethook.c - kretprobes that return through rethook, as every
 * kretprobe does in Linux 5.18+ (CONFIG_KRETPROBE_ON_RETHOOK): their
 * return lands in the one trampoline they share with fprobe,
 * arch_rethook_trampoline.  The entry is whatever the kprobe's is: an
 * int3, a boosted or optimized hit, or, on a function's call site, an
 * ftrace callback - then neither half takes an exception.
 *
 * The switch: kprobes.rethook=0 on the command line, or
 * `echo 0 > /sys/kernel/debug/kprobes/rethook`, makes kretprobes
 * registered from then on return through 2005's own trampoline and
 * per-kretprobe instance pool (probes/kretprobes.c,
 * kretprobe_trampoline), to compare the two; a kretprobe on a call site
 * riding on ftrace returns through rethook either way.
 *
 * Each kretprobe owns a rethook whose nodes carry a kretprobe_instance,
 * so the handlers see what they see on the 2005 path: ri->ret_addr,
 * ri->data, get_kretprobe(ri) (ri->rph is the kretprobe's holder).
 */
#include "kernel.h"
#include "mm.h"
#include "errno.h"
#include "string.h"
#include "kallsyms.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "ftrace.h"
#include "rethook.h"
#include "nokprobe.h"
#include "narrate.h"
#include "linux/compiler.h"

bool kretprobe_on_rethook = true;

#define KRETPROBE_RETHOOK_PARAM	"kprobes.rethook"
#define KRETPROBE_RETHOOK_LEN	4	/* "0" or "1", and a byte to see "10" */

/* kprobes.rethook=0: kretprobes return through kretprobe_trampoline from boot on. */
int kretprobe_rethook_setup(void)
{
	char word[KRETPROBE_RETHOOK_LEN];

	if (!cmdline_value(KRETPROBE_RETHOOK_PARAM, word, sizeof(word)))
		return 0;
	if (strcmp(word, "0") == 0) {
		kretprobe_on_rethook = false;
		printk("kprobes: %s=0: kretprobes return through kretprobe_trampoline\n",
		       KRETPROBE_RETHOOK_PARAM);
	} else if (strcmp(word, "1") != 0) {
		printk("kprobes: %s=%s: want 0 or 1; through rethook they stay\n",
		       KRETPROBE_RETHOOK_PARAM, word);
		return -EINVAL;
	}
	return 0;
}

struct kretprobe_rethook_node {
	struct rethook_node node;
	struct kretprobe_instance ri;	/* ends in rp->data_size bytes of data */
};

/* While a return handler runs it is the running probe, as on the int3 path. */
static struct kprobe rethook_kprobe = {
	.addr = (kprobe_opcode_t *)arch_rethook_trampoline,
};

/*
 * The return: the instance's ret_addr and stack were set at entry; a
 * told call is told (narrate.h) before the handler runs.  `told` is a
 * constant: the narrated copy is out of line, the usual one pays one
 * test for it.
 */
static __always_inline void kretprobe_rethook_return(struct rethook_node *node,
						     struct kretprobe *rp,
						     struct pt_regs *regs, bool told)
{
	struct kretprobe_rethook_node *krn = container_of(node, struct kretprobe_rethook_node, node);

	if (this_cpu_read(current_kprobe)) {
		kprobe_count_inc((unsigned long *)&rp->nmissed);
		return;
	}
	this_cpu_write(current_kprobe, &rethook_kprobe);
	set_kprobe_status(KPROBE_HIT_ACTIVE);
	if (told)
		__kprobe_narrate(KPN_RETHOOK_RETURN, &rp->kp, regs);
	rp->handler(&krn->ri, regs);
	this_cpu_write(current_kprobe, NULL);
}

static noinline void kretprobe_rethook_told(struct rethook_node *node, struct kretprobe *rp,
					    struct pt_regs *regs)
{
	kretprobe_rethook_return(node, rp, regs, true);
}
NOKPROBE_SYMBOL(kretprobe_rethook_told);

static void kretprobe_rethook_handler(struct rethook_node *node, void *data,
				      struct pt_regs *regs)
{
	if (unlikely(kprobe_narrate_enabled))
		kretprobe_rethook_told(node, data, regs);
	else
		kretprobe_rethook_return(node, data, regs, false);
}
NOKPROBE_SYMBOL(kretprobe_rethook_handler);

/*
 * A kretprobe without a return handler (an entry handler's only): its
 * return has nothing to run, so its rethook is given this one and the
 * handler above tests nothing for it.
 */
static void kretprobe_rethook_no_handler(struct rethook_node *node, void *data,
					 struct pt_regs *regs)
{
}
NOKPROBE_SYMBOL(kretprobe_rethook_no_handler);

/*
 * The return address swapped for the trampoline; the instance keeps
 * what the node keeps (ri->ret_addr, ri->stack: the slot the address
 * came from), set here once, as the 2005 path sets them at entry.
 */
static __always_inline void kretprobe_rethook_hook(struct kprobe *p, struct rethook_node *node,
						   struct pt_regs *regs)
{
	struct kretprobe_instance *ri = &container_of(node, struct kretprobe_rethook_node, node)->ri;

	rethook_hook(node, regs, kprobe_ftrace(p));
	ri->ret_addr = (kprobe_opcode_t *)node->ret_addr;
	ri->stack = (unsigned long *)node->frame;
}

/*
 * An entry handler runs first and sees the instance as it will be;
 * non-zero: not this call.  Out of line, so that the usual hit keeps
 * fewer registers.
 */
static noinline void kretprobe_rethook_entry(struct kprobe *p, struct rethook_node *node,
					     struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_instance *ri = &container_of(node, struct kretprobe_rethook_node, node)->ri;

	ri->stack = (unsigned long *)kernel_stack_pointer(regs);
	ri->ret_addr = (kprobe_opcode_t *)*ri->stack;
	if (rp->entry_handler(ri, regs))
		rethook_recycle(node);
	else
		kretprobe_rethook_hook(p, node, regs);
}
NOKPROBE_SYMBOL(kretprobe_rethook_entry);

int pre_handler_kretprobe_rethook(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct rethook_node *node = rethook_try_get(rp->rh);

	if (!node)
		kprobe_count_inc((unsigned long *)&rp->nmissed);	/* maxactive calls in progress */
	else if (rp->entry_handler)
		kretprobe_rethook_entry(p, node, regs);
	else
		kretprobe_rethook_hook(p, node, regs);
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
 * From register_kretprobe(): every kretprobe returns through rethook
 * unless the switch is off, and then still one on a call site while
 * kprobes ride on ftrace.  0 (rethook, or nothing to do) or -ENOMEM.
 */
int kretprobe_rethook_init(struct kretprobe *rp)
{
	rp->rh = NULL;
	if (!kretprobe_on_rethook && !(kprobes_on_ftrace && kretprobe_site(rp)))
		return 0;
	rp->rh = rethook_alloc(rp, rp->handler ? kretprobe_rethook_handler :
						 kretprobe_rethook_no_handler);
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
