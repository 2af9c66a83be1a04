/*
 * core.c (arch/i386) - the CPU half of kprobes: int3, TF and EFLAGS.
 *
 * One probe hit, as the CPU sees it, stepped with TF (kprobes.step=tf,
 * the 2005 design; the default, int3, is below):
 *
 *   1. The probed instruction's first byte is int3 (0xCC).  The CPU
 *      traps through the #BP interrupt gate - IF and TF are cleared - and
 *      do_int3() calls kprobe_int3_handler() -> kprobe_handler() before
 *      it asks the die notifiers, as Linux does.
 *   2. kprobe_handler() runs the pre-handler, then sets regs->ip to the
 *      copy of the instruction in its slot, sets TF and clears IF in
 *      regs->flags and returns.  iret loads those flags: TF on, so the
 *      CPU runs exactly one instruction - the copy - and traps again.
 *   3. #DB (also an interrupt gate) -> post_kprobe_handler():
 *      resume_execution() makes the result look as if the instruction had
 *      run at its real address (ip, pushed return addresses, pushed
 *      flags), TF and IF are put back as they were, the post-handler
 *      runs, and iret returns into the probed function just after the
 *      probed instruction.
 *
 * Stepped with int3 (kprobes.step=int3, as Linux 6.1, the default),
 * steps 2 and 3 change: the slot holds the copy followed by an int3,
 * kprobe_handler() clears IF but sets no TF, and the copy falls through
 * into that int3: a second #BP, at slot + length + 1, which Linux's
 * layer (linux_int3()) recognises as the end of the step (Linux's
 * kprobe_is_ss()) and finishes with int3_step_done(): ip back to the
 * text, IF back, the post-handler.  Two #BP, no #DB.  The TF layer
 * (tf_int3()) runs the same kprobe_handler() and arms TF on top.  Only an
 * instruction that falls through reaches that int3, so every other one
 * - branches, calls, returns, popf - is emulated whatever the emulate
 * switch says, and those emulate.c cannot compute (far transfers, iret,
 * calls and jumps through memory) are refused with -EOPNOTSUPP, as
 * Linux 6.1 refuses them (prepare_int3_step(); docs/kprobes.md, "Two
 * ways to end a step").
 *
 * Two kinds of hit skip the step: branches, call rel32, ret, push and
 * pop of a register, nops, cli and sti are emulated against regs
 * (kprobe_emulate(), emulate.c, as Linux since 5.13; the stack ones
 * with the #BP exit moving the iret frame, traps.c and entry.S), and a
 * boosted copy ends in a jmp back to the text (boost.c), so neither
 * takes the #DB of step 3.
 *
 * Interrupts are off from step 1 to step 3: the gates clear IF, and the
 * copy is stepped with IF clear.  So a hit starts and ends on one CPU,
 * and its state (current_kprobe, kprobe_ctlblk) is that CPU's own copy:
 * hits on other CPUs run at the same time with theirs (DEFINE_PER_CPU,
 * as in Linux; docs/kprobes-smp.md).
 *
 * The preempt count is raised only while kprobes' own code runs in the
 * exception (kprobe_int3_handler() and its siblings) and dropped before
 * the iret.
 * With IF clear no tick can preempt the hit anyway; the count is for a
 * handler that turns interrupts on, which must still not be scheduled
 * away in the middle of a hit.  It must not stay raised across the
 * iret, though: the copy in the slot runs *between* the two traps, and a
 * stepped "mov preempt_count, %eax" (msleep()'s and kthread_join()'s
 * might_sleep() check, say) would read 1 where the unprobed code reads
 * 0.  A probe must be invisible to the code it probes.  Linux reached
 * the same answer: 4.17 dropped the preempt_disable() that 2.6 held
 * from the int3 to the #DB, and since 5.8 the #BP entry raises the count
 * for the handler (irqentry_nmi_enter()) and lowers it before the
 * return.  docs/kprobes.md tells the story.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include <asm/kdebug.h>
#include <asm/insn.h>
#include "mm.h"
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/ptrace.h>
#include "sched.h"
#include "string.h"
#include "errno.h"
#include "kallsyms.h"
#include "nokprobe.h"
#include "spinlock.h"
#include <asm/text_patching.h>
#include "kprobes_stepmode.h"

#define TF_IF	(X86_EFLAGS_TF | X86_EFLAGS_IF)


DEFINE_PER_CPU(struct kprobe *, current_kprobe);
DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* ---- preparing a probe -------------------------------------------------------- */

/*
 * Decode the instruction at addr as it was before any probe.  A probe
 * only ever replaces the first byte of an instruction with its int3, so
 * only an int3 there needs the kprobe table (a disabled probe leaves the
 * original byte in the text); any byte may also lie under an optimized
 * probe's jump.  The restored copy is left in buf.  Shared with the
 * optimizer's safety analysis (opt_check.c).
 */
int decode_original(struct insn *insn, kprobe_opcode_t *buf, kprobe_opcode_t *addr)
{
	struct kprobe *p = NULL;

	memcpy(buf, addr, INSN_MAX_LEN);
	if (buf[0] == BREAKPOINT_INSTRUCTION)
		p = get_kprobe(addr);
	if (p)
		buf[0] = p->opcode;
	recover_optprobed_bytes(buf, addr, INSN_MAX_LEN);	/* under optprobes' jumps */
	return insn_decode(insn, buf, INSN_MAX_LEN);
}

