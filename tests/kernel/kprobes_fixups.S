/*
 * kprobes_fixups.S - one routine that executes every kind of instruction
 * kprobes must repair after single-stepping a copy of it in a slot.
 *
 * When a kprobe fires, the probed instruction runs from the probe's
 * instruction slot, not from where it was linked.  Anything that looks
 * at EIP then sees the slot's address: the EIP after a relative branch
 * or a fall-through, the return address a call pushes.  Anything that
 * looks at EFLAGS sees the TF kprobes set and the IF it cleared.
 * resume_execution() has to undo exactly those effects and nothing else.
 *
 * Every such instruction below carries a global label fx_<what>, so the
 * C test can put a probe on it by address.  The routine writes what it
 * observes (registers, flags seen through pushf, return addresses seen
 * by callees, which way each branch went) into a struct fixup_state
 * (kprobes_fixups.h).  Probed or not, the record must be identical.
 *
 * Rules the routine keeps so that its record is deterministic:
 *   - %ebx holds the state pointer from start to end;
 *   - nothing is read below %esp (a trap frame may overwrite it);
 *   - stack addresses are recorded relative to FXS_ESP0, state
 *     addresses relative to %ebx, never absolute;
 *   - the EFLAGS the caller had (IF included) are restored at the end.
 */
#include <asm/segment.h>
#include "kprobes_fixups.h"
#include <asm/calling.h>

/* A probe target: a global name on the instruction that follows. */
#define LABEL(name)  .globl name; name:

/* Byte offsets of the state fields used below. */
#define ESP0        FX_S(FXS_ESP0)
#define FNPTR       FX_S(FXS_FNPTR)
#define JMPPTR      FX_S(FXS_JMPPTR)
#define FARCALL     FX_S(FXS_FARCALL)
#define FARJMP      FX_S(FXS_FARJMP)
#define BAD         FX_O(FXO_BAD)
#define LOCKED      FX_O(FXO_LOCKED)
#define SRC         FX_O(FXO_SRC)
#define DST         FX_O(FXO_DST)
#define NTRACE      FX_O(FXO_NTRACE)
#define TRACE       FX_O(FXO_TRACE)

/*
 * Append one word to the trace.  Touches no register and no flag, so it
 * may sit between a compare and the branch that tests it.  src is an
 * immediate or %edx.
 */
.macro TRACE_WORD src
	pushfl
	pushl %eax
	movl NTRACE(%ebx), %eax
	andl $(FX_TRACE_MAX - 1), %eax
	movl \src, TRACE(%ebx,%eax,4)
	incl NTRACE(%ebx)
	popl %eax
	popfl
.endm

/* "This block ran." */
.macro MARK id
	TRACE_WORD $\id
.endm

/* "This block saw %edx", tagged with what %edx is. */
.macro RECORD id
	TRACE_WORD $\id
	TRACE_WORD %edx
.endm

/* Record %esp relative to the routine's frame (clobbers %edx, flags). */
.macro RECORD_ESP
	movl %esp, %edx
	subl ESP0(%ebx), %edx
	RECORD FX_ID_ESP
.endm

/* Record the live EFLAGS (clobbers %edx). */
.macro RECORD_FLAGS
	pushfl
	popl %edx
	RECORD FX_ID_FLAGS
.endm

	.text
	.globl fixup_routine
	.type fixup_routine, @function
fixup_routine:
	/*
	 * The call site gcc -pg -mfentry starts a kernel function with,
	 * written by hand as in bench_fentry.S (the suites are built without
	 * -pg): a 5-byte nop after boot, listed in __mcount_loc.  A probe
	 * here rides on ftrace while kprobes.ftrace is on (no exception: the
	 * call into ftrace_regs_caller), else it is an int3 on the nop.
	 */
LABEL(fx_fentry)
	call __fentry__
	.pushsection __mcount_loc, "a"
	.long fx_fentry
	.popsection
