#ifndef KPROBES_STEPMODE_H
#define KPROBES_STEPMODE_H
/*
 * kprobes_stepmode.h - where a classic hit single-steps the probed
 * instruction (arch/i386/kprobes/stepmode.c):
 *
 *   outofline  the copy in the probe's slot, as Linux does (the default)
 *   inline     the instruction itself, at its own address: the original
 *              byte goes back over the int3 for the step and the int3
 *              comes back after it.  The naive design: while the byte
 *              is back, another CPU runs through the probe unseen.
 *
 *   echo inline > /sys/kernel/debug/kprobes/stepmode   (or boot with
 *   kprobes.stepmode=inline), then the shell's `stepmode` command.
 *
 * docs/kprobes-smp.md, "Why the slot: stepping in place".
 */
#include "kernel.h"
#include <asm/percpu.h>

struct kprobe;
struct pt_regs;
struct seq_buf;

enum kprobe_stepmode {
	KPROBE_STEP_OUTOFLINE,
	KPROBE_STEP_INLINE,
	NR_KPROBE_STEPMODES
};

extern enum kprobe_stepmode kprobe_stepmode;	/* the switch; the hit reads its layer */

/* What the in-place steps did on one CPU (the debugfs file sums them). */
struct kprobe_stepmode_stats {
	unsigned long in_place;		/* steps at the probed address */
	unsigned long waited;		/* hits that waited for another CPU's step */
};
DECLARE_PER_CPU(struct kprobe_stepmode_stats, kprobe_stepmode_stats);

/* One run of the demonstration (console/stepmode_demo.c). */
struct stepmode_run {
	int cpus;			/* CPUs that called the function */
	unsigned long calls;		/* calls made, all CPUs */
	unsigned long hits;		/* the probe's nhit */
	unsigned long wrong;		/* calls that returned a wrong result */
};

const char *kprobe_stepmode_name(enum kprobe_stepmode mode);
int kprobe_set_stepmode(enum kprobe_stepmode mode);
int kprobe_stepmode_setup(void);		/* kprobes.stepmode= (arch_init_kprobes) */
void kprobe_stepmode_record(enum kprobe_stepmode mode, const struct stepmode_run *run);

/* /sys/kernel/debug/kprobes/stepmode */
int kprobe_stepmode_show(struct seq_buf *s, void *data);
int kprobe_stepmode_write(const char *text, size_t len, bool trunc, void *data);

/*
 * The in-place step, for core.c's inline layer (kprobe_inplace_hit_ops),
 * the only one that calls them: kprobe_step_in_place() puts the original
 * byte back and points ip at p->addr; kprobe_end_step_in_place() re-arms
 * the int3 after the step (or a fault in it).
 */
DECLARE_PER_CPU(struct kprobe *, inplace_kprobe);	/* this CPU's step in place, or NULL */
void kprobe_step_in_place(struct kprobe *p, struct pt_regs *regs);
void kprobe_end_step_in_place(struct kprobe *p, struct pt_regs *regs);

/* Is this CPU's step of p the in-place one?  (A #DB or a fault: whose is it?) */
static inline bool kprobe_stepping_in_place(struct kprobe *p)
{
	return this_cpu_read(inplace_kprobe) == p;
}
void kprobe_stepmode_disarm(struct kprobe *p);

/*
 * The demonstration: calls_per_cpu calls of stepmode_target() on every
 * online CPU at once, with a classic probe on its first instruction,
 * stepped the given way.  Fills run; 0 or a negative errno.
 */
int stepmode_demo(enum kprobe_stepmode mode, unsigned long calls_per_cpu,
		  struct stepmode_run *run);
int stepmode_target(int x);	/* the probed function: returns 2 * x + 1 */

/*
 * How a stepped hit ends (arch/i386/kprobes/step_design.c): the switch
 * itself, kprobe_set_step_design(), is in <asm/kprobes.h>.
 *   kprobes.step=int3|tf, /sys/kernel/debug/kprobes/step
 */
int kprobe_step_design_setup(void);		/* kprobes.step= (arch_init_kprobes) */
int kprobe_step_design_show(struct seq_buf *s, void *data);
int kprobe_step_design_write(const char *text, size_t len, bool trunc, void *data);

#endif
