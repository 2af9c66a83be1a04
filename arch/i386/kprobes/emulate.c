/*
 * emulate.c - instructions the int3 handler runs itself, with no step.
 *
 * A single-step costs a second exception: the #DB after the copy in the
 * slot, with its own register save, handler and iret.  For an
 * instruction whose whole effect is a change of ip or of one flag, the
 * handler can compute that effect from pt_regs directly and skip the
 * step - one exception per hit instead of two.  Linux does this since
 * 5.13 (prepare_emulation() and the kprobe_emulate_*() functions of
 * arch/x86/kernel/kprobes/core.c); here the same idea, in the same
 * shape: at registration arch_prepare_emulation() picks, from the
 * decoder's class of the instruction, the function that will stand in
 * for it (p->ainsn.emulate_op); at a hit run_probed_instruction() calls
 * it instead of stepping.
 *
 * Emulated here, one table entry per decoder class (emulate_ops[]):
 *
 *   call rel32                  push the next ip, ip = the target
 *   jmp rel8 / rel32            ip = the target
 *   jcc rel8 / rel32            ip = the target if the condition holds
 *                               in regs->flags, else the next instruction
 *   loop, loope, loopne, jecxz  the same, after %ecx is counted down
 *   ret, ret imm16              ip = the popped word (imm16 bytes dropped)
 *   call *%reg, jmp *%reg       ip = the register (the call pushes the next ip)
 *   popf                        flags = the popped word, as popf in ring 0
 *   push reg, pop reg           the register to or from the stack
 *   cli, sti                    IF in regs->flags
 *   nop, pause, nopl r/m        ip = the next instruction
 *
 * The stack ones cannot simply move regs->sp, as Linux's do: a ring-0
 * trap frame has no saved stack pointer (it is where the frame ends)
 * and sits on the very words a push writes.  int3_emulate_push() and
 * int3_emulate_pop() (traps.c) say where the stack pointer goes, and
 * the #BP exit moves the iret frame there (entry.S).  A post-handler
 * therefore sees kernel_stack_pointer(regs) as it was at the int3.
 * With a 66 prefix these push or pop 16 bits: rare, stepped.  So is
 * pop %esp, whose value is the popped word, not the moved pointer.
 *
 * kprobes_set_emulation(false) makes hits step the instructions again
 * (the differential fixup suite runs every class emulated and stepped,
 * the narrated mode shows the step); cli, sti and pause are always
 * emulated, because they cannot be stepped (core.c says why).  Stepped
 * with int3 (kprobes.step=int3), so is every instruction that does not
 * fall through, and popf: a step could not end at the int3 after the
 * copy (core.c, prepare_int3_step()).  Calls and jumps through memory,
 * far transfers and iret have no emulator here, as in Linux 6.1 (which
 * does send lret to its ret emulator, though a far return pops cs too):
 * TF steps them, int3 refuses them.
 */
#include "kernel.h"
#include "kprobes.h"
#include <asm/insn.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "nokprobe.h"
#include <asm/traps.h>

#define NOP_OPCODE		0x90	/* nop; f3 90 is pause; 66 90 a 16-bit nop */
#define NOPL_OPCODE_0F		0x1f	/* 0f 1f /0: the multi-byte nop */
#define NOPL_MODRM_REG		0
#define LOOPNE_OPCODE		0xe0
#define LOOPE_OPCODE		0xe1
#define LOOP_OPCODE		0xe2
#define JECXZ_OPCODE		0xe3
#define JCC_CONDITION(op)	((op) & 0xf)	/* 7x and 0f 8x: the low nibble */
#define PUSH_REG_OPCODE		0x50	/* 50+r: push r32 */
#define POP_REG_OPCODE		0x58	/* 58+r: pop r32 */
#define OPCODE_REG(op)		((op) & 7)
#define REG_ESP			4	/* the register numbers of the SDM */
#define RET_IMM16_OPCODE	0xc2
#define MODRM_MOD_REG		3	/* ModRM.mod 11: the operand is a register */
/*
 * The EFLAGS bits popf loads in ring 0 (SDM vol. 2, "POPF"): the
 * arithmetic flags, TF, IF, DF, IOPL, NT, AC and ID.  RF is cleared; VM,
 * VIP and VIF stay; bit 1 always reads 1.
 */
