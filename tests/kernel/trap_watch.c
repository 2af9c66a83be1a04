/*
 * trap_watch.c - counting exceptions around some code (trap_watch.h).
 *
 * The callback runs inside the exception, so it is NOKPROBE: a probe on
 * it would recurse.
 */
#include "kernel.h"
#include "string.h"
#include <asm/processor.h>
#include "nokprobe.h"
#include "smp.h"
#include "trap_watch.h"

/* This vector's count, summed over the CPUs. */
static unsigned long exceptions_now(unsigned long vector)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(exception_count, cpu)[vector];
	return n;
}

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
	unsigned long v;

	memset(w, 0, sizeof(*w));
	for (v = 0; v < NR_EXCEPTIONS; v++)
		w->start[v] = exceptions_now(v);
	w->last = (struct notifier_block){ .notifier_call = trap_watch_last,
					   .priority = DIE_PRIO_LAST };
	return register_die_notifier(&w->last);
}

void trap_watch_stop(struct trap_watch *w)
{
	unsigned long v;

	unregister_die_notifier(&w->last);
	for (v = 0; v < NR_EXCEPTIONS; v++)
		w->taken[v] = trap_watch_taken(w, v);
}

unsigned long trap_watch_taken(const struct trap_watch *w, unsigned long vector)
{
	return exceptions_now(vector) - w->start[vector];
}

unsigned long trap_watch_total(const struct trap_watch *w)
{
	unsigned long n = 0;
	int v;

	for (v = 0; v < NR_EXCEPTIONS; v++)
		n += w->taken[v];
	return n;
}
