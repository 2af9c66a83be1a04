/*
 * stepmode.c (arch/i386) - stepping the probed instruction in place:
 * the design kprobes does not use, kept to show why.
 *
 * A classic hit must run the instruction its int3 covers.  kprobes runs
 * a copy of it in a slot (core.c), and then has to repair whatever the
 * copy did differently for running elsewhere (resume_execution()).  The
 * obvious alternative needs no repair at all: put the original byte back
 * over the int3, step the instruction where it lives, and put the int3
 * back in the #DB handler:
 *
 *   int3 hit    text_poke(addr, original byte)   ip = addr, TF set, iret
 *   the step    the instruction runs at addr: ip, pushed return
 *               addresses, relative targets all right by themselves
 *   #DB         text_poke(addr, int3)            TF/IF back, post-handler
 *
 * On one CPU that works (the single-CPU test shows it).  With several,
 * between the two pokes the probe is simply not there: a CPU that
 * reaches addr meanwhile runs the original instruction and is never
 * seen.  The slot exists so that the int3 never leaves the text while
 * the probe is registered.  kprobes.stepmode=inline, or writing
 * "inline" to /sys/kernel/debug/kprobes/stepmode, switches core.c's
 * step to this; console/stepmode_demo.c counts the hits it loses.
 *
 * The pokes are plain text_poke()s, with no text_poke_sync(): the hit
 * runs with interrupts off, and a sync waits for every other CPU to
 * take an IPI - two CPUs in a hit at once would wait for each other for
 * ever.  That the naive design cannot even patch safely is the second
 * half of the lesson.
 *
 * The mode is the bottom layer of the hit (core.c, kprobe_inplace_hit_ops):
 * the hit stepped with TF runs as always (kprobes.step=tf's, whatever
 * kprobes.step says: after an instruction run in place there is no int3
 * of ours to end the step), and when it has armed a step of the copy
 * the inline layer moves the step to the probed address.  Only stepped
 * hits change.  An emulated instruction is not executed at all (the int3
 * handler does its work on pt_regs), and a boosted slot and an
 * optprobe's detour are out-of-line execution by nature: those hits
 * never miss, whatever the mode.  The mode leaves their switches alone;
 * to watch every hit step in place, turn them off (the debugfs emulate,
 * boost and optimize files).  A reentered probe (a probe hit inside a
 * handler) is still stepped in its slot: it is counted in nmissed and
 * takes no part in the comparison.
 *
 * Two more races of the naive design have to be closed so the kernel
 * stays up while it demonstrates the miss:
 *   - two CPUs that hit the probe at once would each write the byte
 *     back and each re-arm: CPU A's int3 would come back under CPU B's
 *     step, and B would trap in the middle of its own hit.  So the
 *     in-place steps take turns: inplace_lock is held from the first
 *     poke to the re-arm, and a CPU that hits meanwhile spins for it
 *     with interrupts off ("waited" in the figures) - the serialization
 *     of 2005's kprobe_lock, brought back by the design itself.  It does
 *     not help the CPUs that are not in a hit: those are the misses.
 *   - unregistering takes the int3 out while a CPU is in its step; that
 *     CPU's re-arm would leave an int3 no probe owns.
 *     kprobe_stepmode_disarm() waits for such steps and writes the
 *     original byte once more; a step that began after the disarm
 *     started never re-arms.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_stepmode.h"
#include "mm.h"
#include <asm/text_patching.h>
#include <asm/atomic.h>
#include <asm/ptrace.h>
#include "nokprobe.h"
#include "pseudofs.h"
#include "string.h"
#include "errno.h"
#include "smp.h"
#include "spinlock.h"

#define STEPMODE_PARAM		"kprobes.stepmode"
#define STEPMODE_WORD_LEN	16

enum kprobe_stepmode kprobe_stepmode = KPROBE_STEP_OUTOFLINE;

static const char *const stepmode_names[NR_KPROBE_STEPMODES] = {
	[KPROBE_STEP_OUTOFLINE] = "outofline",
	[KPROBE_STEP_INLINE] = "inline",
};

DEFINE_PER_CPU(struct kprobe_stepmode_stats, kprobe_stepmode_stats);

/* The probe this CPU is stepping in place (NULL: none), and may it re-arm? */
DEFINE_PER_CPU(struct kprobe *, inplace_kprobe);
static DEFINE_PER_CPU(int, inplace_may_rearm);

