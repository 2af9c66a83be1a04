/*
 * calling.h - assembler helpers for building a struct pt_regs by hand.
 *
 * Three pieces of assembly build the same frame: the trap entry
 * (entry.S), the kretprobe trampoline and the optprobe detour.  They
 * differ in how the top of the frame (ip, cs, flags, orig_ax, segments)
 * comes to be, but the general registers are always pushed in the same
 * order - the reverse of struct pt_regs (include/ptrace.h) - and popped
 * back the same way.  The offsets below must match that struct; the
 * traps suite's frame checks and every probe test would fail otherwise.
 */
#ifndef CALLING_H
#define CALLING_H

#ifdef __ASSEMBLER__

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

#endif /* __ASSEMBLER__ */
#endif
