/*
 * insn_tables.c - i386 opcode maps for lib/insn.c, one row per opcode.
 *
 * Check these against the Intel SDM Vol. 2, Appendix A (Tables A-2 to
 * A-7 and A-6 "Opcode Extensions").  Only 32-bit protected mode is
 * described: 40-4F are inc/dec, not REX; 06/07, 27, 60, 62... exist.
 * Rows left out are undefined opcodes, which decode as -EILSEQ.
 *
 * Where the SDM leaves room (reserved encodings a CPU may or may not
 * accept) the rows follow GNU objdump, because tests/host/
 * check_insn_objdump.py holds the decoder to objdump's lengths.  Those
 * places are marked "objdump:" in the comments; docs/decoder.md lists
 * them.
 */
#include "insn_tables.h"

/* Immediate kinds, spelled as in the SDM's operand notation. */
#define Ib	IMM_B
#define Iw	IMM_W
#define Iz	IMM_Z
#define Jb	IMM_REL8
#define Jz	IMM_RELZ
#define Ap	IMM_PTR
#define Ov	IMM_MOFFS
#define IwIb	IMM_ENTER

/* Row constructors. */
#define ROW(fl, im, ty)	{ .flags = OPF_VALID | (fl), .imm = (im), .type = (ty) }
#define O(im)		ROW(0, im, INSN_TYPE_OTHER)		/* opcode only */
#define M(im)		ROW(OPF_MODRM, im, INSN_TYPE_OTHER)	/* ModRM follows */
#define MEM(im)		ROW(OPF_MODRM | OPF_MEM, im, INSN_TYPE_OTHER)
#define T(im, ty)	ROW(0, im, ty)				/* with a kprobes type */
#define NB(im)		ROW(OPF_NOBOOST, im, INSN_TYPE_OTHER)	/* not boostable */
#define MNB(im)		ROW(OPF_MODRM | OPF_NOBOOST, im, INSN_TYPE_OTHER)
#define PREFIX		ROW(OPF_PREFIX, IMM_NONE, INSN_TYPE_OTHER)
#define ESCAPE		ROW(OPF_ESCAPE, IMM_NONE, INSN_TYPE_OTHER)
#define GRP(g, im)	{ .flags = OPF_VALID | OPF_MODRM | OPF_GROUP, \
			  .imm = (im), .group = (g) }
/*
 * SSE-style row: valid only with the mandatory prefixes in mem (for
 * memory operands) and reg (for register operands).  SDM notation: NP =
 * no prefix, 66/F3/F2 = that prefix selects this form.
 */
#define SSE(mem, reg, im) { .flags = OPF_VALID | OPF_MODRM | OPF_SSE | OPF_NOBOOST, \
			    .imm = (im), .pfx = (mem), .pfx_reg = (reg) }
/* The same, but Linux's twobyte_is_boostable says it may be boosted. */
#define SSEB(mem, reg, im) { .flags = OPF_VALID | OPF_MODRM | OPF_SSE, \
			     .imm = (im), .pfx = (mem), .pfx_reg = (reg) }

#define NP	PFX_NP
#define P66	PFX_66
#define F3	PFX_F3
#define F2	PFX_F2
#define ALL	(NP | P66 | F3 | F2)
#define MMX	(NP | P66)		/* MMX form, or SSE2 form with 66 */

/* Group numbers (indices into insn_groups[] below). */
enum {
	G1, G1A, G2, G3B, G3V, G4, G5, G11B, G11V,
	G6, G7, G8, G9, G12, G13, G14, G15, G16, GPADLOCK_A6, GPADLOCK_A7,
	GX87_D8, GX87_D9, GX87_DA, GX87_DB, GX87_DC, GX87_DD, GX87_DE, GX87_DF,
};