LABEL(fx_entry)                 /* an ordinary instruction: no fixup at all */
	pushl %ebp
	movl %esp, %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	pushfl                          /* the caller's EFLAGS, popped at the end */
	movl %eax, %ebx                 /* %ebx = struct fixup_state * throughout */
	movl %esp, ESP0(%ebx)
	/*
	 * The caller's arithmetic flags are whatever its last compare left:
	 * not ours to record.  Clear them (and DF) so every run starts alike.
	 */
	pushfl
	andl $~(FX_EFLAGS_ARITH | FX_EFLAGS_DF), (%esp)
	popfl
	pushfl
	popl FX_O(FXO_ENTRY_FLAGS)(%ebx)

	/* Targets for the indirect transfers, and bytes to copy. */
	movl $fx_near_callee, FNPTR(%ebx)
	movl $fx_jmp_mem_target, JMPPTR(%ebx)
	movl $fx_far_callee, FARCALL(%ebx)
	movl $__KERNEL_CS, FARCALL+4(%ebx)
	movl $fx_ljmp_mem_target, FARJMP(%ebx)
	movl $__KERNEL_CS, FARJMP+4(%ebx)
	movl $0x04030201, SRC(%ebx)
	movl $0x08070605, SRC+4(%ebx)
	movl $0x0c0b0a09, SRC+8(%ebx)
	movl $0x100f0e0d, SRC+12(%ebx)

/* ---- calls: the pushed return address must be the original one ------- */

LABEL(fx_call_rel)              /* E8 rel32 */
	call fx_near_callee
	.globl fx_call_rel_ret
fx_call_rel_ret:
	movl $fx_near_callee, %eax
LABEL(fx_call_reg)              /* FF D0: call *%eax */
	call *%eax
	.globl fx_call_reg_ret
fx_call_reg_ret:
LABEL(fx_call_mem)              /* FF 53 disp8: call *disp(%ebx) */
	call *FNPTR(%ebx)
	.globl fx_call_mem_ret
fx_call_mem_ret:
LABEL(fx_call_abs)              /* FF 15 disp32: call *absolute */
	call *fx_fnptr_static
	.globl fx_call_abs_ret
fx_call_abs_ret:
	pushl $0x11111111               /* two arguments, popped by "ret $8" */
	pushl $0x22222222
	call fx_near_callee_imm
	.globl fx_call_imm_ret
fx_call_imm_ret:
	RECORD_ESP                      /* 0: ret $8 took the arguments */
LABEL(fx_call_getpc)            /* E8 00000000: "where am I?" */
	call 1f
1:	popl %edx
	subl $fx_call_getpc, %edx       /* 5: the call's own length */
	RECORD FX_ID_VALUE

	/* Far calls push CS and then EIP. */
LABEL(fx_lcall)                 /* 9A ptr16:32 */
	lcall $__KERNEL_CS, $fx_far_callee
	.globl fx_lcall_ret
fx_lcall_ret:
LABEL(fx_lcall_mem)             /* FF /3 m16:32 */
	lcall *FARCALL(%ebx)
	.globl fx_lcall_mem_ret
fx_lcall_mem_ret:
	pushl $0x33333333               /* one argument, popped by "lret $4" */
	lcall $__KERNEL_CS, $fx_far_callee_imm
	.globl fx_lcall_imm_ret
fx_lcall_imm_ret:
	RECORD_ESP

/* ---- relative jumps: EIP must land at the original target ------------- */

LABEL(fx_jmp_short)             /* EB rel8 */
	jmp 1f
LABEL(fx_dead_jmp)              /* never runs: probing it must give 0 hits */
	incl BAD(%ebx)
1:	MARK 0x10
LABEL(fx_jmp_near)              /* E9 rel32 */
	{disp32} jmp 1f
	incl BAD(%ebx)
1:	MARK 0x11

	movl $1, %eax
	cmpl $1, %eax                   /* ZF=1 */
LABEL(fx_jcc8_taken)            /* 74 rel8 */
	je 1f
LABEL(fx_dead_jcc8)
	incl BAD(%ebx)
1:	MARK 0x20
	cmpl $2, %eax                   /* ZF=0 */
LABEL(fx_jcc8_not_taken)
	je 1f
	MARK 0x21                       /* fell through, as it must */
1:	MARK 0x22
	cmpl $1, %eax
LABEL(fx_jcc32_taken)           /* 0F 84 rel32 */
	{disp32} je 1f
	incl BAD(%ebx)
1:	MARK 0x23
	cmpl $2, %eax
LABEL(fx_jcc32_not_taken)
	{disp32} je 1f
	MARK 0x24
1:	MARK 0x25
	cmpl $1, %eax
