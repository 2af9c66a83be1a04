/*
 * kdebug.h - the die-notifier chain (Linux's notify_die).
 *
 * Before the trap dispatcher does its default handling of an exception
 * it asks every registered notifier whether it wants the trap: a
 * debugger's breakpoints, a test's watch.  kprobes is not on the chain:
 * as in Linux, the #BP and #DB handlers call it by name before they ask
 * the chain (arch/i386/traps.c), so a probe hit never walks it.
 */
#ifndef KDEBUG_H
#define KDEBUG_H

#include <asm/ptrace.h>
#include "notifier.h"

enum die_val {
	DIE_OOPS = 1,  /* die(): the oops report is printed, the machine stops */
	DIE_INT3,      /* #BP */
	DIE_DEBUG,     /* #DB */
	DIE_GPF,       /* #GP */
	DIE_PAGE_FAULT,/* #PF */
	DIE_TRAP,      /* any other exception */
	DIE_NMI,       /* a non-maskable interrupt (not an exception) */
};

/*
 * Priorities on the die chain (higher runs first).  An observer only
 * watches and returns NOTIFY_DONE: at DIE_PRIO_FIRST it sees every
 * exception before a handler claims it, at DIE_PRIO_LAST only those that
 * every handler passed on, which go to the fixup table or to die().
 * (Exceptions kprobes claimed never reach the chain at all.)
 */
#define DIE_PRIO_FIRST    0x7fffffff
#define DIE_PRIO_LAST     (-DIE_PRIO_FIRST - 1)

struct die_args {
	struct pt_regs *regs;
	const char *str;
	long err;
	int trapnr;
};

int register_die_notifier(struct notifier_block *nb);
int unregister_die_notifier(struct notifier_block *nb);
int notify_die(enum die_val val, const char *str, struct pt_regs *regs,
	       long err, int trapnr);

#endif
