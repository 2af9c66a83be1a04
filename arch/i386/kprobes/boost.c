/*
 * boost.c (arch/i386) - boosting: one exception per hit instead of two.
 *
 * A classic hit traps twice: the int3, then the #DB after single-stepping
 * the copy in the slot.  The #DB is only there so that we get control
 * back after one instruction.  For most instructions we do not need it:
 * if the copy just falls through to the next instruction, a jump placed
 * right after it in the slot brings the CPU back to addr + len by itself.
 * So, after a probe's instruction has been single-stepped once and we
 * have seen it fall through (Linux 2.6.15, "kprobe booster"):
 *
 *     slot:  <copy of the instruction>  jmp addr+len
 *
 * and from then on kprobe_handler() runs the pre-handler and irets
 * straight into the slot with the probed code's own flags: no TF, no #DB.
 *
 * Which instructions?  The decoder's INSN_ATTR_NO_BOOST follows Linux's
 * can_boost() (docs/decoder.md lists every opcode).  Here, and why:
 *   - relative jmp/jcc/loop/jecxz/call: from the slot the CPU adds the
 *     displacement to the slot's address, and a taken branch never
 *     reaches our jmp back.  Linux leaves them to the single-step (which
 *     resume_execution() repairs); 5.11 later emulates them instead.
 *   - int3/int/into (they trap by themselves), far calls and indirect
 *     calls (they push the slot's address as the return address), bound,
 *     x87 escapes (a pending FPU error would be reported at the jmp),
 *     iret, hlt, mov/pop %ss, ud2: see docs/decoder.md.
 *   - the 67 address-size prefix and the 2E prefix, as Linux.
 *   - instructions with an exception-table entry: a fault in the slot
 *     would not match the entry, which is keyed on the real address.
 *   - rep string instructions: stepped, they trap after every iteration
 *     and the probe fires once per iteration; boosted, one hit would cover
 *     all of them.  We keep the counts meaning one thing (Linux boosts).
 * Instructions that leave by themselves - ret, lret, jmp *x, ljmp - are
 * boosted too: after them ip never was in the slot, so the jmp back is
 * simply never reached.
 *
 * Only probes without a post-handler are boosted (there is no step to
 * run it after), and reentered probes are always stepped.
 *
 * Preemption.  A boosted slot runs with the probed code's IF, so a timer
 * interrupt may preempt the thread with ip inside the slot.  Linux 2.6
 * therefore boosted only in kernels without CONFIG_PREEMPT.  We keep
 * boosting on and make freeing safe instead: a boosted slot is released
 * through kprobes_free_text_later() (arch/i386/kprobes/text_quiesce.c), which
 * waits until no thread's saved ip is inside it.  (Keeping IF clear in
 * the slot and ending it with "sti; jmp" would close the window too, but
 * needs a second slot without the sti for hits with IF already clear,
 * and a boosted pushf would then push IF clear.)
 */
#include "kernel.h"
#include "kprobes.h"
#include <asm/extable.h>
#include "sched.h"
#include "nokprobe.h"

bool kprobes_boost_enabled = true;	/* read inline by every classic hit (core.c) */

int kprobes_set_boosting(bool on)
{
	WRITE_ONCE(kprobes_boost_enabled, on);
	return 0;
}

bool kprobes_get_boosting(void)
{
	return READ_ONCE(kprobes_boost_enabled);
}

bool arch_can_boost(const struct insn *insn, kprobe_opcode_t *addr)
{
	/* LAB 5: BEGIN arch_can_boost: may this copy run without a single-step? */
	if (insn->attr & (INSN_ATTR_NO_BOOST | INSN_ATTR_NO_SSTEP))
		return false;
	if (insn->attr & INSN_ATTR_REL_BRANCH)	/* the decoder says NO_BOOST too */
		return false;
	if (insn->addr16)			/* 67: likewise */
		return false;
	if (insn->attr & INSN_ATTR_STRING_REP)
		return false;
	return search_exception_tables((unsigned long)addr) == NULL;
	/* LAB 5: STUB return false; */
	/* LAB 5: END */
}


/*
 * From the end of a single-step, before its fix-up (post_kprobe_handler()
 * after the #DB, int3_step_done() after the int3 in the slot): regs->ip
 * still says where the copy left the CPU.  The jmp goes into the boosted
 * copy's slot: the stepped slot itself with TF, whose #DB comes before
 * the jmp; a second slot with int3, whose stepped slot must keep the
 * int3 after the copy (core.c, fill_slots()).  A slot is ordinary memory
 * (not .text), so a plain store writes it; no thread can be inside the
 * boosted copy yet - until now no hit ran it.
 */
void arch_boost_after_step(struct kprobe *p, struct pt_regs *regs)
{
	/* LAB 5: BEGIN arch_boost_after_step: learn from one step, add the jmp back */
	const struct insn *insn = &p->ainsn.decoded;
	kprobe_opcode_t *slot = p->ainsn.insn;		/* where the step ran */
	kprobe_opcode_t *boost = p->ainsn.boost_insn;	/* where the jmp goes */

	if (p->ainsn.boostable != 0 || !boost)
		return;
	if (insn->attr & INSN_ATTR_ABS_IP) {
		p->ainsn.boostable = 1;		/* ret, jmp *x, ljmp: leaves by itself */
		return;
	}
	if (regs->ip != (unsigned long)slot + insn->length)
		return;				/* did not fall through: ask again next time */
	if (insn->length + RELATIVEJUMP_SIZE > MAX_INSN_SIZE) {
		p->ainsn.boostable = -1;	/* no room for the jmp back */
		return;
	}
	put_jmp(boost + insn->length, (unsigned long)p->addr + insn->length);
	p->ainsn.boostable = 1;
	/* LAB 5: STUB return; */
	/* LAB 5: END */
}
NOKPROBE_SYMBOL(arch_boost_after_step);
