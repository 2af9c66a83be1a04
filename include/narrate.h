/*
 * narrate.h - narrated probe hits: the int3 / single-step dance told
 * step by step on the console, for students watching one hit.
 *
 *   echo 1 > /sys/kernel/debug/kprobes/narrate
 *
 * makes the next hit of each probe print what the CPU and kprobes do at
 * every step.  The probe code reports each transition of a hit with one
 * call, kprobe_narrate(KPN_..., p, regs); all the prose and the step
 * numbers (those of docs/kprobes.md, "One hit") are in
 * arch/i386/kprobes/narrate.c.  While narration is off a call costs one
 * test of a global.
 *
 * A jprobe's story goes on after its handler: the break int3 from
 * jprobe_return() is told as the article's steps 2 and 3.  A kretprobe's
 * goes on when the told call returns through the trampoline.
 */
#ifndef NARRATE_H
#define NARRATE_H

#include <stdbool.h>
#include "kernel.h"
#include "percpu.h"

struct kprobe;
struct pt_regs;

/* The transitions of a hit, in the order a told hit passes them. */
enum kprobe_narration {
	KPN_HIT,		/* int3 -> kprobe_handler, before the pre-handler (steps 1-4) */
	KPN_PRE_HANDLED,	/* the pre-handler moved ip: no step, the hit ends */
	KPN_EMULATED,		/* emulated (emulate.c): no step */
	KPN_INT3_PASSED,	/* a probed int3: handed on to the kernel */
	KPN_BOOSTED,		/* the boosted slot runs and jumps back: no #DB */
	KPN_SINGLESTEP,		/* TF set, ip -> the slot; iret (step 5) */
	KPN_DEBUG,		/* the #DB after the step (step 6) */
	KPN_RESUMED,		/* resume_execution() fixed ip and flags (step 7) */
	KPN_DONE,		/* post-handler run, the hit is over (steps 8, 9) */
	/* kprobes.stepmode=inline (arch/i386/kprobes/stepmode.c), instead of 5-7 */
	KPN_SINGLESTEP_INPLACE,	/* the original byte back over the int3, ip = addr */
	KPN_REARMED,		/* the #DB after the in-place step: the int3 back */
	KPN_NOT_REARMED,	/* the same, but the probe is being disarmed */
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
};

extern bool kprobes_narrate;	/* the debugfs switch */
DECLARE_PER_CPU(int, kprobe_narrating);	/* the hit in progress on this CPU is told */
extern unsigned long kprobes_narrated_hits;	/* hits told so far */

void kprobes_narrate_set(bool on);
void __kprobe_narrate(enum kprobe_narration what, struct kprobe *p, struct pt_regs *regs);

/* One call per transition; narrate.c decides whether it is told. */
static __always_inline void kprobe_narrate(enum kprobe_narration what, struct kprobe *p,
					   struct pt_regs *regs)
{
	if (kprobes_narrate)
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
	if (kprobes_narrate)
		__hw_breakpoint_narrate(bp, regs, dr6);
}

#endif
