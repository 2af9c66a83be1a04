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

enum die_val {
	DIE_OOPS = 1,
	DIE_INT3,      /* #BP */
	DIE_DEBUG,     /* #DB */
	DIE_GPF,       /* #GP */
	DIE_PAGE_FAULT,/* #PF */
	DIE_TRAP,      /* any other exception */
	DIE_NMI,       /* a non-maskable interrupt (not an exception) */
};

/* What the notifier returns. */
#define NOTIFY_DONE       0x0000   /* not mine, keep asking */
#define NOTIFY_OK         0x0001
#define NOTIFY_STOP_MASK  0x8000
#define NOTIFY_STOP       (NOTIFY_OK | NOTIFY_STOP_MASK)  /* handled: stop */

struct die_args {
	struct pt_regs *regs;
	const char *str;
	long err;
	int trapnr;
};

struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long val, void *data);
	struct notifier_block *next;
	int priority;   /* higher runs first */
};

int register_die_notifier(struct notifier_block *nb);
int unregister_die_notifier(struct notifier_block *nb);
int notify_die(enum die_val val, const char *str, struct pt_regs *regs,
	       long err, int trapnr);

#endif