/* ---- one-byte opcode map (SDM Table A-2) --------------------------------- */
const struct insn_opinfo insn_onebyte[256] = {
	[0x00] = M(0),		/* add Eb,Gb */
	[0x01] = M(0),		/* add Ev,Gv */
	[0x02] = M(0),		/* add Gb,Eb */
	[0x03] = M(0),		/* add Gv,Ev */
	[0x04] = O(Ib),		/* add AL,Ib */
	[0x05] = O(Iz),		/* add eAX,Iz */
	[0x06] = O(0),		/* push es */
	[0x07] = O(0),		/* pop es */
	[0x08] = M(0),		/* or Eb,Gb */
	[0x09] = M(0),		/* or Ev,Gv */
	[0x0a] = M(0),		/* or Gb,Eb */
	[0x0b] = M(0),		/* or Gv,Ev */
	[0x0c] = O(Ib),		/* or AL,Ib */
	[0x0d] = O(Iz),		/* or eAX,Iz */
	[0x0e] = O(0),		/* push cs */
	[0x0f] = ESCAPE,	/* two-byte opcodes */
	[0x10] = M(0),		/* adc Eb,Gb */
	[0x11] = M(0),		/* adc Ev,Gv */
	[0x12] = M(0),		/* adc Gb,Eb */
	[0x13] = M(0),		/* adc Gv,Ev */
	[0x14] = O(Ib),		/* adc AL,Ib */
	[0x15] = O(Iz),		/* adc eAX,Iz */
	[0x16] = O(0),		/* push ss */
	[0x17] = T(0, INSN_TYPE_POP_SS),	/* pop ss: blocks #DB for one insn */
	[0x18] = M(0),		/* sbb Eb,Gb */
	[0x19] = M(0),		/* sbb Ev,Gv */
	[0x1a] = M(0),		/* sbb Gb,Eb */
	[0x1b] = M(0),		/* sbb Gv,Ev */
	[0x1c] = O(Ib),		/* sbb AL,Ib */
	[0x1d] = O(Iz),		/* sbb eAX,Iz */
	[0x1e] = O(0),		/* push ds */
	[0x1f] = O(0),		/* pop ds */
	[0x20] = M(0),		/* and Eb,Gb */
	[0x21] = M(0),		/* and Ev,Gv */
	[0x22] = M(0),		/* and Gb,Eb */
	[0x23] = M(0),		/* and Gv,Ev */
	[0x24] = O(Ib),		/* and AL,Ib */
	[0x25] = O(Iz),		/* and eAX,Iz */
	[0x26] = PREFIX,	/* es: */
	[0x27] = O(0),		/* daa */
	[0x28] = M(0),		/* sub Eb,Gb */
	[0x29] = M(0),		/* sub Ev,Gv */
	[0x2a] = M(0),		/* sub Gb,Eb */
	[0x2b] = M(0),		/* sub Gv,Ev */
	[0x2c] = O(Ib),		/* sub AL,Ib */
	[0x2d] = O(Iz),		/* sub eAX,Iz */
	[0x2e] = PREFIX,	/* cs: (branch-not-taken hint on jcc) */
	[0x2f] = O(0),		/* das */
	[0x30] = M(0),		/* xor Eb,Gb */
	[0x31] = M(0),		/* xor Ev,Gv */
	[0x32] = M(0),		/* xor Gb,Eb */
	[0x33] = M(0),		/* xor Gv,Ev */
	[0x34] = O(Ib),		/* xor AL,Ib */
	[0x35] = O(Iz),		/* xor eAX,Iz */
	[0x36] = PREFIX,	/* ss: */
	[0x37] = O(0),		/* aaa */
	[0x38] = M(0),		/* cmp Eb,Gb */
	[0x39] = M(0),		/* cmp Ev,Gv */
	[0x3a] = M(0),		/* cmp Gb,Eb */
	[0x3b] = M(0),		/* cmp Gv,Ev */
	[0x3c] = O(Ib),		/* cmp AL,Ib */
	[0x3d] = O(Iz),		/* cmp eAX,Iz */
	[0x3e] = PREFIX,	/* ds: (branch-taken hint on jcc) */
	[0x3f] = O(0),		/* aas */
	[0x40] = O(0), [0x41] = O(0), [0x42] = O(0), [0x43] = O(0),	/* inc r32 */
	[0x44] = O(0), [0x45] = O(0), [0x46] = O(0), [0x47] = O(0),
	[0x48] = O(0), [0x49] = O(0), [0x4a] = O(0), [0x4b] = O(0),	/* dec r32 */
	[0x4c] = O(0), [0x4d] = O(0), [0x4e] = O(0), [0x4f] = O(0),
	[0x50] = O(0), [0x51] = O(0), [0x52] = O(0), [0x53] = O(0),	/* push r32 */
	[0x54] = O(0), [0x55] = O(0), [0x56] = O(0), [0x57] = O(0),
	[0x58] = O(0), [0x59] = O(0), [0x5a] = O(0), [0x5b] = O(0),	/* pop r32 */
	[0x5c] = O(0), [0x5d] = O(0), [0x5e] = O(0), [0x5f] = O(0),
	[0x60] = O(0),		/* pusha */
	[0x61] = O(0),		/* popa */
	[0x62] = ROW(OPF_MODRM | OPF_MEM | OPF_NOBOOST, 0, INSN_TYPE_BOUND), /* bound Gv,Ma */
	[0x63] = M(0),		/* arpl Ew,Gw */
	[0x64] = PREFIX,	/* fs: */
	[0x65] = PREFIX,	/* gs: */
	[0x66] = PREFIX,	/* operand size */
	[0x67] = PREFIX,	/* address size */
	[0x68] = O(Iz),		/* push Iz */
	[0x69] = M(Iz),		/* imul Gv,Ev,Iz */
	[0x6a] = O(Ib),		/* push Ib */
	[0x6b] = M(Ib),		/* imul Gv,Ev,Ib */
	[0x6c] = O(0),		/* insb */
	[0x6d] = O(0),		/* insd */
	[0x6e] = O(0),		/* outsb */
	[0x6f] = O(0),		/* outsd */
	[0x70] = T(Jb, INSN_TYPE_JCC), [0x71] = T(Jb, INSN_TYPE_JCC),	/* jo, jno */
	[0x72] = T(Jb, INSN_TYPE_JCC), [0x73] = T(Jb, INSN_TYPE_JCC),	/* jb, jae */
	[0x74] = T(Jb, INSN_TYPE_JCC), [0x75] = T(Jb, INSN_TYPE_JCC),	/* je, jne */
	[0x76] = T(Jb, INSN_TYPE_JCC), [0x77] = T(Jb, INSN_TYPE_JCC),	/* jbe, ja */
	[0x78] = T(Jb, INSN_TYPE_JCC), [0x79] = T(Jb, INSN_TYPE_JCC),	/* js, jns */
	[0x7a] = T(Jb, INSN_TYPE_JCC), [0x7b] = T(Jb, INSN_TYPE_JCC),	/* jp, jnp */
	[0x7c] = T(Jb, INSN_TYPE_JCC), [0x7d] = T(Jb, INSN_TYPE_JCC),	/* jl, jge */
	[0x7e] = T(Jb, INSN_TYPE_JCC), [0x7f] = T(Jb, INSN_TYPE_JCC),	/* jle, jg */
	[0x80] = GRP(G1, Ib),	/* Grp1 Eb,Ib */
	[0x81] = GRP(G1, Iz),	/* Grp1 Ev,Iz */
	[0x82] = GRP(G1, Ib),	/* Grp1 Eb,Ib (alias of 80, 32-bit mode only) */
	[0x83] = GRP(G1, Ib),	/* Grp1 Ev,Ib */
	[0x84] = M(0),		/* test Eb,Gb */
	[0x85] = M(0),		/* test Ev,Gv */
	[0x86] = M(0),		/* xchg Eb,Gb */
	[0x87] = M(0),		/* xchg Ev,Gv */
	[0x88] = M(0),		/* mov Eb,Gb */
	[0x89] = M(0),		/* mov Ev,Gv */
	[0x8a] = M(0),		/* mov Gb,Eb */
	[0x8b] = M(0),		/* mov Gv,Ev */
	[0x8c] = M(0),		/* mov Ev,Sw */
	[0x8d] = MEM(0),	/* lea Gv,M */
	[0x8e] = M(0),		/* mov Sw,Ew (reg 2 = %ss: see insn.c) */
	[0x8f] = GRP(G1A, 0),	/* Grp1A: pop Ev */
	[0x90] = O(0),		/* nop (xchg eax,eax; F3 90 = pause) */
	[0x91] = O(0), [0x92] = O(0), [0x93] = O(0),			/* xchg r32,eAX */
	[0x94] = O(0), [0x95] = O(0), [0x96] = O(0), [0x97] = O(0),
	[0x98] = O(0),		/* cwde */
	[0x99] = O(0),		/* cdq */
	[0x9a] = ROW(OPF_NOBOOST, Ap, INSN_TYPE_CALL_FAR),	/* lcall Ap */
	[0x9b] = PREFIX,	/* fwait: objdump folds it into a following x87 insn */
	[0x9c] = T(0, INSN_TYPE_PUSHF),	/* pushf */
	[0x9d] = T(0, INSN_TYPE_POPF),	/* popf */
	[0x9e] = O(0),		/* sahf */
	[0x9f] = O(0),		/* lahf */
	[0xa0] = O(Ov),		/* mov AL,Ob */
	[0xa1] = O(Ov),		/* mov eAX,Ov */
	[0xa2] = O(Ov),		/* mov Ob,AL */
	[0xa3] = O(Ov),		/* mov Ov,eAX */
	[0xa4] = O(0),		/* movsb */
	[0xa5] = O(0),		/* movsd */
	[0xa6] = O(0),		/* cmpsb */
	[0xa7] = O(0),		/* cmpsd */
	[0xa8] = O(Ib),		/* test AL,Ib */
	[0xa9] = O(Iz),		/* test eAX,Iz */
	[0xaa] = O(0),		/* stosb */
	[0xab] = O(0),		/* stosd */
	[0xac] = O(0),		/* lodsb */
	[0xad] = O(0),		/* lodsd */
	[0xae] = O(0),		/* scasb */
	[0xaf] = O(0),		/* scasd */
	[0xb0] = O(Ib), [0xb1] = O(Ib), [0xb2] = O(Ib), [0xb3] = O(Ib),	/* mov r8,Ib */
	[0xb4] = O(Ib), [0xb5] = O(Ib), [0xb6] = O(Ib), [0xb7] = O(Ib),
	[0xb8] = O(Iz), [0xb9] = O(Iz), [0xba] = O(Iz), [0xbb] = O(Iz),	/* mov r32,Iv */
	[0xbc] = O(Iz), [0xbd] = O(Iz), [0xbe] = O(Iz), [0xbf] = O(Iz),
	[0xc0] = GRP(G2, Ib),	/* Grp2 Eb,Ib */
	[0xc1] = GRP(G2, Ib),	/* Grp2 Ev,Ib */
	[0xc2] = T(Iw, INSN_TYPE_RET),	/* ret Iw */
	[0xc3] = T(0, INSN_TYPE_RET),	/* ret */
	[0xc4] = MEM(0),	/* les Gz,Mp (mod 3 would be VEX: see insn.c) */
	[0xc5] = MEM(0),	/* lds Gz,Mp (mod 3 would be VEX) */
	[0xc6] = GRP(G11B, 0),	/* Grp11 Eb,Ib */
	[0xc7] = GRP(G11V, 0),	/* Grp11 Ev,Iz */
	[0xc8] = O(IwIb),	/* enter Iw,Ib */
	[0xc9] = O(0),		/* leave */
	[0xca] = T(Iw, INSN_TYPE_LRET),	/* lret Iw */
	[0xcb] = T(0, INSN_TYPE_LRET),	/* lret */
	[0xcc] = T(0, INSN_TYPE_INT3),	/* int3 */
	[0xcd] = T(Ib, INSN_TYPE_INT),	/* int Ib */
	[0xce] = T(0, INSN_TYPE_INTO),	/* into */
	[0xcf] = T(0, INSN_TYPE_IRET),	/* iret */
	[0xd0] = GRP(G2, 0),	/* Grp2 Eb,1 */
	[0xd1] = GRP(G2, 0),	/* Grp2 Ev,1 */
	[0xd2] = GRP(G2, 0),	/* Grp2 Eb,CL */
	[0xd3] = GRP(G2, 0),	/* Grp2 Ev,CL */
	[0xd4] = O(Ib),		/* aam Ib */
	[0xd5] = O(Ib),		/* aad Ib */
	/* 0xd6: salc is undocumented by Intel; objdump: (bad).  Left undefined. */
	[0xd7] = O(0),		/* xlat */
	[0xd8] = GRP(GX87_D8, 0),	/* x87 escapes: ModRM selects the insn */
	[0xd9] = GRP(GX87_D9, 0),
	[0xda] = GRP(GX87_DA, 0),
	[0xdb] = GRP(GX87_DB, 0),
	[0xdc] = GRP(GX87_DC, 0),
	[0xdd] = GRP(GX87_DD, 0),
	[0xde] = GRP(GX87_DE, 0),
	[0xdf] = GRP(GX87_DF, 0),
	[0xe0] = T(Jb, INSN_TYPE_LOOP),	/* loopne Jb */
	[0xe1] = T(Jb, INSN_TYPE_LOOP),	/* loope Jb */
	[0xe2] = T(Jb, INSN_TYPE_LOOP),	/* loop Jb */
	[0xe3] = T(Jb, INSN_TYPE_LOOP),	/* jecxz Jb */
	[0xe4] = O(Ib),		/* in AL,Ib */
	[0xe5] = O(Ib),		/* in eAX,Ib */
	[0xe6] = O(Ib),		/* out Ib,AL */
	[0xe7] = O(Ib),		/* out Ib,eAX */
	[0xe8] = T(Jz, INSN_TYPE_CALL_REL),	/* call Jz */
	[0xe9] = T(Jz, INSN_TYPE_JMP_REL),	/* jmp Jz */
	[0xea] = T(Ap, INSN_TYPE_JMP_FAR),	/* ljmp Ap */
	[0xeb] = T(Jb, INSN_TYPE_JMP_REL),	/* jmp Jb */
	[0xec] = O(0),		/* in AL,DX */
	[0xed] = O(0),		/* in eAX,DX */
	[0xee] = O(0),		/* out DX,AL */
	[0xef] = O(0),		/* out DX,eAX */
	[0xf0] = PREFIX,	/* lock */
	[0xf1] = T(0, INSN_TYPE_INT1),	/* int1 (icebp) */
	[0xf2] = PREFIX,	/* repne */
	[0xf3] = PREFIX,	/* rep */
	[0xf4] = T(0, INSN_TYPE_HLT),	/* hlt */
	[0xf5] = O(0),		/* cmc */
	[0xf6] = GRP(G3B, 0),	/* Grp3 Eb (test has Ib) */
	[0xf7] = GRP(G3V, 0),	/* Grp3 Ev (test has Iz) */
	[0xf8] = O(0),		/* clc */
	[0xf9] = O(0),		/* stc */
	[0xfa] = T(0, INSN_TYPE_CLI),	/* cli */
	[0xfb] = T(0, INSN_TYPE_STI),	/* sti */
	[0xfc] = O(0),		/* cld */
	[0xfd] = O(0),		/* std */
	[0xfe] = GRP(G4, 0),	/* Grp4: inc/dec Eb */
	[0xff] = GRP(G5, 0),	/* Grp5: inc/dec/call/jmp/push Ev */
};

