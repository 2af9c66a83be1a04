/*
 * asm/kprobes.h - the i386 half of kprobes: what only this CPU knows.
 *
 * Linux splits kprobes the same way: include/linux/kprobes.h (here
 * include/kprobes.h) is the API every architecture shares, and it
 * includes <asm/kprobes.h> for the types that depend on the instruction
 * set - how big an opcode is, which byte traps, how long an instruction
 * can be, what the single-step must remember about EFLAGS, what a jump
 * looks like.  The code behind these lives in arch/i386/kprobes/.
 *
 * Include <kprobes.h>, not this file: it needs struct kprobe.
 */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <asm/ptrace.h>
#include <asm/insn.h>
#include "string.h"
#include <asm/percpu.h>

struct kprobe;
struct optimized_kprobe;
struct text_snapshot;

/* ---- the instruction set ------------------------------------------------- */

typedef uint8_t kprobe_opcode_t;

#define BREAKPOINT_INSTRUCTION	0xcc	/* int3: the one-byte trap */
#define MAX_INSN_SIZE		16	/* one slot: INSN_MAX_LEN (15) rounded up */

/* Runs the probed instruction's effect on regs instead of a step (emulate.c). */
typedef void (*kprobe_emulate_fn)(struct kprobe *p, struct pt_regs *regs);

/* What register_kprobe() learned about the probed instruction. */
struct arch_specific_insn {
	/*
	 * The out-of-line copy: a slot from get_insn_slot().  Stepped with
	 * int3 (kprobes.step=int3), an int3 follows the copy in the slot:
	 * its #BP ends the step (core.c).
	 */
	kprobe_opcode_t *insn;
	/*
	 * The copy a boosted hit runs, ending in a jmp back (boost.c): the
	 * slot itself when stepping with TF (the #DB comes before the jmp);
	 * a second slot when stepping with int3, whose slot must keep the
	 * int3 after its copy for the hits that are still stepped.  NULL
	 * when the instruction is never boosted.
	 */
	kprobe_opcode_t *boost_insn;
	struct insn decoded;	/* length, type (the fixup class), attributes */
	/*
	 * Boosting (arch/i386/kprobes/boost.c): -1 never, 0 not yet (the
	 * next single-step decides), 1 the slot ends in a jmp back and hits
	 * skip the single-step.
	 */
	int boostable;
	/*
	 * Emulation (arch/i386/kprobes/emulate.c): the function that
	 * stands in for the instruction at a hit, or NULL to step it.
	 */
	kprobe_emulate_fn emulate_op;
	bool emulate_always;	/* cli, sti, pause: even with emulation off */
	/* What a step of the copy leaves wrong: INSN_FIX_* (include/insn.h). */
	unsigned int fixups;
};

/* kprobes_set_emulation()'s switch, read at every hit (emulate.c). */
extern bool kprobes_emulation_enabled;
extern bool kprobes_boost_enabled;	/* kprobes_set_boosting() (boost.c) */

/* Set p->ainsn.emulate_op for the decoded instruction (emulate.c). */
void arch_prepare_emulation(struct kprobe *p, const struct insn *insn);

/*
 * Decode the instruction at addr as the compiler wrote it, whatever
 * probes are on it or around it (arch/i386/kprobes/core.c); buf keeps the
 * restored bytes.  Returns what insn_decode() returns.
 */
int decode_original(struct insn *insn, kprobe_opcode_t *buf, kprobe_opcode_t *addr);

/*
 * The trap handlers call these before the die-notifier chain, as
 * Linux's do_int3() and exc_debug_kernel() do (arch/i386/kprobes/core.c).
 * 1: the exception was a probe's and is dealt with; 0: pass it on.
 */
int kprobe_int3_handler(struct pt_regs *regs);
int kprobe_debug_handler(struct pt_regs *regs);
int kprobe_exception_handler(struct pt_regs *regs, int trapnr);

/*
 * The designs that change a hit, each a layer over the one below:
 * narration tells what the lower layers did (narrate.c), kprobes.lock=
 * global holds 2005's kprobe_lock around them (probes/kprobe_lock.c),
 * and the bottom layer is the hit itself, Linux's or stepped in place
 * (kprobes.stepmode=inline, stepmode.c).  A switch installs or removes
 * its layer; the hit never asks which are on (core.c, "the layers").
 * debug and fault are called only while a hit is in progress on this CPU.
 */
struct kprobe_hit_ops {
	const char *name;
	int (*int3)(struct pt_regs *regs);
	int (*debug)(struct pt_regs *regs);
	int (*fault)(struct pt_regs *regs, int trapnr);
};

/*
 * How a stepped hit gets control back after the copy ran (core.c,
 * kprobes.step= and /sys/kernel/debug/kprobes/step):
 *   int3  an int3 after the copy in the slot: a second #BP ends the
 *         step, no #DB (as Linux 6.1, the default)
 *   tf    EFLAGS.TF: the CPU raises #DB after one instruction (2005's
 *         design, Linux's until 5.x)
 */
enum kprobe_step_design {
	KPROBE_SS_INT3,
	KPROBE_SS_TF,
	NR_KPROBE_SS
};

