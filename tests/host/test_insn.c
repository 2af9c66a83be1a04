/*
 * test_insn.c - host unit tests for the instruction decoder (lib/insn.c).
 *
 * Each case feeds hand-assembled bytes (the comment gives the AT&T
 * assembly, checkable with `objdump -D -b binary -m i386`) and checks
 * the length, the parts the decoder found, or the kprobes classification.
 * The bulk comparison against objdump is tests/host/check_insn_objdump.py.
 */
#include <stdint.h>
#include "ktest_host.h"
#include "errno.h"
#include <asm/insn.h>

/* Decode a byte list given inline: DECODE(&insn, 0x90) -> length. */
#define BYTES(...)	((const uint8_t[]){ __VA_ARGS__ })
#define NBYTES(...)	((int)sizeof((const uint8_t[]){ __VA_ARGS__ }))
#define DECODE(insn, ...) insn_decode(insn, BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__))

/* ---- lengths ------------------------------------------------------------- */

static void one_byte_opcodes(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x90), 1);		/* nop */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x55), 1);		/* push %ebp */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x89, 0xe5), 2);	/* mov %esp,%ebp */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x83, 0xec, 0x10), 3);	/* sub $0x10,%esp */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x81, 0xec, 0, 1, 0, 0), 6); /* sub $0x100,%esp */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xb8, 1, 2, 3, 4), 5);	/* mov $..,%eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x6b, 0xc0, 0x07), 3);	/* imul $7,%eax,%eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x69, 0xc0, 1, 0, 0, 0), 6); /* imul $1,%eax,%eax */
	KTEST_EXPECT_EQ(t, insn.map, INSN_MAP_ONEBYTE);
	KTEST_EXPECT_EQ(t, insn.opcode, 0x69);
}

static void prefix_combinations(struct ktest *t)
{
	struct insn insn;

	/* data16 xchg %ax,%ax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x90), 2);
	KTEST_EXPECT_TRUE(t, insn.opnd16);
	/* rep movsl */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf3, 0xa5), 2);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_STRING_REP);
	/* lock xadd %eax,(%eax) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf0, 0x0f, 0xc1, 0x00), 4);
	KTEST_EXPECT_TRUE(t, insn.lock);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_LOCK);
	KTEST_EXPECT_EQ(t, insn.opcode_offset, 1);
	/* %gs:mov (%eax),%eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x65, 0x8b, 0x00), 3);
	KTEST_EXPECT_EQ(t, insn.seg, INSN_SEG_GS);
	/* F2 then F3: the last of the group counts */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf2, 0xf3, 0xa4), 3);
	KTEST_EXPECT_TRUE(t, insn.rep);
	KTEST_EXPECT_FALSE(t, insn.repne);
	/* every prefix at once, 66 and 67 both shrinking things */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67,
				  0xc7, 0x06, 0x34, 0x12, 0x78, 0x56), 14);
	KTEST_EXPECT_EQ(t, insn.nr_prefixes, 8);
	KTEST_EXPECT_EQ(t, insn.disp.nbytes, 2);
	KTEST_EXPECT_EQ(t, insn.imm.nbytes, 2);
	/* 14 prefixes + nop = 15 bytes is legal; 15 prefixes + nop is not */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e,
				  0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x90), 15);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e,
				  0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x90), -EILSEQ);
}

static void operand_size_immediates(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x05, 1, 0, 0, 0), 5);	/* add $1,%eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x05, 1, 0), 4);	/* add $1,%ax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0xb8, 1, 0), 4);	/* mov $1,%ax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x68, 1, 0), 4);	/* pushw $1 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0xc7, 0x00, 1, 0), 5); /* movw $1,(%eax) */
	KTEST_EXPECT_EQ(t, insn.imm.offset, 3);
	/* 66 does not touch an Ib */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x83, 0xc0, 0x01), 4); /* add $1,%ax */
}