/*
 * ---- two-byte map, 0F xx (SDM Table A-3) -----------------------------------
 * Rows written NB/MNB/SSE are the ones Linux's twobyte_is_boostable
 * bitmap excludes from boosting; O/M/SSEB rows may be boosted.
 */
const struct insn_opinfo insn_0f[256] = {
	[0x00] = GRP(G6, 0),	/* Grp6: sldt str lldt ltr verr verw */
	[0x01] = GRP(G7, 0),	/* Grp7: sgdt sidt lgdt lidt smsw lmsw invlpg ... */
	[0x02] = M(0),		/* lar Gv,Ew */
	[0x03] = M(0),		/* lsl Gv,Ew */
	[0x05] = ROW(OPF_NOBOOST, 0, INSN_TYPE_SYSCALL),	/* syscall (objdump decodes it in 32-bit mode) */
	[0x06] = O(0),		/* clts */
	[0x07] = ROW(OPF_NOBOOST, 0, INSN_TYPE_SYSCALL),	/* sysret */
	[0x08] = O(0),		/* invd */
	[0x09] = { .flags = OPF_VALID | OPF_SSE, .pfx = NP | F3, .pfx_reg = NP | F3 },
				/* wbinvd; F3: wbnoinvd */
	[0x0b] = ROW(OPF_NOBOOST, 0, INSN_TYPE_UD),	/* ud2 */
	[0x0d] = ROW(OPF_MODRM | OPF_MEM | OPF_NOBOOST, 0, 0), /* prefetch/prefetchw M */
	[0x0e] = NB(0),		/* femms (3DNow!) */
	[0x0f] = ROW(OPF_MODRM | OPF_3DNOW | OPF_NOBOOST, Ib, 0), /* 3DNow!: Ib is the opcode */
	[0x10] = SSE(ALL, ALL, 0),	/* movups movupd movss movsd V,W */
	[0x11] = SSE(ALL, ALL, 0),	/* movups movupd movss movsd W,V */
	[0x12] = SSE(ALL, NP | F3 | F2, 0), /* movlps/movhlps movlpd(M) movsldup movddup */
	[0x13] = SSE(MMX, 0, 0),	/* movlps movlpd M,V */
	[0x14] = SSE(MMX, MMX, 0),	/* unpcklps unpcklpd */
	[0x15] = SSE(MMX, MMX, 0),	/* unpckhps unpckhpd */
	[0x16] = SSE(NP | P66 | F3, NP | F3, 0), /* movhps/movlhps movhpd(M) movshdup */
	[0x17] = SSE(MMX, 0, 0),	/* movhps movhpd M,V */
	[0x18] = GRP(G16, 0),		/* Grp16: prefetchnta/t0/t1/t2, hint nops */
	[0x19] = MNB(0),		/* nop Ev (reserved hint) */
	[0x1a] = MNB(0),		/* objdump: bndldx/bndmov/bndcl/bndcu (MPX) */
	[0x1b] = MNB(0),		/* objdump: bndstx/bndmk/bndcn (MPX) */
	[0x1c] = MNB(0),		/* nop Ev; cldemote */
	[0x1d] = MNB(0),		/* nop Ev */
	[0x1e] = MNB(0),		/* nop Ev; F3 0F 1E FB = endbr32 */
	[0x1f] = M(0),			/* nop Ev (the multi-byte nop) */
	[0x20] = ROW(OPF_MODRM | OPF_CTRLREG, 0, 0),	/* mov Rd,Cd */
	[0x21] = ROW(OPF_MODRM | OPF_CTRLREG, 0, 0),	/* mov Rd,Dd */
	[0x22] = ROW(OPF_MODRM | OPF_CTRLREG, 0, 0),	/* mov Cd,Rd */
	[0x23] = ROW(OPF_MODRM | OPF_CTRLREG, 0, 0),	/* mov Dd,Rd */
	[0x24] = ROW(OPF_MODRM | OPF_CTRLREG | OPF_NOBOOST, 0, 0), /* mov Rd,Td (i486) */
	[0x26] = ROW(OPF_MODRM | OPF_CTRLREG | OPF_NOBOOST, 0, 0), /* mov Td,Rd (i486) */
	[0x28] = SSE(MMX, MMX, 0),	/* movaps movapd V,W */
	[0x29] = SSE(MMX, MMX, 0),	/* movaps movapd W,V */
	[0x2a] = SSE(ALL, ALL, 0),	/* cvtpi2ps cvtpi2pd cvtsi2ss cvtsi2sd */
	[0x2b] = SSE(ALL, 0, 0),	/* movntps movntpd; F3/F2 movntss/sd (SSE4a) */
	[0x2c] = SSE(ALL, ALL, 0),	/* cvttps2pi cvttpd2pi cvttss2si cvttsd2si */
	[0x2d] = SSE(ALL, ALL, 0),	/* cvtps2pi cvtpd2pi cvtss2si cvtsd2si */
	[0x2e] = SSE(MMX, MMX, 0),	/* ucomiss ucomisd */
	[0x2f] = SSE(MMX, MMX, 0),	/* comiss comisd */
	[0x30] = NB(0),		/* wrmsr */
	[0x31] = O(0),		/* rdtsc */
	[0x32] = NB(0),		/* rdmsr */
	[0x33] = NB(0),		/* rdpmc */
	[0x34] = ROW(OPF_NOBOOST, 0, INSN_TYPE_SYSCALL),	/* sysenter */
	[0x35] = ROW(OPF_NOBOOST, 0, INSN_TYPE_SYSCALL),	/* sysexit */
	[0x37] = NB(0),		/* getsec */
	[0x38] = ESCAPE,	/* three-byte opcodes 0F 38 xx */
	[0x3a] = ESCAPE,	/* three-byte opcodes 0F 3A xx */
	[0x40] = M(0), [0x41] = M(0), [0x42] = M(0), [0x43] = M(0),	/* cmovcc Gv,Ev */
	[0x44] = M(0), [0x45] = M(0), [0x46] = M(0), [0x47] = M(0),
	[0x48] = M(0), [0x49] = M(0), [0x4a] = M(0), [0x4b] = M(0),
	[0x4c] = M(0), [0x4d] = M(0), [0x4e] = M(0), [0x4f] = M(0),
	[0x50] = SSE(0, MMX, 0),	/* movmskps movmskpd Gd,U */
	[0x51] = SSE(ALL, ALL, 0),	/* sqrtps sqrtpd sqrtss sqrtsd */
	[0x52] = SSE(NP | F3, NP | F3, 0), /* rsqrtps rsqrtss */
	[0x53] = SSE(NP | F3, NP | F3, 0), /* rcpps rcpss */
	[0x54] = SSE(MMX, MMX, 0),	/* andps andpd */
	[0x55] = SSE(MMX, MMX, 0),	/* andnps andnpd */
	[0x56] = SSE(MMX, MMX, 0),	/* orps orpd */
	[0x57] = SSE(MMX, MMX, 0),	/* xorps xorpd */
	[0x58] = SSE(ALL, ALL, 0),	/* add{ps,pd,ss,sd} */
	[0x59] = SSE(ALL, ALL, 0),	/* mul{ps,pd,ss,sd} */
	[0x5a] = SSE(ALL, ALL, 0),	/* cvtps2pd cvtpd2ps cvtss2sd cvtsd2ss */
	[0x5b] = SSE(NP | P66 | F3, NP | P66 | F3, 0), /* cvtdq2ps cvtps2dq cvttps2dq */
	[0x5c] = SSE(ALL, ALL, 0),	/* sub{ps,pd,ss,sd} */
	[0x5d] = SSE(ALL, ALL, 0),	/* min{ps,pd,ss,sd} */
	[0x5e] = SSE(ALL, ALL, 0),	/* div{ps,pd,ss,sd} */
	[0x5f] = SSE(ALL, ALL, 0),	/* max{ps,pd,ss,sd} */
	[0x60] = SSEB(MMX, MMX, 0),	/* punpcklbw */
	[0x61] = SSEB(MMX, MMX, 0),	/* punpcklwd */
	[0x62] = SSEB(MMX, MMX, 0),	/* punpckldq */
	[0x63] = SSEB(MMX, MMX, 0),	/* packsswb */
	[0x64] = SSEB(MMX, MMX, 0),	/* pcmpgtb */
	[0x65] = SSEB(MMX, MMX, 0),	/* pcmpgtw */
	[0x66] = SSEB(MMX, MMX, 0),	/* pcmpgtd */
	[0x67] = SSEB(MMX, MMX, 0),	/* packuswb */
	[0x68] = SSEB(MMX, MMX, 0),	/* punpckhbw */
	[0x69] = SSEB(MMX, MMX, 0),	/* punpckhwd */
	[0x6a] = SSEB(MMX, MMX, 0),	/* punpckhdq */
	[0x6b] = SSEB(MMX, MMX, 0),	/* packssdw */
	[0x6c] = SSE(P66, P66, 0),	/* punpcklqdq */
	[0x6d] = SSE(P66, P66, 0),	/* punpckhqdq */
	[0x6e] = SSEB(MMX, MMX, 0),	/* movd P,Ey / V,Ey */
	[0x6f] = SSEB(NP | P66 | F3, NP | P66 | F3, 0), /* movq movdqa movdqu */
	[0x70] = SSE(ALL, ALL, Ib),	/* pshufw pshufd pshufhw pshuflw */
	[0x71] = GRP(G12, Ib),		/* Grp12: psrlw psraw psllw N/U,Ib */
	[0x72] = GRP(G13, Ib),		/* Grp13: psrld psrad pslld */
	[0x73] = GRP(G14, Ib),		/* Grp14: psrlq psrldq psllq pslldq */
	[0x74] = SSEB(MMX, MMX, 0),	/* pcmpeqb */
	[0x75] = SSEB(MMX, MMX, 0),	/* pcmpeqw */
	[0x76] = SSEB(MMX, MMX, 0),	/* pcmpeqd */
	[0x77] = { .flags = OPF_VALID | OPF_SSE, .pfx = NP, .pfx_reg = NP }, /* emms */
	[0x78] = SSE(NP, NP | P66 | F2, 0), /* vmread Ey,Gy; 66/F2: extrq/insertq Ib,Ib */
	[0x79] = SSE(NP, NP | P66 | F2, 0), /* vmwrite Gy,Ey; 66/F2: extrq/insertq */
	[0x7c] = SSE(P66 | F2, P66 | F2, 0), /* haddpd haddps */
	[0x7d] = SSE(P66 | F2, P66 | F2, 0), /* hsubpd hsubps */
	[0x7e] = SSEB(NP | P66 | F3, NP | P66 | F3, 0), /* movd Ey,P / Ey,V; movq V,W */
	[0x7f] = SSEB(NP | P66 | F3, NP | P66 | F3, 0), /* movq movdqa movdqu W,V */
	[0x80] = T(Jz, INSN_TYPE_JCC), [0x81] = T(Jz, INSN_TYPE_JCC),	/* jo, jno Jz */
	[0x82] = T(Jz, INSN_TYPE_JCC), [0x83] = T(Jz, INSN_TYPE_JCC),	/* jb, jae */
	[0x84] = T(Jz, INSN_TYPE_JCC), [0x85] = T(Jz, INSN_TYPE_JCC),	/* je, jne */
	[0x86] = T(Jz, INSN_TYPE_JCC), [0x87] = T(Jz, INSN_TYPE_JCC),	/* jbe, ja */
	[0x88] = T(Jz, INSN_TYPE_JCC), [0x89] = T(Jz, INSN_TYPE_JCC),	/* js, jns */
	[0x8a] = T(Jz, INSN_TYPE_JCC), [0x8b] = T(Jz, INSN_TYPE_JCC),	/* jp, jnp */
	[0x8c] = T(Jz, INSN_TYPE_JCC), [0x8d] = T(Jz, INSN_TYPE_JCC),	/* jl, jge */
	[0x8e] = T(Jz, INSN_TYPE_JCC), [0x8f] = T(Jz, INSN_TYPE_JCC),	/* jle, jg */
	[0x90] = M(0), [0x91] = M(0), [0x92] = M(0), [0x93] = M(0),	/* setcc Eb */
	[0x94] = M(0), [0x95] = M(0), [0x96] = M(0), [0x97] = M(0),
	[0x98] = M(0), [0x99] = M(0), [0x9a] = M(0), [0x9b] = M(0),
	[0x9c] = M(0), [0x9d] = M(0), [0x9e] = M(0), [0x9f] = M(0),
	[0xa0] = O(0),		/* push fs */
	[0xa1] = O(0),		/* pop fs */
	[0xa2] = NB(0),		/* cpuid */
	[0xa3] = M(0),		/* bt Ev,Gv */
	[0xa4] = M(Ib),		/* shld Ev,Gv,Ib */
	[0xa5] = M(0),		/* shld Ev,Gv,CL */
	[0xa6] = GRP(GPADLOCK_A6, 0),	/* objdump: VIA PadLock montmul/xsha1/xsha256 */
	[0xa7] = GRP(GPADLOCK_A7, 0),	/* objdump: VIA PadLock xstore/xcrypt* */
	[0xa8] = O(0),		/* push gs */
	[0xa9] = O(0),		/* pop gs */
	[0xaa] = NB(0),		/* rsm */
	[0xab] = M(0),		/* bts Ev,Gv */
	[0xac] = M(Ib),		/* shrd Ev,Gv,Ib */
	[0xad] = M(0),		/* shrd Ev,Gv,CL */
	[0xae] = GRP(G15, 0),	/* Grp15: fxsave ... clflush, fences */
	[0xaf] = M(0),		/* imul Gv,Ev */
	[0xb0] = M(0),		/* cmpxchg Eb,Gb */
	[0xb1] = M(0),		/* cmpxchg Ev,Gv */
	[0xb2] = MEM(0),	/* lss Gv,Mp */
	[0xb3] = M(0),		/* btr Ev,Gv */
	[0xb4] = MEM(0),	/* lfs Gv,Mp */
	[0xb5] = MEM(0),	/* lgs Gv,Mp */
	[0xb6] = M(0),		/* movzx Gv,Eb */
	[0xb7] = M(0),		/* movzx Gv,Ew */
	[0xb8] = SSE(F3, F3, 0),	/* popcnt Gv,Ev (F3 only) */
	[0xb9] = ROW(OPF_MODRM | OPF_NOBOOST, 0, INSN_TYPE_UD),	/* ud1 Gv,Ev */
	[0xba] = GRP(G8, Ib),	/* Grp8: bt bts btr btc Ev,Ib */
	[0xbb] = M(0),		/* btc Ev,Gv */
	[0xbc] = SSEB(NP | P66 | F3, NP | P66 | F3, 0), /* bsf Gv,Ev; F3: tzcnt */
	[0xbd] = SSEB(NP | P66 | F3, NP | P66 | F3, 0), /* bsr Gv,Ev; F3: lzcnt */
	[0xbe] = M(0),		/* movsx Gv,Eb */
	[0xbf] = M(0),		/* movsx Gv,Ew */
	[0xc0] = M(0),		/* xadd Eb,Gb */
	[0xc1] = M(0),		/* xadd Ev,Gv */
	[0xc2] = SSE(ALL, ALL, Ib),	/* cmpps cmppd cmpss cmpsd V,W,Ib */
	[0xc3] = SSE(NP, 0, 0),		/* movnti My,Gy */
	[0xc4] = SSE(MMX, MMX, Ib),	/* pinsrw P/V,Ry/Mw,Ib */
	[0xc5] = SSE(0, MMX, Ib),	/* pextrw Gd,N/U,Ib */
	[0xc6] = SSE(MMX, MMX, Ib),	/* shufps shufpd V,W,Ib */
	[0xc7] = GRP(G9, 0),		/* Grp9: cmpxchg8b, rdrand, rdseed, vmx */
	[0xc8] = O(0), [0xc9] = O(0), [0xca] = O(0), [0xcb] = O(0),	/* bswap r32 */
	[0xcc] = O(0), [0xcd] = O(0), [0xce] = O(0), [0xcf] = O(0),
	[0xd0] = SSE(P66 | F2, P66 | F2, 0),	/* addsubpd addsubps */
	[0xd1] = SSEB(MMX, MMX, 0),	/* psrlw */
	[0xd2] = SSEB(MMX, MMX, 0),	/* psrld */
	[0xd3] = SSEB(MMX, MMX, 0),	/* psrlq */
	[0xd4] = SSE(MMX, MMX, 0),	/* paddq */
	[0xd5] = SSEB(MMX, MMX, 0),	/* pmullw */
	[0xd6] = SSE(P66, P66 | F3 | F2, 0),	/* movq W,V; movq2dq; movdq2q */
	[0xd7] = SSE(0, ALL, 0),	/* pmovmskb Gd,N/U (objdump: any prefix) */
	[0xd8] = SSEB(MMX, MMX, 0),	/* psubusb */
	[0xd9] = SSEB(MMX, MMX, 0),	/* psubusw */
	[0xda] = SSE(MMX, MMX, 0),	/* pminub */
	[0xdb] = SSEB(MMX, MMX, 0),	/* pand */
	[0xdc] = SSEB(MMX, MMX, 0),	/* paddusb */
	[0xdd] = SSEB(MMX, MMX, 0),	/* paddusw */
	[0xde] = SSE(MMX, MMX, 0),	/* pmaxub */
	[0xdf] = SSEB(MMX, MMX, 0),	/* pandn */
	[0xe0] = SSE(MMX, MMX, 0),	/* pavgb */
	[0xe1] = SSEB(MMX, MMX, 0),	/* psraw */
	[0xe2] = SSEB(MMX, MMX, 0),	/* psrad */
	[0xe3] = SSE(MMX, MMX, 0),	/* pavgw */
	[0xe4] = SSE(MMX, MMX, 0),	/* pmulhuw */
	[0xe5] = SSEB(MMX, MMX, 0),	/* pmulhw */
	[0xe6] = SSE(P66 | F3 | F2, P66 | F3 | F2, 0), /* cvttpd2dq cvtdq2pd cvtpd2dq */
	[0xe7] = SSE(MMX, 0, 0),	/* movntq movntdq M,V */
	[0xe8] = SSEB(MMX, MMX, 0),	/* psubsb */
	[0xe9] = SSEB(MMX, MMX, 0),	/* psubsw */
	[0xea] = SSE(MMX, MMX, 0),	/* pminsw */
	[0xeb] = SSEB(MMX, MMX, 0),	/* por */
	[0xec] = SSEB(MMX, MMX, 0),	/* paddsb */
	[0xed] = SSEB(MMX, MMX, 0),	/* paddsw */
	[0xee] = SSE(MMX, MMX, 0),	/* pmaxsw */
	[0xef] = SSEB(MMX, MMX, 0),	/* pxor */
	[0xf0] = SSE(F2, 0, 0),		/* lddqu V,M */
	[0xf1] = SSEB(MMX, MMX, 0),	/* psllw */
	[0xf2] = SSEB(MMX, MMX, 0),	/* pslld */
	[0xf3] = SSEB(MMX, MMX, 0),	/* psllq */
	[0xf4] = SSE(MMX, MMX, 0),	/* pmuludq */
	[0xf5] = SSEB(MMX, MMX, 0),	/* pmaddwd */
	[0xf6] = SSE(MMX, MMX, 0),	/* psadbw */
	[0xf7] = SSE(0, MMX, 0),	/* maskmovq maskmovdqu */
	[0xf8] = SSEB(MMX, MMX, 0),	/* psubb */
	[0xf9] = SSEB(MMX, MMX, 0),	/* psubw */
	[0xfa] = SSEB(MMX, MMX, 0),	/* psubd */
	[0xfb] = SSE(MMX, MMX, 0),	/* psubq */
	[0xfc] = SSEB(MMX, MMX, 0),	/* paddb */
	[0xfd] = SSEB(MMX, MMX, 0),	/* paddw */
	[0xfe] = SSEB(MMX, MMX, 0),	/* paddd */
	[0xff] = ROW(OPF_MODRM | OPF_NOBOOST, 0, INSN_TYPE_UD),	/* ud0 Gv,Ev */
};