#define POPF_LOADED_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
				 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_TF | \
				 X86_EFLAGS_IF | X86_EFLAGS_DF | X86_EFLAGS_OF | \
				 X86_EFLAGS_IOPL | X86_EFLAGS_NT | X86_EFLAGS_AC | \
				 X86_EFLAGS_ID)

bool kprobes_emulation_enabled = true;	/* read by every hit (core.c) */

int kprobes_set_emulation(bool on)
{
	WRITE_ONCE(kprobes_emulation_enabled, on);
	return 0;
}

bool kprobes_get_emulation(void)
{
	return READ_ONCE(kprobes_emulation_enabled);
}

/* ---- the emulators: each leaves ip where the instruction would ---------------- */

static nokprobe_inline unsigned long next_ip(const struct kprobe *p)
{
	return (unsigned long)p->addr + p->ainsn.decoded.length;
}

/* Where a relative branch at the probe goes when taken (include/insn.h). */
static nokprobe_inline unsigned long branch_target(const struct kprobe *p)
{
	return insn_rel_target(&p->ainsn.decoded, (unsigned long)p->addr);
}

static nokprobe_inline void branch_if(struct kprobe *p, struct pt_regs *regs, bool taken)
{
	regs->ip = taken ? branch_target(p) : next_ip(p);
}

