/*
 * notifier.c - notifier chains: the die chain and the panic chain.
 *
 * A chain is a sorted singly linked list of callbacks.  It is walked with
 * interrupts off (notify_die() runs inside an exception), so registration
 * only has to keep the list consistent against that: it disables
 * interrupts while linking a node in or out.
 */
#include "kernel.h"
#include <asm/kdebug.h>
#include "spinlock.h"
#include "errno.h"
#include "nokprobe.h"

static ATOMIC_NOTIFIER_HEAD(die_chain);
ATOMIC_NOTIFIER_HEAD(panic_notifier_list);

int atomic_notifier_chain_register(struct atomic_notifier_head *nh,
				   struct notifier_block *nb)
{
	struct notifier_block **pp;
	unsigned long flags;

	spin_lock_irqsave(&nh->lock, flags);
	for (pp = &nh->head; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			spin_unlock_irqrestore(&nh->lock, flags);
			return -EEXIST;
		}
		if ((*pp)->priority < nb->priority)
			break;
	}
	nb->next = *pp;
	*pp = nb;
	spin_unlock_irqrestore(&nh->lock, flags);
	return 0;
}

int atomic_notifier_chain_unregister(struct atomic_notifier_head *nh,
				     struct notifier_block *nb)
{
	struct notifier_block **pp;
	unsigned long flags;

	spin_lock_irqsave(&nh->lock, flags);
	for (pp = &nh->head; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			*pp = nb->next;
			spin_unlock_irqrestore(&nh->lock, flags);
			return 0;
		}
	}
	spin_unlock_irqrestore(&nh->lock, flags);
	return -ENOENT;
}

/*
 * Linux's notifier_call_chain(), inlined into both callers so that an
 * int3 costs no extra call on its way to kprobes (make bench counts it).
 */
static __always_inline int notifier_call_chain(struct atomic_notifier_head *nh,
					       unsigned long val, void *data)
{
	struct notifier_block *nb;
	int ret = NOTIFY_DONE;

	for (nb = nh->head; nb; nb = nb->next) {
		ret = nb->notifier_call(nb, val, data);
		if (ret & NOTIFY_STOP_MASK)
			return NOTIFY_STOP;
	}
	return ret;
}

int atomic_notifier_call_chain(struct atomic_notifier_head *nh,
			       unsigned long val, void *data)
{
	return notifier_call_chain(nh, val, data);
}
NOKPROBE_SYMBOL(atomic_notifier_call_chain);

int register_die_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&die_chain, nb);
}

int unregister_die_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&die_chain, nb);
}

int notify_die(enum die_val val, const char *str, struct pt_regs *regs,
	       long err, int trapnr)
{
	struct die_args args = { regs, str, err, trapnr };

	return notifier_call_chain(&die_chain, val, &args);
}
NOKPROBE_SYMBOL(notify_die);
