/*
 * signal.h - signals inside the kernel (Linux's include/linux/signal.h,
 * signal_types.h and sched/signal.h in one): what each process holds -
 * its handlers, its blocked mask, its pending set - and the calls that
 * send, deliver and return from signals (kernel/signal.c, and the x86
 * half, arch/i386/signal.c; docs/signals.md).
 */
#ifndef SIGNAL_H
#define SIGNAL_H

#include <stdbool.h>
#include <asm/signal.h>
#include <asm/ptrace.h>
#include "siginfo.h"

struct task_struct;

/* Signal n is bit n-1 (Linux's sigmask()). */
#define sigmask(sig)	(1ULL << ((sig) - 1))

static inline bool valid_signal(int sig)
{
	return sig > 0 && sig <= _NSIG;
}

static inline bool sigismember(const sigset_t *set, int sig)
{
	return set->sig[(sig - 1) / _NSIG_BPW] >> ((sig - 1) % _NSIG_BPW) & 1;
}

static inline void sigaddset(sigset_t *set, int sig)
{
	set->sig[(sig - 1) / _NSIG_BPW] |= 1UL << ((sig - 1) % _NSIG_BPW);
}

static inline void sigdelset(sigset_t *set, int sig)
{
	set->sig[(sig - 1) / _NSIG_BPW] &= ~(1UL << ((sig - 1) % _NSIG_BPW));
}

/*
 * A pending signal's siginfo, kept as the kernel needs it: one per
 * signal number, for a standard signal sent twice before delivery is
 * delivered once (Linux queues only real-time signals).
 */
struct kernel_siginfo {
	int signo, code;
	int pid, status;		/* kill(), SIGCHLD */
	unsigned long addr;		/* a fault's */
	bool from_trap;			/* sent by an exception (current->signal.trap says which) */
	const char *why;		/* a kernel SIGSEGV's reason, for the report */
};

/* A process's handlers (Linux's sighand_struct: one thread per process here). */
struct sighand_struct {
	struct sigaction action[_NSIG];	/* action[sig - 1] */
};

/* What has been sent and not yet delivered (Linux's struct sigpending). */
struct sigpending {
	sigset_t signal;
	struct kernel_siginfo info[_NSIG];
};

/*
 * The exception that sent the last fault signal, for the handler's
 * sigcontext (trapno, err, cr2): Linux's thread_struct fields.
 */
struct thread_trap_info {
	unsigned long trap_nr, error_code, cr2;
	/*
	 * The last #PF was refused because its area forbids the access
	 * (mm/memory.c's FAULT_ACCESS_ERROR): SEGV_ACCERR even when the page
	 * was not present, as a PROT_NONE page is not (Linux's
	 * bad_area_access_error()).  Set by arch/i386/fault.c.
	 */
	bool pf_access_error;
};

/*
 * Everything a process's signals need, in one member of task_struct
 * (Linux spreads it over signal, sighand, blocked, pending, thread).
 * Zero is a good start: every handler SIG_DFL, nothing blocked or
 * pending.  pgid is the process group (Linux keeps it in signal_struct).
 */
struct task_signal {
	struct sighand_struct sighand;
	sigset_t blocked;
	struct sigpending pending;
	struct thread_trap_info trap;
	int pgid;
	/*
	 * sigsuspend(): the mask to put back once the signal it waited for
	 * has its frame (whose uc_sigmask it is) - Linux's saved_sigmask and
	 * TIF_RESTORE_SIGMASK.
	 */
	sigset_t saved_sigmask;
	bool restore_sigmask;
	/* sigaltstack(): the alternate stack (Linux's sas_ss_sp, sas_ss_size); size 0: none. */
	unsigned long sas_ss_sp;
	unsigned long sas_ss_size;
	/*
	 * This trap is a system call (set by do_int80_syscall_32(), cleared
	 * on the way out): only then is regs->ax a result that may be an
	 * -ERESTART* code.  Linux tells by orig_ax >= 0; here an exception's
	 * orig_ax is its error code.
	 */
	bool in_syscall;
};

/* kernel/signal.c */
int send_sig_info(int sig, struct kernel_siginfo *info, struct task_struct *t);
int kill_pid_info(int sig, struct kernel_siginfo *info, int pid);
int kill_pgrp(int pgid, int sig);
void flush_signal_handlers(struct task_struct *t);
/*
 * A new process's group, set by whichever comes first: the parent right
 * after creating it (so its getpgid(child) is right at once) or the
 * child before its first instruction in ring 3 (so its own getpgrp() is
 * right on another CPU, before the parent got there).  Only the first
 * store counts, so neither undoes a setpgid() made in between.
 */
void set_new_task_pgid(struct task_struct *t, int pgid);	/* exec: caught signals back to SIG_DFL */	/* every process of the group: the tty's Ctrl-C */
/* A fault in ring 3: the signal goes to current and cannot be blocked or ignored away. */
void force_sig_fault_to_task(int sig, int code, unsigned long addr);
void force_sigsegv(int sig, const char *why);	/* a bad signal frame (why) */
bool signal_pending(struct task_struct *t);
void set_current_blocked(sigset_t *set);
/* The handler's frame is built: block what the action says, reset a one-shot. */
void signal_delivered(int sig, struct sigaction *ka);
/* Dequeue the next signal to handle; default actions are taken inside. */
struct ksignal {
	struct sigaction ka;
	struct kernel_siginfo info;
	int sig;
};
bool get_signal(struct ksignal *ksig, struct pt_regs *regs);
void copy_siginfo_to_external(siginfo_t *to, const struct kernel_siginfo *from);
void signal_init_task(struct task_struct *t, struct task_struct *parent);
/* A child ended: SIGCHLD to its parent (ignored by default). */
void do_notify_parent(struct task_struct *t, int status);

/* Is sp on current's alternate signal stack? (Linux's on_sig_stack()) */
bool on_sig_stack(unsigned long sp);
/* The uc_stack.ss_flags for a frame interrupting sp: SS_ONSTACK, SS_DISABLE or 0. */
int sas_ss_flags(unsigned long sp);
/* sigaltstack()'s work, from the kernel's copies; sp is the caller's user stack pointer. */
int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp);
/* The mask a handler's frame saves: sigsuspend()'s saved one, or the blocked mask. */
sigset_t *sigmask_to_save(void);
/* No handler ran after a sigsuspend(): its saved mask comes back now. */
void restore_saved_sigmask(void);

/* Sleep ticks, or until a signal is pending (MAX_SCHEDULE_TIMEOUT: only that); the ticks left. */
#define MAX_SCHEDULE_TIMEOUT	0x7fffffffL
long schedule_timeout_interruptible(long timeout);

/* arch/i386/signal.c: delivery on the way back to ring 3. */
void arch_do_signal_or_restart(struct pt_regs *regs);

/*
 * Narration of deliveries and returns (arch/i386/signal_narrate.c),
 * switched by /sys/kernel/debug/signals/narrate: the frame drawn on the
 * user stack, the registers the handler starts with, what sigreturn
 * checked.  Each call does nothing while the switch is 0.
 */
extern bool signal_narrate_enabled;
void signal_narrate_frame(int sig, const struct sigaction *ka, unsigned long frame,
			  unsigned long size, const struct pt_regs *regs,
			  unsigned long restorer);
void signal_narrate_entry(const struct pt_regs *regs);
void signal_narrate_return(const char *call, unsigned long frame,
			   const struct pt_regs *regs, const char *refused);
int signal_narrate_init(void);

#endif
