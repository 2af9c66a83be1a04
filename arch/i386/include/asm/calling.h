/*
 * calling.h - assembler helpers for building a struct pt_regs by hand.
 *
 * Three pieces of assembly build the same frame: the trap entry
 * (entry.S), the kretprobe trampoline and the optprobe detour.  They
 * differ in how the top of the frame (ip, cs, flags, orig_ax, segments)
 * comes to be, but the general registers are always pushed in the same
 * order - the reverse of struct pt_regs (arch/i386/include/asm/ptrace.h) - and popped
 * back the same way.  The offsets below must match that struct: Linux
 * generates them from the struct (asm-offsets.c); we write them out so a
 * student can read them, and every C file that includes this header
 * checks each one against offsetof() at compile time, so a field added
 * to struct pt_regs without its offset here breaks the build, not a trap.
 */
#ifndef CALLING_H
#define CALLING_H

/* Byte offsets into struct pt_regs. */
#define PT_BX       0
#define PT_CX       4
#define PT_DX       8
#define PT_SI      12
#define PT_DI      16
#define PT_BP      20
#define PT_AX      24
#define PT_DS      28
#define PT_ES      32
#define PT_FS      36
#define PT_GS      40
#define PT_ORIG_AX 44
#define PT_IP      48
#define PT_CS      52
#define PT_FLAGS   56
#define PT_SP      60   /* in ring 0: the first word of the interrupted stack */

/*
 * %esp adjustments, named for what they step over.  A stack slot is one
 * 32-bit word: a pushed register, argument or return address.
 */
#define STACK_WORD          4
#define PT_SEGS_AND_ORIG_AX (PT_IP - PT_DS)       /* ds, es, fs, gs, orig_ax */
#define PT_ORIG_AX_SIZE     (PT_IP - PT_ORIG_AX)  /* the error-code slot */

#ifdef __ASSEMBLER__

/* ax, bp, di, si, dx, cx, bx: pt_regs from PT_AX down to PT_BX. */
.macro PUSH_GENERAL_REGS
	pushl %eax
	pushl %ebp
	pushl %edi
	pushl %esi
	pushl %edx
	pushl %ecx
	pushl %ebx
.endm

/* The inverse: leaves %esp at PT_DS. */
.macro POP_GENERAL_REGS
	popl %ebx
	popl %ecx
	popl %edx
	popl %esi
	popl %edi
	popl %ebp
	popl %eax
.endm

/*
 * A return trampoline: where a function whose return address was
 * swapped (kretprobe_trampoline, arch_rethook_trampoline) returns to,
 * %esp one word above the slot the address came from.  It builds a
 * frame record over that slot (for unwinders) and a struct pt_regs
 * below it, calls handler(regs, slot) (-mregparm=3: %eax, %edx; slot
 * is the return-address slot's address, rethook's "frame") with
 * interrupts off, which gives back the real return address, writes that into the slot and
 * returns there with the registers as the handler left them.  The slot
 * is written again, not trusted: after ret an interrupt may have used it.
 */
#define RT_PT_SLOT	(PT_SP + STACK_WORD)	/* the word above: the return-address slot */
#define RT_PT_SKIP	(PT_FLAGS - PT_DS)	/* ds, es, fs, gs, orig_ax, ip, cs */

.macro RETURN_TRAMPOLINE name, handler
	.globl \name
	.type \name, @function
\name:
	pushl $\name			/* the slot's word, for unwinders */
	pushl %ebp			/* with it, a frame record */
	pushfl				/* regs->flags */
	cli				/* the handlers run as a probe's: interrupts off */
	pushl %cs			/* regs->cs */
	pushl $\name			/* regs->ip (the C side sets the real one) */
	pushl $0			/* regs->orig_ax */
	pushl %gs
	pushl %fs
	pushl %es
	pushl %ds
	PUSH_GENERAL_REGS		/* %eax(:%edx) is the return value */
	leal PT_SP(%esp), %ebp		/* %ebp -> the frame record */
	movl %esp, %eax			/* handler(regs, slot) */
	leal RT_PT_SLOT(%esp), %edx
	call \handler
	movl %eax, RT_PT_SLOT(%esp)	/* ret below goes to the real caller */
	POP_GENERAL_REGS
	addl $RT_PT_SKIP, %esp		/* segments are unchanged; ip was ours */
	popfl
	leal STACK_WORD(%esp), %esp	/* the frame record's %ebp (already restored) */
	ret				/* pops the real return address */
	.size \name, . - \name
.endm

#else /* C */

#include <stddef.h>
#include <asm/ptrace.h>

#define PT_OFFSET_CHECK(off, field)					\
	_Static_assert((off) == offsetof(struct pt_regs, field),	\
		       #off " must be offsetof(struct pt_regs, " #field ")")

PT_OFFSET_CHECK(PT_BX, bx);
PT_OFFSET_CHECK(PT_CX, cx);
PT_OFFSET_CHECK(PT_DX, dx);
PT_OFFSET_CHECK(PT_SI, si);
PT_OFFSET_CHECK(PT_DI, di);
PT_OFFSET_CHECK(PT_BP, bp);
PT_OFFSET_CHECK(PT_AX, ax);
PT_OFFSET_CHECK(PT_DS, ds);
PT_OFFSET_CHECK(PT_ES, es);
PT_OFFSET_CHECK(PT_FS, fs);
PT_OFFSET_CHECK(PT_GS, gs);
PT_OFFSET_CHECK(PT_ORIG_AX, orig_ax);
PT_OFFSET_CHECK(PT_IP, ip);
PT_OFFSET_CHECK(PT_CS, cs);
PT_OFFSET_CHECK(PT_FLAGS, flags);
PT_OFFSET_CHECK(PT_SP, sp);
_Static_assert(STACK_WORD == sizeof(unsigned long), "a stack slot is one long");

#endif /* __ASSEMBLER__ */
#endif
