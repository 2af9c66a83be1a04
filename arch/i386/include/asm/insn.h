/*
 * insn.h - a table-driven i386 instruction decoder (32-bit protected mode).
 *
 * kprobes must know, before it copies an instruction into a slot and
 * single-steps it there, how long the instruction is and what it does to
 * EIP, the stack and EFLAGS.  insn_decode() answers "how long" by walking
 * the instruction's parts in the order the CPU reads them:
 *
 *   prefixes | opcode (1-3 bytes) | ModRM | SIB | displacement | immediate
 *
 * The opcode tables (lib/insn_tables.c) say, per opcode, whether a ModRM
 * byte follows, what immediate follows, and what kind of instruction it
 * is; lib/insn.c is the walk.  See docs/decoder.md.
 *
 * Both the kernel and host tools build this; it touches only memory.
 */
#ifndef INSN_H
#define INSN_H

#include <stdint.h>
#include <stdbool.h>

/* The CPU raises #GP for anything longer than 15 bytes. */
#define INSN_MAX_LEN 15

/* Which opcode map the final opcode byte belongs to. */
enum insn_map {
	INSN_MAP_ONEBYTE,	/* xx          */
	INSN_MAP_0F,		/* 0F xx       */
	INSN_MAP_0F38,		/* 0F 38 xx    */
	INSN_MAP_0F3A,		/* 0F 3A xx    */
	/* AVX-style escapes (decoded for their length only, see docs/decoder.md) */
	INSN_MAP_VEX,		/* C4/C5 VEX: maps 0F, 0F 38, 0F 3A */
	INSN_MAP_EVEX,		/* 62 EVEX (AVX-512) */
	INSN_MAP_XOP,		/* 8F XOP (AMD) */
};

/* Segment override prefix, if any (the value is the prefix byte). */
enum insn_seg {
	INSN_SEG_NONE = 0,
	INSN_SEG_ES = 0x26,
	INSN_SEG_CS = 0x2e,
	INSN_SEG_SS = 0x36,
	INSN_SEG_DS = 0x3e,
	INSN_SEG_FS = 0x64,
	INSN_SEG_GS = 0x65,
};

/*
 * What the instruction does to control flow or to the flags kprobes
 * cares about.  One value per instruction; resume_execution() switches
 * on it.  Anything not listed is INSN_TYPE_OTHER.
 */
enum insn_type {
	INSN_TYPE_OTHER = 0,
	INSN_TYPE_CALL_REL,	/* E8 rel32 (rel16 under 66): pushes return EIP */
	INSN_TYPE_JMP_REL,	/* E9 rel32/rel16, EB rel8 */
	INSN_TYPE_JCC,		/* 70-7F rel8, 0F 80-8F rel32/rel16 */
	INSN_TYPE_LOOP,		/* E0 loopne, E1 loope, E2 loop, E3 jecxz: rel8 */
	INSN_TYPE_CALL_IND,	/* FF /2: call near r/m */
	INSN_TYPE_JMP_IND,	/* FF /4: jmp near r/m */
	INSN_TYPE_CALL_FAR,	/* 9A ptr16:32, FF /3 m16:32: pushes CS, EIP */
	INSN_TYPE_JMP_FAR,	/* EA ptr16:32, FF /5 m16:32 */
	INSN_TYPE_RET,		/* C3 ret, C2 ret imm16 */
	INSN_TYPE_LRET,		/* CB lret, CA lret imm16 */
	INSN_TYPE_IRET,		/* CF iret */
	INSN_TYPE_PUSHF,	/* 9C: pushes EFLAGS, so TF/IF become visible */
	INSN_TYPE_POPF,		/* 9D: loads EFLAGS, TF and IF included */
	INSN_TYPE_CLI,		/* FA */
	INSN_TYPE_STI,		/* FB */
	INSN_TYPE_INT3,		/* CC */
	INSN_TYPE_INT,		/* CD ib */
	INSN_TYPE_INTO,		/* CE */
	INSN_TYPE_INT1,		/* F1 (icebp) */
	INSN_TYPE_BOUND,	/* 62 /r: may raise #BR */
	INSN_TYPE_HLT,		/* F4 */
	INSN_TYPE_MOV_SS,	/* 8E /2: mov r/m16, %ss */
	INSN_TYPE_POP_SS,	/* 17: pop %ss */
	INSN_TYPE_UD,		/* 0F 0B ud2, 0F B9 ud1, 0F FF ud0: always #UD */
	INSN_TYPE_SYSCALL,	/* 0F 34/35 sysenter/sysexit, 0F 05/07 syscall/sysret */
	INSN_TYPE_NR,
};