/* ---- three-byte map 0F 38 xx (SDM Table A-4) ------------------------------- */
const struct insn_opinfo insn_0f38[256] = {
	[0x00] = SSE(MMX, MMX, 0),	/* pshufb (SSSE3) */
	[0x01] = SSE(MMX, MMX, 0),	/* phaddw */
	[0x02] = SSE(MMX, MMX, 0),	/* phaddd */
	[0x03] = SSE(MMX, MMX, 0),	/* phaddsw */
	[0x04] = SSE(MMX, MMX, 0),	/* pmaddubsw */
	[0x05] = SSE(MMX, MMX, 0),	/* phsubw */
	[0x06] = SSE(MMX, MMX, 0),	/* phsubd */
	[0x07] = SSE(MMX, MMX, 0),	/* phsubsw */
	[0x08] = SSE(MMX, MMX, 0),	/* psignb */
	[0x09] = SSE(MMX, MMX, 0),	/* psignw */
	[0x0a] = SSE(MMX, MMX, 0),	/* psignd */
	[0x0b] = SSE(MMX, MMX, 0),	/* pmulhrsw */
	[0x10] = SSE(P66, P66, 0),	/* pblendvb (SSE4.1) */
	[0x14] = SSE(P66, P66, 0),	/* blendvps */
	[0x15] = SSE(P66, P66, 0),	/* blendvpd */
	[0x17] = SSE(P66, P66, 0),	/* ptest */
	[0x1c] = SSE(MMX, MMX, 0),	/* pabsb (SSSE3) */
	[0x1d] = SSE(MMX, MMX, 0),	/* pabsw */
	[0x1e] = SSE(MMX, MMX, 0),	/* pabsd */
	[0x20] = SSE(P66, P66, 0),	/* pmovsxbw */
	[0x21] = SSE(P66, P66, 0),	/* pmovsxbd */
	[0x22] = SSE(P66, P66, 0),	/* pmovsxbq */
	[0x23] = SSE(P66, P66, 0),	/* pmovsxwd */
	[0x24] = SSE(P66, P66, 0),	/* pmovsxwq */
	[0x25] = SSE(P66, P66, 0),	/* pmovsxdq */
	[0x28] = SSE(P66, P66, 0),	/* pmuldq */
	[0x29] = SSE(P66, P66, 0),	/* pcmpeqq */
	[0x2a] = SSE(P66, 0, 0),	/* movntdqa V,M */
	[0x2b] = SSE(P66, P66, 0),	/* packusdw */
	[0x30] = SSE(P66, P66, 0),	/* pmovzxbw */
	[0x31] = SSE(P66, P66, 0),	/* pmovzxbd */
	[0x32] = SSE(P66, P66, 0),	/* pmovzxbq */
	[0x33] = SSE(P66, P66, 0),	/* pmovzxwd */
	[0x34] = SSE(P66, P66, 0),	/* pmovzxwq */
	[0x35] = SSE(P66, P66, 0),	/* pmovzxdq */
	[0x37] = SSE(P66, P66, 0),	/* pcmpgtq (SSE4.2) */
	[0x38] = SSE(P66, P66, 0),	/* pminsb */
	[0x39] = SSE(P66, P66, 0),	/* pminsd */
	[0x3a] = SSE(P66, P66, 0),	/* pminuw */
	[0x3b] = SSE(P66, P66, 0),	/* pminud */
	[0x3c] = SSE(P66, P66, 0),	/* pmaxsb */
	[0x3d] = SSE(P66, P66, 0),	/* pmaxsd */
	[0x3e] = SSE(P66, P66, 0),	/* pmaxuw */
	[0x3f] = SSE(P66, P66, 0),	/* pmaxud */
	[0x40] = SSE(P66, P66, 0),	/* pmulld */
	[0x41] = SSE(P66, P66, 0),	/* phminposuw */
	[0x80] = SSE(P66, 0, 0),	/* invept Gy,M */
	[0x81] = SSE(P66, 0, 0),	/* invvpid Gy,M */
	[0x82] = SSE(P66, 0, 0),	/* invpcid Gy,M */
	[0xc8] = SSE(NP, NP, 0),	/* sha1nexte */
	[0xc9] = SSE(NP, NP, 0),	/* sha1msg1 */
	[0xca] = SSE(NP, NP, 0),	/* sha1msg2 */
	[0xcb] = SSE(NP, NP, 0),	/* sha256rnds2 */
	[0xcc] = SSE(NP, NP, 0),	/* sha256msg1 */
	[0xcd] = SSE(NP, NP, 0),	/* sha256msg2 */
	[0xcf] = SSE(P66, P66, 0),	/* gf2p8mulb */
	[0xd8] = SSE(F3, 0, 0),		/* objdump: Key Locker aesencwide/decwide M */
	[0xdb] = SSE(P66, P66, 0),	/* aesimc */
	[0xdc] = SSE(P66 | F3, P66 | F3, 0), /* aesenc; F3: loadiwkey (reg)/aesenc128kl */
	[0xdd] = SSE(P66 | F3, P66, 0),	/* aesenclast; F3: aesdec128kl M */
	[0xde] = SSE(P66 | F3, P66, 0),	/* aesdec; F3: aesenc256kl M */
	[0xdf] = SSE(P66 | F3, P66, 0),	/* aesdeclast; F3: aesdec256kl M */
	[0xf0] = SSE(NP | P66 | F2, F2, 0), /* movbe Gy,My; F2: crc32 Gd,Eb */
	[0xf1] = SSE(NP | P66 | F2, F2, 0), /* movbe My,Gy; F2: crc32 Gd,Ey */
	[0xf5] = SSE(P66, 0, 0),	/* wrussd (CET) */
	[0xf6] = SSE(NP | P66 | F3, P66 | F3, 0), /* wrssd (NP, M); adcx; adox */
	[0xf8] = SSE(P66 | F3 | F2, 0, 0), /* movdir64b; enqcmds; enqcmd */
	[0xf9] = SSE(NP, 0, 0),		/* movdiri My,Gy */
	[0xfa] = SSE(0, F3, 0),		/* encodekey128 (Key Locker) */
	[0xfb] = SSE(0, F3, 0),		/* encodekey256 */
	[0xfc] = SSE(ALL, 0, 0),	/* aadd aand aor axor (RAO-INT) */
};