/*
 * Is addr the start of an instruction?  x86 instructions have no
 * alignment, so the only way to know is to decode from a known start -
 * the enclosing function, found with kallsyms - up to addr (Linux's
 * can_probe()).  We walk ourselves rather than calling the decoder's
 * insn_boundary_check() on the live text: other probes in the same
 * function have put int3s there, and each must be read as the byte it
 * replaced or the walk would lose step.
 */
static bool can_probe(unsigned long addr)
{
	kprobe_opcode_t buf[INSN_MAX_LEN];
	unsigned long size, offset, ip;
	struct insn insn;

	if (!kallsyms_lookup(addr, &size, &offset))
		return false;
	for (ip = addr - offset; ip < addr; ip += insn.length)
		if (decode_original(&insn, buf, (kprobe_opcode_t *)ip) < 0)
			return false;
	return ip == addr;
}

/*
 * Instructions that cannot run one at a time in a slot.  The decoder
 * marks them INSN_ATTR_NO_SSTEP (docs/decoder.md says why, one by one);
 * we take its word except for two we handle ourselves: int3 is never
 * stepped (see kprobe_handler()), and iret steps fine in ring 0 (see
 * resume_execution()).
 */
static bool can_single_step(const struct insn *insn)
{
	switch (insn->type) {
	case INSN_TYPE_INT3:
	case INSN_TYPE_IRET:
		return true;
	case INSN_TYPE_HLT:	/* would halt with IF clear: forever */
	case INSN_TYPE_MOV_SS:	/* mov/pop ss hold off the #DB for one more */
	case INSN_TYPE_POP_SS:	/* instruction, which would run from the slot */
	case INSN_TYPE_INT:	/* int n / into / int1 enter a handler that */
	case INSN_TYPE_INTO:	/* clears TF; the step would end somewhere */
	case INSN_TYPE_INT1:	/* else entirely */
	case INSN_TYPE_UD:	/* always #UD: nothing sane to step */
		return false;
	default:
		return !(insn->attr & INSN_ATTR_NO_SSTEP);	/* sysenter & co */
	}
}

/*
 * Stepped with int3, the copy gets control back only by falling through
 * into the int3 after it.  An instruction that may go anywhere else - a
 * branch, call or return, iret - or that sets IF or TF from memory (popf,
 * iret: IF would come on between the copy and the int3) must never be
 * stepped: it is emulated at every hit, whatever the emulate switch
 * says, or refused when emulate.c cannot compute it, as Linux 6.1's
 * prepare_emulation() refuses far transfers, iret and indirect ones
 * through memory (-EOPNOTSUPP).  An int3 is never stepped at all.
 */
static bool int3_step_needs_emulation(const struct insn *insn)
{
	if (insn->type == INSN_TYPE_INT3)
		return false;
	return insn->attr & (INSN_ATTR_BRANCH | INSN_ATTR_MODIFIES_IF | INSN_ATTR_LOADS_FLAGS);
}

static int prepare_int3_step(struct kprobe *p, const struct insn *insn)
{
	if (!int3_step_needs_emulation(insn))
		return 0;
	if (!p->ainsn.emulate_op)
		return -EOPNOTSUPP;
	p->ainsn.emulate_always = true;
	return 0;
}

/*
 * The copy, and after it what ends a step: an int3 for the int3 design
 * (a TF step traps before reaching it, so it is written for both).  A
 * boosted copy ends in a jmp instead: with TF it is written over the
 * same slot's int3 when boosting is learned; stepping with int3, the
 * slot keeps its int3 for the hits that still step (a post-handler, a
 * reentered hit, boosting switched off) and the boosted copy gets a
 * second slot.
 */
static int fill_slots(struct kprobe *p, const kprobe_opcode_t *buf, const struct insn *insn)
{
	p->ainsn.insn = get_insn_slot();
	if (!p->ainsn.insn)
		return -ENOMEM;
	memcpy(p->ainsn.insn, buf, insn->length);
	p->ainsn.insn[insn->length] = BREAKPOINT_INSTRUCTION;	/* MAX_INSN_SIZE > INSN_MAX_LEN */
	if (p->ainsn.boostable != 0)
		return 0;
	if (kprobe_step_design == KPROBE_SS_TF) {
		p->ainsn.boost_insn = p->ainsn.insn;
		return 0;
	}
	p->ainsn.boost_insn = get_insn_slot();
	if (!p->ainsn.boost_insn)
		p->ainsn.boostable = -1;	/* no room: stepped, never boosted */
	else
		memcpy(p->ainsn.boost_insn, buf, insn->length);
	return 0;
}

int arch_prepare_kprobe(struct kprobe *p)
{
	kprobe_opcode_t buf[INSN_MAX_LEN];
	struct insn insn;
	int ret;

	p->ainsn.boost_insn = NULL;
	if (kprobe_ftrace(p))
		return arch_prepare_kprobe_ftrace(p);
	if (!can_probe((unsigned long)p->addr))
		return -EILSEQ;
	if (decode_original(&insn, buf, p->addr) < 0 || !can_single_step(&insn))
		return -EILSEQ;
	arch_prepare_emulation(p, &insn);
	if (kprobe_step_design == KPROBE_SS_INT3) {
		ret = prepare_int3_step(p, &insn);
		if (ret)
			return ret;
	}
	/* Emulation comes first at a hit; boosting for when it is off. */
	p->ainsn.boostable = arch_can_boost(&insn, p->addr) ? 0 : -1;
	ret = fill_slots(p, buf, &insn);
	if (ret)
		return ret;
	p->opcode = buf[0];
	p->ainsn.decoded = insn;
	p->ainsn.decoded.kaddr = p->addr;
	p->ainsn.fixups = insn_sstep_fixups(&insn);	/* what a step leaves wrong */
	return 0;
}

