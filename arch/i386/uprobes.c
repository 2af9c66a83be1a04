/*
 * uprobes.c - the i386 part of uprobes (Linux's arch/x86/kernel/uprobes.c):
 * which instructions may be stepped out of line, what a step in the XOL
 * slot leaves wrong, and the #BP/#DB notifier.
 *
 * The same decoder and the same fix-ups as kernel probes: what a step
 * out of line leaves wrong is decided per class once, when the probe is
 * made (insn_sstep_fixups(), lib/insn.c: Linux's UPROBE_FIX_* flags,
 * here INSN_FIX_*), and applied after each step, as kprobes'
 * resume_execution() does.  But the step runs in ring 3 at
 * UPROBE_XOL_SLOT_VADDR, and the stack it used is the process's
 * (regs->sp), reached through copy_{from,to}_user.
 */
#include "kernel.h"
#include "uprobes.h"
#include <asm/insn.h>
#include <asm/kdebug.h>
#include "notifier.h"
#include <asm/processor.h>
#include "uaccess.h"
#include "errno.h"
#include "nokprobe.h"
#include <asm/ptrace.h>

/*
 * What cannot run one instruction at a time in a slot of ring 3 (Linux
 * keeps a table, good_insns_32): an int of any kind enters the kernel,
 * a far transfer or iret loads a code segment, hlt/cli/sti/in/out and
 * the like are privileged (#GP, the process would die in the slot),
 * mov/pop %ss hold the #DB off past the next instruction, ud* always
 * faults, and sysenter & co leave through a path of their own.
 */
static const char *insn_refusal(const struct insn *insn)
{
	switch (insn->type) {
	case INSN_TYPE_INT3:
	case INSN_TYPE_INT:
	case INSN_TYPE_INTO:
	case INSN_TYPE_INT1:
		return "an int instruction cannot be stepped out of line";
	case INSN_TYPE_CALL_FAR:
	case INSN_TYPE_JMP_FAR:
	case INSN_TYPE_LRET:
	case INSN_TYPE_IRET:
		return "a far transfer cannot be stepped out of line";
	case INSN_TYPE_HLT:
	case INSN_TYPE_CLI:
	case INSN_TYPE_STI:
		return "a privileged instruction cannot be stepped out of line";
	case INSN_TYPE_MOV_SS:
	case INSN_TYPE_POP_SS:
		return "a load of %ss delays the single-step trap";
	case INSN_TYPE_UD:
		return "an undefined instruction cannot be stepped";
	default:
		if (insn->attr & INSN_ATTR_NO_SSTEP)
			return "this instruction cannot be stepped out of line";
		return NULL;
	}
}

/* Linux's arch_uprobe_analyze_insn(): decode, refuse, choose the fixups. */
int arch_uprobe_analyze_insn(struct arch_uprobe *au, const char **why)
{
	struct insn insn;
	int len = insn_decode(&insn, au->insn, MAX_UINSN_BYTES);

	if (len < 0) {
		*why = "the bytes at the offset are not an instruction";
		return -EILSEQ;
	}
	*why = insn_refusal(&insn);
	if (*why)
		return -EOPNOTSUPP;
	au->len = len;
	au->fixups = insn_sstep_fixups(&insn);
	return 0;
}

/*
 * Ring 3 goes to the copy with TF set: one instruction, then #DB.  Keep
 * the task's own TF first: a program may be single-stepping itself.
 */
void arch_uprobe_pre_xol(struct arch_uprobe *au, struct arch_uprobe_task *autask,
			 struct pt_regs *regs)
{
	autask->saved_tf = regs->flags & X86_EFLAGS_TF;
	regs->ip = UPROBE_XOL_SLOT_VADDR;
	regs->flags |= X86_EFLAGS_TF;
}

/*
 * pushf in the slot pushed EFLAGS with our TF in it.  Left there, the
 * program's next popf would load it and trap after the instruction
 * that follows - SIGTRAP, far from any probe - and a program reading
 * its flags would see a bit it never set.  Put the task's own TF in the
 * image, as resume_execution() does for a kernel probe.  TF is bit 8,
 * in the low word, which both pushfl and pushfw wrote at sp (little
 * endian): fixing that word is right for either.
 */