/*
 * Attribute bits (insn->attr).  They are derived from the type and the
 * prefixes by insn_decode(); the reasons are in docs/decoder.md.
 */
#define INSN_ATTR_REL_BRANCH	(1u << 0)  /* imm is an EIP-relative displacement */
#define INSN_ATTR_BRANCH	(1u << 1)  /* may change EIP other than falling through */
#define INSN_ATTR_INDIRECT	(1u << 2)  /* target comes from a register/memory (FF /2-/5) */
#define INSN_ATTR_PUSHES_RET	(1u << 3)  /* pushes a return EIP (calls) */
#define INSN_ATTR_ABS_IP	(1u << 4)  /* after it EIP is absolute: no slot->orig fixup */
#define INSN_ATTR_MODIFIES_IF	(1u << 5)  /* cli, sti, popf, iret */
#define INSN_ATTR_PUSHES_FLAGS	(1u << 6)  /* pushf: the stacked image shows TF/IF */
#define INSN_ATTR_LOADS_FLAGS	(1u << 7)  /* popf, iret: TF/IF come from memory */
#define INSN_ATTR_NO_SSTEP	(1u << 8)  /* must not be single-stepped out of line */
#define INSN_ATTR_NO_BOOST	(1u << 9)  /* must not be "boosted" (see can_boost) */
#define INSN_ATTR_LOCK		(1u << 10) /* has a lock prefix */
#define INSN_ATTR_STRING_REP	(1u << 11) /* rep/repne string instruction */

/* A displacement or immediate: where it sits in the instruction and its value. */
struct insn_field {
	int32_t value;		/* sign-extended for displacements and rel branches */
	uint8_t nbytes;		/* 0 when absent */
	uint8_t offset;		/* byte offset from the start of the instruction */
};

struct insn {
	const uint8_t *kaddr;	/* where the bytes were read from */
	uint8_t length;		/* total length in bytes */

	/* prefixes */
	uint8_t nr_prefixes;
	uint8_t prefixes[INSN_MAX_LEN];	/* in the order they appear */
	bool opnd16;		/* 66: 16-bit operands (immediates, rel, far ptr) */
	bool addr16;		/* 67: 16-bit addressing (ModRM forms, moffs) */
	bool lock;		/* F0 */
	bool rep;		/* F3 (last of F2/F3 wins, as on the CPU) */
	bool repne;		/* F2 */
	uint8_t seg;		/* enum insn_seg */

	/* opcode */
	uint8_t map;		/* enum insn_map */
	uint8_t opcode;		/* the opcode byte within that map */
	uint8_t opcode_offset;	/* offset of the first opcode byte (0F or xx) */
	uint8_t opcode_len;	/* 1, 2 (0F xx) or 3 (0F 38 xx); VEX/EVEX/XOP:
				 * the escape bytes plus the opcode byte */
	uint8_t vex_map;	/* VEX/EVEX/XOP: the map number from the escape */

	/* ModRM and SIB */
	bool has_modrm;
	uint8_t modrm;
	uint8_t modrm_offset;
	bool has_sib;
	uint8_t sib;

	struct insn_field disp;	/* memory displacement (or moffs) */
	struct insn_field imm;	/* first immediate, rel branch displacement, far offset */
	struct insn_field imm2;	/* enter's ib, far ptr's selector */

	uint8_t type;		/* enum insn_type */
	uint32_t attr;		/* INSN_ATTR_* */
};