extern enum kprobe_step_design kprobe_step_design;	/* read at registration, never by a hit */
int kprobe_set_step_design(enum kprobe_step_design design);	/* -EBUSY with probes registered */
const char *kprobe_step_design_name(enum kprobe_step_design design);
/* The step layer for a design (core.c): Linux's int3 one, or TF's. */
const struct kprobe_hit_ops *kprobe_step_hit_ops(enum kprobe_step_design design);

enum kprobe_hit_layer {
	KPROBE_HIT_NARRATE,	/* top: sees the hit before and after the rest */
	KPROBE_HIT_LOCK,
	KPROBE_HIT_STEP,	/* bottom: never empty */
	NR_KPROBE_HIT_LAYERS
};

extern const struct kprobe_hit_ops kprobe_linux_hit_ops;	/* stepped with int3 */
extern const struct kprobe_hit_ops kprobe_tf_hit_ops;		/* stepped with TF */
extern const struct kprobe_hit_ops kprobe_inplace_hit_ops;
extern const struct kprobe_hit_ops kprobe_inplace_ending_hit_ops;
void kprobe_set_hit_layer(enum kprobe_hit_layer layer, const struct kprobe_hit_ops *ops);
const struct kprobe_hit_ops *kprobe_hit_layer(enum kprobe_hit_layer layer);	/* NULL: off */
const struct kprobe_hit_ops *kprobe_hit_below(enum kprobe_hit_layer layer);

/* ---- the per-CPU hit state (include/kprobes.h declares the copies) --------- */

/* The outer hit, saved while a reentered probe is stepped. */
struct prev_kprobe {
	struct kprobe *kp;
	unsigned long status;
	unsigned long old_flags;
	unsigned long saved_flags;
};

/* Where a hit stands: the status (KPROBE_HIT_*) and the EFLAGS it changed. */
struct kprobe_ctlblk {
	unsigned long kprobe_status;
	unsigned long kprobe_old_flags;	  /* TF|IF as they were at the int3 */
	unsigned long kprobe_saved_flags; /* TF|IF to put back after the step */
	struct prev_kprobe prev_kprobe;
};

/* ---- jprobes: the stack the handler may scribble on (arch/i386/kprobes/jprobes.c) */

struct jprobe;

/*
 * How much of the probed function's stack a jprobe saves: the return
 * address and the arguments (Linux's MAX_STACK_SIZE).  A handler may
 * scribble on its argument copies; the bytes are put back afterwards.
 */
#define MAX_STACK_SIZE		64
#define MIN_STACK_SIZE(sp)	((current_stack_top() - (sp)) < MAX_STACK_SIZE ? \
				 (current_stack_top() - (sp)) : MAX_STACK_SIZE)

/*
 * What setjmp_pre_handler saved, for longjmp_break_handler: one per CPU,
 * as Linux's jprobe save area in kprobe_ctlblk.  The handler runs with
 * interrupts off, so it stays on the CPU whose copy holds its state.
 */
struct jprobe_ctlblk {
	unsigned long saved_sp;		/* MUST stay first: jprobe_return.S reads it */
	struct jprobe *jp;		/* whose handler is running, NULL when none */
	struct pt_regs saved_regs;	/* up to flags; sp/ss are in the stack copy */
	unsigned long saved_len;	/* bytes of stack saved */
	uint8_t saved_stack[MAX_STACK_SIZE];
	unsigned long ncorrupt;		/* break traps refused as corrupted jprobes */
};
DECLARE_PER_CPU(struct jprobe_ctlblk, jprobe_ctlblk);

/* In jprobe_return.S: the two int3s longjmp_break_handler accepts. */
extern char jprobe_return_break[];	/* in jprobe_return() */
extern char jprobe_handler_returned[];	/* where a plain return from entry lands */
extern char jprobe_handler_returned_break[];

/* ---- kretprobes: the trampoline (arch/i386/kprobes/kretprobe_trampoline.S) -- */

void kretprobe_trampoline(void);
/* Called by the trampoline with the frame it built: the real return address. */
unsigned long trampoline_handler(struct pt_regs *regs);

/*
 * kretprobe_trampoline.S builds pt_regs right below a two-word frame
 * record {caller's %ebp, return slot}, so that record sits where
 * pt_regs' sp and ss would be, and the slot the probed function's "ret"
 * popped is the second of them.  The trampoline pushed the kernel's own
 * cs, so the frame is always a ring-0 one: the record is at &regs->sp,
 * with no test of the privilege level (kernel_stack_pointer()'s) on
 * every return.
 */
static inline unsigned long *kretprobe_trampoline_slot(struct pt_regs *regs)
{
	return &regs->sp + 1;
}

/* ---- boosting (arch/i386/kprobes/boost.c) ----------------------------------- */

/* At registration: could this instruction ever run from its slot untrapped? */
bool arch_can_boost(const struct insn *insn, kprobe_opcode_t *addr);
/* After a single-step: put the jmp back into the slot if the step allows. */
void arch_boost_after_step(struct kprobe *p, struct pt_regs *regs);
/* kprobe_boosted_hit(), the hit itself, is inlined into core.c's int3 handler. */