static void fix_pushed_flags(struct arch_uprobe_task *autask, struct pt_regs *regs)
{
	void __user *tos = (void __user *)regs->sp;
	uint16_t image;

	/* The pushf just wrote this word: a failure means the process is gone anyway. */
	if (copy_from_user(&image, tos, sizeof(image)))
		return;
	image = (image & ~X86_EFLAGS_TF) | autask->saved_tf;
	copy_to_user(tos, &image, sizeof(image));
}

/*
 * A call pushed slot + len as its return address; it must be the text's
 * vaddr + len.  With an operand-size prefix only 16 bits (IP) were pushed.
 */
static void fix_return_address(long delta, unsigned int fix, struct pt_regs *regs)
{
	void __user *tos = (void __user *)regs->sp;
	unsigned long ret;
	uint16_t ret16;

	/* The call just wrote this: a failure means the process is gone anyway. */
	if (fix & INSN_FIX_16) {
		if (!copy_from_user(&ret16, tos, sizeof(ret16))) {
			ret16 += (uint16_t)delta;
			copy_to_user(tos, &ret16, sizeof(ret16));
		}
	} else if (!copy_from_user(&ret, tos, sizeof(ret))) {
		ret += delta;
		copy_to_user(tos, &ret, sizeof(ret));
	}
}

/*
 * Linux's arch_uprobe_post_xol(): the copy ran at the slot.  ip moves to
 * the text by the slot's distance (a fall-through, a taken relative
 * branch alike); a call's return address likewise; a pushf's image gets
 * the task's TF.  (No rip-relative operands to fix on i386.)
 *
 * Then TF as the task had it - except after popf, whose TF is the one
 * it loaded (INSN_FIX_SETF): the #DB still came right after the
 * popf, since TF was set when it began (SDM vol. 3, "Single-Step
 * Exception Condition"), but from then on the flags are the program's.
 * A task that had TF set itself was single-stepping: without the probe
 * it would have trapped after this instruction, so it must get its
 * SIGTRAP now (Linux sends it too); returns true then.
 */
bool arch_uprobe_post_xol(struct arch_uprobe *au, struct arch_uprobe_task *autask,
			  unsigned long vaddr, struct pt_regs *regs)
{
	long delta = (long)(vaddr - UPROBE_XOL_SLOT_VADDR);

	if (au->fixups & INSN_FIX_IP)
		regs->ip = insn_sstep_fixed_ip(au->fixups, regs->ip,
					       UPROBE_XOL_SLOT_VADDR + au->len, delta);
	if (au->fixups & INSN_FIX_CALL)
		fix_return_address(delta, au->fixups, regs);
	if (au->fixups & INSN_FIX_PUSHF)
		fix_pushed_flags(autask, regs);
	if (!(au->fixups & INSN_FIX_SETF))
		regs->flags = (regs->flags & ~X86_EFLAGS_TF) | autask->saved_tf;
	return autask->saved_tf != 0;
}

/*
 * Linux's arch_uprobe_abort_xol(): the copy faulted in the slot.  The
 * process dies of that fault, and its report must show the probed
 * instruction with the task's own flags, as if it had faulted in place:
 * ip back to the text, TF as the task had it.
 */
void arch_uprobe_abort_xol(struct arch_uprobe_task *autask, unsigned long vaddr,
			   struct pt_regs *regs)
{
	regs->ip = vaddr;
	regs->flags = (regs->flags & ~X86_EFLAGS_TF) | autask->saved_tf;
}
NOKPROBE_SYMBOL(arch_uprobe_abort_xol);	/* on the way to a user fault's report */

/* Linux's arch_uprobe_exception_notify(): #BP and #DB from ring 3. */
static int arch_uprobe_exception_notify(struct notifier_block *nb, unsigned long val,
					void *data)
{
	struct die_args *args = data;

	if (!user_mode(args->regs))
		return NOTIFY_DONE;
	if (val == DIE_INT3 && uprobe_pre_sstep_notifier(args->regs))
		return NOTIFY_STOP;
	if (val == DIE_DEBUG && uprobe_post_sstep_notifier(args->regs))
		return NOTIFY_STOP;
	return NOTIFY_DONE;
}

/* On every unclaimed #BP and #DB, kernel ones too: no probe may sit in it. */
NOKPROBE_SYMBOL(arch_uprobe_exception_notify);

static struct notifier_block uprobe_exception_nb = {
	.notifier_call = arch_uprobe_exception_notify,
};

int uprobes_init(void)
{
	return register_die_notifier(&uprobe_exception_nb);
}
