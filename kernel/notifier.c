/*
 * notifier.c - the die-notifier chain.
 *
 * A sorted singly linked list of callbacks.  notify_die() walks it with
 * interrupts off (we are inside an exception), so registration only has
 * to keep the list consistent against that: it disables interrupts
 * while linking a node in.
 */
#include "kernel.h"
#include "kdebug.h"
#include "irqflags.h"
#include "errno.h"
#include "nokprobe.h"

static struct notifier_block *die_chain;

int register_die_notifier(struct notifier_block *nb)
{
	struct notifier_block **pp;
	unsigned long flags = local_irq_save();

	for (pp = &die_chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			local_irq_restore(flags);
			return -EEXIST;
		}
		if ((*pp)->priority < nb->priority)
			break;
	}
	nb->next = *pp;
	*pp = nb;
	local_irq_restore(flags);
	return 0;
}

int unregister_die_notifier(struct notifier_block *nb)
{
	struct notifier_block **pp;
	unsigned long flags = local_irq_save();

	for (pp = &die_chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			*pp = nb->next;
			local_irq_restore(flags);
			return 0;
		}
	}
	local_irq_restore(flags);
	return -ENOENT;
}

int notify_die(enum die_val val, const char *str, struct pt_regs *regs,
	       long err, int trapnr)
{
	struct die_args args = { regs, str, err, trapnr };
	struct notifier_block *nb;
	int ret = NOTIFY_DONE;

	for (nb = die_chain; nb; nb = nb->next) {
		ret = nb->notifier_call(nb, val, &args);
		if (ret & NOTIFY_STOP_MASK)
			return NOTIFY_STOP;
	}
	return ret;
}
NOKPROBE_SYMBOL(notify_die);
