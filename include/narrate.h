/*
 * narrate.h - narrated probe hits: the int3 / single-step dance told
 * step by step on the console, for students watching one hit.
 *
 *   echo 1 > /sys/kernel/debug/kprobes/narrate
 *
 * makes the next hit of each probe print what the CPU and kprobes do at
 * every step (arch/i386/kprobes/narrate.c).  The hit path calls the hooks
 * below; while no hit is being told each costs one test of a global.
 *
 * A jprobe's story goes on after its handler: the break int3 from
 * jprobe_return() is told as steps 2 and 3.  A kretprobe's goes on when
 * the told call returns through the trampoline.  Those hooks run outside
 * any told int3, so they test the switch itself (narrate_if_on).
 */
#ifndef NARRATE_H
#define NARRATE_H

#include <stdbool.h>
#include "kernel.h"

struct kprobe;
struct pt_regs;
struct jprobe;
struct jprobe_ctlblk;
struct kretprobe_instance;

extern bool kprobes_narrate;	/* the debugfs switch */
extern bool kprobe_narrating;	/* the hit in progress is being told */
extern unsigned long kprobes_narrated_hits;	/* hits told so far */

void kprobes_narrate_set(bool on);
void kprobe_narrate_begin(struct kprobe *p, struct pt_regs *regs);
void narrate_step(struct kprobe *p, struct pt_regs *regs);
void narrate_db(struct kprobe *p, struct pt_regs *regs);
void narrate_fixup(struct kprobe *p, struct pt_regs *regs);
void narrate_end(const char *how, struct pt_regs *regs);

/* jprobes (arch/i386/kprobes/jprobes.c): the three steps. */
void narrate_jprobe_setjmp(struct jprobe_ctlblk *jcb, struct pt_regs *regs);
void jprobe_narrate_break(struct jprobe_ctlblk *jcb, struct pt_regs *regs,
			  bool plain_return);
void narrate_jprobe_restored(struct jprobe_ctlblk *jcb, struct pt_regs *regs);

/* kretprobes (arch/i386/kprobes/retprobe.c, probes/kretprobes.c): the trampoline swap. */
void narrate_kretprobe_entry(struct kretprobe_instance *ri);
void kretprobe_narrate_return(struct kretprobe_instance *ri, struct pt_regs *regs);
void kretprobe_narrate_returned(struct kretprobe_instance *ri, unsigned long ret,
				struct pt_regs *regs);

/* At the int3: decide whether this hit is told, and tell its start. */
#define narrate_begin(p, regs) do {					\
	if (kprobes_narrate)						\
		kprobe_narrate_begin(p, regs);				\
} while (0)

/* One line of the story, or one of the helpers above, if told. */
#define narrate(...) do {						\
	if (kprobe_narrating)						\
		printk("  " __VA_ARGS__);				\
} while (0)

#define narrate_call(call) do {						\
	if (kprobe_narrating)						\
		call;							\
} while (0)

/* A hook outside a told int3 (jprobe break, kretprobe return), if on. */
#define narrate_if_on(call) do {					\
	if (kprobes_narrate)						\
		call;							\
} while (0)

#endif