void arch_arm_kprobe(struct kprobe *p)
{
	kprobe_opcode_t int3 = BREAKPOINT_INSTRUCTION;

	if (kprobe_ftrace(p))
		return arm_kprobe_ftrace(p);
	text_poke_bp(p->addr, &int3, 1, NULL);	/* hits meanwhile are ours */
}

void arch_disarm_kprobe(struct kprobe *p)
{
	if (kprobe_ftrace(p))
		return disarm_kprobe_ftrace(p);
	text_poke_bp(p->addr, &p->opcode, 1, NULL);
	kprobe_stepmode_disarm(p);	/* an in-place step may re-arm behind us */
}

static void release_boosted_slot(void *slot)
{
	free_insn_slot(slot, 0);
}

/*
 * A stepped slot runs with interrupts off, so no thread is ever left in
 * it; a boosted copy runs with the probed code's IF, and a preempted
 * thread may still be inside: it is freed once none is.
 */
void arch_remove_kprobe(struct kprobe *p)
{
	kprobe_opcode_t *slot = p->ainsn.insn, *boost = p->ainsn.boost_insn;
	bool boosted = boost && p->ainsn.boostable == 1;

	if (!slot)
		return;
	if (boosted)
		kprobes_free_text_later((unsigned long)boost, (unsigned long)boost + MAX_INSN_SIZE,
					release_boosted_slot, boost);
	else if (boost && boost != slot)
		free_insn_slot(boost, 0);
	if (!(boosted && boost == slot))
		free_insn_slot(slot, 0);
	p->ainsn.insn = NULL;
	p->ainsn.boost_insn = NULL;
}

/* The entry stubs build pt_regs for the int3 itself: never probe them. */
int arch_populate_kprobe_blacklist(void)
{
	return kprobe_add_area_blacklist((unsigned long)entry_text_start,
					 (unsigned long)entry_text_end);
}

/* ---- the hit state ---------------------------------------------------------------- */

/* Which of TF/IF the instruction itself decides (popf, iret): its result must stand. */
static nokprobe_inline unsigned long step_owned_flags(unsigned int fix)
{
	return (fix & INSN_FIX_SETF) ? TF_IF : 0;	/* (cli/sti are emulated, never stepped) */
}

/*
 * Remember TF/IF as they were at the int3 (old_flags), and which of them
 * to put back after the step (saved_flags): all of them, except those the
 * stepped instruction sets itself.
 */
static nokprobe_inline void set_current_kprobe(struct kprobe *p, struct pt_regs *regs,
			       struct kprobe_ctlblk *kcb)
{
	this_cpu_write(current_kprobe, p);
	kcb->kprobe_old_flags = regs->flags & TF_IF;
	kcb->kprobe_saved_flags = kcb->kprobe_old_flags & ~step_owned_flags(p->ainsn.fixups);
}

static nokprobe_inline void save_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	kcb->prev_kprobe.kp = this_cpu_read(current_kprobe);
	kcb->prev_kprobe.status = kcb->kprobe_status;
	kcb->prev_kprobe.old_flags = kcb->kprobe_old_flags;
	kcb->prev_kprobe.saved_flags = kcb->kprobe_saved_flags;
}

static nokprobe_inline void restore_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	this_cpu_write(current_kprobe, kcb->prev_kprobe.kp);
	kcb->kprobe_status = kcb->prev_kprobe.status;
	kcb->kprobe_old_flags = kcb->prev_kprobe.old_flags;
	kcb->kprobe_saved_flags = kcb->prev_kprobe.saved_flags;
}

/*
 * Arrange for iret to run exactly one instruction: the copy in the slot,
 * which falls through into the int3 after it.  (Stepped with TF, the
 * TF layer arms TF on top: arm_tf_step().)  IF is cleared: no interrupt
 * between the copy and the trap that ends the step.  Inlined into its
 * callers: the classic hit passes here every time.
 */
static nokprobe_inline void setup_singlestep(struct kprobe *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb, int reenter)
{
	if (reenter) {
		save_previous_kprobe(kcb);
		set_current_kprobe(p, regs, kcb);
		kcb->kprobe_status = KPROBE_REENTER;
	} else {
		kcb->kprobe_status = KPROBE_HIT_SS;
	}
	regs->flags &= ~X86_EFLAGS_IF;	/* no interrupt before the trap */
	regs->ip = (unsigned long)p->ainsn.insn;
}

/*
 * The end of a hit whose instruction did not need a step: run the
 * post-handler and leave the hit.  (post_kprobe_handler() ends stepped
 * hits the same way.)
 */
static nokprobe_inline void kprobe_post_process(struct kprobe *p, struct pt_regs *regs,
				struct kprobe_ctlblk *kcb)
{
	/*
	 * Always, as Linux 6.1: reset_current_kprobe() leaves the status
	 * alone, so it tells afterwards that the instruction has run.
	 */
	kcb->kprobe_status = KPROBE_HIT_SSDONE;
	if (p->post_handler)
		p->post_handler(p, regs, 0);
	reset_current_kprobe();
}

/*
 * The hit of a probe whose instruction needs no step: its effect on
 * regs is computed in place (emulate.c, Linux 5.13+).  cli and sti must
 * be: their "interrupt shadow" may hold off the single-step trap for one
 * more instruction (QEMU does), and that instruction would be the int3
 * filler after the copy in the slot.  pause too: QEMU's TCG ends its
 * translated block after a pause, to let the other vCPUs run, and loses
 * the single-step trap there.  Branches and nops simply are cheaper so:
 * one exception instead of two.
 */
