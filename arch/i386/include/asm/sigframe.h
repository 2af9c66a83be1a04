/*
 * asm/sigframe.h - what the kernel builds on the user stack to run a
 * signal handler (Linux's arch/x86/include/asm/sigframe.h, struct
 * sigframe_ia32 and rt_sigframe_ia32).  The stack pointer points at
 * pretcode, so the handler starts as if called by it: "ret" pops
 * pretcode, the restorer, which calls sigreturn (or rt_sigreturn).
 *
 *   sigframe (a plain handler(int sig)):
 *     pretcode  sig  sigcontext  fpstate_unused  extramask  retcode
 *   rt_sigframe (SA_SIGINFO: handler(int sig, siginfo_t *, void *uc)):
 *     pretcode  sig  pinfo  puc  siginfo  ucontext  retcode
 *
 * pinfo and puc point at the frame's own siginfo and ucontext: they
 * are the handler's second and third arguments on the stack.  retcode
 * holds the return trampoline's bytes, Linux's marker for gdb; the
 * handler returns through it only when the program gave no SA_RESTORER
 * and has no vDSO (arch/i386/signal.c).  Shared with the user
 * programs, which read their own frames in tests.
 *
 * The floating-point registers (struct _fpstate_32) lie above the
 * frame, 64-byte aligned, where sc.fpstate points (arch/i386/fpu_signal.c).
 * sigframe still holds an unused _fpstate_32 between sc and extramask,
 * as Linux's sigframe_ia32 does: the state once lived there, and a
 * program that finds extramask at its old offset must keep finding it.
 */
#ifndef ASM_SIGFRAME_H
#define ASM_SIGFRAME_H

#include <asm/signal.h>
#include <asm/sigcontext.h>
#include "siginfo.h"

/* Linux's struct ucontext, i386: uc_sigmask last, for extensibility. */
struct ucontext {
	unsigned long uc_flags;
	struct ucontext *uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	sigset_t uc_sigmask;		/* the mask rt_sigreturn restores */
};

#define SIGFRAME_RETCODE_BYTES	8

struct sigframe {
	unsigned long pretcode;		/* the handler's return address: the restorer */
	int sig;			/* its argument */
	struct sigcontext sc;		/* sc.oldmask: the mask's first word */
	struct _fpstate_32 fpstate_unused;	/* the old place of the FPU state */
	unsigned long extramask[_NSIG_WORDS - 1];	/* ... and the rest */
	unsigned char retcode[SIGFRAME_RETCODE_BYTES];
};

struct rt_sigframe {
	unsigned long pretcode;
	int sig;
	unsigned long pinfo;		/* &info */
	unsigned long puc;		/* &uc */
	siginfo_t info;
	struct ucontext uc;
	unsigned char retcode[SIGFRAME_RETCODE_BYTES];
};

#endif
