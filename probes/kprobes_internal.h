/*
 * kprobes_internal.h - the manager's own seams, between the files of
 * probes/ (Linux keeps them static in one kernel/kprobes.c): the
 * optimizer's hooks, the blacklist's setup, 2005's lock, the refusal
 * warning.  Nothing outside probes/ includes it: the API a module or
 * the rest of the kernel uses is include/kprobes.h, the CPU's half
 * <asm/kprobes.h>.
 */
#ifndef PROBES_KPROBES_INTERNAL_H
#define PROBES_KPROBES_INTERNAL_H

#include "kprobes.h"

/* Build the list from NOKPROBE_SYMBOL entries (init_kprobes calls it). */
int populate_kprobe_blacklist(void);

/* 0 if p's address is offset 0 of a kallsyms symbol, else -EINVAL (jprobes, kretprobes). */
int kprobe_on_func_entry(const struct kprobe *p);

/*
 * One line, as Linux's pr_warn(), when register_kprobe/jprobe/kretprobe
 * (`what`) refuses p: where, the errno by name and meaning, and why
 * (`why`, or kprobe_refusal_reason() when NULL).  Each failure says it once.
 */
void kprobe_warn_refused(const char *what, const struct kprobe *p, int err,
			 const char *why);

/* kprobes.lock=global (kprobe_lock.c): the lock and its boot switch. */
void lock_kprobes(void);
void unlock_kprobes(void);
int kprobe_lock_setup(void);

/* The optimizer's hooks (probes/kprobes.c calls them under kprobe_mutex). */
void optimize_kprobe(struct kprobe *p);		/* p was armed: queue it for the optimizer */
void unoptimize_kprobe(struct kprobe *p);	/* p is being disarmed: int3 again, now */
void unoptimize_kprobes_batch(struct kprobe **kps, int num); /* many: one text_poke_bp window */
void unoptimize_kprobes_at(kprobe_opcode_t *addr); /* a probe comes to addr */
void kprobes_optimize_around(kprobe_opcode_t *addr); /* probes near addr: retry */
/* "  [OPTIMIZED]", "  [WAITING...]", "  [NOT OPTIMIZED: why]" or "" for ap. */
int sprint_optprobe_state(char *buf, size_t len, const struct kprobe *ap);
/* init_kprobes(): start the optimizer thread. */
int init_kprobe_optimizer(void);
bool kprobe_mutex_held(void);	/* by the current thread */

/* Rounds of IPIs the grace periods took (kprobes_sync.c). */
extern unsigned long kprobes_grace_rounds;

#endif