/* Held from an in-place step's first poke to its re-arm: one step at a time. */
static DEFINE_SPINLOCK(inplace_lock);

/* The probe being disarmed (kprobe_mutex serializes them): its steps must not re-arm. */
static struct kprobe *inplace_disarming;

/* The last demonstration run in each mode, for the debugfs file. */
static struct stepmode_run last_run[NR_KPROBE_STEPMODES];

const char *kprobe_stepmode_name(enum kprobe_stepmode mode)
{
	return mode < NR_KPROBE_STEPMODES ? stepmode_names[mode] : "?";
}

static int parse_stepmode(const char *word, size_t len, enum kprobe_stepmode *mode)
{
	for (int m = 0; m < NR_KPROBE_STEPMODES; m++)
		if (strlen(stepmode_names[m]) == len &&
		    memcmp(word, stepmode_names[m], len) == 0) {
			*mode = m;
			return 0;
		}
	return -EINVAL;
}

/* ---- the hit path (core.c's hooks) ------------------------------------------- */

static nokprobe_inline void poke_byte(struct kprobe *p, kprobe_opcode_t byte)
{
	text_poke(p->addr, &byte, 1);
}

/*
 * From the inline layer's int3 (core.c), after Linux's hit armed a first
 * (not reentered) step of the copy: wait for our turn, put the original
 * byte back and point ip at the probed address itself: iret then runs
 * the real instruction with TF set.
 */
void kprobe_step_in_place(struct kprobe *p, struct pt_regs *regs)
{
	if (!arch_spin_trylock(&inplace_lock)) {
		arch_spin_lock(&inplace_lock);	/* interrupts are off: a hit */
		this_cpu_ptr(&kprobe_stepmode_stats)->waited++;
	}
	this_cpu_write(inplace_kprobe, p);
	smp_mb();	/* published before we look for a disarm (kprobe_stepmode_disarm) */
	this_cpu_write(inplace_may_rearm, READ_ONCE(inplace_disarming) != p);
	poke_byte(p, p->opcode);
	regs->ip = (unsigned long)p->addr;
	this_cpu_ptr(&kprobe_stepmode_stats)->in_place++;
}
NOKPROBE_SYMBOL(kprobe_step_in_place);

/*
 * From the #DB after this CPU's in-place step of p (or a fault in it;
 * the caller checked kprobe_stepping_in_place()): re-arm the int3
 * unless p is being disarmed.  ip is already where the instruction left
 * it, no fixup.
 */
void kprobe_end_step_in_place(struct kprobe *p, struct pt_regs *regs)
{
	bool rearm;

	rearm = this_cpu_read(inplace_may_rearm) && READ_ONCE(inplace_disarming) != p;
	if (rearm)
		poke_byte(p, BREAKPOINT_INSTRUCTION);
	smp_mb();	/* the int3 is written before we say the step is over */
	this_cpu_write(inplace_kprobe, NULL);
	arch_spin_unlock(&inplace_lock);	/* the next CPU's turn */
}
NOKPROBE_SYMBOL(kprobe_end_step_in_place);

/*
 * From arch_disarm_kprobe(), after the original byte went back, with
 * kprobe_mutex held.  A CPU in an in-place step of p may re-arm behind
 * us.  Flag p first; a step that starts from now on sees the flag and
 * never re-arms.  Then wait until every hit that began before is over
 * (each runs with interrupts off: the grace period), and if one of them
 * re-armed, take its int3 out again.  Outofline mode has no such steps:
 * switching to it waited for the last one (kprobe_set_stepmode()).
 */
void kprobe_stepmode_disarm(struct kprobe *p)
{
	if (READ_ONCE(kprobe_stepmode) != KPROBE_STEP_INLINE)
		return;
	WRITE_ONCE(inplace_disarming, p);
	smp_mb();
	synchronize_kprobes();
	if (READ_ONCE(*p->addr) == BREAKPOINT_INSTRUCTION)
		text_poke_bp(p->addr, &p->opcode, 1, NULL);
	WRITE_ONCE(inplace_disarming, NULL);
}

/* ---- the switch ---------------------------------------------------------------- */

/*
 * Under kprobe_mutex, so that a disarm sees the mode stay put.  The mode
 * is the hit's bottom layer (core.c).  Leaving inline mode first stops
 * new in-place steps but keeps the inline #DB and fault handlers, which
 * pass every other exception to Linux's, until every hit in progress is
 * over (each runs with interrupts off: the grace period): a step begun
 * in place must still end in place and put its int3 back.
 */