LABEL(fx_jcc_hint)              /* 3E 74 rel8: prefix before a branch */
	.byte 0x3e                      /* "likely taken" hint (a DS override) */
	je 1f
	incl BAD(%ebx)
1:	MARK 0x26

	/* loop: decrement %ecx, branch while it is not zero. */
	movl $2, %ecx
LABEL(fx_loop_taken)            /* E2 rel8, %ecx 2 -> 1: taken */
	loop 1f
	incl BAD(%ebx)
1:	MARK 0x30
LABEL(fx_loop_not_taken)        /* %ecx 1 -> 0: falls through */
	loop 1f
	MARK 0x31
1:	MARK 0x32
	movl $3, %ecx
2:	MARK 0x33                       /* three times */
LABEL(fx_loop_back)             /* a backward (negative) displacement */
	loop 2b

	xorl %ecx, %ecx
LABEL(fx_jecxz_taken)           /* E3 rel8 */
	jecxz 1f
	incl BAD(%ebx)
1:	MARK 0x40
	movl $1, %ecx
LABEL(fx_jecxz_not_taken)
	jecxz 1f
	MARK 0x41
1:	MARK 0x42

/* ---- absolute transfers: EIP is already right, must be left alone ----- */

	movl $fx_jmp_reg_target, %eax
LABEL(fx_jmp_reg)               /* FF E0: jmp *%eax */
	jmp *%eax
	incl BAD(%ebx)
fx_jmp_reg_target:
	MARK 0x50
LABEL(fx_jmp_mem)               /* FF 63 disp8: jmp *disp(%ebx) */
	jmp *JMPPTR(%ebx)
	incl BAD(%ebx)
fx_jmp_mem_target:
	MARK 0x51
LABEL(fx_ljmp)                  /* EA ptr16:32 */
	ljmp $__KERNEL_CS, $1f
	incl BAD(%ebx)
1:	MARK 0x52
LABEL(fx_ljmp_mem)              /* FF /5 m16:32 */
	ljmp *FARJMP(%ebx)
	incl BAD(%ebx)
fx_ljmp_mem_target:
	MARK 0x53
	pushl $__KERNEL_CS              /* lret used as a far jump */
	pushl $1f
LABEL(fx_lret_jmp)              /* CB */
	lret
	incl BAD(%ebx)
1:	MARK 0x54
	pushfl                          /* an iret frame: EFLAGS, CS, EIP */
	pushl $__KERNEL_CS
	pushl $1f
LABEL(fx_iret)                  /* CF: also reloads EFLAGS from memory */
	iret
	incl BAD(%ebx)
1:	MARK 0x55
	RECORD_FLAGS
	RECORD_ESP

/* ---- EFLAGS: pushf must not show TF, popf/cli/sti must keep their IF --- */

	movl $1, %eax
	cmpl $2, %eax                   /* CF=1 SF=1 AF=1 ZF=0 */
LABEL(fx_pushf)                 /* 9C */
	pushfl
	popl %edx
	RECORD FX_ID_FLAGS

	pushfl
	orl $FX_EFLAGS_ARITH, (%esp)    /* every arithmetic flag set */
LABEL(fx_popf)                  /* 9D */
	popfl
	RECORD_FLAGS

	pushfl                          /* the flags to come back to */
	pushfl
	andl $~FX_EFLAGS_IF, (%esp)
LABEL(fx_popf_if_off)           /* popf that clears IF */
	popfl
	RECORD_FLAGS
LABEL(fx_popf_if_restore)       /* popf that may set IF again */
	popfl
	RECORD_FLAGS

	pushfl                          /* the caller's IF, restored below */
LABEL(fx_cli)                   /* FA */
	cli
	RECORD_FLAGS
LABEL(fx_sti)                   /* FB: its one-instruction shadow also holds off TF's #DB */
	sti
	RECORD_FLAGS
	popfl

	/*
	 * DF set while a probe fires: the trap entry must clear it for the
	 * C handlers (they use rep movs/stos) and give it back afterwards.
	 */
LABEL(fx_std)                   /* FD */
	std
	RECORD_FLAGS
LABEL(fx_cld)                   /* FC: probed while DF is still 1 */
	cld
	RECORD_FLAGS

/* ---- refused by design: the C test asserts register_kprobe() says no -- */

	movl %ss, %edx
LABEL(fx_mov_ss)                /* 8E D2: the CPU holds off the #DB after it */
	movl %edx, %ss

