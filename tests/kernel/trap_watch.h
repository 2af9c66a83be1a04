/*
 * trap_watch.h - what exceptions a test caused, seen from the die chain.
 *
 * A test that wants to know how many exceptions some code took starts
 * a watch around it.  What was taken comes from the per-CPU counts
 * do_trap() keeps (exception_count, traps.h): kprobes claims its int3s
 * and #DBs before the die chain is asked, so no notifier sees them.
 * What was passed on comes from an observer last on the die chain
 * (arch/i386/include/asm/kdebug.h): it sees only the exceptions every handler passed
 * on, the ones the fixup table (or die()) gets, after kprobes had its
 * say (a fault in a single-stepped copy is reported at the probed
 * address).
 */
#ifndef TRAP_WATCH_H
#define TRAP_WATCH_H

#include <asm/kdebug.h>
#include <asm/traps.h>

struct trap_watch {
	struct notifier_block last;
	unsigned long start[NR_EXCEPTIONS];	/* the counts at trap_watch_start() */
	unsigned long taken[NR_EXCEPTIONS];	/* every exception, by vector, at stop */
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

/* Exceptions of one vector so far, all CPUs (the watch may still run). */
unsigned long trap_watch_taken(const struct trap_watch *w, unsigned long vector);

/* Every exception the watch saw, all vectors together (after stop). */
unsigned long trap_watch_total(const struct trap_watch *w);

#endif
