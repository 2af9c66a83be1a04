/*
 * insn.c - decode one i386 instruction: its length, its parts, and what
 * kprobes needs to know about it.  The opcode knowledge lives in
 * lib/insn_tables.c; this file is the walk the CPU does:
 *
 *   prefixes -> opcode (0F / 0F 38 / 0F 3A escapes) -> ModRM -> SIB
 *            -> displacement -> immediate(s)
 *
 * Only memory is touched, so kprobes may call it from any context and
 * host tools link it unchanged.  docs/decoder.md explains the choices.
 */
#include <asm/insn.h>
#include <stddef.h>
#include "errno.h"
#include "insn_tables.h"

struct cursor;
static bool decode_modrm(struct insn *insn, struct cursor *c, bool ctrlreg);
static bool decode_imm(struct insn *insn, struct cursor *c, int imm);

/* A bounded reader over the instruction bytes. */
struct cursor {
	const uint8_t *p;
	int pos;
	int max;
};

static bool get_byte(struct cursor *c, uint8_t *out)
{
	if (c->pos >= c->max)
		return false;
	*out = c->p[c->pos++];
	return true;
}

/* Read an n-byte little-endian field into f, sign-extending if asked. */
static bool get_field(struct cursor *c, struct insn_field *f, int n, bool sign)
{
	uint32_t v = 0;
	int i;

	if (c->pos + n > c->max)
		return false;
	for (i = 0; i < n; i++)
		v |= (uint32_t)c->p[c->pos + i] << (8 * i);
	if (sign && n == 1)
		v = (uint32_t)(int32_t)(int8_t)v;
	else if (sign && n == 2)
		v = (uint32_t)(int32_t)(int16_t)v;
	f->value = (int32_t)v;
	f->nbytes = n;
	f->offset = c->pos;
	c->pos += n;
	return true;
}

/* ---- step 1: legacy prefixes -------------------------------------------- */

/*
 * Record the prefixes.  FWAIT (9B) is a real instruction, but the SDM
 * spells fstsw/fstcw/finit... as "9B + x87 opcode" and objdump folds a
 * 9B into any following x87 instruction, so it is collected here like a
 * prefix; decode_fwait() splits it off again when no x87 opcode follows.
 * Returns the offset of the first 9B, or -1.
 */
static int decode_prefixes(struct insn *insn, struct cursor *c)
{
	int fwait = -1;
	uint8_t b;

	while (c->pos < c->max) {
		b = c->p[c->pos];
		if (!(insn_onebyte[b].flags & OPF_PREFIX))
			break;
		switch (b) {
		case 0x66: insn->opnd16 = true; break;
		case 0x67: insn->addr16 = true; break;
		case 0xf0: insn->lock = true; break;
		/* F2 and F3 share a group: the last one counts. */
		case 0xf2: insn->repne = true; insn->rep = false; break;
		case 0xf3: insn->rep = true; insn->repne = false; break;
		case 0x9b: if (fwait < 0) fwait = c->pos; break;
		default:   insn->seg = b; break;	/* 26 2E 36 3E 64 65 */
		}
		insn->prefixes[insn->nr_prefixes++] = b;
		c->pos++;
	}
	return fwait;
}

/* A lone fwait: the instruction is the prefixes up to and including 9B. */
static int decode_fwait(struct insn *insn, int fwait)
{
	int i, n = fwait;	/* everything before the 9B was a prefix: keep those */

	insn->nr_prefixes = n;
	insn->opnd16 = insn->addr16 = insn->lock = false;
	insn->rep = insn->repne = false;
	insn->seg = INSN_SEG_NONE;
	for (i = 0; i < n; i++) {
		switch (insn->prefixes[i]) {
		case 0x66: insn->opnd16 = true; break;
		case 0x67: insn->addr16 = true; break;
		case 0xf0: insn->lock = true; break;
		case 0xf2: insn->repne = true; insn->rep = false; break;
		case 0xf3: insn->rep = true; insn->repne = false; break;
		default:   insn->seg = insn->prefixes[i]; break;
		}
	}
	insn->map = INSN_MAP_ONEBYTE;
	insn->opcode = 0x9b;
	insn->opcode_offset = fwait;
	insn->opcode_len = 1;
	insn->length = fwait + 1;
	return insn->length;
}