/* ---- three-byte map 0F 3A xx (SDM Table A-5); every row has an Ib --------- */
const struct insn_opinfo insn_0f3a[256] = {
	[0x08] = SSE(P66, P66, Ib),	/* roundps (SSE4.1) */
	[0x09] = SSE(P66, P66, Ib),	/* roundpd */
	[0x0a] = SSE(P66, P66, Ib),	/* roundss */
	[0x0b] = SSE(P66, P66, Ib),	/* roundsd */
	[0x0c] = SSE(P66, P66, Ib),	/* blendps */
	[0x0d] = SSE(P66, P66, Ib),	/* blendpd */
	[0x0e] = SSE(P66, P66, Ib),	/* pblendw */
	[0x0f] = SSE(MMX, MMX, Ib),	/* palignr (SSSE3) */
	[0x14] = SSE(P66, P66, Ib),	/* pextrb */
	[0x15] = SSE(P66, P66, Ib),	/* pextrw */
	[0x16] = SSE(P66, P66, Ib),	/* pextrd */
	[0x17] = SSE(P66, P66, Ib),	/* extractps */
	[0x20] = SSE(P66, P66, Ib),	/* pinsrb */
	[0x21] = SSE(P66, P66, Ib),	/* insertps */
	[0x22] = SSE(P66, P66, Ib),	/* pinsrd */
	[0x40] = SSE(P66, P66, Ib),	/* dpps */
	[0x41] = SSE(P66, P66, Ib),	/* dppd */
	[0x42] = SSE(P66, P66, Ib),	/* mpsadbw */
	[0x44] = SSE(P66, P66, Ib),	/* pclmulqdq */
	[0x60] = SSE(P66, P66, Ib),	/* pcmpestrm (SSE4.2) */
	[0x61] = SSE(P66, P66, Ib),	/* pcmpestri */
	[0x62] = SSE(P66, P66, Ib),	/* pcmpistrm */
	[0x63] = SSE(P66, P66, Ib),	/* pcmpistri */
	[0xcc] = SSE(NP, NP, Ib),	/* sha1rnds4 */
	[0xce] = SSE(P66, P66, Ib),	/* gf2p8affineqb */
	[0xcf] = SSE(P66, P66, Ib),	/* gf2p8affineinvqb */
	[0xdf] = SSE(P66, P66, Ib),	/* aeskeygenassist */
	[0xf0] = SSE(0, F3, Ib),	/* hreset Ib */
};

