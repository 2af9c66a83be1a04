/*
 * insn_tables.h - the opcode tables behind lib/insn.c (private to lib/).
 *
 * One struct insn_opinfo per opcode says what follows the opcode byte.
 * The rows in lib/insn_tables.c are written in the Intel SDM's own
 * notation (Vol. 2, Appendix A "Opcode Map") so they can be checked
 * against it line by line:
 *
 *   E..  a ModRM byte follows (register or memory operand)
 *   Ib   one immediate byte          Iw  two bytes
 *   Iz   four bytes, two under 66    Jb/Jz  the same, EIP-relative
 *   Ap   far pointer: Iz offset + Iw selector
 *   Ob/Ov  moffs: an address of the address size (4, or 2 under 67)
 */
#ifndef LIB_INSN_TABLES_H
#define LIB_INSN_TABLES_H

#include <stdint.h>
#include <asm/insn.h>

/* What follows the opcode (and ModRM/SIB/displacement) byte(s). */
enum insn_imm {
	IMM_NONE,
	IMM_B,		/* Ib */
	IMM_W,		/* Iw */
	IMM_Z,		/* Iz: 4 bytes, 2 with an operand-size prefix */
	IMM_REL8,	/* Jb */
	IMM_RELZ,	/* Jz: rel32, rel16 with an operand-size prefix */
	IMM_PTR,	/* Ap: Iz offset then Iw selector */
	IMM_MOFFS,	/* Ob/Ov: address-size displacement, no ModRM */
	IMM_ENTER,	/* enter Iw, Ib */
	IMM_BB,		/* two Ib (SSE4a extrq/insertq) */
};

/* insn_opinfo.flags */
#define OPF_VALID	(1u << 0)  /* zero-initialised rows are undefined opcodes */
#define OPF_MODRM	(1u << 1)  /* a ModRM byte follows */
#define OPF_GROUP	(1u << 2)  /* ModRM.reg selects the row in insn_groups[group] */
#define OPF_PREFIX	(1u << 3)  /* a legacy prefix byte, not an opcode */
#define OPF_MEM		(1u << 4)  /* memory operand only: mod == 3 is undefined */
#define OPF_REG		(1u << 5)  /* register operand only: mod != 3 is undefined */
#define OPF_SSE		(1u << 6)  /* valid only with the mandatory prefixes in .pfx */
#define OPF_NOBOOST	(1u << 7)  /* Linux's can_boost() says no */
#define OPF_CTRLREG	(1u << 8)  /* mov cr/dr/tr: ModRM.mod is ignored, no disp */
#define OPF_RMSEL	(1u << 9)  /* mod == 3: only the rm values in .rm_ok exist */
#define OPF_ESCAPE	(1u << 10) /* 0F, 0F 38, 0F 3A: the opcode continues */
#define OPF_3DNOW	(1u << 11) /* 0F 0F: the real opcode is the trailing byte */

/* Mandatory prefixes of SSE rows (.pfx): which of them select a valid form. */
#define PFX_NP		(1u << 0)  /* none */
#define PFX_66		(1u << 1)
#define PFX_F3		(1u << 2)
#define PFX_F2		(1u << 3)

struct insn_opinfo {
	uint16_t flags;		/* OPF_* */
	uint8_t imm;		/* enum insn_imm */
	uint8_t type;		/* enum insn_type */
	uint8_t group;		/* with OPF_GROUP: index into insn_groups */
	uint8_t pfx;		/* with OPF_SSE: PFX_* allowed, memory operand */
	uint8_t pfx_reg;	/* with OPF_SSE: PFX_* allowed, register operand */
	uint8_t rm_ok;		/* with OPF_RMSEL: bit n set = rm n is defined */
};

/*
 * An opcode extension group (the SDM's "Grp 1".."Grp 17" and the x87
 * escapes).  Memory (mod != 3) and register (mod == 3) forms often
 * differ, so each has its own eight rows, indexed by ModRM.reg.
 */
struct insn_group {
	const char *name;
	struct insn_opinfo mem[8];
	struct insn_opinfo reg[8];
};

extern const struct insn_opinfo insn_onebyte[256];
extern const struct insn_opinfo insn_0f[256];
extern const struct insn_opinfo insn_0f38[256];
extern const struct insn_opinfo insn_0f3a[256];
extern const struct insn_group insn_groups[];
extern const uint8_t insn_3dnow_valid[256 / 8];

#endif