/* The SSE "mandatory prefix": the last of F2/F3 wins, else 66, else none. */
static uint8_t mandatory_prefix(const struct insn *insn)
{
	if (insn->rep)
		return PFX_F3;
	if (insn->repne)
		return PFX_F2;
	return insn->opnd16 ? PFX_66 : PFX_NP;
}

/* ---- step 2: opcode ------------------------------------------------------- */

static const struct insn_opinfo *decode_opcode(struct insn *insn, struct cursor *c)
{
	const struct insn_opinfo *info;
	uint8_t b;

	insn->opcode_offset = c->pos;
	if (!get_byte(c, &b))
		return NULL;
	insn->map = INSN_MAP_ONEBYTE;
	insn->opcode = b;
	insn->opcode_len = 1;
	info = &insn_onebyte[b];
	if (!(info->flags & OPF_ESCAPE))
		return info;

	/* 0F: two-byte map, or the 0F 38 / 0F 3A three-byte maps. */
	if (!get_byte(c, &b))
		return NULL;
	insn->opcode_len = 2;
	if (b != 0x38 && b != 0x3a) {
		insn->map = INSN_MAP_0F;
		insn->opcode = b;
		return &insn_0f[b];
	}
	insn->map = (b == 0x38) ? INSN_MAP_0F38 : INSN_MAP_0F3A;
	if (!get_byte(c, &b))
		return NULL;
	insn->opcode_len = 3;
	insn->opcode = b;
	return insn->map == INSN_MAP_0F38 ? &insn_0f38[b] : &insn_0f3a[b];
}

/*
 * ---- step 2b: VEX / EVEX / XOP ---------------------------------------------
 * In 32-bit mode C4/C5 (les/lds), 62 (bound) and 8F (pop) need a memory
 * operand, so the AVX-era encodings reuse their register forms as
 * escapes: C4/C5/62 followed by a byte with mod == 3, or 8F followed by
 * a map number of 8 or more.  None of these appear in our kernel; they
 * are decoded for their length only (so the boundary check and the
 * objdump comparison stay in step), as NO_BOOST "other" instructions.
 */
static bool is_vex_escape(const struct cursor *c)
{
	uint8_t b, next;

	if (c->pos + 1 >= c->max)
		return false;
	b = c->p[c->pos];
	next = c->p[c->pos + 1];
	if (b == 0xc4 || b == 0xc5 || b == 0x62)
		return MODRM_MOD(next) == 3;
	return b == 0x8f && (next & 0x1f) >= 8;
}

/* Immediate of a VEX/EVEX/XOP opcode: it depends on the map. */
static int vex_imm(uint8_t esc, uint8_t map, uint8_t op)
{
	if (esc == 0x8f)			/* XOP map 8: Ib, 9: none, A: Id */
		return map == 8 ? IMM_B : map == 10 ? IMM_Z : IMM_NONE;
	if (map == 3)				/* the 0F 3A map: always Ib */
		return IMM_B;
	if (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
			 (op >= 0xc4 && op <= 0xc6)))
		return IMM_B;			/* the 0F map's Ib rows */
	return IMM_NONE;
}