/* ---- opcode extension groups (SDM Table A-6) ------------------------------ */
#define ALL8(r)		{ r, r, r, r, r, r, r, r }
#define V		ROW(0, 0, INSN_TYPE_OTHER)	/* a defined encoding */
#define VNB		ROW(OPF_NOBOOST, 0, INSN_TYPE_OTHER)
#define RMSEL(mask)	{ .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = (mask) }
#define NONE		{ 0 }				/* undefined */
/* MMX/SSE group rows: NP = MMX register form, 66 = XMM form */
#define XMM		{ .flags = OPF_VALID | OPF_SSE | OPF_NOBOOST, .pfx = MMX, .pfx_reg = MMX }
#define X66		{ .flags = OPF_VALID | OPF_SSE | OPF_NOBOOST, .pfx = P66, .pfx_reg = P66 }

const struct insn_group insn_groups[] = {
	[G1] = { "Grp1 add or adc sbb and sub xor cmp", ALL8(V), ALL8(V) },
	[G1A] = { "Grp1A pop Ev", { V }, { V } },
	[G2] = { "Grp2 rol ror rcl rcr shl shr (sal) sar",
		/* /6 is an undocumented alias of shl; Linux won't boost it */
		{ V, V, V, V, V, V, VNB, V }, { V, V, V, V, V, V, VNB, V } },
	[G3B] = { "Grp3 Eb: test(Ib) test(Ib) not neg mul imul div idiv",
		/* /1 is an undocumented alias of test (objdump decodes it) */
		{ T(Ib, 0), NB(Ib), V, V, V, V, V, V },
		{ T(Ib, 0), NB(Ib), V, V, V, V, V, V } },
	[G3V] = { "Grp3 Ev: test(Iz) test(Iz) not neg mul imul div idiv",
		{ T(Iz, 0), NB(Iz), V, V, V, V, V, V },
		{ T(Iz, 0), NB(Iz), V, V, V, V, V, V } },
	[G4] = { "Grp4 inc dec Eb", { V, V }, { V, V } },
	[G5] = { "Grp5 inc dec call lcall jmp ljmp push Ev",
		{ V, V,
		  ROW(OPF_NOBOOST, 0, INSN_TYPE_CALL_IND),	/* call Ev */
		  ROW(OPF_NOBOOST, 0, INSN_TYPE_CALL_FAR),	/* lcall Mp */
		  ROW(0, 0, INSN_TYPE_JMP_IND),			/* jmp Ev */
		  ROW(OPF_NOBOOST, 0, INSN_TYPE_JMP_FAR),	/* ljmp Mp */
		  VNB, NONE },
		{ V, V,
		  ROW(OPF_NOBOOST, 0, INSN_TYPE_CALL_IND),	/* call *%reg */
		  NONE,						/* lcall needs memory */
		  ROW(0, 0, INSN_TYPE_JMP_IND),			/* jmp *%reg */
		  NONE, VNB, NONE } },
	[G11B] = { "Grp11 mov Eb,Ib; C6 F8 xabort Ib",
		{ T(Ib, 0) },
		{ T(Ib, 0), NONE, NONE, NONE, NONE, NONE, NONE,
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .imm = Ib, .rm_ok = 0x01 } } },
	[G11V] = { "Grp11 mov Ev,Iz; C7 F8 xbegin Jz",
		{ T(Iz, 0) },
		{ T(Iz, 0), NONE, NONE, NONE, NONE, NONE, NONE,
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .imm = Jz, .rm_ok = 0x01 } } },
	[G6] = { "Grp6 sldt str lldt ltr verr verw",
		{ VNB, VNB, VNB, VNB, VNB, VNB }, { VNB, VNB, VNB, VNB, VNB, VNB } },
	[G7] = { "Grp7 sgdt sidt lgdt lidt smsw - lmsw invlpg",
		{ VNB, VNB, VNB, VNB, VNB, NONE, VNB, VNB },
		/* mod 3 encodes single instructions by ModRM.rm (objdump's list) */
		{ RMSEL(0x7f),	/* C0-C6: enclv vmcall vmlaunch vmresume vmxoff pconfig wrmsrns */
		  RMSEL(0x8f),	/* C8-CB, CF: monitor mwait clac stac encls */
		  RMSEL(0xf3),	/* D0 D1 D4-D7: xgetbv xsetbv vmfunc xend xtest enclu */
		  RMSEL(0xff),	/* D8-DF: AMD SVM vmrun ... invlpga */
		  RMSEL(0xff),	/* E0-E7: smsw r */
		  RMSEL(0xc1),	/* E8 EE EF: serialize rdpkru wrpkru */
		  RMSEL(0xff),	/* F0-F7: lmsw r */
		  RMSEL(0xff) } },	/* F8-FF: swapgs rdtscp monitorx mwaitx clzero ... */
	[G8] = { "Grp8 bt bts btr btc Ev,Ib",
		{ NONE, NONE, NONE, NONE, VNB, VNB, VNB, VNB },
		{ NONE, NONE, NONE, NONE, VNB, VNB, VNB, VNB } },
	[G9] = { "Grp9 cmpxchg8b xrstors xsavec xsaves vmptrld vmptrst; rdrand rdseed",
		{ NONE, VNB, NONE, VNB, VNB, VNB, VNB, VNB },
		{ NONE, NONE, NONE, NONE, NONE, NONE, VNB, VNB } },
	[G12] = { "Grp12 psrlw psraw psllw N/U,Ib",
		{ NONE }, { NONE, NONE, XMM, NONE, XMM, NONE, XMM, NONE } },
	[G13] = { "Grp13 psrld psrad pslld N/U,Ib",
		{ NONE }, { NONE, NONE, XMM, NONE, XMM, NONE, XMM, NONE } },
	[G14] = { "Grp14 psrlq psrldq(66) psllq pslldq(66) N/U,Ib",
		{ NONE }, { NONE, NONE, XMM, X66, NONE, NONE, XMM, X66 } },
	[G15] = { "Grp15 fxsave fxrstor ldmxcsr stmxcsr xsave xrstor xsaveopt clflush",
		ALL8(VNB),
		{ NONE, NONE, NONE, NONE, NONE,
		  VNB,		/* E8-EF lfence */
		  RMSEL(0x01),	/* F0 mfence */
		  RMSEL(0x01) } },	/* F8 sfence */
	[G16] = { "Grp16 prefetchnta prefetcht0 t1 t2, hint nops", ALL8(VNB), ALL8(VNB) },
	[GPADLOCK_A6] = { "VIA PadLock 0F A6: montmul xsha1 xsha256",
		{ NONE }, { RMSEL(0x01), RMSEL(0x01), RMSEL(0x01) } },
	[GPADLOCK_A7] = { "VIA PadLock 0F A7: xstore xcryptecb/cbc/ctr/cfb/ofb",
		{ NONE }, { RMSEL(0x01), RMSEL(0x01), RMSEL(0x01),
			    RMSEL(0x01), RMSEL(0x01), RMSEL(0x01) } },

	/*
	 * x87 escapes (SDM Tables A-7 .. A-22).  Memory forms: ModRM.reg picks
	 * the operation.  Register forms: some /reg rows hold one instruction
	 * per rm (the mask lists which exist).  Linux never boosts x87
	 * instructions: a pending FPU exception is reported at the *next*
	 * x87 instruction, which after boosting would run at another address.
	 */
	[GX87_D8] = { "D8 fadd fmul fcom fcomp fsub fsubr fdiv fdivr",
		ALL8(VNB), ALL8(VNB) },
	[GX87_D9] = { "D9 fld - fst fstp fldenv fldcw fnstenv fnstcw",
		{ VNB, NONE, VNB, VNB, VNB, VNB, VNB, VNB },
		{ VNB,		/* fld st(i) */
		  VNB,		/* fxch */
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x01 }, /* fnop */
		  NONE,		/* D8-DF reserved */
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x33 }, /* fchs fabs ftst fxam */
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x7f }, /* fld1 ... fldz */
		  VNB,		/* f2xm1 ... fincstp */
		  VNB } },	/* fprem ... fcos */
	[GX87_DA] = { "DA fiadd fimul ficom ficomp fisub fisubr fidiv fidivr m32int",
		ALL8(VNB),
		{ VNB, VNB, VNB, VNB,	/* fcmovb fcmove fcmovbe fcmovu */
		  NONE,
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x02 }, /* fucompp */
		  NONE, NONE } },
	[GX87_DB] = { "DB fild fisttp fist fistp - fld(m80) - fstp(m80)",
		{ VNB, VNB, VNB, VNB, NONE, VNB, NONE, VNB },
		{ VNB, VNB, VNB, VNB,	/* fcmovnb fcmovne fcmovnbe fcmovnu */
		  /* fneni fndisi fnclex fninit fnsetpm frstpm (the odd ones are 8087/287) */
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x3f },
		  VNB, VNB,		/* fucomi fcomi */
		  NONE } },
	[GX87_DC] = { "DC fadd fmul fcom fcomp fsub fsubr fdiv fdivr m64fp",
		ALL8(VNB),
		{ VNB, VNB, NONE, NONE, VNB, VNB, VNB, VNB } },
	[GX87_DD] = { "DD fld fisttp fst fstp frstor - fnsave fnstsw",
		{ VNB, VNB, VNB, VNB, VNB, NONE, VNB, VNB },
		{ VNB, NONE, VNB, VNB, VNB, VNB, NONE, NONE } },	/* ffree - fst fstp fucom fucomp */
	[GX87_DE] = { "DE fiadd fimul ficom ficomp fisub fisubr fidiv fidivr m16int",
		ALL8(VNB),
		{ VNB, VNB, NONE,
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x02 }, /* fcompp */
		  VNB, VNB, VNB, VNB } },
	[GX87_DF] = { "DF fild fisttp fist fistp fbld fild(m64) fbstp fistp(m64)",
		ALL8(VNB),
		{ VNB,		/* ffreep (objdump) */
		  NONE, NONE, NONE,
		  { .flags = OPF_VALID | OPF_RMSEL | OPF_NOBOOST, .rm_ok = 0x01 }, /* fnstsw %ax */
		  VNB, VNB,	/* fucomip fcomip */
		  NONE } },
};