/* ModRM fields: mod (7:6), reg (5:3) - the /digit in the SDM, rm (2:0). */
#define MODRM_MOD(m)	(((m) >> 6) & 3)
#define MODRM_REG(m)	(((m) >> 3) & 7)
#define MODRM_RM(m)	((m) & 7)
/* SIB fields: scale (7:6), index (5:3), base (2:0). */
#define SIB_SCALE(s)	(((s) >> 6) & 3)
#define SIB_INDEX(s)	(((s) >> 3) & 7)
#define SIB_BASE(s)	((s) & 7)

/*
 * Decode the instruction at kaddr, reading at most max_len bytes
 * (max_len > INSN_MAX_LEN is clamped).  Fills *insn and returns its
 * length, or -EILSEQ if the bytes are not a valid 32-bit instruction or
 * run past max_len.  On error *insn is still zeroed/partially filled.
 */
int insn_decode(struct insn *insn, const void *kaddr, int max_len);

/*
 * Is addr an instruction boundary of the function starting at
 * func_start?  Decodes linearly from func_start, reading no byte at or
 * beyond func_start + func_size.  Returns 0 if some instruction starts
 * exactly at addr, -EILSEQ if addr falls inside an instruction or an
 * undecodable byte comes first, -EINVAL if addr is outside the function.
 */
int insn_boundary_check(const void *func_start, const void *addr,
			unsigned long func_size);

static inline bool insn_is_rel_branch(const struct insn *insn)
{
	return insn->attr & INSN_ATTR_REL_BRANCH;
}

/*
 * Target of a relative branch if the instruction were located at addr:
 * addr + length + displacement (truncated to 16 bits under 66, as the
 * CPU does).  Only meaningful when insn_is_rel_branch().  The one copy
 * of the rule: the optimizer's checks, the fix-up after a step and the
 * emulated branches all use it.  Always inline: on a probe hit nothing
 * the handlers call may itself carry a probe.
 */
static inline __attribute__((always_inline))
unsigned long insn_rel_target(const struct insn *insn, unsigned long addr)
{
	unsigned long target = addr + insn->length + (unsigned long)(long)insn->imm.value;

	return insn->opnd16 ? (target & 0xffff) : target;
}

/*
 * What a copy of the instruction stepped out of line - in a kprobe's slot
 * or a uprobe's XOL slot - leaves wrong, by its class.  Decided once, when
 * the probe is made (insn_sstep_fixups()), and applied after each step:
 * resume_execution() for kernel probes, arch_uprobe_post_xol() for
 * uprobes.  Linux's uprobes keep the same flags (UPROBE_FIX_IP, _CALL,
 * _SETF); here kernel probes use them too.
 */
#define INSN_FIX_IP	0x01	/* ip: from the copy to the text, by the same distance */
#define INSN_FIX_CALL	0x02	/* the pushed return address: the same distance */
#define INSN_FIX_PUSHF	0x04	/* the pushed flags: TF and IF as before the step */
#define INSN_FIX_SETF	0x08	/* TF and IF are the ones it loaded (popf, iret): they stand */
#define INSN_FIX_16	0x10	/* 66 prefix: a taken branch's ip and the pushed return
				   address are 16 bits, the distance is added modulo 64K */

unsigned int insn_sstep_fixups(const struct insn *insn);

#define INSN_IP16_MASK	0xffffUL	/* what a 16-bit operand size leaves of ip */

/*
 * INSN_FIX_IP: where ip belongs after the copy ran, copy_end being the
 * address just past the copy and delta the distance from the copy to
 * the text.  A fall-through, a relative branch taken or not, a rep string
 * instruction that stopped on itself: all are the same distance from
 * where they would be.  A taken 66-prefixed branch is too, modulo 64K:
 * the CPU cut ip to 16 bits.
 */
static inline __attribute__((always_inline))
unsigned long insn_sstep_fixed_ip(unsigned int fix, unsigned long ip,
				  unsigned long copy_end, long delta)
{
	if ((fix & INSN_FIX_16) && ip != copy_end)
		return (ip + delta) & INSN_IP16_MASK;
	return ip + delta;
}

/* Name of an insn_type, for messages and tests ("call_rel", ...). */
const char *insn_type_name(int type);

#endif