static void addressing_32bit(struct ktest *t)
{
	struct insn insn;

	/* mov 0x12345678,%eax: mod 0 rm 5 is a bare disp32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x05, 0x78, 0x56, 0x34, 0x12), 6);
	KTEST_EXPECT_EQ(t, insn.disp.value, 0x12345678);
	/* mov (%esp),%eax: rm 4 needs a SIB */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x04, 0x24), 3);
	KTEST_EXPECT_TRUE(t, insn.has_sib);
	/* mov 0x8(%esp),%eax: SIB + disp8 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x44, 0x24, 0x08), 4);
	KTEST_EXPECT_EQ(t, insn.disp.offset, 3);
	KTEST_EXPECT_EQ(t, insn.disp.value, 8);
	/* mov 0x12345678(,%eax,4),%eax: SIB base 5 with mod 0 = disp32, no base */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x04, 0x85, 0x78, 0x56, 0x34, 0x12), 7);
	KTEST_EXPECT_EQ(t, insn.disp.nbytes, 4);
	/* mov 0x0(%ebp,%eax,1),%eax needs mod 1: base 5 with mod 1 is %ebp + disp8 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x44, 0x05, 0x00), 4);
	/* mov -0x8(%ebp),%eax: disp8 is sign-extended */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x45, 0xf8), 3);
	KTEST_EXPECT_EQ(t, insn.disp.value, -8);
	/* mov 0x100(%esp),%eax: SIB + disp32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x84, 0x24, 0, 1, 0, 0), 7);
}

static void addressing_16bit(struct ktest *t)
{
	struct insn insn;

	/* addr16 mov 0x1234,%eax: mod 0 rm 6 is a bare disp16 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x67, 0x8b, 0x06, 0x34, 0x12), 5);
	KTEST_EXPECT_TRUE(t, insn.addr16);
	KTEST_EXPECT_EQ(t, insn.disp.nbytes, 2);
	KTEST_EXPECT_EQ(t, insn.disp.offset, 3);
	/* addr16 mov (%si),%eax: rm 4 is [si], no SIB in 16-bit forms */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x67, 0x8b, 0x04), 3);
	KTEST_EXPECT_FALSE(t, insn.has_sib);
	/* addr16 mov 0x0(%bp),%eax: mod 1 rm 6 is [bp+disp8] */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x67, 0x8b, 0x46, 0x00), 4);
	/* addr16 mov 0x1234(%bx),%eax: mod 2 is disp16, not disp32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x67, 0x8b, 0x87, 0x34, 0x12), 5);
	/* mod 0 rm 5 means [di] under 67, not disp32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x67, 0x8b, 0x05), 3);
}

static void group3_test_immediate(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf6, 0xc0, 0x01), 3);	/* test $1,%al */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf6, 0xd0), 2);	/* not %al: no imm */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf7, 0xc0, 1, 0, 0, 0), 6); /* test $1,%eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0xf7, 0xc0, 1, 0), 5); /* test $1,%ax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf7, 0xd8), 2);	/* neg %eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf7, 0x45, 0x08, 1, 0, 0, 0), 7); /* testl $1,8(%ebp) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf7, 0x75, 0x08), 3);	/* divl 8(%ebp) */
	/* /1 is an undocumented test alias: decoded, but never boosted */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf6, 0xc8, 0x01), 3);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
}