/*
 * 3DNow! (0F 0F ModRM ... suffix): the trailing byte is the opcode.
 * Bit n set means suffix n is defined (AMD 3DNow! manual, Table 3-1).
 */
const uint8_t insn_3dnow_valid[256 / 8] = {
	[0x0c / 8] = (1u << (0x0c % 8)) | (1u << (0x0d % 8)),	/* pi2fw pi2fd */
	[0x1c / 8] = (1u << (0x1c % 8)) | (1u << (0x1d % 8)),	/* pf2iw pf2id */
	[0x88 / 8] = (1u << (0x8a % 8)) | (1u << (0x8e % 8)),	/* pfnacc pfpnacc */
	[0x90 / 8] = (1u << (0x90 % 8)) | (1u << (0x94 % 8)) |	/* pfcmpge pfmin */
		     (1u << (0x96 % 8)) | (1u << (0x97 % 8)),	/* pfrcp pfrsqrt */
	[0x98 / 8] = (1u << (0x9a % 8)) | (1u << (0x9e % 8)),	/* pfsub pfadd */
	[0xa0 / 8] = (1u << (0xa0 % 8)) | (1u << (0xa4 % 8)) |	/* pfcmpgt pfmax */
		     (1u << (0xa6 % 8)) | (1u << (0xa7 % 8)),	/* pfrcpit1 pfrsqit1 */
	[0xa8 / 8] = (1u << (0xaa % 8)) | (1u << (0xae % 8)),	/* pfsubr pfacc */
	[0xb0 / 8] = (1u << (0xb0 % 8)) | (1u << (0xb4 % 8)) |	/* pfcmpeq pfmul */
		     (1u << (0xb6 % 8)) | (1u << (0xb7 % 8)),	/* pfrcpit2 pmulhrw */
	[0xb8 / 8] = (1u << (0xbb % 8)) | (1u << (0xbf % 8)),	/* pswapd pavgusb */
};