static nokprobe_inline bool kprobe_emulate(struct kprobe *p, struct pt_regs *regs)
{
	if (!kprobe_emulates(p))
		return false;		/* a step it is */
	p->ainsn.emulate_op(p, regs);
	return true;
}

/*
 * After the pre-handler returned 0, a boosted slot (boost.c) needs no
 * step: the hit ends here, iret goes to the slot with regs->flags
 * untouched (the probed code's TF and IF), the copy runs, the jmp
 * brings it back.  Inline: every classic hit asks.
 */
static nokprobe_inline int kprobe_boosted_hit(struct kprobe *p, struct pt_regs *regs)
{
	if (p->ainsn.boostable != 1 || p->post_handler || !READ_ONCE(kprobes_boost_enabled))
		return 0;
	regs->ip = (unsigned long)p->ainsn.boost_insn;
	reset_current_kprobe();
	return 1;
}

/*
 * A probe hit while another hit is in progress: a handler called a probed
 * function, or an interrupt (a handler turned IF back on) ran one.  2.6.11
 * disarmed the inner probe for good.  Linux since steps it without running
 * its handlers, counts it in nmissed, and then goes back to the outer hit.
 * Returns 1 if handled (NOTIFY_STOP).
 */
static int reenter_kprobe(struct kprobe *p, struct pt_regs *regs,
			  struct kprobe_ctlblk *kcb)
{
	switch (kcb->kprobe_status) {
	case KPROBE_HIT_ACTIVE:
	case KPROBE_HIT_SSDONE:
	case KPROBE_HIT_SS:
		kprobes_inc_nmissed_count(p);
		if (p->ainsn.decoded.type == INSN_TYPE_INT3)
			return 0;	/* the kernel takes the int3 as usual */
		if (kprobe_emulate(p, regs))
			return 1;
		setup_singlestep(p, regs, kcb, 1);
		return 1;
	case KPROBE_REENTER:
	default:
		/*
		 * A probe on the code that steps a reentered probe: it would
		 * reenter forever.  The blacklist exists to make this
		 * impossible.
		 */
		panic("kprobes: probe at %p hit while stepping a reentered probe",
		      p->addr);
	}
}
NOKPROBE_SYMBOL(reenter_kprobe);

/* ---- int3: the hit ------------------------------------------------------------- */

/*
 * The pre-handler returned 0, so the probed instruction must now run as
 * if no probe were there.  Four ways, the cheapest that applies first
 * (Linux makes the same choices at the top of its setup_singlestep()).
 * Returns what kprobe_handler() returns: 1 if the trap is ours.
 * Inlined into kprobe_handler(): it is on the blacklist as part of it,
 * and the hit path pays no extra call for the split.
 */
static __always_inline int run_probed_instruction(struct kprobe *p, struct pt_regs *regs,
						  struct kprobe_ctlblk *kcb)
{
	if (p->ainsn.decoded.type == INSN_TYPE_INT3) {
		/*
		 * A probe on an int3 that was there before us (a
		 * debugger's, or one with a fixup).  Stepping it would
		 * only trap again, so hand the trap on to the kernel
		 * with ip just past it, exactly as if no probe were
		 * there.  (2.6.11 mishandled this.)
		 */
		regs->ip = (unsigned long)p->addr + 1;
		kprobe_post_process(p, regs, kcb);
		return 0;
	}
	if (kprobe_emulate(p, regs)) {
		kprobe_post_process(p, regs, kcb);
		return 1;
	}
	if (kprobe_boosted_hit(p, regs))
		return 1;
	setup_singlestep(p, regs, kcb, 0);
	return 1;
}

/*
 * int3 is a trap: the CPU reports the address after its one byte.
 * Computed from regs where it is needed rather than held in a variable:
 * held across the call of get_kprobe(), it took two spills and two
 * reloads on every hit.
 */
static nokprobe_inline kprobe_opcode_t *int3_addr(struct pt_regs *regs)
{
	return (kprobe_opcode_t *)(regs->ip - sizeof(kprobe_opcode_t));
}

/* ---- after a step: the fix-ups both designs share ------------------------------- */

/*
 * A stepped call pushed the copy's return address; it moves by the
 * distance to the text.  With an operand-size prefix only 16 bits (IP)
 * were pushed.
 */
static nokprobe_inline void fix_return_address(unsigned long *tos, long delta, unsigned int fix)
{
	if (fix & INSN_FIX_16)
		*(uint16_t *)tos += (uint16_t)delta;
	else
		*tos += delta;
}

/* pushf from the slot pushed TF set and IF clear: push what pushf would have. */
static nokprobe_inline void fix_pushed_flags(unsigned long *tos, struct kprobe_ctlblk *kcb)
{
	/* TF and IF are in the low 16 bits, so this is right for pushfw too. */
	uint16_t *image = (uint16_t *)tos;

	*image = (*image & ~TF_IF) | kcb->kprobe_old_flags;
}

/* Put back TF/IF as they were, except those the instruction decided. */
static nokprobe_inline void restore_step_flags(unsigned int fix, struct pt_regs *regs,
					       struct kprobe_ctlblk *kcb)
{
	regs->flags &= ~(TF_IF & ~step_owned_flags(fix));
	regs->flags |= kcb->kprobe_saved_flags;
}

/*
 * The top of the stack the stepped instruction used.  The CPU pushed no
 * sp/ss for a ring-0 trap, so it starts at kernel_stack_pointer(regs).
 * Asked only by the instructions that pushed something: the others do
 * not pay for its test of the frame's privilege level.
 */
static nokprobe_inline unsigned long *stepped_tos(struct pt_regs *regs)
{
	return (unsigned long *)kernel_stack_pointer(regs);
}