static void enter_far_moffs(struct ktest *t)
{
	struct insn insn;

	/* enter $0x10,$1 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xc8, 0x10, 0x00, 0x01), 4);
	KTEST_EXPECT_EQ(t, insn.imm.value, 0x10);
	KTEST_EXPECT_EQ(t, insn.imm2.value, 1);
	/* lcall $0x8,$0x12345678 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x9a, 0x78, 0x56, 0x34, 0x12, 0x08, 0x00), 7);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_CALL_FAR);
	KTEST_EXPECT_EQ(t, insn.imm.value, 0x12345678);
	KTEST_EXPECT_EQ(t, insn.imm2.value, 8);
	/* lcallw $0x8,$0x1234: ptr16:16 under 66 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x9a, 0x34, 0x12, 0x08, 0x00), 6);
	/* ljmp $0x10,$0x100 and its 16-bit form */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xea, 0, 1, 0, 0, 0x10, 0), 7);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_JMP_FAR);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0xea, 0, 1, 0x10, 0), 6);
	/* mov 0x12345678,%eax (moffs32), and under 67 a moffs16 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xa1, 0x78, 0x56, 0x34, 0x12), 5);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x67, 0xa1, 0x34, 0x12), 4);
	KTEST_EXPECT_EQ(t, insn.disp.nbytes, 2);
	/* 66 changes the register, not the moffs */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0xa3, 0x78, 0x56, 0x34, 0x12), 6);
	/* ret $8, lret $4 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xc2, 0x08, 0x00), 3);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_RET);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xca, 0x04, 0x00), 3);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_LRET);
}

static void two_and_three_byte_maps(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0xb6, 0xc0), 3);	/* movzbl %al,%eax */
	KTEST_EXPECT_EQ(t, insn.map, INSN_MAP_0F);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0xa2), 2);	/* cpuid */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x20, 0xc0), 3);	/* mov %cr0,%eax */
	/* mov %cr0: mod is ignored, so mod 0 rm 5 has no disp32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x22, 0x05), 3);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0xba, 0xe0, 0x03), 4);	/* bt $3,%eax */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x1f, 0x44, 0x00, 0x00), 5); /* nopl 0(%eax,%eax) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf3, 0x0f, 0x1e, 0xfb), 4);	/* endbr32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x0f, 0x70, 0xc1, 0x1b), 5); /* pshufd */
	/* pshufb %xmm1,%xmm0 (0F 38, SSSE3) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x0f, 0x38, 0x00, 0xc1), 5);
	KTEST_EXPECT_EQ(t, insn.map, INSN_MAP_0F38);
	KTEST_EXPECT_EQ(t, insn.opcode_len, 3);
	/* palignr $8,%xmm1,%xmm0 (0F 3A always has an Ib) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x08), 6);
	KTEST_EXPECT_EQ(t, insn.map, INSN_MAP_0F3A);
	/* pcmpistri $0,(%esp),%xmm0: SIB and Ib */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0x0f, 0x3a, 0x63, 0x04, 0x24, 0x00), 7);
	/* crc32l %ecx,%eax (F2 0F 38 F1) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf2, 0x0f, 0x38, 0xf1, 0xc1), 5);
	/* x87: fld %st(0); fstsw %ax is 9B DF E0 as one instruction */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xd9, 0xc0), 2);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xdd, 0x05, 0, 0, 0, 0), 6);	/* fldl addr */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x9b, 0xdf, 0xe0), 3);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x9b, 0x90), 1);	/* a lone fwait */
	/* VEX vzeroupper and vaddps: decoded for their length */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xc5, 0xf8, 0x77), 3);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xc5, 0xc8, 0x58, 0xc0), 4);
	KTEST_EXPECT_EQ(t, insn.map, INSN_MAP_VEX);
	/* ... while C4 with a memory ModRM is still les */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xc4, 0x00), 2);
	KTEST_EXPECT_EQ(t, insn.map, INSN_MAP_ONEBYTE);
}

static void undefined_opcodes(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xd6), -EILSEQ);		/* salc */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x04), -EILSEQ);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8d, 0xc0), -EILSEQ);		/* lea with a register */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xfe, 0xd0), -EILSEQ);		/* Grp4 /2 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0xf8), -EILSEQ);		/* Grp5 /7 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0xd8), -EILSEQ);		/* lcall needs memory */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x38, 0xff, 0xc0), -EILSEQ);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xd9, 0xd1), -EILSEQ);		/* x87 hole */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xf3, 0x0f, 0x60, 0xc0), -EILSEQ); /* MMX with F3 */
	/* ud2 is *defined* (it is the defined way to raise #UD) */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x0b), 2);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_UD);
}

static void truncated_input(struct ktest *t)
{
	struct insn insn;
	static const uint8_t call[] = { 0xe8, 0x00, 0x00, 0x00, 0x00 };

	KTEST_EXPECT_EQ(t, insn_decode(&insn, call, 5), 5);
	KTEST_EXPECT_EQ(t, insn_decode(&insn, call, 4), -EILSEQ);
	KTEST_EXPECT_EQ(t, insn_decode(&insn, call, 0), -EILSEQ);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66), -EILSEQ);	/* a prefix alone */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f), -EILSEQ);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8b, 0x04), -EILSEQ);	/* SIB missing */
}

