/*
 * asm/signal.h - Linux i386's signal numbers, sigaction flags and the
 * structures rt_sigaction() and rt_sigprocmask() take (Linux's
 * arch/x86/include/uapi/asm/signal.h).  Shared by the kernel
 * (kernel/signal.c) and the user programs (user/lib), so both sides of
 * int $0x80 agree on every bit (docs/signals.md).
 */
#ifndef ASM_SIGNAL_H
#define ASM_SIGNAL_H

#define SIGHUP		 1
#define SIGINT		 2	/* the terminal's Ctrl-C */
#define SIGQUIT		 3
#define SIGILL		 4	/* #UD */
#define SIGTRAP		 5	/* #DB, #BP */
#define SIGABRT		 6
#define SIGBUS		 7	/* #NP, #SS, #AC */
#define SIGFPE		 8	/* #DE, #MF, #XF */
#define SIGKILL		 9	/* can be neither caught, blocked nor ignored */
#define SIGUSR1		10
#define SIGSEGV		11	/* #PF, #GP */
#define SIGUSR2		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGSTKFLT	16
#define SIGCHLD		17	/* a child ended: ignored unless caught */
#define SIGCONT		18
#define SIGSTOP		19	/* like SIGKILL, untouchable */
#define SIGTSTP		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGURG		23
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGIO		29
#define SIGPWR		30
#define SIGSYS		31
#define SIGRTMIN	32
#define _NSIG		64	/* signals 1.._NSIG: one bit each in a sigset_t */
#define _NSIG_BPW	32
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)

/* One bit per signal, signal n in bit n-1 (Linux's sigset_t on i386). */
typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

/* sa_flags (Linux's values) */
#define SA_NOCLDSTOP	0x00000001u
#define SA_NOCLDWAIT	0x00000002u
#define SA_SIGINFO	0x00000004u	/* handler(sig, siginfo *, ucontext *): the rt frame */
#define SA_RESTORER	0x04000000u	/* sa_restorer is the handler's return address */
#define SA_ONSTACK	0x08000000u
#define SA_RESTART	0x10000000u
#define SA_NODEFER	0x40000000u	/* the signal is not blocked in its own handler */
#define SA_RESETHAND	0x80000000u	/* one shot: back to SIG_DFL on delivery */

/* sa_handler's two values that are not handlers */
#define SIG_DFL		((__sighandler_t)0)
#define SIG_IGN		((__sighandler_t)1)

/* rt_sigprocmask()'s how */
#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

typedef void (*__sighandler_t)(int);
typedef void (*__sigrestore_t)(void);

/*
 * What rt_sigaction() reads and writes: Linux's struct sigaction as the
 * kernel sees it (its uapi "struct sigaction" with sa_mask last, a
 * sigset_t of _NSIG bits; the caller passes sizeof(sigset_t)).
 */
struct siginfo;
struct sigaction {
	union {
		__sighandler_t sa_handler;
		/* with SA_SIGINFO: handler(sig, siginfo, ucontext) */
		void (*sa_sigaction)(int sig, struct siginfo *info, void *uc);
	};
	unsigned long sa_flags;
	__sigrestore_t sa_restorer;
	sigset_t sa_mask;		/* blocked while the handler runs */
};

/*
 * The old sigaction() call's struct (Linux's struct old_sigaction): a
 * one-word mask, and the fields in another order.
 */
struct old_sigaction {
	__sighandler_t sa_handler;
	unsigned long sa_mask;
	unsigned long sa_flags;
	__sigrestore_t sa_restorer;
};

/* The alternate signal stack, as the ucontext records it (stack_t). */
typedef struct sigaltstack {
	void *ss_sp;
	int ss_flags;
	unsigned long ss_size;
} stack_t;

#define SS_ONSTACK	1	/* running on the alternate stack now */
#define SS_DISABLE	2	/* no alternate stack */
#define MINSIGSTKSZ	2048	/* the smallest one sigaltstack() takes (Linux i386's) */
#define SIGSTKSZ	8192

#endif
