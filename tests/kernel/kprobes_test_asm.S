/*
 * kprobes_test_asm.S - small routines test_kprobes.c probes, where the
 * exact instructions matter and C would not promise them.
 */
#include <asm/extable.h>
#include "errno.h"


	.text

/*
 * int kpt_int3_fixup(void) - an int3 that is not a probe, with an
 * exception-table entry.  int3 is a trap, so the entry is keyed on the
 * address after it.  Returns 2 when the fixup ran, 1 if the int3 was
 * silently skipped.
 */
	.globl kpt_int3_fixup
	.type kpt_int3_fixup, @function
kpt_int3_fixup:
	int3
1:	movl $1, %eax
	ret
2:	movl $2, %eax
	ret
	_ASM_EXTABLE(1b, 2b)
	.size kpt_int3_fixup, . - kpt_int3_fixup

/* int kpt_mid_insn(void) - a 5-byte mov: kpt_mid_insn+1 is inside it. */
	.globl kpt_mid_insn
	.type kpt_mid_insn, @function
kpt_mid_insn:
	movl $0x12345678, %eax
	ret
	.size kpt_mid_insn, . - kpt_mid_insn

/* kpt_hlt - a hlt, never run: only registration is tried on it. */
	.globl kpt_hlt
	.type kpt_hlt, @function
kpt_hlt:
	hlt
	ret
	.size kpt_hlt, . - kpt_hlt

/*
 * long kpt_read_long(const long *p) - *p, or -EFAULT through the fixup
 * table if the load faults.  kpt_read_long_insn labels the load.
 */
	.globl kpt_read_long
	.type kpt_read_long, @function
kpt_read_long:
	movl %eax, %ecx			/* p */
	.globl kpt_read_long_insn
kpt_read_long_insn:
	movl (%ecx), %eax
	ret
3:	movl $-EFAULT, %eax
	ret
	_ASM_EXTABLE(kpt_read_long_insn, 3b)
	.size kpt_read_long, . - kpt_read_long

/* unsigned long kpt_pushf(void) - EFLAGS as pushf sees them. */
	.globl kpt_pushf
	.type kpt_pushf, @function
kpt_pushf:
	pushfl
	popl %eax
	ret
	.size kpt_pushf, . - kpt_pushf

/* int kpt_ret(void) - returns 5; kpt_ret_insn labels the ret. */
	.globl kpt_ret
	.type kpt_ret, @function
kpt_ret:
	movl $5, %eax
	.globl kpt_ret_insn
kpt_ret_insn:
	ret
	.size kpt_ret, . - kpt_ret

/*
 * unsigned long kpt_long_first(void) - the first instruction is 5 bytes
 * long, so an int3 at the entry makes the text at kpt_long_first+5 look
 * like it is in the middle of something unless the decoder is given the
 * original first byte back.  Returns 0x11223345.
 */
	.globl kpt_long_first
	.type kpt_long_first, @function
kpt_long_first:
	movl $0x11223344, %eax
	.globl kpt_long_first_second
kpt_long_first_second:
	addl $1, %eax
	ret
	.size kpt_long_first, . - kpt_long_first

/* unsigned long kpt_cli_sti(void) - cli; sti; returns EFLAGS after the sti. */
	.globl kpt_cli_sti
	.type kpt_cli_sti, @function
kpt_cli_sti:
	cli
	.globl kpt_sti_insn
kpt_sti_insn:
	sti
	pushfl
	popl %eax
	ret
	.size kpt_cli_sti, . - kpt_cli_sti

/* unsigned long kpt_popf(unsigned long flags) - popf flags; returns EFLAGS after. */
	.globl kpt_popf
	.type kpt_popf, @function
kpt_popf:
	pushl %eax			/* flags */
	.globl kpt_popf_insn
kpt_popf_insn:
	popfl
	pushfl
	popl %eax
	ret
	.size kpt_popf, . - kpt_popf

/*
 * kpt_break_trampoline - what a jprobe handler ends with: an int3 at an
 * address with no probe, to give control back to kprobes' break_handler.
 * Entered by a jmp (regs->ip), never returns by itself.
 */
	.globl kpt_break_trampoline
	.type kpt_break_trampoline, @function
kpt_break_trampoline:
	int3
	ud2
	.size kpt_break_trampoline, . - kpt_break_trampoline
