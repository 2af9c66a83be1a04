/*
 * asm/sigcontext.h - the registers a signal interrupted, as the kernel
 * saves them on the user stack for the handler (Linux's struct
 * sigcontext_32, arch/x86/include/uapi/asm/sigcontext.h).  The handler
 * may read and change them; sigreturn loads them back - after checking
 * them (arch/i386/signal.c: restore_sigcontext()).
 *
 * The order is the one Linux i386 has always had: the segment
 * registers, then the general ones in pusha's order, then what the
 * trap pushed.  trapno, err and cr2 say which exception sent the
 * signal (0 for a signal that came from kill).
 */
#ifndef ASM_SIGCONTEXT_H
#define ASM_SIGCONTEXT_H

#include <stdint.h>

/*
 * The floating-point registers a signal interrupted (Linux's struct
 * _fpstate_32).  Two images of them, one after the other, for history:
 * first what fnsave stores (the 80387's 108 bytes: the environment, then
 * the eight stack registers of 10 bytes), which is all a 1990 program
 * knows; then, from `magic` on, fxsave's 512 bytes (the Pentium III's:
 * the same x87 registers in 16-byte slots, MXCSR, the eight XMM
 * registers).  sigreturn takes the x87 part from the first image and the
 * SSE part from the second, so an old handler that edits the old image
 * still works (arch/i386/fpu_signal.c).
 */
struct _fpreg {			/* an x87 register as fnsave stores it */
	uint16_t significand[4];
	uint16_t exponent;
};

struct _fpxreg {		/* ... and as fxsave does: padded to 16 bytes */
	uint16_t significand[4];
	uint16_t exponent;
	uint16_t padding[3];
};

struct _xmmreg {
	uint32_t element[4];
};

/*
 * Bytes 464-511 of fxsave's image, which the CPU leaves alone: Linux
 * says there what follows the image (magic1 = FP_XSTATE_MAGIC1 and
 * the sizes), so a program can tell an extended (xsave) frame from
 * this one.
 */
struct _fpx_sw_bytes {
	uint32_t magic1;		/* FP_XSTATE_MAGIC1 */
	uint32_t extended_size;		/* the whole _fpstate_32, and MAGIC2 if xsave */
	uint64_t xfeatures;		/* which state components: x87 and SSE here */
	uint32_t xstate_size;		/* the fxsave/xsave image's bytes */
	uint32_t padding[7];
};

#define FP_XSTATE_MAGIC1	0x46505853U	/* "FPXS" */
#define FP_XSTATE_MAGIC2	0x46505845U	/* "FPXE": after an xsave image only */
#define X86_FXSR_MAGIC		0x0000		/* _fpstate_32.magic: fxsave's image follows */
#define X86_FSAVE_MAGIC		0xffff		/* ... the fnsave image is all there is */
#define XFEATURE_MASK_FPSSE	0x3		/* x87 (bit 0) and SSE (bit 1) */

struct _fpstate_32 {
	/* fnsave's image: the environment ... */
	uint32_t cw;			/* control word (high half 0xffff) */
	uint32_t sw;			/* status word */
	uint32_t tag;			/* two bits per register: valid, zero, special, empty */
	uint32_t ipoff;			/* the last x87 instruction's ip */
	uint32_t cssel;			/* ... its cs, and the opcode in the high half */
	uint32_t dataoff;		/* its memory operand */
	uint32_t datasel;
	struct _fpreg _st[8];		/* ... and st(0)..st(7) */
	uint16_t status;		/* the status word again */
	uint16_t magic;			/* X86_FXSR_MAGIC or X86_FSAVE_MAGIC */

	/* fxsave's image (16-byte aligned): its x87 part is ignored by sigreturn */
	uint32_t _fxsr_env[6];
	uint32_t mxcsr;
	uint32_t reserved;		/* MXCSR_MASK: which MXCSR bits this CPU has */
	struct _fpxreg _fxsr_st[8];
	struct _xmmreg _xmm[8];		/* xmm0..xmm7 */
	uint32_t padding1[44];
	union {
		uint32_t padding2[12];
		struct _fpx_sw_bytes sw_reserved;
	};
};

struct sigcontext {
	unsigned short gs, __gsh;
	unsigned short fs, __fsh;
	unsigned short es, __esh;
	unsigned short ds, __dsh;
	unsigned long di;
	unsigned long si;
	unsigned long bp;
	unsigned long sp;		/* the handler's esp once it returns: ignored */
	unsigned long bx;
	unsigned long dx;
	unsigned long cx;
	unsigned long ax;
	unsigned long trapno;		/* the exception's vector */
	unsigned long err;		/* its error code */
	unsigned long ip;
	unsigned short cs, __csh;
	unsigned long flags;
	unsigned long sp_at_signal;	/* the stack pointer sigreturn restores */
	unsigned short ss, __ssh;
	unsigned long fpstate;		/* its struct _fpstate_32, or 0: none (below) */
	unsigned long oldmask;		/* the first word of the mask to restore */
	unsigned long cr2;		/* a #PF's address */
};

#endif