/* ---- jumps (boosted slots, detour buffers, optimized probes) ------------------ */

#define RELATIVEJUMP_OPCODE	0xe9	/* jmp rel32 */
#define RELATIVEJUMP_SIZE	5

/*
 * The rel32 of a jmp or call whose next instruction starts at from_end:
 * the CPU adds it to the address *after* the branch.  Written bytewise
 * through memcpy: a slot or buffer has no alignment.
 */
static inline void put_rel32(kprobe_opcode_t *at, unsigned long from_end, unsigned long target)
{
	int32_t rel = (int32_t)(target - from_end);

	memcpy(at, &rel, sizeof(rel));
}

/* A whole "jmp target" written at from (boosted slots, detour buffers). */
static inline void put_jmp(kprobe_opcode_t *from, unsigned long target)
{
	from[0] = RELATIVEJUMP_OPCODE;
	put_rel32(from + 1, (unsigned long)from + RELATIVEJUMP_SIZE, target);
}

/* ---- jump optimization (arch/i386/kprobes/opt.c, opt_check.c) ----------------- */

/* The most bytes a jump can displace: 4 bytes into a 15-byte instruction. */
#define MAX_OPTIMIZED_LENGTH	(RELATIVEJUMP_SIZE - 1 + INSN_MAX_LEN)

/*
 * A detour buffer's slot (kprobe_optinsn_slots): the template, the
 * displaced instructions, the jmp back, rounded up to a power of two.
 */
#define MAX_OPTINSN_SIZE	128

struct arch_optimized_insn {
	kprobe_opcode_t copy[MAX_OPTIMIZED_LENGTH]; /* the original bytes the jump displaced */
	size_t size;			/* how many: whole instructions, >= RELATIVEJUMP_SIZE */
	kprobe_opcode_t *insn;		/* the detour buffer */
	size_t insn_size;
};

/* Is ret where a detour's call to optimized_callback() returns?  (unwinders) */
bool arch_optprobe_detour_return(unsigned long ret);
/*
 * Called by the detour with interrupts off (arguments in %eax, %edx);
 * zero: run the copies, non-zero: a pre-handler set regs->ip.
 */
int optimized_callback(struct optimized_kprobe *op, struct pt_regs *regs);


/* ---- the jump optimizer's arch half -------------------------------------- */

/* The arch half (arch/i386/kprobes/opt.c).  Errors (-OPT_*) mean "stay an int3". */
int arch_check_optimized_kprobe(struct optimized_kprobe *op);	/* the analysis */
/* The analysis keeps its last function's summary until told to forget it. */
void arch_forget_optprobe_summaries(void);
int arch_prepare_optimized_kprobe(struct optimized_kprobe *op);	/* analysis + detour */
/* Patch the jmp, unless the snapshot has a thread inside: -OPT_THREAD_INSIDE. */
int arch_optimize_kprobe(struct optimized_kprobe *op);
/* At most this many probes per batch, as Linux's MAX_OPTIMIZE_PROBES. */
#define MAX_OPTIMIZE_PROBES	256
/* The same for n probes through one patch window: ret[i] is each one's answer. */
void arch_optimize_kprobes(struct optimized_kprobe **ops, int n, int *ret);
/* Every jump of ops back to an int3, through one patch window. */
void arch_unoptimize_kprobes(struct optimized_kprobe **ops, int n);
void arch_unoptimize_kprobe(struct optimized_kprobe *op);
/* Frees the detour and op, now if snap (NULL: look) has no thread inside, else later. */
void arch_remove_optimized_kprobe(struct optimized_kprobe *op,
				  const struct text_snapshot *snap);

/* ---- code a preempted thread may still be running (arch/i386/kprobes/text_quiesce.c) -- */

/* Is any thread's interrupted ip, or any return address, in [start, end)? */
bool kprobes_text_busy(unsigned long start, unsigned long end);

/*
 * The same question for many ranges: every thread's resume points (return
 * addresses, interrupted ips), collected by one walk.  Exact as long as
 * no other thread runs in between (hold kprobe_mutex).  A snapshot that
 * overflowed answers by walking again.
 */
#define TEXT_SNAPSHOT_MAX_POINTS	512
struct text_snapshot {
	unsigned int nr;
	bool overflow;
	unsigned long points[TEXT_SNAPSHOT_MAX_POINTS];
};
void text_snapshot_take(struct text_snapshot *s);
bool text_snapshot_busy(const struct text_snapshot *s, unsigned long start,
			unsigned long end);
/* release(arg) once no thread can be running [start, end): kprobes_collect_garbage() looks. */
void kprobes_free_text_later(unsigned long start, unsigned long end,
			     void (*release)(void *arg), void *arg);
/* Release what has become quiet; returns how many still wait. */
unsigned int kprobes_collect_garbage(void);
unsigned int kprobes_nr_deferred(void);	/* how many wait, without looking */
/* From a preemptible thread: let the others run until nothing waits. */
void synchronize_kprobe_text(void);

#endif