/*
 * Random bytes with max_len exactly the buffer size: the decoder must
 * never claim more than it was allowed to read (ASan catches a read past
 * the heap buffer) and never more than 15 bytes.
 */
static void never_reads_past_max_len(struct ktest *t)
{
	uint32_t seed = 12345;
	int i, n, len, bad = 0;

	for (i = 0; i < 20000; i++) {
		uint8_t *buf;
		int j;

		n = 1 + i % 16;
		buf = malloc(n);
		for (j = 0; j < n; j++) {
			seed = seed * 1103515245 + 12345;
			buf[j] = seed >> 16;
		}
		{
			struct insn insn;

			len = insn_decode(&insn, buf, n);
		}
		if (len != -EILSEQ && (len < 1 || len > n))
			bad++;
		free(buf);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
}

/* ---- classification -------------------------------------------------------- */

static void relative_branches(struct ktest *t)
{
	struct insn insn;

	/* call .+5: rel32 at offset 1 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xe8, 0x00, 0x00, 0x00, 0x00), 5);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_CALL_REL);
	KTEST_EXPECT_TRUE(t, insn_is_rel_branch(&insn));
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_PUSHES_RET);
	KTEST_EXPECT_EQ(t, insn.imm.offset, 1);
	KTEST_EXPECT_EQ(t, insn.imm.nbytes, 4);
	/* jmp . (eb fe): rel8 = -2, the target is the jmp itself */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xeb, 0xfe), 2);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_JMP_REL);
	KTEST_EXPECT_EQ(t, insn.imm.value, -2);
	KTEST_EXPECT_EQ(t, insn_rel_target(&insn, 0x100000), 0x100000);
	/* je rel32 (0F 84): displacement at offset 2 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x0f, 0x84, 0x10, 0x00, 0x00, 0x00), 6);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_JCC);
	KTEST_EXPECT_EQ(t, insn.imm.offset, 2);
	KTEST_EXPECT_EQ(t, insn_rel_target(&insn, 0x1000), 0x1016);
	/* callw rel16 under 66: displacement at offset 2, two bytes, IP wraps */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x66, 0xe8, 0x00, 0x80), 4);
	KTEST_EXPECT_EQ(t, insn.imm.offset, 2);
	KTEST_EXPECT_EQ(t, insn.imm.nbytes, 2);
	KTEST_EXPECT_EQ(t, insn_rel_target(&insn, 0x1000), (0x1004 - 0x8000) & 0xffff);
	/* je,pn (2E 74): the hint prefix shifts the rel8 and forbids boosting */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x2e, 0x74, 0x05), 3);
	KTEST_EXPECT_EQ(t, insn.imm.offset, 2);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	/* jecxz and loop */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xe3, 0x02), 2);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_LOOP);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xe2, 0xfe), 2);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_LOOP);
	/* jmp rel32 */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xe9, 0xfb, 0xff, 0xff, 0xff), 5);
	KTEST_EXPECT_EQ(t, insn_rel_target(&insn, 0x2000), 0x2000);
	/* a plain mov is no branch */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x89, 0xe5), 2);
	KTEST_EXPECT_FALSE(t, insn_is_rel_branch(&insn));
	KTEST_EXPECT_EQ(t, insn.attr, 0);
}