static int decode_vex(struct insn *insn, struct cursor *c)
{
	uint8_t esc, p[3], op;
	int i, npayload, map, imm;

	insn->opcode_offset = c->pos;
	get_byte(c, &esc);
	npayload = esc == 0xc5 ? 1 : esc == 0x62 ? 3 : 2;
	for (i = 0; i < npayload; i++)
		if (!get_byte(c, &p[i]))
			return -EILSEQ;
	if (esc == 0xc5) {
		map = 1;			/* two-byte VEX implies 0F */
	} else if (esc == 0x62) {
		map = p[0] & 0x07;		/* EVEX: bit 3 reserved, P1 bit 2 set */
		if ((p[0] & 0x08) || !(p[1] & 0x04) ||
		    !(map == 1 || map == 2 || map == 3 || map == 5 || map == 6))
			return -EILSEQ;
	} else {
		map = p[0] & 0x1f;
		if (esc == 0xc4 ? (map < 1 || map > 3) : (map < 8 || map > 10))
			return -EILSEQ;
	}
	if (!get_byte(c, &op))
		return -EILSEQ;
	insn->map = esc == 0x62 ? INSN_MAP_EVEX : esc == 0x8f ? INSN_MAP_XOP : INSN_MAP_VEX;
	insn->vex_map = map;
	insn->opcode = op;
	insn->opcode_len = 1 + npayload + 1;
	/* Every opcode has a ModRM byte except VEX 0F 77 (vzeroupper/vzeroall). */
	if (!(esc == 0xc4 || esc == 0xc5) || map != 1 || op != 0x77) {
		if (!decode_modrm(insn, c, false))
			return -EILSEQ;
	}
	imm = vex_imm(esc, map, op);
	if (imm == IMM_Z)
		insn->opnd16 = false;		/* XOP's Id is always 4 bytes */
	if (!decode_imm(insn, c, imm))
		return -EILSEQ;
	insn->attr = INSN_ATTR_NO_BOOST;
	insn->length = c->pos;
	return insn->length;
}

/* ---- step 3: ModRM, SIB, displacement ----------------------------------- */

/* How many displacement bytes a memory operand carries. */
static int modrm_disp_size(struct insn *insn, struct cursor *c)
{
	uint8_t mod = MODRM_MOD(insn->modrm), rm = MODRM_RM(insn->modrm);

	if (insn->addr16) {
		/* 16-bit forms: [bx+si] .. [bx]; mod 0 rm 6 is a bare disp16. */
		if (mod == 0)
			return rm == 6 ? 2 : 0;
		return mod == 1 ? 1 : 2;
	}
	if (rm == 4) {
		/* rm 4 means a SIB byte follows. */
		if (!get_byte(c, &insn->sib))
			return -1;
		insn->has_sib = true;
		if (mod == 0 && SIB_BASE(insn->sib) == 5)
			return 4;	/* no base register: disp32 instead */
	}
	if (mod == 0)
		return rm == 5 ? 4 : 0;	/* mod 0 rm 5: bare disp32 */
	return mod == 1 ? 1 : 4;
}

static bool decode_modrm(struct insn *insn, struct cursor *c, bool ctrlreg)
{
	int n;

	insn->modrm_offset = c->pos;
	if (!get_byte(c, &insn->modrm))
		return false;
	insn->has_modrm = true;
	/* mov to/from control and debug registers ignore mod: always a register. */
	if (ctrlreg || MODRM_MOD(insn->modrm) == 3)
		return true;
	n = modrm_disp_size(insn, c);
	if (n < 0)
		return false;
	return n == 0 || get_field(c, &insn->disp, n, true);
}

/* Resolve a group row (ModRM.reg picks it) into *out; false if undefined. */
static bool resolve_group(const struct insn *insn, const struct insn_opinfo *info,
			  struct insn_opinfo *out)
{
	const struct insn_group *g = &insn_groups[info->group];
	bool reg = MODRM_MOD(insn->modrm) == 3;
	const struct insn_opinfo *row;

	row = reg ? &g->reg[MODRM_REG(insn->modrm)] : &g->mem[MODRM_REG(insn->modrm)];
	if (!(row->flags & OPF_VALID))
		return false;
	if (reg && (row->flags & OPF_RMSEL) &&
	    !(row->rm_ok & (1u << MODRM_RM(insn->modrm))))
		return false;
	*out = *row;
	out->flags |= OPF_MODRM | (info->flags & OPF_NOBOOST);
	if (out->imm == IMM_NONE)
		out->imm = info->imm;
	if (out->type == INSN_TYPE_OTHER)
		out->type = info->type;
	return true;
}

