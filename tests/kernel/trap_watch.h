/*
 * trap_watch.h - what exceptions a test caused, seen from the die chain.
 *
 * The kernel keeps no trap statistics for tests: a test that wants to
 * know how many exceptions some code took registers a watch around it.
 * A watch is two observers on the die chain (include/kdebug.h): the
 * first sees every exception before any handler (kprobes included) can
 * claim it; the last sees only the exceptions every handler passed on,
 * the ones the fixup table (or die()) gets, after kprobes had its say
 * (a fault in a single-stepped copy is reported at the probed address).
 */
#ifndef TRAP_WATCH_H
#define TRAP_WATCH_H

#include "kdebug.h"
#include "traps.h"

struct trap_watch {
	struct notifier_block first, last;
	unsigned long taken[NR_EXCEPTIONS];	/* every exception, by vector */
	unsigned long unclaimed;		/* passed on to the fixup table */
	struct {				/* the last of those */
		unsigned long vector;
		unsigned long error_code;
		unsigned long cr2;		/* #PF only, else 0 */
		unsigned long ip;
	} last_unclaimed;
};

/* Zero the counts and register; stop unregisters.  Returns 0 or -errno. */
int trap_watch_start(struct trap_watch *w);
void trap_watch_stop(struct trap_watch *w);

/* Every exception the watch saw, all vectors together. */
unsigned long trap_watch_total(const struct trap_watch *w);

#endif
