/*
 * kprobes_fixups.h - the contract between kprobes_fixups.S (a routine
 * that executes one of every instruction kind kprobes must repair after
 * single-stepping it out of line) and test_kprobes_fixups.c (which runs
 * that routine with and without probes and compares what it recorded).
 *
 * The state is plain words so that the assembly can address it with
 * FX_S()/FX_O() byte offsets and the C side can compare it word by word
 * and name the first word that differs.
 *
 * Included by assembly: only #defines outside the __ASSEMBLER__ block.
 */
#ifndef KPROBES_FIXUPS_H
#define KPROBES_FIXUPS_H

/* Scratch words: inputs and stack bookkeeping, never compared. */
#define FXS_ESP0        0   /* %esp after the prologue: stack depth reference */
#define FXS_FNPTR       1   /* near pointer for "call *mem" */
#define FXS_JMPPTR      2   /* near pointer for "jmp *mem" */
#define FXS_FARCALL     3   /* m16:32 for "lcall *mem": offset, selector */
#define FXS_FARJMP      5   /* m16:32 for "ljmp *mem": offset, selector */
#define FXS_WORDS       8

/* Result words: everything the routine observed, compared exactly. */
#define FXO_ENTRY_FLAGS 0   /* EFLAGS as the routine found them */
#define FXO_EXIT_FLAGS  1   /* EFLAGS just before it returns */
#define FXO_EAX         2   /* general registers at exit ...          */
#define FXO_ECX         3
#define FXO_EDX         4
#define FXO_ESI         5   /* ... %esi/%edi as offsets from the state */
#define FXO_EDI         6
#define FXO_ESP_DELTA   7   /* %esp at exit minus FXS_ESP0: must be 0 */
#define FXO_BAD         8   /* +1 each time a branch went the wrong way */
#define FXO_LOCKED      9   /* target of the lock-prefixed instructions */
#define FXO_SRC         10  /* FX_COPY_LEN bytes for rep movsb to copy */
#define FXO_DST         14  /* ... and where they go */
#define FXO_NTRACE      18  /* entries appended to the trace, unclamped */
#define FXO_TRACE       19  /* the trace: marks and (id, value) records */
#define FX_TRACE_MAX    128 /* a power of two: the index is masked */
#define FXO_WORDS       (FXO_TRACE + FX_TRACE_MAX)

#define FX_COPY_LEN     13  /* odd on purpose: not a multiple of 4 */

/* Byte offsets from the start of struct fixup_state, for the assembly. */
#define FX_S(i)         (4 * (i))
#define FX_O(i)         (4 * (FXS_WORDS + (i)))

/*
 * Record ids in the trace.  A record is two words: the id, then a value.
 * Plain path marks (one word, "this block ran") use small numbers below
 * FX_ID_BASE; their meaning is the comment next to them in the .S file.
 */
#define FX_ID_BASE      0x1000
#define FX_ID_NEAR_RET  0x1001  /* return EIP a near callee found on its stack */
#define FX_ID_FAR_RET   0x1002  /* return EIP a far callee found */
#define FX_ID_FAR_CS    0x1003  /* return CS a far callee found */
#define FX_ID_ESP       0x1004  /* %esp minus FXS_ESP0 at some point */
#define FX_ID_FLAGS     0x1005  /* EFLAGS read with pushf */
#define FX_ID_VALUE     0x1006  /* any other register value */
#define FX_ID_END       0x10ff  /* a mark: the routine reached its end */

/* EFLAGS bits the assembly uses (checked against processor.h in C). */
#define FX_EFLAGS_CF    0x0001
#define FX_EFLAGS_PF    0x0004
#define FX_EFLAGS_AF    0x0010
#define FX_EFLAGS_ZF    0x0040
#define FX_EFLAGS_SF    0x0080
#define FX_EFLAGS_IF    0x0200
#define FX_EFLAGS_DF    0x0400
#define FX_EFLAGS_OF    0x0800
#define FX_EFLAGS_ARITH (FX_EFLAGS_CF | FX_EFLAGS_PF | FX_EFLAGS_AF | \
			 FX_EFLAGS_ZF | FX_EFLAGS_SF | FX_EFLAGS_OF)

#ifndef __ASSEMBLER__
struct fixup_state {
	unsigned long scratch[FXS_WORDS];
	unsigned long out[FXO_WORDS];
};

/* cdecl; preserves %ebx %esi %edi %ebp and EFLAGS (IF included). */
void fixup_routine(struct fixup_state *st);
extern const char fixup_routine_end[];
#endif

#endif