/* Is this form defined: memory/register-only rows, mandatory prefixes? */
static bool form_is_defined(const struct insn *insn, const struct insn_opinfo *op)
{
	bool reg = insn->has_modrm && MODRM_MOD(insn->modrm) == 3;
	uint8_t allowed;

	if ((op->flags & OPF_MEM) && reg)
		return false;
	if ((op->flags & OPF_REG) && !reg)
		return false;
	if (op->flags & OPF_SSE) {
		allowed = reg ? op->pfx_reg : op->pfx;
		if (!(allowed & mandatory_prefix(insn)))
			return false;
	}
	return true;
}

/* ---- step 4: immediates ------------------------------------------------- */

static bool decode_imm(struct insn *insn, struct cursor *c, int imm)
{
	int z = insn->opnd16 ? 2 : 4;	/* Iz/Jz: operand size */

	switch (imm) {
	case IMM_NONE:
		return true;
	case IMM_B:
		return get_field(c, &insn->imm, 1, false);
	case IMM_W:
		return get_field(c, &insn->imm, 2, false);
	case IMM_Z:
		return get_field(c, &insn->imm, z, false);
	case IMM_REL8:
		return get_field(c, &insn->imm, 1, true);
	case IMM_RELZ:
		return get_field(c, &insn->imm, z, true);
	case IMM_PTR:		/* offset first, then the 16-bit selector */
		return get_field(c, &insn->imm, z, false) &&
		       get_field(c, &insn->imm2, 2, false);
	case IMM_MOFFS:		/* an address, so sized by the address size */
		return get_field(c, &insn->disp, insn->addr16 ? 2 : 4, false);
	case IMM_ENTER:		/* enter Iw (frame size), Ib (nesting level) */
		return get_field(c, &insn->imm, 2, false) &&
		       get_field(c, &insn->imm2, 1, false);
	case IMM_BB:
		return get_field(c, &insn->imm, 1, false) &&
		       get_field(c, &insn->imm2, 1, false);
	}
	return false;
}

/* ---- step 5: classification ----------------------------------------------- */

/* Attributes implied by each type (docs/decoder.md gives the reasons). */
static const uint32_t type_attr[INSN_TYPE_NR] = {
	[INSN_TYPE_CALL_REL] = INSN_ATTR_BRANCH | INSN_ATTR_PUSHES_RET | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_JMP_REL]  = INSN_ATTR_BRANCH | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_JCC]      = INSN_ATTR_BRANCH | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_LOOP]     = INSN_ATTR_BRANCH | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_CALL_IND] = INSN_ATTR_BRANCH | INSN_ATTR_INDIRECT | INSN_ATTR_PUSHES_RET |
			       INSN_ATTR_ABS_IP,
	[INSN_TYPE_JMP_IND]  = INSN_ATTR_BRANCH | INSN_ATTR_INDIRECT | INSN_ATTR_ABS_IP,
	[INSN_TYPE_CALL_FAR] = INSN_ATTR_BRANCH | INSN_ATTR_PUSHES_RET | INSN_ATTR_ABS_IP,
	[INSN_TYPE_JMP_FAR]  = INSN_ATTR_BRANCH | INSN_ATTR_ABS_IP,
	[INSN_TYPE_RET]      = INSN_ATTR_BRANCH | INSN_ATTR_ABS_IP,
	[INSN_TYPE_LRET]     = INSN_ATTR_BRANCH | INSN_ATTR_ABS_IP,
	[INSN_TYPE_IRET]     = INSN_ATTR_BRANCH | INSN_ATTR_ABS_IP | INSN_ATTR_MODIFIES_IF |
			       INSN_ATTR_LOADS_FLAGS | INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_PUSHF]    = INSN_ATTR_PUSHES_FLAGS,
	[INSN_TYPE_POPF]     = INSN_ATTR_MODIFIES_IF | INSN_ATTR_LOADS_FLAGS,
	[INSN_TYPE_CLI]      = INSN_ATTR_MODIFIES_IF,
	[INSN_TYPE_STI]      = INSN_ATTR_MODIFIES_IF,
	[INSN_TYPE_INT3]     = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_INT]      = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_INTO]     = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_INT1]     = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_BOUND]    = INSN_ATTR_NO_BOOST,
	[INSN_TYPE_HLT]      = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_MOV_SS]   = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_POP_SS]   = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_UD]       = INSN_ATTR_NO_SSTEP | INSN_ATTR_NO_BOOST,
	[INSN_TYPE_SYSCALL]  = INSN_ATTR_BRANCH | INSN_ATTR_ABS_IP | INSN_ATTR_NO_SSTEP |
			       INSN_ATTR_NO_BOOST,
};

