/*
 * kdebug.h - the die-notifier chain (Linux's notify_die).
 *
 * Before the trap dispatcher does its default handling of an exception
 * it asks every registered notifier whether it wants the trap.  kprobes
 * registers one: that is how an int3 reaches kprobe_handler() without
 * the trap code knowing kprobes exists.
 */
#ifndef KDEBUG_H
#define KDEBUG_H

#include "ptrace.h"
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
 * kprobes comes right after the first observers, ahead of every handler.
 */
#define DIE_PRIO_FIRST    0x7fffffff
#define DIE_PRIO_KPROBES  (DIE_PRIO_FIRST - 1)
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