/* ---- the second #BP: the end of a step with int3 ------------------------------ */

/* A step of the copy is in progress on this CPU (Linux's kprobe_is_ss()). */
static nokprobe_inline bool kprobe_is_ss(struct kprobe_ctlblk *kcb)
{
	return kcb->kprobe_status == KPROBE_HIT_SS || kcb->kprobe_status == KPROBE_REENTER;
}

/*
 * Is this #BP the int3 after cur's copy?  The copy fell through into it,
 * so the trap reports the byte after it.  (Linux accepts any ip inside
 * the slot; only one int3 there is ours.)
 */
static nokprobe_inline bool int3_ends_step(struct kprobe *cur, struct pt_regs *regs)
{
	return int3_addr(regs) == cur->ainsn.insn + cur->ainsn.decoded.length;
}

/*
 * Make the step look as if the instruction had run in place (Linux's
 * resume_singlestep()).  Only instructions that fall through are stepped
 * this way (prepare_int3_step()), so ip moves by the distance from the
 * slot to the text and nothing else does; a pushf pushed IF clear and
 * gets the probed code's IF in its image, as with TF.
 */
static nokprobe_inline void resume_int3_step(struct kprobe *p, struct pt_regs *regs,
					     struct kprobe_ctlblk *kcb)
{
	regs->ip += (unsigned long)p->addr - (unsigned long)p->ainsn.insn;
	if (p->ainsn.fixups & INSN_FIX_PUSHF)
		fix_pushed_flags(stepped_tos(regs), kcb);
	restore_step_flags(p->ainsn.fixups, regs, kcb);
}

/*
 * The int3 after the copy trapped: ip back over it to where the copy
 * ended, boosting learns from the step as after a #DB, the fix-up, then
 * the post-handler from this #BP - the #DB handler's work, done here.
 * Inlined into linux_int3(): a call of its own measured 9 instructions
 * more per stepped hit (make bench), for 4 fewer on a first hit.
 */
static __always_inline int int3_step_done(struct kprobe *cur, struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();

	regs->ip -= sizeof(kprobe_opcode_t);
	if (cur->ainsn.boostable == 0 && kcb->kprobe_status == KPROBE_HIT_SS)
		arch_boost_after_step(cur, regs);	/* boost.c */
	resume_int3_step(cur, regs, kcb);
	if (kcb->kprobe_status == KPROBE_REENTER)
		restore_previous_kprobe(kcb);	/* no handlers; back to the outer hit */
	else
		kprobe_post_process(cur, regs, kcb);
	return 1;
}

/*
 * Returns 1 if the int3 was ours, 0 to let the kernel have it.  The body
 * of Linux's kprobe_int3_handler() with two differences: the user_mode()
 * test is exc_int3()'s alone (see kprobe_int3_handler(), below), and the
 * jprobe break int3 - gone from Linux since 4.15 - is still caught.  A
 * design that changes the hit (kprobes.lock=global, kprobes.stepmode=
 * inline, narration) wraps it as another layer of kprobe_hit_ops, below:
 * nothing in here asks which design is on.
 */
static __always_inline int kprobe_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe *p;

	/* LAB 2: BEGIN kprobe_handler: whose int3 is this? */
	p = get_kprobe(int3_addr(regs));
	kcb = get_kprobe_ctlblk();
	if (p) {
		if (this_cpu_read(current_kprobe))
			return reenter_kprobe(p, regs, kcb);
		set_current_kprobe(p, regs, kcb);
		kcb->kprobe_status = KPROBE_HIT_ACTIVE;
		kprobe_count_inc(&p->nhit);
		/*
		 * regs->ip stays addr + 1, where the int3 trap left it:
		 * Linux x86 handlers see the same, and probe code written
		 * for Linux counts on it (docs/kprobes.md).  No pre-handler,
		 * or one that returned 0: run the probed instruction.
		 */
		if (!p->pre_handler || !p->pre_handler(p, regs))
			return run_probed_instruction(p, regs, kcb);
		/*
		 * The pre-handler moved ip: no step, no post-handler.  A
		 * probe with a break_handler (a jprobe) stays the current
		 * probe until its break int3, below.
		 */
		if (!p->break_handler)
			reset_current_kprobe();
		return 1;
	} else if (this_cpu_read(current_kprobe)) {
		/*
		 * Not a probe address, while a probe is active: the break
		 * int3 a jprobe handler executes to come back.  The break
		 * handler restores the registers and we step the probed
		 * instruction as usual.
		 */
		p = this_cpu_read(current_kprobe);
		if (p->break_handler && p->break_handler(p, regs))
			return run_probed_instruction(p, regs, kcb);
	} else if (READ_ONCE(*int3_addr(regs)) != BREAKPOINT_INSTRUCTION) {
		/*
		 * Another CPU took the probe out between our int3 and
		 * get_kprobe(): the byte is the original again.  Back up
		 * over the int3 that is no longer there and run it.
		 */
		regs->ip = (unsigned long)int3_addr(regs);
		return 1;
	}
	/* LAB 2: STUB printk("lab 2: kprobe_handler: not yet\n"); */
	/* LAB 2: LATER (void)p, (void)kcb;	// no probe fires: each int3 goes on to the die chain */
	/* LAB 2: END */

	/* Not ours (someone's int3 with a fixup, or a bug): the kernel decides. */
	return 0;
}

/* ---- #DB: the end of a step with TF ------------------------------------------------ */