/* ---- prefixes and the 0F map: the length must come out right ---------- */

	movl $0, %edx
LABEL(fx_push16)                /* 66 68 iw: pushes two bytes, not four */
	pushw $0x1234
	RECORD_ESP
	movl $0, %edx
	popw %dx
	RECORD FX_ID_VALUE
LABEL(fx_seg_es)                /* 26 8B: es: segment override */
	movl %es:SRC(%ebx), %edx
	RECORD FX_ID_VALUE
	pushl $0x5a5a5a5a
LABEL(fx_seg_ss)                /* 36 8B: ss: override, reads the stack top */
	.byte 0x36                      /* by hand: gas drops an ss: that (%esp) implies */
	movl (%esp), %edx
	addl $STACK_WORD, %esp
	RECORD FX_ID_VALUE

	leal SRC(%ebx), %esi
	leal DST(%ebx), %edi
	movl $FX_COPY_LEN, %ecx
LABEL(fx_rep_movsb)             /* F3 A4: one trap per iteration under TF */
	rep movsb
	movl %ecx, %edx
	RECORD FX_ID_VALUE
	movl $0, %ecx
LABEL(fx_rep_movsl_zero)        /* F3 A5 with %ecx = 0: does nothing */
	rep movsl

	movl $0x12345678, %edx
LABEL(fx_bswap)                 /* 0F C8+r */
	bswap %edx
	RECORD FX_ID_VALUE
LABEL(fx_movzbl)                /* 0F B6: load with a ModRM + disp8 */
	movzbl SRC+1(%ebx), %edx
	RECORD FX_ID_VALUE
	cmpl %eax, %eax
	movl $0, %edx
LABEL(fx_sete)                  /* 0F 94 */
	sete %dl
	RECORD FX_ID_VALUE

	movl $10, LOCKED(%ebx)
LABEL(fx_lock_add)              /* F0 83 /0 ib */
	lock addl $5, LOCKED(%ebx)
	movl $15, %eax
	movl $7, %ecx
LABEL(fx_lock_cmpxchg)          /* F0 0F B1: 15 == 15, so it stores 7 */
	lock cmpxchgl %ecx, LOCKED(%ebx)
	RECORD_FLAGS

/* ---- the end: registers, and the caller's flags back ------------------ */

	MARK FX_ID_END
	movl %eax, FX_O(FXO_EAX)(%ebx)
	movl %ecx, FX_O(FXO_ECX)(%ebx)
	movl %edx, FX_O(FXO_EDX)(%ebx)
	subl %ebx, %esi
	movl %esi, FX_O(FXO_ESI)(%ebx)
	subl %ebx, %edi
	movl %edi, FX_O(FXO_EDI)(%ebx)
	movl %esp, %edx
	subl ESP0(%ebx), %edx
	movl %edx, FX_O(FXO_ESP_DELTA)(%ebx)
	popfl                           /* the caller's flags, IF included */
	pushfl
	popl %edx
	andl $~FX_EFLAGS_ARITH, %edx    /* as at entry: only the system flags */
	movl %edx, FX_O(FXO_EXIT_FLAGS)(%ebx)
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

/* ---- callees, reached only from the calls above ----------------------- */

fx_near_callee:                 /* called 4 times: rel, reg, mem, abs */
	movl (%esp), %edx
	RECORD FX_ID_NEAR_RET
	RECORD_ESP
LABEL(fx_ret)                   /* C3 */
	ret

fx_near_callee_imm:
	movl (%esp), %edx
	RECORD FX_ID_NEAR_RET
LABEL(fx_ret_imm)               /* C2 iw */
	ret $8

fx_far_callee:                  /* called twice: lcall and lcall *mem */
	movl (%esp), %edx
	RECORD FX_ID_FAR_RET
	movzwl 4(%esp), %edx            /* the CS slot's upper half is undefined */
	RECORD FX_ID_FAR_CS
LABEL(fx_lret)                  /* CB */
	lret

fx_far_callee_imm:
	movl (%esp), %edx
	RECORD FX_ID_FAR_RET
LABEL(fx_lret_imm)              /* CA iw */
	lret $4

	.globl fixup_routine_end
fixup_routine_end:
	.size fixup_routine, . - fixup_routine

	.section .rodata
	.balign 4
fx_fnptr_static:
	.long fx_near_callee