/* What a step out of line leaves wrong, class by class (kprobes and uprobes alike). */
static void sstep_fixups_by_class(struct ktest *t)
{
	struct insn insn;

	DECODE(&insn, 0xe8, 0x00, 0x00, 0x00, 0x00);		/* call rel32 */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP | INSN_FIX_CALL);
	DECODE(&insn, 0x66, 0xe8, 0x00, 0x80);			/* callw rel16 */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP | INSN_FIX_CALL | INSN_FIX_16);
	DECODE(&insn, 0xff, 0xd0);				/* call *%eax */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_CALL);
	DECODE(&insn, 0x0f, 0x84, 0x10, 0x00, 0x00, 0x00);	/* je rel32 */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP);
	DECODE(&insn, 0x66, 0xeb, 0xfe);			/* jmpw rel8 */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP | INSN_FIX_16);
	DECODE(&insn, 0xe2, 0xfe);				/* loop */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP);
	DECODE(&insn, 0xff, 0xe0);				/* jmp *%eax */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), 0);
	DECODE(&insn, 0xc3);					/* ret */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), 0);
	DECODE(&insn, 0xcb);					/* lret */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), 0);
	DECODE(&insn, 0xcf);					/* iret */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_SETF);
	DECODE(&insn, 0x9c);					/* pushf */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP | INSN_FIX_PUSHF);
	DECODE(&insn, 0x9d);					/* popf */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP | INSN_FIX_SETF);
	DECODE(&insn, 0x66, 0x89, 0xe5);			/* movw: 66, but ip is not cut */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP);
	DECODE(&insn, 0xf3, 0xa4);				/* rep movsb */
	KTEST_EXPECT_EQ(t, insn_sstep_fixups(&insn), INSN_FIX_IP);
	/* the fixed ip: the same distance, modulo 64K for a taken 16-bit branch */
	KTEST_EXPECT_EQ(t, insn_sstep_fixed_ip(INSN_FIX_IP, 0x5003, 0x5003, 0x1000), 0x6003);
	KTEST_EXPECT_EQ(t, insn_sstep_fixed_ip(INSN_FIX_IP | INSN_FIX_16, 0x5003, 0x5003, 0x100000),
			0x105003);				/* not taken: not cut */
	KTEST_EXPECT_EQ(t, insn_sstep_fixed_ip(INSN_FIX_IP | INSN_FIX_16, 0x5001, 0x5003, 0x100000),
			0x5001);				/* taken: cut */
}

static void indirect_and_far_branches(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0xd0), 2);		/* call *%eax */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_CALL_IND);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_ABS_IP);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_PUSHES_RET);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0x20), 2);		/* jmp *(%eax) */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_JMP_IND);
	KTEST_EXPECT_FALSE(t, insn.attr & INSN_ATTR_NO_BOOST);	/* Linux boosts it */
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0x18), 2);		/* lcall *(%eax) */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_CALL_FAR);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_INDIRECT);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0x2d, 0, 0, 0, 0), 6);	/* ljmp *addr */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_JMP_FAR);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xff, 0x30), 2);		/* push (%eax) */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_OTHER);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xc3), 1);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_RET);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_ABS_IP);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xcb), 1);
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_LRET);
}

static void flags_and_traps(struct ktest *t)
{
	struct insn insn;

	DECODE(&insn, 0x9c);						/* pushf */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_PUSHF);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_PUSHES_FLAGS);
	DECODE(&insn, 0x9d);						/* popf */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_POPF);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_MODIFIES_IF);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_LOADS_FLAGS);
	DECODE(&insn, 0xfa);						/* cli */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_CLI);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_MODIFIES_IF);
	DECODE(&insn, 0xfb);						/* sti */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_STI);
	DECODE(&insn, 0xcf);						/* iret */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_IRET);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_SSTEP);
	DECODE(&insn, 0xcc);						/* int3 */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_INT3);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_SSTEP);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0xcd, 0x80), 2);		/* int $0x80 */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_INT);
	DECODE(&insn, 0xce);						/* into */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_INTO);
	DECODE(&insn, 0xf1);						/* int1 */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_INT1);
	DECODE(&insn, 0xf4);						/* hlt */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_HLT);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_SSTEP);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x62, 0x00), 2);		/* bound %eax,(%eax) */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_BOUND);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
}

static void ss_loads_block_single_step(struct ktest *t)
{
	struct insn insn;

	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8e, 0xd0), 2);		/* mov %eax,%ss */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_MOV_SS);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_SSTEP);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8e, 0x10), 2);		/* mov (%eax),%ss */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_MOV_SS);
	KTEST_EXPECT_EQ(t, DECODE(&insn, 0x8e, 0xd8), 2);		/* mov %eax,%ds: fine */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_OTHER);
	KTEST_EXPECT_FALSE(t, insn.attr & INSN_ATTR_NO_SSTEP);
	DECODE(&insn, 0x17);						/* pop %ss */
	KTEST_EXPECT_EQ(t, insn.type, INSN_TYPE_POP_SS);
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_SSTEP);
}