static bool is_string_op(const struct insn *insn)
{
	uint8_t op = insn->opcode;

	return insn->map == INSN_MAP_ONEBYTE &&
	       ((op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
		(op >= 0xaa && op <= 0xaf));
}

static void classify(struct insn *insn, const struct insn_opinfo *op)
{
	int i;

	insn->type = op->type;
	/* mov to %ss (8E /2): like pop %ss it holds off #DB for one insn. */
	if (insn->map == INSN_MAP_ONEBYTE && insn->opcode == 0x8e &&
	    MODRM_REG(insn->modrm) == 2)
		insn->type = INSN_TYPE_MOV_SS;

	insn->attr = type_attr[insn->type];
	if (op->imm == IMM_REL8 || op->imm == IMM_RELZ)
		insn->attr |= INSN_ATTR_REL_BRANCH | INSN_ATTR_BRANCH | INSN_ATTR_NO_BOOST;
	if (insn->opcode == 0xff && insn->map == INSN_MAP_ONEBYTE &&
	    (insn->type == INSN_TYPE_CALL_FAR || insn->type == INSN_TYPE_JMP_FAR))
		insn->attr |= INSN_ATTR_INDIRECT;	/* FF /3, FF /5: m16:32 */
	if (op->flags & OPF_NOBOOST)
		insn->attr |= INSN_ATTR_NO_BOOST;
	/* Linux can_boost(): three-byte opcodes, and the 2E/67 prefixes, no. */
	if (insn->opcode_len == 3)
		insn->attr |= INSN_ATTR_NO_BOOST;
	for (i = 0; i < insn->nr_prefixes; i++)
		if (insn->prefixes[i] == 0x2e || insn->prefixes[i] == 0x67)
			insn->attr |= INSN_ATTR_NO_BOOST;
	if (insn->lock)
		insn->attr |= INSN_ATTR_LOCK;
	if ((insn->rep || insn->repne) && is_string_op(insn))
		insn->attr |= INSN_ATTR_STRING_REP;
}

/* ---- the walk ------------------------------------------------------------- */

int insn_decode(struct insn *insn, const void *kaddr, int max_len)
{
	struct cursor c = { .p = kaddr, .pos = 0, .max = max_len };
	const struct insn_opinfo *info;
	struct insn_opinfo op;
	int fwait;

	*insn = (struct insn){ .kaddr = kaddr };
	if (c.max > INSN_MAX_LEN)
		c.max = INSN_MAX_LEN;	/* longer would be #GP anyway */
	if (c.max <= 0)
		return -EILSEQ;

	fwait = decode_prefixes(insn, &c);
	if (fwait >= 0 && (c.pos >= c.max || c.p[c.pos] < 0xd8 || c.p[c.pos] > 0xdf))
		return decode_fwait(insn, fwait);

	if (is_vex_escape(&c))
		return decode_vex(insn, &c);
	info = decode_opcode(insn, &c);
	if (!info || !(info->flags & OPF_VALID))
		return -EILSEQ;
	op = *info;

	if (op.flags & OPF_MODRM) {
		if (!decode_modrm(insn, &c, op.flags & OPF_CTRLREG))
			return -EILSEQ;
		if ((op.flags & OPF_GROUP) && !resolve_group(insn, info, &op))
			return -EILSEQ;
	}
	if (!form_is_defined(insn, &op))
		return -EILSEQ;

	/* SSE4a extrq/insertq (66/F2 0F 78) carry two immediate bytes. */
	if (insn->map == INSN_MAP_0F && insn->opcode == 0x78 &&
	    mandatory_prefix(insn) != PFX_NP)
		op.imm = IMM_BB;
	if (!decode_imm(insn, &c, op.imm))
		return -EILSEQ;
	/* 3DNow!: the immediate byte is the real opcode; check it exists. */
	if ((op.flags & OPF_3DNOW) &&
	    !(insn_3dnow_valid[insn->imm.value / 8] & (1u << (insn->imm.value % 8))))
		return -EILSEQ;

	classify(insn, &op);
	insn->length = c.pos;
	return insn->length;
}

int insn_boundary_check(const void *func_start, const void *addr,
			unsigned long func_size)
{
	const uint8_t *p = func_start, *end = p + func_size;
	const uint8_t *target = addr;
	struct insn insn;
	int len;

	if (target < p || target >= end)
		return -EINVAL;
	while (p < target) {
		len = insn_decode(&insn, p, (int)(end - p < INSN_MAX_LEN ?
						  end - p : INSN_MAX_LEN));
		if (len < 0)
			return -EILSEQ;
		p += len;
	}
	return p == target ? 0 : -EILSEQ;
}

static const char *const type_names[INSN_TYPE_NR] = {
	[INSN_TYPE_OTHER] = "other",		[INSN_TYPE_CALL_REL] = "call_rel",
	[INSN_TYPE_JMP_REL] = "jmp_rel",	[INSN_TYPE_JCC] = "jcc",
	[INSN_TYPE_LOOP] = "loop",		[INSN_TYPE_CALL_IND] = "call_ind",
	[INSN_TYPE_JMP_IND] = "jmp_ind",	[INSN_TYPE_CALL_FAR] = "call_far",
	[INSN_TYPE_JMP_FAR] = "jmp_far",	[INSN_TYPE_RET] = "ret",
	[INSN_TYPE_LRET] = "lret",		[INSN_TYPE_IRET] = "iret",
	[INSN_TYPE_PUSHF] = "pushf",		[INSN_TYPE_POPF] = "popf",
	[INSN_TYPE_CLI] = "cli",		[INSN_TYPE_STI] = "sti",
	[INSN_TYPE_INT3] = "int3",		[INSN_TYPE_INT] = "int",
	[INSN_TYPE_INTO] = "into",		[INSN_TYPE_INT1] = "int1",
	[INSN_TYPE_BOUND] = "bound",		[INSN_TYPE_HLT] = "hlt",
	[INSN_TYPE_MOV_SS] = "mov_ss",		[INSN_TYPE_POP_SS] = "pop_ss",
	[INSN_TYPE_UD] = "ud",			[INSN_TYPE_SYSCALL] = "syscall",
};

/*
 * Every class in one place (the table of labs/02-kprobes/README.md):
 *   call rel       pushed copy+len, jumped relative to the copy: both move
 *   call *x, lcall pushed copy+len, the target is absolute: the address moves
 *   jmp/jcc/loop   taken: relative to the copy; not taken: copy+len: ip moves
 *   jmp *x, ljmp, ret, lret    ip came from a register, memory or the stack
 *   iret           the same, and the flags it popped stand
 *   pushf          pushed the step's TF and IF: the image gets the probed
 *                  code's; ip moves
 *   popf           its flags stand; ip moves
 *   the rest       ip moves (a rep string instruction stopped after one
 *                  iteration with ip on itself: it moves back onto the probe)
 */
unsigned int insn_sstep_fixups(const struct insn *insn)
{
	unsigned int fix = (insn->attr & INSN_ATTR_ABS_IP) ? 0 : INSN_FIX_IP;

	if (insn->attr & INSN_ATTR_PUSHES_RET)
		fix |= INSN_FIX_CALL;
	if (insn->attr & INSN_ATTR_PUSHES_FLAGS)
		fix |= INSN_FIX_PUSHF;
	if (insn->attr & INSN_ATTR_LOADS_FLAGS)
		fix |= INSN_FIX_SETF;
	if (insn->opnd16 && (insn->attr & (INSN_ATTR_REL_BRANCH | INSN_ATTR_PUSHES_RET)))
		fix |= INSN_FIX_16;	/* the CPU cut ip, or pushed IP, to 16 bits */
	return fix;
}

const char *insn_type_name(int type)
{
	if (type < 0 || type >= INSN_TYPE_NR || !type_names[type])
		return "?";
	return type_names[type];
}
