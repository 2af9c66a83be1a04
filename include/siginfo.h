/*
 * siginfo.h - what a signal says about itself: Linux's siginfo_t
 * (include/uapi/asm-generic/siginfo.h), 128 bytes, as an SA_SIGINFO
 * handler finds it in its rt frame.  Shared by the kernel and the user
 * programs (user/lib).
 *
 * si_code says who sent the signal: a process (SI_USER, with si_pid),
 * the kernel (SI_KERNEL), or - positive - which fault of the signal's
 * kind (SEGV_MAPERR, FPE_INTDIV, ...), and then si_addr is where.
 */
#ifndef SIGINFO_H
#define SIGINFO_H

#define SI_MAX_SIZE	128
#define SI_PAD_SIZE	((SI_MAX_SIZE / sizeof(int)) - 3)

typedef struct siginfo {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		int _pad[SI_PAD_SIZE];
		struct {		/* kill() */
			int _pid;
			unsigned int _uid;
		} _kill;
		struct {		/* SIGCHLD */
			int _pid;
			unsigned int _uid;
			int _status;	/* the exit code, or the killing signal */
			long _utime;
			long _stime;
		} _sigchld;
		struct {		/* SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGTRAP */
			void *_addr;	/* the faulting address or instruction */
		} _sigfault;
	} _sifields;
} siginfo_t;

#define si_pid		_sifields._kill._pid
#define si_uid		_sifields._kill._uid
#define si_status	_sifields._sigchld._status
#define si_addr		_sifields._sigfault._addr

/* si_code: who sent it */
#define SI_USER		0	/* kill() */
#define SI_KERNEL	0x80	/* the kernel, with no more to say (#GP, int3) */
#define SI_TKILL	-6	/* tkill() or tgkill(): one thread */

/* si_code of SIGILL */
#define ILL_ILLOPC	1	/* illegal opcode */
#define ILL_ILLOPN	2	/* illegal operand: Linux's choice for #UD */
#define ILL_BADSTK	8	/* internal stack error */
/* SIGFPE */
#define FPE_INTDIV	1	/* integer divide by zero (#DE) */
/* SIGSEGV */
#define SEGV_MAPERR	1	/* no page there (#PF with P=0) */
#define SEGV_ACCERR	2	/* a page the access may not use (P=1) */
/* SIGBUS */
#define BUS_ADRALN	1	/* misaligned address (#AC) */
/* SIGTRAP */
#define TRAP_BRKPT	1	/* a breakpoint */
#define TRAP_TRACE	2	/* a single step (EFLAGS.TF) */
#define TRAP_HWBKPT	4	/* a debug register's breakpoint or watchpoint */
/* SIGCHLD */
#define CLD_EXITED	1	/* the child called exit() */
#define CLD_KILLED	2	/* a signal killed it */
#define CLD_DUMPED	3	/* ... with a core-style report */

#endif
