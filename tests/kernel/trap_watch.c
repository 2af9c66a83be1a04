/*
 * trap_watch.c - counting exceptions from the die chain (trap_watch.h).
 *
 * Both callbacks run inside the exception, on the hit path of every
 * probe, so they are NOKPROBE: a probe on them would recurse.
 */
#include "kernel.h"
#include "string.h"
#include "processor.h"
#include "nokprobe.h"
#include "trap_watch.h"

static int trap_watch_first(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct trap_watch *w = container_of(nb, struct trap_watch, first);
	struct die_args *args = data;

	if (val != DIE_OOPS && args->trapnr >= 0 && args->trapnr < NR_EXCEPTIONS)
		w->taken[args->trapnr]++;
	return NOTIFY_DONE;
}
NOKPROBE_SYMBOL(trap_watch_first);

static int trap_watch_last(struct notifier_block *nb, unsigned long val,
			   void *data)
{
	struct trap_watch *w = container_of(nb, struct trap_watch, last);
	struct die_args *args = data;

	if (val == DIE_OOPS || val == DIE_NMI)	/* not on their way to a fixup */
		return NOTIFY_DONE;
	w->unclaimed++;
	w->last_unclaimed.vector = args->trapnr;
	w->last_unclaimed.error_code = args->err;
	w->last_unclaimed.cr2 = args->trapnr == X86_TRAP_PF ? read_cr2() : 0;
	w->last_unclaimed.ip = args->regs->ip;
	return NOTIFY_DONE;
}
NOKPROBE_SYMBOL(trap_watch_last);

int trap_watch_start(struct trap_watch *w)
{
	int err;

	memset(w, 0, sizeof(*w));
	w->first = (struct notifier_block){ .notifier_call = trap_watch_first,
					    .priority = DIE_PRIO_FIRST };
	w->last = (struct notifier_block){ .notifier_call = trap_watch_last,
					   .priority = DIE_PRIO_LAST };
	err = register_die_notifier(&w->first);
	if (err)
		return err;
	err = register_die_notifier(&w->last);
	if (err)
		unregister_die_notifier(&w->first);
	return err;
}

void trap_watch_stop(struct trap_watch *w)
{
	unregister_die_notifier(&w->last);
	unregister_die_notifier(&w->first);
}

unsigned long trap_watch_total(const struct trap_watch *w)
{
	unsigned long n = 0;
	int v;

	for (v = 0; v < NR_EXCEPTIONS; v++)
		n += w->taken[v];
	return n;
}
