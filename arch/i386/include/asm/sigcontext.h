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
	unsigned long fpstate;		/* 0: no FPU state saved (below) */
	unsigned long oldmask;		/* the first word of the mask to restore */
	unsigned long cr2;		/* a #PF's address */
};

#endif