/*
 * The copy ran at the slot, not at p->addr.  Make the result look as if
 * it had run in place.  What its class leaves wrong was decided when the
 * probe was made (p->ainsn.fixups, from insn_sstep_fixups(), lib/insn.c,
 * which has the table class by class); uprobes apply the same fix-ups
 * after a step in a process (arch/i386/uprobes.c).  An instruction whose
 * ip came from a register, memory or the stack - jmp *x, ljmp, ret,
 * lret, iret - needs none there: it is already right.  (2.6.11 "fixed"
 * ret and lret like a fall-through: oops.)  Inlined into its one caller,
 * post_kprobe_handler(): every stepped hit passes here, and a call of its
 * own cost a frame and three saved registers.
 */
static __always_inline void resume_execution(struct kprobe *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	unsigned int fix = p->ainsn.fixups;
	unsigned long copy_ip = (unsigned long)p->ainsn.insn;
	long delta = (unsigned long)p->addr - copy_ip;

	if (fix & INSN_FIX_IP) {
		/* LAB 2: BEGIN resume_execution: ip back to the text */
		/*
		 * Fell through, or a relative branch (taken: the displacement
		 * was counted from the slot): the same distance from the
		 * text either way.  Not next_ip: a rep string instruction
		 * stops after one iteration with ip still on itself, and
		 * must go back to p->addr (where it hits the probe again).
		 */
		regs->ip = insn_sstep_fixed_ip(fix, regs->ip, copy_ip + p->ainsn.decoded.length,
					       delta);
		/* LAB 2: STUB panic("lab 2: resume_execution: ip: not yet"); */
		/* LAB 2: END */
	}
	if (fix & INSN_FIX_CALL) {
		/* LAB 2: BEGIN resume_execution: the pushed return address */
		/* call rel, call *x, lcall: pushed the slot's next byte. */
		fix_return_address(stepped_tos(regs), delta, fix);
		/* LAB 2: STUB panic("lab 2: resume_execution: return address: not yet"); */
		/* LAB 2: END */
	}
	if (fix & INSN_FIX_PUSHF) {
		/* LAB 2: BEGIN resume_execution: pushf */
		/* pushf: the pushed image must show the original TF/IF. */
		fix_pushed_flags(stepped_tos(regs), kcb);
		/* LAB 2: STUB panic("lab 2: resume_execution: pushf: not yet"); */
		/* LAB 2: END */
	}
	restore_step_flags(fix, regs, kcb);
}

/*
 * Returns 1 if the #DB was the end of our step.  Inlined into
 * kprobe_debug_handler(), which read cur (never NULL) and kcb.
 */
static __always_inline int post_kprobe_handler(struct kprobe *cur, struct pt_regs *regs,
					       struct kprobe_ctlblk *kcb)
{
	/* LAB 2: BEGIN post_kprobe_handler: the #DB after the step */
	if (kcb->kprobe_status != KPROBE_HIT_SS && kcb->kprobe_status != KPROBE_REENTER)
		return 0;

	if (cur->ainsn.boostable == 0 && kcb->kprobe_status == KPROBE_HIT_SS)
		arch_boost_after_step(cur, regs);	/* boost.c */
	resume_execution(cur, regs, kcb);
	if (kcb->kprobe_status == KPROBE_REENTER) {
		/* A reentered probe: no handlers; back to the outer hit. */
		restore_previous_kprobe(kcb);
	} else {
		kprobe_post_process(cur, regs, kcb);
	}
	return 1;
	/* LAB 2: STUB panic("lab 2: post_kprobe_handler: not yet"); */
	/* LAB 2: END */
}

/* ---- faults during a hit ----------------------------------------------------------- */

/*
 * The copied instruction faulted in its slot (a bad pointer in the probed
 * code, say).  Undo the step so the fault looks as if it happened at the
 * real address: the kernel's fixup table is keyed on that address, and
 * an oops should name it.
 */
static nokprobe_inline void abort_singlestep(struct kprobe *cur, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	regs->ip = (unsigned long)cur->addr;
	regs->flags = (regs->flags & ~TF_IF) | kcb->kprobe_old_flags;
	if (kcb->kprobe_status == KPROBE_REENTER)
		restore_previous_kprobe(kcb);
	else
		reset_current_kprobe();
}

/*
 * Called for #PF, #GP and other exceptions while a probe is active.
 * Returns 1 if the fault is dealt with, 0 to let the kernel handle it
 * (fixup table, else oops).
 */
static int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = this_cpu_read(current_kprobe);

	switch (kcb->kprobe_status) {
	case KPROBE_HIT_SS:
	case KPROBE_REENTER:
		if (regs->ip != (unsigned long)cur->ainsn.insn)
			return 0;	/* not the stepped instruction */
		if (kcb->kprobe_status == KPROBE_HIT_SS && cur->fault_handler &&
		    cur->fault_handler(cur, regs, trapnr))
			return 1;
		abort_singlestep(cur, regs, kcb);
		return 0;
	case KPROBE_HIT_ACTIVE:
	case KPROBE_HIT_SSDONE:
		/* A handler faulted: its owner gets the first try. */
		if (cur->fault_handler && cur->fault_handler(cur, regs, trapnr))
			return 1;
		return 0;
	default:
		return 0;
	}
}
NOKPROBE_SYMBOL(kprobe_fault_handler);

/* ---- Linux's design: the hit's bottom layer, stepped with int3 -------------------- */

/*
 * The exception's stretch of a hit runs with the preempt count raised:
 * the handlers may turn interrupts on, the tick must still not preempt
 * them.  It is lowered again before the iret (no reschedule from inside
 * the exception: the bare count, as Linux's __nmi_enter()/__nmi_exit()
 * do), so the stepped copy and the probed code see their own count -
 * Linux's irqentry_nmi_enter()/exit() around do_int3().
 */