static void boostable_like_linux(struct ktest *t)
{
	struct insn insn;

	DECODE(&insn, 0x55);						/* push %ebp */
	KTEST_EXPECT_FALSE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0x0f, 0xb6, 0xc0);				/* movzbl: boostable */
	KTEST_EXPECT_FALSE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0x0f, 0xa2);					/* cpuid: not */
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0x67, 0x8b, 0x04);				/* 67 prefix: not */
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0xd9, 0xc0);					/* x87: not */
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0x66, 0x0f, 0x38, 0x00, 0xc1);			/* 3-byte opcode: not */
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0xd1, 0xf0);					/* Grp2 /6 (sal alias) */
	KTEST_EXPECT_TRUE(t, insn.attr & INSN_ATTR_NO_BOOST);
	DECODE(&insn, 0xd1, 0xe0);					/* shl %eax */
	KTEST_EXPECT_FALSE(t, insn.attr & INSN_ATTR_NO_BOOST);
}

/* ---- boundary check ---------------------------------------------------- */

/*
 *  0: 55                push %ebp
 *  1: 89 e5             mov %esp,%ebp
 *  3: 83 ec 10          sub $0x10,%esp
 *  6: e8 00 00 00 00    call 0xb
 *  b: c9                leave
 *  c: c3                ret
 */
static const uint8_t func[] = {
	0x55, 0x89, 0xe5, 0x83, 0xec, 0x10, 0xe8, 0, 0, 0, 0, 0xc9, 0xc3,
};

static void boundary_check(struct ktest *t)
{
	static const int starts[] = { 0, 1, 3, 6, 11, 12 };
	bool is_start[sizeof(func)] = { false };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(starts); i++)
		is_start[starts[i]] = true;
	for (i = 0; i < sizeof(func); i++)
		KTEST_EXPECT_EQ(t, insn_boundary_check(func, func + i, sizeof(func)),
				is_start[i] ? 0 : -EILSEQ);
	/* outside the function */
	KTEST_EXPECT_EQ(t, insn_boundary_check(func, func + sizeof(func), sizeof(func)),
			-EINVAL);
	KTEST_EXPECT_EQ(t, insn_boundary_check(func + 1, func, sizeof(func) - 1), -EINVAL);
}

static void boundary_check_stops_at_bad_bytes(struct ktest *t)
{
	/* d6 is undefined: nothing after it can be vouched for */
	static const uint8_t code[] = { 0x90, 0xd6, 0x90, 0x90 };
	/* the decoder may not read past the function: e8 needs 4 more bytes */
	static const uint8_t cut[] = { 0x90, 0xe8, 0x00, 0x00, 0x00, 0x00 };

	KTEST_EXPECT_EQ(t, insn_boundary_check(code, code + 1, sizeof(code)), 0);
	KTEST_EXPECT_EQ(t, insn_boundary_check(code, code + 2, sizeof(code)), -EILSEQ);
	KTEST_EXPECT_EQ(t, insn_boundary_check(cut, cut + 1, 4), 0);
	KTEST_EXPECT_EQ(t, insn_boundary_check(cut, cut + 3, 4), -EILSEQ);
}

static struct ktest_case cases[] = {
	KTEST_CASE(one_byte_opcodes),
	KTEST_CASE(prefix_combinations),
	KTEST_CASE(operand_size_immediates),
	KTEST_CASE(addressing_32bit),
	KTEST_CASE(addressing_16bit),
	KTEST_CASE(group3_test_immediate),
	KTEST_CASE(enter_far_moffs),
	KTEST_CASE(two_and_three_byte_maps),
	KTEST_CASE(undefined_opcodes),
	KTEST_CASE(truncated_input),
	KTEST_CASE(never_reads_past_max_len),
	KTEST_CASE(relative_branches),
	KTEST_CASE(indirect_and_far_branches),
	KTEST_CASE(sstep_fixups_by_class),
	KTEST_CASE(flags_and_traps),
	KTEST_CASE(ss_loads_block_single_step),
	KTEST_CASE(boostable_like_linux),
	KTEST_CASE(boundary_check),
	KTEST_CASE(boundary_check_stops_at_bad_bytes),
	KTEST_END
};
KTEST_HOST_MAIN(cases)