static void kprobe_emulate_nop(struct kprobe *p, struct pt_regs *regs)
{
	regs->ip = next_ip(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_nop);

static void kprobe_emulate_ifmodifiers(struct kprobe *p, struct pt_regs *regs)
{
	if (p->ainsn.decoded.type == INSN_TYPE_CLI)
		regs->flags &= ~X86_EFLAGS_IF;
	else
		regs->flags |= X86_EFLAGS_IF;
	regs->ip = next_ip(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_ifmodifiers);

static void kprobe_emulate_jmp(struct kprobe *p, struct pt_regs *regs)
{
	regs->ip = branch_target(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_jmp);

static nokprobe_inline bool flag_set(unsigned long flags, unsigned long bit)
{
	return (flags & bit) != 0;
}

/*
 * The sixteen conditions (SDM vol. 2, "Jcc"): the even ones, the odd
 * ones their negation.  jl is SF != OF, jle adds ZF.
 */
static nokprobe_inline bool jcc_condition_holds(unsigned long flags, unsigned int cc)
{
	bool lt = flag_set(flags, X86_EFLAGS_SF) != flag_set(flags, X86_EFLAGS_OF);
	bool holds;

	switch (cc >> 1) {
	case 0: holds = flag_set(flags, X86_EFLAGS_OF); break;			/* jo */
	case 1: holds = flag_set(flags, X86_EFLAGS_CF); break;			/* jb */
	case 2: holds = flag_set(flags, X86_EFLAGS_ZF); break;			/* je */
	case 3: holds = flag_set(flags, X86_EFLAGS_CF | X86_EFLAGS_ZF); break;	/* jbe */
	case 4: holds = flag_set(flags, X86_EFLAGS_SF); break;			/* js */
	case 5: holds = flag_set(flags, X86_EFLAGS_PF); break;			/* jp */
	case 6: holds = lt; break;						/* jl */
	default: holds = lt || flag_set(flags, X86_EFLAGS_ZF); break;		/* jle */
	}
	return holds != (cc & 1);
}

static void kprobe_emulate_jcc(struct kprobe *p, struct pt_regs *regs)
{
	unsigned int cc = JCC_CONDITION(p->ainsn.decoded.opcode);

	branch_if(p, regs, jcc_condition_holds(regs->flags, cc));
}
NOKPROBE_SYMBOL(kprobe_emulate_jcc);

static void kprobe_emulate_call(struct kprobe *p, struct pt_regs *regs)
{
	int3_emulate_push(regs, next_ip(p));
	regs->ip = branch_target(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_call);

static void kprobe_emulate_ret(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long drop = p->ainsn.decoded.opcode == RET_IMM16_OPCODE ?
			     (uint16_t)p->ainsn.decoded.imm.value : 0;

	regs->ip = int3_emulate_pop(regs, drop);
}
NOKPROBE_SYMBOL(kprobe_emulate_ret);

/* Register r of the SDM's numbering (eax ecx edx ebx esp ebp esi edi) in pt_regs. */
static nokprobe_inline unsigned long *reg_in_regs(struct pt_regs *regs, unsigned int r)
{
	switch (r) {
	case 0: return &regs->ax;
	case 1: return &regs->cx;
	case 2: return &regs->dx;
	case 3: return &regs->bx;
	case 5: return &regs->bp;
	case 6: return &regs->si;
	default: return &regs->di;	/* 7; 4 (esp) is never asked for */
	}
}

/* push %esp pushes the stack pointer as it was before the push. */
static void kprobe_emulate_push(struct kprobe *p, struct pt_regs *regs)
{
	unsigned int r = OPCODE_REG(p->ainsn.decoded.opcode);
	unsigned long val = r == REG_ESP ? kernel_stack_pointer(regs) : *reg_in_regs(regs, r);

	int3_emulate_push(regs, val);
	regs->ip = next_ip(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_push);

static void kprobe_emulate_pop(struct kprobe *p, struct pt_regs *regs)
{
	*reg_in_regs(regs, OPCODE_REG(p->ainsn.decoded.opcode)) = int3_emulate_pop(regs, 0);
	regs->ip = next_ip(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_pop);

/* loop* count %ecx down first (flags untouched); jecxz only looks at it. */
static void kprobe_emulate_loop(struct kprobe *p, struct pt_regs *regs)
{
	bool zf = flag_set(regs->flags, X86_EFLAGS_ZF);
	bool taken;

	if (p->ainsn.decoded.opcode == JECXZ_OPCODE) {
		taken = regs->cx == 0;
	} else {
		regs->cx--;
		taken = regs->cx != 0;
		if (p->ainsn.decoded.opcode == LOOPE_OPCODE)
			taken = taken && zf;
		else if (p->ainsn.decoded.opcode == LOOPNE_OPCODE)
			taken = taken && !zf;
	}
	branch_if(p, regs, taken);
}
NOKPROBE_SYMBOL(kprobe_emulate_loop);

/* The register a ModRM-register operand names, %esp included. */
static nokprobe_inline unsigned long modrm_reg_value(struct kprobe *p, struct pt_regs *regs)
{
	unsigned int r = MODRM_RM(p->ainsn.decoded.modrm);

	return r == REG_ESP ? kernel_stack_pointer(regs) : *reg_in_regs(regs, r);
}

/* call *%reg: the target is read before the push (call *%esp reads the old sp). */
static void kprobe_emulate_call_indirect(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long target = modrm_reg_value(p, regs);

	int3_emulate_push(regs, next_ip(p));
	regs->ip = target;
}
NOKPROBE_SYMBOL(kprobe_emulate_call_indirect);

static void kprobe_emulate_jmp_indirect(struct kprobe *p, struct pt_regs *regs)
{
	regs->ip = modrm_reg_value(p, regs);
}
NOKPROBE_SYMBOL(kprobe_emulate_jmp_indirect);

static void kprobe_emulate_popf(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long image = int3_emulate_pop(regs, 0);

	regs->flags = (regs->flags & ~(POPF_LOADED_FLAGS | X86_EFLAGS_RF)) |
		      (image & POPF_LOADED_FLAGS) | X86_EFLAGS_FIXED;
	regs->ip = next_ip(p);
}
NOKPROBE_SYMBOL(kprobe_emulate_popf);

/* ---- choosing at registration ---------------------------------------------- */

/* The decoder's class of the instruction -> who stands in for it. */
static const kprobe_emulate_fn emulate_ops[INSN_TYPE_NR] = {
	[INSN_TYPE_CALL_REL]	= kprobe_emulate_call,
	[INSN_TYPE_RET]		= kprobe_emulate_ret,
	[INSN_TYPE_JMP_REL]	= kprobe_emulate_jmp,
	[INSN_TYPE_JCC]		= kprobe_emulate_jcc,
	[INSN_TYPE_LOOP]	= kprobe_emulate_loop,
	[INSN_TYPE_CLI]		= kprobe_emulate_ifmodifiers,
	[INSN_TYPE_STI]		= kprobe_emulate_ifmodifiers,
	[INSN_TYPE_CALL_IND]	= kprobe_emulate_call_indirect,	/* through a register only */
	[INSN_TYPE_JMP_IND]	= kprobe_emulate_jmp_indirect,
	[INSN_TYPE_POPF]	= kprobe_emulate_popf,
};

/* nop, 66 nop, pause (f3 90) and 0f 1f /0, whatever its memory operand. */
static bool is_nop(const struct insn *insn)
{
	if (insn->lock || insn->repne)
		return false;
	if (insn->map == INSN_MAP_ONEBYTE)
		return insn->opcode == NOP_OPCODE;
	return insn->map == INSN_MAP_0F && insn->opcode == NOPL_OPCODE_0F &&
	       MODRM_REG(insn->modrm) == NOPL_MODRM_REG;
}

/* push r32 / pop r32, the one-byte forms (the decoder calls them "other"). */
static kprobe_emulate_fn push_pop_op(const struct insn *insn)
{
	if (insn->map != INSN_MAP_ONEBYTE || insn->nr_prefixes)
		return NULL;
	if ((insn->opcode & ~7) == PUSH_REG_OPCODE)
		return kprobe_emulate_push;
	if ((insn->opcode & ~7) == POP_REG_OPCODE && OPCODE_REG(insn->opcode) != REG_ESP)
		return kprobe_emulate_pop;
	return NULL;
}

/*
 * Which emulator stands in for the instruction, if any.  A 67 prefix
 * makes loop/jecxz count %cx instead of %ecx, a 66 prefix makes call
 * and ret push and pop 16 bits: rare enough to step.
 */
static kprobe_emulate_fn choose_emulate_op(const struct insn *insn)
{
	if (insn->type == INSN_TYPE_LOOP && insn->addr16)
		return NULL;
	if ((insn->type == INSN_TYPE_CALL_REL || insn->type == INSN_TYPE_RET ||
	     insn->type == INSN_TYPE_POPF) && insn->opnd16)
		return NULL;
	if (insn->type == INSN_TYPE_CALL_IND || insn->type == INSN_TYPE_JMP_IND)
		return MODRM_MOD(insn->modrm) == MODRM_MOD_REG && !insn->opnd16 ?
		       emulate_ops[insn->type] : NULL;
	if (insn->type == INSN_TYPE_OTHER)
		return is_nop(insn) ? kprobe_emulate_nop : push_pop_op(insn);
	return emulate_ops[insn->type];
}

/* The ones that cannot be stepped, whatever the switch says. */
static bool must_emulate(const struct insn *insn)
{
	return insn->type == INSN_TYPE_CLI || insn->type == INSN_TYPE_STI ||
	       (insn->rep && is_nop(insn));	/* pause: not steppable under TCG */
}

void arch_prepare_emulation(struct kprobe *p, const struct insn *insn)
{
	p->ainsn.emulate_op = choose_emulate_op(insn);
	p->ainsn.emulate_always = must_emulate(insn);
}