static void set_mode_locked(enum kprobe_stepmode mode)
{
	kprobe_mutex_lock();
	WRITE_ONCE(kprobe_stepmode, mode);
	if (mode == KPROBE_STEP_INLINE) {
		kprobe_set_hit_layer(KPROBE_HIT_STEP, &kprobe_inplace_hit_ops);
	} else {
		kprobe_set_hit_layer(KPROBE_HIT_STEP, &kprobe_inplace_ending_hit_ops);
		synchronize_kprobes();
		/* back to the design kprobes.step chose (step_design.c) */
		kprobe_set_hit_layer(KPROBE_HIT_STEP, kprobe_step_hit_ops(kprobe_step_design));
	}
	kprobe_mutex_unlock();
}

int kprobe_set_stepmode(enum kprobe_stepmode mode)
{
	if (mode >= NR_KPROBE_STEPMODES)
		return -EINVAL;
	if (kprobe_running())
		return -EBUSY;		/* a handler: the grace period would wait for itself */
	if (mode == READ_ONCE(kprobe_stepmode))
		return 0;
	set_mode_locked(mode);
	/*
	 * Only a stepped hit changes: an emulated or boosted one takes no
	 * step and an optimized one no int3, whatever the mode.  Their
	 * switches are the user's (the debugfs emulate, boost, optimize).
	 */
	printk("kprobes: stepmode %s: classic hits step %s\n", kprobe_stepmode_name(mode),
	       mode == KPROBE_STEP_INLINE ? "the instruction in place" : "the copy in the slot");
	return 0;
}

/* kprobes.stepmode=inline or =outofline (the default). */
int kprobe_stepmode_setup(void)
{
	char word[STEPMODE_WORD_LEN];
	enum kprobe_stepmode mode;

	if (!cmdline_value(STEPMODE_PARAM, word, sizeof(word)))
		return 0;
	if (parse_stepmode(word, strlen(word), &mode)) {
		printk("kprobes: %s=%s: want inline or outofline; outofline it is\n",
		       STEPMODE_PARAM, word);
		return -EINVAL;
	}
	return kprobe_set_stepmode(mode);
}

/* ---- the figures ---------------------------------------------------------------- */

void kprobe_stepmode_record(enum kprobe_stepmode mode, const struct stepmode_run *run)
{
	if (mode < NR_KPROBE_STEPMODES)
		last_run[mode] = *run;
}

static void show_run(struct seq_buf *s, enum kprobe_stepmode mode)
{
	const struct stepmode_run *r = &last_run[mode];

	if (!r->cpus) {
		seq_buf_printf(s, "%s: not run yet (the shell's stepmode command)\n",
			   kprobe_stepmode_name(mode));
		return;
	}
	seq_buf_printf(s, "%s: %lu of %lu calls hit, %lu missed (%d CPUs)\n",
		   kprobe_stepmode_name(mode), r->hits, r->calls, r->calls - r->hits, r->cpus);
}

/*
 * mode, what the in-place steps did on each CPU, and the last
 * demonstration in each mode: calls made, probe hits, calls missed.
 */
int kprobe_stepmode_show(struct seq_buf *s, void *data)
{
	unsigned long in_place = 0, waited = 0;
	int cpu;

	seq_buf_printf(s, "mode %s\n", kprobe_stepmode_name(READ_ONCE(kprobe_stepmode)));
	for_each_online_cpu(cpu) {
		const struct kprobe_stepmode_stats *st = &per_cpu(kprobe_stepmode_stats, cpu);

		seq_buf_printf(s, "cpu%d in_place %lu waited %lu\n", cpu, st->in_place,
			   st->waited);
		in_place += st->in_place;
		waited += st->waited;
	}
	seq_buf_printf(s, "all  in_place %lu waited %lu\n", in_place, waited);
	show_run(s, KPROBE_STEP_INLINE);
	show_run(s, KPROBE_STEP_OUTOFLINE);
	return 0;
}

/* "inline" or "outofline", with or without echo's newline. */
int kprobe_stepmode_write(const char *text, size_t len, bool trunc, void *data)
{
	enum kprobe_stepmode mode;

	if (len && text[len - 1] == '\n')
		len--;
	if (parse_stepmode(text, len, &mode))
		return -EINVAL;
	return kprobe_set_stepmode(mode);
}