static int linux_int3(struct pt_regs *regs)
{
	struct kprobe *cur = this_cpu_read(current_kprobe);
	int ret;

	__preempt_count_add(1);
	/*
	 * The int3 after a copy is no probe's address: the end of this
	 * CPU's step.  A first hit finds no current probe and pays one test.
	 */
	if (cur && int3_ends_step(cur, regs) && kprobe_is_ss(get_kprobe_ctlblk()))
		ret = int3_step_done(cur, regs);
	else
		ret = kprobe_handler(regs);
	__preempt_count_sub(1);
	return ret;
}
NOKPROBE_SYMBOL(linux_int3);

/*
 * Stepped with int3, no #DB is kprobes': Linux 6.1's exc_debug_kernel()
 * no longer asks kprobes at all.  A #DB during a hit - a data
 * breakpoint the copy hit, say - is the debug registers' and the
 * chain's, and the step still ends at its int3.
 */
static int linux_debug(struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(linux_debug);

static int linux_fault(struct pt_regs *regs, int trapnr)
{
	int ret;

	__preempt_count_add(1);
	ret = kprobe_fault_handler(regs, trapnr);
	__preempt_count_sub(1);
	return ret;
}
NOKPROBE_SYMBOL(linux_fault);

const struct kprobe_hit_ops kprobe_linux_hit_ops = {
	.name = "int3",
	.int3 = linux_int3,
	.debug = linux_debug,
	.fault = linux_fault,
};

/* ---- 2005's design (kprobes.step=tf): stepped with TF, ended by a #DB --------------- */

/*
 * The hit armed a step of the copy (setup_singlestep(): ip at the slot
 * of this CPU's current probe; a boosted hit, the only other way into
 * the slot, left no current probe): with TF the CPU traps #DB after the
 * copy, before the int3 that follows it.
 */
static nokprobe_inline void arm_tf_step(struct pt_regs *regs)
{
	struct kprobe *cur = this_cpu_read(current_kprobe);

	if (cur && regs->ip == (unsigned long)cur->ainsn.insn)
		regs->flags |= X86_EFLAGS_TF;	/* #DB after one instruction */
}

static int tf_int3(struct pt_regs *regs)
{
	int ret;

	__preempt_count_add(1);
	ret = kprobe_handler(regs);
	if (ret)
		arm_tf_step(regs);
	__preempt_count_sub(1);
	return ret;
}
NOKPROBE_SYMBOL(tf_int3);

static int tf_debug(struct pt_regs *regs)
{
	int ret;

	__preempt_count_add(1);
	ret = post_kprobe_handler(this_cpu_read(current_kprobe), regs, get_kprobe_ctlblk());
	__preempt_count_sub(1);
	return ret;
}
NOKPROBE_SYMBOL(tf_debug);

const struct kprobe_hit_ops kprobe_tf_hit_ops = {
	.name = "tf",
	.int3 = tf_int3,
	.debug = tf_debug,
	.fault = linux_fault,
};

const struct kprobe_hit_ops *kprobe_step_hit_ops(enum kprobe_step_design design)
{
	return design == KPROBE_SS_TF ? &kprobe_tf_hit_ops : &kprobe_linux_hit_ops;
}

/* ---- stepping in place (kprobes.stepmode=inline): the other bottom layer ----------- */

/*
 * The instruction ran at its own address (kprobes.stepmode=inline,
 * stepmode.c): ip, return addresses and branch targets are right by
 * themselves.  Only TF and IF were ours, and pushf saw them.
 */
static nokprobe_inline void resume_in_place(struct kprobe *p, struct pt_regs *regs,
					    struct kprobe_ctlblk *kcb)
{
	if (p->ainsn.decoded.type == INSN_TYPE_PUSHF)
		fix_pushed_flags((unsigned long *)kernel_stack_pointer(regs), kcb);
	restore_step_flags(p->ainsn.fixups, regs, kcb);
}

/*
 * The hit stepped with TF, then, if it armed a first (not reentered)
 * step of the copy, the step moves to the probed address itself: the
 * original byte goes back over the int3 for it (stepmode.c).  Always
 * TF: after an instruction run in place no int3 of ours follows it.
 */
static int inplace_int3(struct pt_regs *regs)
{
	int ret = tf_int3(regs);
	struct kprobe *p = this_cpu_read(current_kprobe);

	if (p && get_kprobe_ctlblk()->kprobe_status == KPROBE_HIT_SS &&
	    regs->ip == (unsigned long)p->ainsn.insn)
		kprobe_step_in_place(p, regs);
	return ret;
}
NOKPROBE_SYMBOL(inplace_int3);

/*
 * The #DB after this CPU's in-place step: nothing needs fixing but TF
 * and IF; the int3 goes back.  Any other #DB is the TF design's to judge
 * (a reentered probe, stepped in its slot).
 */
static int inplace_debug(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = this_cpu_read(current_kprobe);

	if (!kprobe_stepping_in_place(cur) || kcb->kprobe_status != KPROBE_HIT_SS)
		return tf_debug(regs);
	kprobe_end_step_in_place(cur, regs);
	resume_in_place(cur, regs, kcb);
	kprobe_post_process(cur, regs, kcb);
	return 1;
}
NOKPROBE_SYMBOL(inplace_debug);

/* A fault of the instruction stepped in place: the int3 goes back, then as Linux's. */
static int inplace_fault(struct pt_regs *regs, int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = this_cpu_read(current_kprobe);

	if (!kprobe_stepping_in_place(cur) || regs->ip != (unsigned long)cur->addr)
		return linux_fault(regs, trapnr);
	if (cur->fault_handler && cur->fault_handler(cur, regs, trapnr))
		return 1;
	kprobe_end_step_in_place(cur, regs);
	abort_singlestep(cur, regs, kcb);
	return 0;
}
NOKPROBE_SYMBOL(inplace_fault);

const struct kprobe_hit_ops kprobe_inplace_hit_ops = {
	.name = "inline",
	.int3 = inplace_int3,
	.debug = inplace_debug,
	.fault = inplace_fault,
};

/*
 * Leaving inline mode (stepmode.c): no new step in place, but a step
 * begun in place still ends in place, and any step begun now ends with
 * a #DB too, whichever design comes next (kprobe_step_hit_ops()).
 */
const struct kprobe_hit_ops kprobe_inplace_ending_hit_ops = {
	.name = "outofline",
	.int3 = tf_int3,
	.debug = inplace_debug,
	.fault = inplace_fault,
};

/* ---- the layers -------------------------------------------------------------------- */

/*
 * A design that changes the hit is a layer of kprobe_hit_ops, chosen when
 * its switch is set, never asked about during a hit: the entry points
 * below call the top layer, each layer calls the one below it
 * (kprobe_hit_below()), and the bottom one - Linux's, unless
 * kprobes.stepmode=inline - is the hit itself.  With every switch at its
 * default, the entries call Linux's hit directly and the hit tests none
 * of them (tests/host/check_hit_path.py counts).
 */
static const struct kprobe_hit_ops *hit_layers[NR_KPROBE_HIT_LAYERS] = {
	[KPROBE_HIT_STEP] = &kprobe_linux_hit_ops,
};
static const struct kprobe_hit_ops *kprobe_hit_ops = &kprobe_linux_hit_ops;
static DEFINE_SPINLOCK(hit_layers_lock);

const struct kprobe_hit_ops *kprobe_hit_below(enum kprobe_hit_layer layer)
{
	for (int l = layer + 1; l < NR_KPROBE_HIT_LAYERS; l++) {
		const struct kprobe_hit_ops *ops = READ_ONCE(hit_layers[l]);

		if (ops)
			return ops;
	}
	return &kprobe_linux_hit_ops;
}
NOKPROBE_SYMBOL(kprobe_hit_below);

/* ops NULL takes the layer out; the step layer's NULL is Linux's. */
void kprobe_set_hit_layer(enum kprobe_hit_layer layer, const struct kprobe_hit_ops *ops)
{
	unsigned long flags;

	if (layer == KPROBE_HIT_STEP && !ops)
		ops = &kprobe_linux_hit_ops;
	spin_lock_irqsave(&hit_layers_lock, flags);
	WRITE_ONCE(hit_layers[layer], ops);
	WRITE_ONCE(kprobe_hit_ops, hit_layers[0] ? hit_layers[0] : kprobe_hit_below(0));
	spin_unlock_irqrestore(&hit_layers_lock, flags);
}

const struct kprobe_hit_ops *kprobe_hit_layer(enum kprobe_hit_layer layer)
{
	return READ_ONCE(hit_layers[layer]);
}

/* ---- the trap handlers' entry points ---------------------------------------- */

/*
 * An entry hands the exception to the top layer with a jump, not a call:
 * the layer's frame stands in for the entry's, and the classic hit pays
 * two instructions for the table instead of a frame.  (The kernel is
 * built with -fno-optimize-sibling-calls, so that backtraces show every
 * caller; a backtrace from a handler shows exc_int3 -> linux_int3.)
 */
#define hit_entry __attribute__((optimize("optimize-sibling-calls")))

/*
 * do_int3() and do_debug() (arch/i386/traps.c) call these first, before
 * the die-notifier chain, as Linux's do_int3() and exc_debug_kernel()
 * do: a probe hit is the common case on those vectors, and asking every
 * notifier first would put the whole chain on every hit.  Each returns 1
 * if the exception was kprobes' own, 0 to pass it on.
 */
hit_entry int kprobe_int3_handler(struct pt_regs *regs)
{
	/*
	 * Only a kernel int3 comes here: exc_int3() sends a process's own
	 * (a debugger's breakpoint, the int3 program, a uprobe) to the
	 * chain, never to kprobes - a user address means another thing in
	 * every process.  Linux's kprobe_int3_handler() tests user_mode()
	 * again; here the one test in exc_int3() is the only one.
	 */
	return READ_ONCE(kprobe_hit_ops)->int3(regs);
}
NOKPROBE_SYMBOL(kprobe_int3_handler);

hit_entry int kprobe_debug_handler(struct pt_regs *regs)
{
	if (!this_cpu_read(current_kprobe))
		return 0;	/* no hit in progress on this CPU: not a step of ours */
	return READ_ONCE(kprobe_hit_ops)->debug(regs);
}
NOKPROBE_SYMBOL(kprobe_debug_handler);

/* Any other exception while a hit is in progress (Linux's kprobe_page_fault()). */
hit_entry int kprobe_exception_handler(struct pt_regs *regs, int trapnr)
{
	if (!this_cpu_read(current_kprobe))
		return 0;
	return READ_ONCE(kprobe_hit_ops)->fault(regs, trapnr);
}
NOKPROBE_SYMBOL(kprobe_exception_handler);

/* Nothing to register: the trap handlers call kprobes by name. */
int arch_init_kprobes(void)
{
	kprobe_step_design_setup();	/* kprobes.step=int3|tf */
	kprobe_stepmode_setup();	/* kprobes.stepmode=: a bad word is reported */
	return 0;
}
