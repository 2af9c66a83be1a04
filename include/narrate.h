/*
 * narrate.h - narrated probe hits: the int3 / single-step dance told
 * step by step on the console, for students watching one hit.
 *
 *   echo 1 > /sys/kernel/debug/kprobes/narrate
 *
 * makes the next hit of each probe print what the CPU and kprobes do at
 * every step (arch/i386/kprobes/narrate.c).  Narration is a layer of the
 * hit (kprobe_hit_ops): it watches each int3 and #DB go through the
 * layers below, so the hit makes no call to it and, while it is off,
 * pays nothing for it.  It changes no switch: an optimized, boosted or
 * emulated probe is told as it runs, and enabling says which are on.
 *
 * A jprobe's story goes on after its handler: the break int3 from
 * jprobe_return() is told as the article's steps 2 and 3.  A kretprobe's
 * goes on when the told call returns through the trampoline, 2005's or
 * rethook's.  Those
 * parts are sent with kprobe_narrate(KPN_..., p, regs), below.
 */
#ifndef NARRATE_H
#define NARRATE_H

#include <stdbool.h>
#include "kernel.h"
#include <asm/percpu.h>

struct kprobe;
struct pt_regs;

/* The transitions of the stories that go on outside a hit. */
enum kprobe_narration {
	/* jprobes (arch/i386/kprobes/jprobes.c), p the jprobe's kprobe */
	KPN_JPROBE_SETJMP,	/* setjmp_pre_handler saved the state: step 1 */
	KPN_JPROBE_BREAK,	/* the break int3 is ours: steps 2 and 3 */
	KPN_JPROBE_RESTORED,	/* registers and stack bytes put back */
	/* kretprobes, p the kretprobe's kprobe (NULL once unregistered) */
	KPN_KRETPROBE_ENTRY,	/* the return address swapped for the trampoline */
	KPN_KRETPROBE_RETURN,	/* the call returned into the trampoline */
	KPN_KRETPROBE_RETURNED,	/* the handler ran; regs->ip is the real return address */
	/* kprobes on ftrace (arch/i386/kprobes/ftrace.c): no exception at all */
	KPN_FTRACE_HIT,		/* ftrace_regs_caller -> kprobe_ftrace_handler, before the pre-handler */
	KPN_FTRACE_DONE,	/* the handlers ran; the trampoline rets to regs->ip */
	/* kretprobes through rethook (probes/kretprobe_rethook.c), p the kretprobe's kprobe */
	KPN_RETHOOK_RETURN,	/* a told call returned into arch_rethook_trampoline */
};

extern bool kprobe_narrate_enabled;	/* the debugfs switch */
DECLARE_PER_CPU(int, kprobe_narrate_telling);	/* the hit in progress on this CPU is told */
extern unsigned long kprobe_narrate_hits;	/* hits told so far */

void kprobe_narrate_set(bool on);
void __kprobe_narrate(enum kprobe_narration what, struct kprobe *p, struct pt_regs *regs);

/* One call per transition; narrate.c decides whether it is told. */
static __always_inline void kprobe_narrate(enum kprobe_narration what, struct kprobe *p,
					   struct pt_regs *regs)
{
	if (kprobe_narrate_enabled)
		__kprobe_narrate(what, p, regs);
}

/*
 * A hardware breakpoint's #DB (arch/i386/hw_breakpoint.c) is told too,
 * every hit while narration is on: which DR6 bit, fault or trap, RF.
 */
struct hw_breakpoint;
void __hw_breakpoint_narrate(struct hw_breakpoint *bp, struct pt_regs *regs, unsigned long dr6);

static __always_inline void hw_breakpoint_narrate(struct hw_breakpoint *bp,
						  struct pt_regs *regs, unsigned long dr6)
{
	if (kprobe_narrate_enabled)
		__hw_breakpoint_narrate(bp, regs, dr6);
}

#endif
