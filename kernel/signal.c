/*
 * signal.c - signals: sending them, blocking them, and what happens to
 * a process that does not handle one (Linux's kernel/signal.c).  The
 * x86 half - the frame on the user stack, sigreturn - is
 * arch/i386/signal.c; docs/signals.md tells the whole story.
 *
 * A signal is a bit in the target's pending set, plus the siginfo that
 * says who sent it.  It is acted on only on the target's way back to
 * ring 3 (exit_to_user_mode(), below): there the process runs nothing
 * of the kernel's, so it can be diverted to a handler, or ended,
 * cleanly.  An exception taken in ring 3 sends its signal to the
 * process itself (Linux's do_trap() -> force_sig_fault()): a #PF
 * SIGSEGV, a #DE SIGFPE...; "forced", because a fault's signal that
 * is blocked or ignored would send the program straight back into the
 * same fault, so the kernel unblocks it and restores the default first.
 *
 * One lock, siglock, guards every process's pending set, blocked mask
 * and handlers.  Senders find their target under the run-queue lock
 * (for_each_task()), so the order is always rq_lock, then siglock.
 */
#include "kernel.h"
#include "process.h"
#include "signal.h"
#include "sched.h"
#include "mm_types.h"
#include "spinlock.h"
#include "syscalls.h"
#include "uaccess.h"
#include <asm/atomic.h>
#include <asm/traps.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "errno.h"
#include "string.h"
#include "timer.h"
#include "vsprintf.h"
#include "nokprobe.h"
#include "uprobes.h"
#include "wait.h"

static DEFINE_SPINLOCK(siglock);

static const char *const signal_names[_NSIG + 1] = {
	[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT",
	[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
	[SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL",
	[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
	[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
	[SIGSTKFLT] = "SIGSTKFLT", [SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT",
	[SIGSTOP] = "SIGSTOP", [SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN",
	[SIGTTOU] = "SIGTTOU", [SIGURG] = "SIGURG", [SIGXCPU] = "SIGXCPU",
	[SIGXFSZ] = "SIGXFSZ", [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
	[SIGWINCH] = "SIGWINCH", [SIGIO] = "SIGIO", [SIGPWR] = "SIGPWR",
	[SIGSYS] = "SIGSYS",
};

const char *signal_name(int sig)
{
	if (valid_signal(sig) && signal_names[sig])
		return signal_names[sig];
	return valid_signal(sig) ? "SIGRT" : "signal ?";
}

/* Linux's choices (arch/x86/kernel/traps.c): which signal each exception sends. */
int trap_signal(unsigned long vector)
{
	switch (vector) {
	case X86_TRAP_DE:
	case X86_TRAP_MF:
	case X86_TRAP_XF: return SIGFPE;
	case X86_TRAP_DB:
	case X86_TRAP_BP: return SIGTRAP;
	case X86_TRAP_UD: return SIGILL;
	case X86_TRAP_NP:
	case X86_TRAP_SS:
	case X86_TRAP_AC: return SIGBUS;
	default:          return SIGSEGV;	/* #PF, #GP, into, bound, ... */
	}
}

/*
 * Linux's default actions (include/linux/signal.h, SIG_KERNEL_*_MASK):
 * SIGCHLD, SIGURG, SIGWINCH and SIGCONT are ignored; the stop signals
 * stop - this kernel has no job control, so they are ignored too; the
 * "core" signals end the process with a report of its registers (where
 * Linux would dump core); every other one just ends it.
 */
#define SIG_KERNEL_IGNORE_MASK	(sigmask(SIGCHLD) | sigmask(SIGURG) | \
				 sigmask(SIGWINCH) | sigmask(SIGCONT))
#define SIG_KERNEL_STOP_MASK	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | \
				 sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define SIG_KERNEL_COREDUMP_MASK (sigmask(SIGQUIT) | sigmask(SIGILL) | \
				 sigmask(SIGTRAP) | sigmask(SIGABRT) | sigmask(SIGFPE) | \
				 sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGSYS) | \
				 sigmask(SIGXCPU) | sigmask(SIGXFSZ))
/* SIGKILL and SIGSTOP can be neither caught, blocked nor ignored. */
#define SIG_KERNEL_ONLY_MASK	(sigmask(SIGKILL) | sigmask(SIGSTOP))
/* The signals an instruction raises: delivered before any other (Linux's SYNCHRONOUS_MASK). */
#define SYNCHRONOUS_MASK	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | \
				 sigmask(SIGTRAP) | sigmask(SIGFPE) | sigmask(SIGSYS))

static bool sig_in(int sig, unsigned long long mask)
{
	return sig < SIGRTMIN && (sigmask(sig) & mask);
}

static struct sigaction *sig_action(struct task_struct *t, int sig)
{
	return &t->signal.sighand.action[sig - 1];
}

/* Does handler h throw sig away (Linux's sig_handler_ignored())? */
static bool sig_handler_ignored(__sighandler_t h, int sig)
{
	return h == SIG_IGN ||
	       (h == SIG_DFL && sig_in(sig, SIG_KERNEL_IGNORE_MASK | SIG_KERNEL_STOP_MASK));
}

/* Would sig be thrown away on arrival?  Never while blocked: the handler may change first. */
static bool sig_ignored(struct task_struct *t, int sig)
{
	if (sigismember(&t->signal.blocked, sig))
		return false;
	return sig_handler_ignored(sig_action(t, sig)->sa_handler, sig);
}

void set_new_task_pgid(struct task_struct *t, int pgid)
{
	cmpxchg((volatile unsigned long *)&t->signal.pgid, 0, (unsigned long)pgid);
}

/*
 * Linux's flush_signal_handlers(), called by exec: a handler is code of
 * the old program, which is gone, so each caught signal goes back to
 * SIG_DFL.  What is ignored stays ignored and the blocked mask and the
 * pending signals stay too, as POSIX says for execve().
 */
void flush_signal_handlers(struct task_struct *t)
{
	for (int sig = 1; sig <= _NSIG; sig++) {
		struct sigaction *ka = sig_action(t, sig);

		if (ka->sa_handler != SIG_IGN)
			ka->sa_handler = SIG_DFL;
		ka->sa_flags = 0;
		ka->sa_restorer = NULL;
		memset(&ka->sa_mask, 0, sizeof(ka->sa_mask));
	}
	/* The alternate stack was the old program's memory too (execve(2): not preserved). */
	t->signal.sas_ss_sp = 0;
	t->signal.sas_ss_size = 0;
}

/* Under siglock: mark sig pending in t and make a sleeping t notice. */
static void queue_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info,
			 bool replace_info)
{
	struct sigpending *p = &t->signal.pending;

	/* A standard signal pending twice is delivered once: keep the first siginfo. */
	if (replace_info || !sigismember(&p->signal, sig))
		p->info[sig - 1] = *info;
	sigaddset(&p->signal, sig);
	if (sig == SIGKILL)
		t->sigkill_pending = 1;
	/* A sleeping target (nanosleep) wakes at the next tick, and finds it. */
	if (t->state == TASK_SLEEPING && !sigismember(&t->signal.blocked, sig))
		t->wake_at = jiffies;
}

/*
 * Linux's send_signal_locked(), with the run-queue lock held by the
 * caller (the target cannot go away).  A process just spawned may not
 * have run yet, so it has no mm: it is still a process
 * (task_is_process()), and gets the signal on its first way to ring 3.
 */
static int send_signal_locked(int sig, struct kernel_siginfo *info, struct task_struct *t)
{
	unsigned long flags;

	if (t->state == TASK_DEAD)
		return -ESRCH;
	if (!task_is_process(t))
		return -EPERM;	/* a kernel thread has no ring 3 to deliver to */
	if (sig == 0)
		return 0;	/* kill(pid, 0): does it exist? */
	spin_lock_irqsave(&siglock, flags);
	if (!sig_ignored(t, sig))
		queue_signal(t, sig, info, false);
	spin_unlock_irqrestore(&siglock, flags);
	return 0;
}

int send_sig_info(int sig, struct kernel_siginfo *info, struct task_struct *t)
{
	return send_signal_locked(sig, info, t);
}

/* The siginfo of a signal a process (or the kernel, pid 0) sends with kill(). */
static void kill_info(struct kernel_siginfo *info, int sig, int sender)
{
	memset(info, 0, sizeof(*info));
	info->signo = sig;
	info->code = sender ? SI_USER : SI_KERNEL;
	info->pid = sender;
}

enum kill_target { KILL_PID, KILL_PGRP, KILL_ALL_BUT_CALLER };

struct kill_req {
	enum kill_target target;
	int sig, id;		/* a pid, or a process group */
	struct kernel_siginfo *info;
	int ret, sent;
};

static bool kill_matches(const struct kill_req *req, struct task_struct *t)
{
	if (req->target == KILL_PID)
		return t->pid == req->id;
	if (!task_is_process(t) || t->state == TASK_DEAD)
		return false;
	if (req->target == KILL_PGRP)
		return t->signal.pgid == req->id;
	return t != current;
}

static void kill_one(struct task_struct *t, void *arg)
{
	struct kill_req *req = arg;
	int ret;

	if (!kill_matches(req, t))
		return;
	ret = send_signal_locked(req->sig, req->info, t);
	if (!ret)
		req->sent++;
	req->ret = ret;
}

static int kill_walk(struct kill_req *req)
{
	req->ret = -ESRCH;
	for_each_task(kill_one, req);
	return req->sent ? 0 : req->ret;
}

int kill_pid_info(int sig, struct kernel_siginfo *info, int pid)
{
	struct kill_req req = { .target = KILL_PID, .sig = sig, .id = pid, .info = info };

	return kill_walk(&req);
}

/* From the kernel (the shell's kill, a tty's Ctrl-C): SI_KERNEL. */
int kill_pid(int pid, int sig)
{
	struct kernel_siginfo info;

	kill_info(&info, sig, 0);
	return kill_pid_info(sig, &info, pid);
}

int kill_pgrp(int pgid, int sig)
{
	struct kernel_siginfo info;
	struct kill_req req = { .target = KILL_PGRP, .sig = sig, .id = pgid, .info = &info };

	kill_info(&info, sig, 0);
	return pgid > 0 ? kill_walk(&req) : -EINVAL;
}

/*
 * Linux's force_sig_info_to_task(): the fault's signal goes to
 * current even if blocked or ignored - then it is unblocked and its
 * handler reset to SIG_DFL, so the process dies of it rather than
 * looping on the faulting instruction.  A handler stays a handler.
 */
static void force_sig_info(int sig, const struct kernel_siginfo *info)
{
	struct sigaction *ka = sig_action(current, sig);
	unsigned long flags;

	spin_lock_irqsave(&siglock, flags);
	if (ka->sa_handler == SIG_IGN || sigismember(&current->signal.blocked, sig)) {
		ka->sa_handler = SIG_DFL;
		sigdelset(&current->signal.blocked, sig);
	}
	queue_signal(current, sig, info, true);
	spin_unlock_irqrestore(&siglock, flags);
}

void force_sig_fault_to_task(int sig, int code, unsigned long addr)
{
	struct kernel_siginfo info = {
		.signo = sig, .code = code, .addr = addr,
	};

	force_sig_info(sig, &info);
}

/*
 * A SIGSEGV the kernel sends for a bad signal frame (why: "bad frame in
 * sigreturn", ...), Linux's signal_fault() and force_sigsegv(): if the
 * frame was SIGSEGV's own, its handler goes back to SIG_DFL, or the
 * process would loop.
 */
void force_sigsegv(int sig, const char *why)
{
	struct kernel_siginfo info = {
		.signo = SIGSEGV, .code = SI_KERNEL, .why = why,
	};

	if (sig == SIGSEGV)
		sig_action(current, SIGSEGV)->sa_handler = SIG_DFL;
	force_sig_info(SIGSEGV, &info);
}

/*
 * Linux's si_code and si_addr for an exception (arch/x86/kernel/traps.c
 * and fault.c): the faulting instruction for #DE and #UD, CR2 for a #PF
 * (MAPERR when no area was there, ACCERR when one forbids the access),
 * SI_KERNEL with no address for
 * #GP, int3, into, bound and the segment faults.
 */
static int trap_si_code(unsigned long vector, unsigned long error_code)
{
	switch (vector) {
	case X86_TRAP_DE: return FPE_INTDIV;
	case X86_TRAP_UD: return ILL_ILLOPN;
	case X86_TRAP_AC: return BUS_ADRALN;
	case X86_TRAP_DB: return TRAP_TRACE;
	case X86_TRAP_PF: return (error_code & PF_PROT) || current->signal.trap.pf_access_error ?
				 SEGV_ACCERR : SEGV_MAPERR;
	default:          return SI_KERNEL;
	}
}

static unsigned long trap_si_addr(struct pt_regs *regs, unsigned long vector,
				  unsigned long cr2)
{
	switch (vector) {
	case X86_TRAP_PF: return cr2;
	case X86_TRAP_DE:
	case X86_TRAP_UD:
	case X86_TRAP_DB: return regs->ip;
	default:          return 0;
	}
}

/*
 * A ring-3 exception nobody claimed.  The trap's number, error code
 * and CR2 are kept for the handler's sigcontext (Linux's thread.trap_nr,
 * error_code, cr2) - CR2 now, before anything else can fault - and the
 * signal is forced; exit_to_user_mode() acts on it.
 */
void force_sig_fault(struct pt_regs *regs, unsigned long vector)
{
	struct thread_trap_info *trap = &current->signal.trap;
	unsigned long cr2 = vector == X86_TRAP_PF ? read_cr2() : 0;
	struct kernel_siginfo info = { .signo = trap_signal(vector), .from_trap = true };

	uprobe_abort_xol(regs);		/* a fault in a uprobe's step: name the probed insn */
	info.code = trap_si_code(vector, regs->orig_ax);
	info.addr = trap_si_addr(regs, vector, cr2);
	trap->trap_nr = vector;
	trap->error_code = regs->orig_ax;
	trap->cr2 = cr2;
	force_sig_info(info.signo, &info);
}
NOKPROBE_SYMBOL(force_sig_fault);

/* For a page fault: the address, and whether it hit the stack's guard page. */
static void describe_user_fault(const struct thread_trap_info *trap, char *buf, size_t size)
{
	unsigned long addr = trap->cr2;

	if (trap->trap_nr != X86_TRAP_PF) {
		snprintf(buf, size, "error %lx", trap->error_code);
		return;
	}
	snprintf(buf, size, "error %lx at %08lx%s", trap->error_code, addr,
		 in_stack_guard(current->mm, addr) ? " (stack guard page)" :
		 addr < PAGE_SIZE ? " (NULL pointer)" :
		 addr < USER_BASE || addr >= TASK_SIZE ? " (kernel address)" : "");
}

/*
 * One line, "crash_null[7]: SIGSEGV (page fault) in user mode at ip
 * 0804809c sp bfffffd0 error 4 at 00000000", then the registers of the
 * user frame (show_regs(): the process's ESP and SS, which the CPU
 * saved when it left ring 3), as Linux prints them for a fatal signal
 * with print-fatal-signals=1; then the process dies.
 */
static void __noreturn fatal_signal(struct pt_regs *regs, int sig,
				    const char *cause, const char *what)
{
	printk("%s[%d]: %s (%s) in user mode at ip %08lx sp %08lx %s\n",
	       current->comm, current->pid, signal_name(sig), cause,
	       regs->ip, user_stack_pointer(regs), what);
	show_regs(regs);
	do_exit(W_EXITCODE(0, sig));
}

/*
 * The default action "terminate": a core signal is reported with the
 * registers (a fault's with its cause, as above), any other in one
 * line, "spin[9]: SIGINT".
 */
static void __noreturn do_default_exit(struct pt_regs *regs, const struct ksignal *ksig)
{
	const struct thread_trap_info *trap = &current->signal.trap;
	char what[64];
	int sig = ksig->sig;

	if (!sig_in(sig, SIG_KERNEL_COREDUMP_MASK)) {
		printk("%s[%d]: %s\n", current->comm, current->pid, signal_name(sig));
		do_exit(W_EXITCODE(0, sig));
	}
	if (!ksig->info.from_trap) {
		snprintf(what, sizeof(what), "sent by pid %d", ksig->info.pid);
		fatal_signal(regs, sig, ksig->info.why ? ksig->info.why : "kill", what);
	}
	describe_user_fault(trap, what, sizeof(what));
	fatal_signal(regs, sig, trap_name(trap->trap_nr), what);
}

/*
 * A process that got into virtual-8086 mode.  A CPU enters vm86 from
 * ring 3 never (iret at CPL > 0 leaves EFLAGS.VM alone), but QEMU's
 * emulated CPU does; this kernel has no vm86 support (Linux's
 * CONFIG_VM86=n) and nothing the process could want there, so any trap
 * from vm86 code ends it: SIGSEGV, before any iret could go back to
 * that frame - no handler runs, for its frame would be a vm86 one.
 */
void force_sig_vm86(struct pt_regs *regs)
{
	char what[32];

	snprintf(what, sizeof(what), "cs %04x: no vm86 support", regs->cs);
	fatal_signal(regs, SIGSEGV, "virtual-8086 mode", what);
}
NOKPROBE_SYMBOL(force_sig_vm86);

/* Pending and not blocked: what would interrupt a sleep, or be delivered now. */
static int next_signal(struct task_struct *t)
{
	const sigset_t *p = &t->signal.pending.signal, *b = &t->signal.blocked;
	unsigned long long ready = ((unsigned long long)(p->sig[1] & ~b->sig[1]) << _NSIG_BPW) |
				   (p->sig[0] & ~b->sig[0]);

	if (sigismember(p, SIGKILL))
		return SIGKILL;
	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	if (!ready)
		return 0;
	/* The lowest first; two 32-bit halves: the kernel links no libgcc. */
	return (unsigned long)ready ? __builtin_ctzl((unsigned long)ready) + 1 :
				      __builtin_ctzl((unsigned long)(ready >> _NSIG_BPW)) + 1 + _NSIG_BPW;
}

bool signal_pending(struct task_struct *t)
{
	return next_signal(t) != 0;
}

/* Take the next deliverable signal off current's pending set: 0 if none. */
static int dequeue_signal(struct ksignal *ksig)
{
	unsigned long flags;
	int sig;

	spin_lock_irqsave(&siglock, flags);
	sig = next_signal(current);
	if (sig) {
		sigdelset(&current->signal.pending.signal, sig);
		ksig->info = current->signal.pending.info[sig - 1];
		ksig->ka = *sig_action(current, sig);
		ksig->sig = sig;
	}
	spin_unlock_irqrestore(&siglock, flags);
	return sig;
}

/*
 * Linux's get_signal(): the next signal with a handler, or false.  The
 * default actions are taken here: ignore (the loop goes on) or end the
 * process.  While a uprobe steps an instruction out of line, nothing is
 * delivered (uprobe_deny_signal()): the step finishes first, and the
 * #DB that ends it comes back here.
 */
bool get_signal(struct ksignal *ksig, struct pt_regs *regs)
{
	for (;;) {
		if (uprobe_deny_signal())
			return false;
		if (!dequeue_signal(ksig))
			return false;
		if (ksig->ka.sa_handler == SIG_IGN && ksig->sig != SIGKILL)
			continue;
		if (ksig->ka.sa_handler != SIG_DFL && ksig->sig != SIGKILL)
			return true;
		if (sig_in(ksig->sig, SIG_KERNEL_IGNORE_MASK | SIG_KERNEL_STOP_MASK))
			continue;	/* no job control: a stop signal does nothing */
		do_default_exit(regs, ksig);
	}
}

/* SIGKILL and SIGSTOP are never blocked (Linux's set_current_blocked()). */
void set_current_blocked(sigset_t *set)
{
	unsigned long flags;

	sigdelset(set, SIGKILL);
	sigdelset(set, SIGSTOP);
	spin_lock_irqsave(&siglock, flags);
	current->signal.blocked = *set;
	spin_unlock_irqrestore(&siglock, flags);
}

/*
 * Linux's signal_delivered(): the handler runs with its sa_mask
 * blocked, and the signal itself unless SA_NODEFER; SA_RESETHAND makes
 * it one shot.
 */
void signal_delivered(int sig, struct sigaction *ka)
{
	sigset_t blocked = current->signal.blocked;
	int i;

	for (i = 0; i < _NSIG_WORDS; i++)
		blocked.sig[i] |= ka->sa_mask.sig[i];
	if (!(ka->sa_flags & SA_NODEFER))
		sigaddset(&blocked, sig);
	set_current_blocked(&blocked);
	if (ka->sa_flags & SA_RESETHAND) {
		sig_action(current, sig)->sa_handler = SIG_DFL;
		sig_action(current, sig)->sa_flags &= ~SA_SIGINFO;
	}
}

/* The 128-byte siginfo_t a handler reads, from what the kernel kept. */
void copy_siginfo_to_external(siginfo_t *to, const struct kernel_siginfo *from)
{
	memset(to, 0, sizeof(*to));
	to->si_signo = from->signo;
	to->si_code = from->code;
	if (from->signo == SIGCHLD) {
		to->si_pid = from->pid;
		to->si_status = from->status;
	} else if (from->code > 0 && from->code != SI_KERNEL) {
		to->si_addr = (void *)from->addr;
	} else {
		to->si_pid = from->pid;
	}
}

/* Under the run-queue lock: the exiting process's parent, if it is a process. */
static void notify_one(struct task_struct *t, void *arg)
{
	struct kernel_siginfo *info = arg;

	if (t == current->parent)
		send_signal_locked(info->signo, info, t);
}

/*
 * A child ended (Linux's do_notify_parent()): its exit signal (SIGCHLD
 * unless clone() asked another) with its pid and how it ended.  Ignored by default, as Linux's; a kernel parent (the
 * shell) is not a process and is told by its wait instead.
 */
void do_notify_parent(struct task_struct *t, int status)
{
	struct kernel_siginfo info = {
		.signo = t->exit_signal, .pid = t->pid,
		.code = WIFSIGNALED(status) ? CLD_KILLED : CLD_EXITED,
		.status = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
	};

	if (valid_signal(t->exit_signal))	/* 0, or one past _NSIG: no signal, as Linux's */
		for_each_task(notify_one, &info);
}

/*
 * Linux's exit_to_user_mode(): the last look before iret to ring 3.  A
 * process runs nothing of the kernel's here - no lock, no half-done
 * work - so this is where a signal can divert it to a handler, or end
 * it, cleanly; and where a frame from vm86 mode, whatever trap brought
 * it (an interrupt, an exception a notifier claimed), ends its process.
 */
void exit_to_user_mode(struct pt_regs *regs)
{
	if (v8086_mode(regs))
		force_sig_vm86(regs);	/* never iret back into vm86 */
	uprobe_notify_resume(regs);	/* a uprobe's hit or step, left by #BP/#DB */
	arch_do_signal_or_restart(regs);
}

/* ---- the system calls --------------------------------------------------- */

/* Linux's do_sigaction(): SIGKILL and SIGSTOP keep their default. */
static int do_sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	unsigned long flags;

	if (!valid_signal(sig) || (act && sig_in(sig, SIG_KERNEL_ONLY_MASK)))
		return -EINVAL;
	spin_lock_irqsave(&siglock, flags);
	if (oact)
		*oact = *sig_action(current, sig);
	if (act) {
		*sig_action(current, sig) = *act;
		sigdelset(&sig_action(current, sig)->sa_mask, SIGKILL);
		sigdelset(&sig_action(current, sig)->sa_mask, SIGSTOP);
		/* Set to be ignored: a pending one goes (POSIX 3.3.1.3). */
		if (sig_handler_ignored(act->sa_handler, sig))
			sigdelset(&current->signal.pending.signal, sig);
	}
	spin_unlock_irqrestore(&siglock, flags);
	return 0;
}

asmlinkage long sys_rt_sigaction(int sig, const struct sigaction __user *act,
				 struct sigaction __user *oact, size_t sigsetsize)
{
	struct sigaction new, old;
	int ret;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	ret = do_sigaction(sig, act ? &new : NULL, oact ? &old : NULL);
	if (!ret && oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return ret;
}

/* The old call: a one-word mask (signals 1-32), in struct old_sigaction's order. */
asmlinkage long sys_sigaction(int sig, const struct old_sigaction __user *act,
			      struct old_sigaction __user *oact)
{
	struct sigaction new = { 0 }, old;
	struct old_sigaction o;
	int ret;

	if (act) {
		if (copy_from_user(&o, act, sizeof(o)))
			return -EFAULT;
		new.sa_handler = o.sa_handler;
		new.sa_flags = o.sa_flags;
		new.sa_restorer = o.sa_restorer;
		new.sa_mask.sig[0] = o.sa_mask;
	}
	ret = do_sigaction(sig, act ? &new : NULL, oact ? &old : NULL);
	if (ret || !oact)
		return ret;
	o = (struct old_sigaction){ old.sa_handler, old.sa_mask.sig[0], old.sa_flags,
				    old.sa_restorer };
	return copy_to_user(oact, &o, sizeof(o)) ? -EFAULT : 0;
}

asmlinkage long sys_rt_sigprocmask(int how, const sigset_t __user *nset,
				   sigset_t __user *oset, size_t sigsetsize)
{
	sigset_t old = current->signal.blocked, set, mask;
	int i;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (nset) {
		if (copy_from_user(&mask, nset, sizeof(mask)))
			return -EFAULT;
		if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
			return -EINVAL;
		for (i = 0; i < _NSIG_WORDS; i++)
			set.sig[i] = how == SIG_BLOCK ? old.sig[i] | mask.sig[i] :
				     how == SIG_UNBLOCK ? old.sig[i] & ~mask.sig[i] :
				     mask.sig[i];
		set_current_blocked(&set);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

asmlinkage long sys_rt_sigpending(sigset_t __user *uset, size_t sigsetsize)
{
	sigset_t set = current->signal.pending.signal;
	int i;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	for (i = 0; i < _NSIG_WORDS; i++)
		set.sig[i] &= current->signal.blocked.sig[i];
	return copy_to_user(uset, &set, sizeof(set)) ? -EFAULT : 0;
}

/*
 * kill(pid, sig), as Linux's: pid > 0 that process; 0 the caller's
 * process group; -1 every process but the caller; < -1 the group -pid.
 * sig 0 only checks that the target exists.
 */
asmlinkage long sys_kill(int pid, int sig)
{
	struct kernel_siginfo info;
	struct kill_req req = { .sig = sig, .info = &info };

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	kill_info(&info, sig, current->pid);
	if (pid > 0) {
		req.target = KILL_PID;
		req.id = pid;
	} else if (pid == -1) {
		req.target = KILL_ALL_BUT_CALLER;
	} else {
		req.target = KILL_PGRP;
		req.id = pid ? -pid : current->signal.pgid;
		if (req.id <= 0)
			return -ESRCH;
	}
	return kill_walk(&req);
}

/* ---- waiting for a signal, and slow calls it interrupts -------------------- */

sigset_t *sigmask_to_save(void)
{
	if (current->signal.restore_sigmask)
		return &current->signal.saved_sigmask;
	return &current->signal.blocked;
}

/*
 * A handler's frame saved sigsuspend()'s mask (sigmask_to_save()), so
 * sigreturn brings it back; no handler ran (an ignored or a stopped
 * signal): put it back here.  Either way, once.
 */
void restore_saved_sigmask(void)
{
	if (!current->signal.restore_sigmask)
		return;
	current->signal.restore_sigmask = false;
	set_current_blocked(&current->signal.saved_sigmask);
}

/*
 * Linux's schedule_timeout_interruptible(): sleep `timeout` ticks
 * (MAX_SCHEDULE_TIMEOUT: until a signal) or until a signal that is not
 * blocked is pending; the ticks left.  Asleep before the last look, so
 * a signal sent in between finds it asleep and wakes it (queue_signal()).
 */
long schedule_timeout_interruptible(long timeout)
{
	unsigned long deadline = jiffies + timeout;
	bool forever = timeout == MAX_SCHEDULE_TIMEOUT;

	while (!signal_pending(current) && (forever || time_before(jiffies, deadline))) {
		prepare_to_wait_killable();
		if (!forever)
			current->wake_at = deadline;
		if (signal_pending(current)) {
			set_current_state(TASK_RUNNABLE);
			break;
		}
		schedule();
	}
	if (forever)
		return MAX_SCHEDULE_TIMEOUT;
	return time_before(jiffies, deadline) ? (long)(deadline - jiffies) : 0;
}

/*
 * pause(): sleep until a signal is delivered.  -ERESTARTNOHAND: -EINTR
 * once a handler has run; after a signal with no handler (one that
 * ended nothing, as a stop signal here) it sleeps again.
 */
asmlinkage long sys_pause(void)
{
	schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	return -ERESTARTNOHAND;
}

/*
 * Linux's sigsuspend(): wait with mask as the blocked set, atomically -
 * a signal the mask lets through that is already pending ends it at
 * once, none is lost between an unblock and a pause.  The old mask is
 * the handler's frame's (uc_sigmask), so sigreturn puts it back.
 */
static long sigsuspend(sigset_t *mask)
{
	current->signal.saved_sigmask = current->signal.blocked;
	set_current_blocked(mask);
	schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	current->signal.restore_sigmask = true;
	return -ERESTARTNOHAND;
}

asmlinkage long sys_rt_sigsuspend(const sigset_t __user *unewset, size_t sigsetsize)
{
	sigset_t mask;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, unewset, sizeof(mask)))
		return -EFAULT;
	return sigsuspend(&mask);
}

/* The old call (Linux i386's three arguments, OLD_SIGSUSPEND3): a one-word mask, the third. */
asmlinkage long sys_sigsuspend(int unused1, int unused2, unsigned long mask)
{
	sigset_t set = { { mask, 0 } };

	return sigsuspend(&set);
}

/* Dequeue the lowest pending signal of *set, blocked or not: 0 if none. */
static int dequeue_signal_of(const sigset_t *set, struct kernel_siginfo *info)
{
	sigset_t *p = &current->signal.pending.signal;
	unsigned long flags;
	int sig, found = 0;

	spin_lock_irqsave(&siglock, flags);
	for (sig = 1; sig <= _NSIG && !found; sig++)
		if (sigismember(set, sig) && sigismember(p, sig))
			found = sig;
	if (found) {
		sigdelset(p, found);
		*info = current->signal.pending.info[found - 1];
	}
	spin_unlock_irqrestore(&siglock, flags);
	return found;
}

#define SIGWAIT_NSEC_PER_SEC	1000000000L
#define SIGWAIT_NSEC_PER_TICK	(SIGWAIT_NSEC_PER_SEC / HZ)
#define MAX_SIGWAIT_SEC		3600L	/* longer waits are cut to an hour, as nanosleep's */

/* A timeout in ticks, rounded up; 0 ticks for a zero timespec ("only look"). */
static int timespec_to_ticks(const struct timespec *ts, unsigned long *ticks)
{
	long sec = ts->tv_sec;

	if (sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= SIGWAIT_NSEC_PER_SEC)
		return -EINVAL;
	if (sec > MAX_SIGWAIT_SEC)
		sec = MAX_SIGWAIT_SEC;
	*ticks = sec * HZ + (ts->tv_nsec + SIGWAIT_NSEC_PER_TICK - 1) / SIGWAIT_NSEC_PER_TICK;
	return 0;
}

/*
 * Linux's do_sigtimedwait(): take one signal of `these` - normally
 * blocked, so no handler would run - off the pending set, without a
 * handler.  While it waits, those signals are unblocked (Linux's
 * real_blocked), so their arrival wakes it; it dequeues before any
 * return to ring 3 could deliver one.  -EAGAIN at the timeout, -EINTR
 * for another signal.
 */
static int do_sigtimedwait(const sigset_t *which, struct kernel_siginfo *info,
			   unsigned long ticks, bool forever)
{
	sigset_t these = *which, saved = current->signal.blocked, waiting = saved;
	int sig, i;

	sigdelset(&these, SIGKILL);
	sigdelset(&these, SIGSTOP);
	sig = dequeue_signal_of(&these, info);
	if (sig || (!forever && !ticks))
		return sig ? sig : -EAGAIN;
	for (i = 0; i < _NSIG_WORDS; i++)
		waiting.sig[i] &= ~these.sig[i];
	set_current_blocked(&waiting);
	schedule_timeout_interruptible(forever ? MAX_SCHEDULE_TIMEOUT : (long)ticks);
	set_current_blocked(&saved);
	sig = dequeue_signal_of(&these, info);
	if (sig)
		return sig;
	return signal_pending(current) ? -EINTR : -EAGAIN;
}

asmlinkage long sys_rt_sigtimedwait(const sigset_t __user *uthese, struct siginfo __user *uinfo,
				    const struct timespec __user *uts, size_t sigsetsize)
{
	struct kernel_siginfo info;
	struct timespec ts;
	unsigned long ticks = 0;
	sigset_t these;
	siginfo_t out;
	long ret;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		ret = timespec_to_ticks(&ts, &ticks);
		if (ret)
			return ret;
	}
	ret = do_sigtimedwait(&these, &info, ticks, !uts);
	if (ret > 0 && uinfo) {
		copy_siginfo_to_external(&out, &info);
		if (copy_to_user(uinfo, &out, sizeof(out)))
			return -EFAULT;
	}
	return ret;
}

/* ---- tkill, tgkill ---------------------------------------------------------- */

/*
 * Linux's do_send_specific(): one thread, by its tid.  A process here
 * is one thread whose tid is its pid (its tgid too), so tgkill(tgid,
 * tid) finds a thread only where tgid == tid.  si_code SI_TKILL.
 */
static long do_tkill(int tgid, int tid, int sig)
{
	struct kernel_siginfo info;

	if (tid <= 0 || (tgid != -1 && tgid <= 0))
		return -EINVAL;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (tgid != -1 && tgid != tid)
		return -ESRCH;		/* no thread tid in group tgid */
	kill_info(&info, sig, current->pid);
	info.code = SI_TKILL;
	return kill_pid_info(sig, &info, tid);
}

asmlinkage long sys_tkill(int pid, int sig)
{
	return do_tkill(-1, pid, sig);
}

asmlinkage long sys_tgkill(int tgid, int pid, int sig)
{
	return do_tkill(tgid, pid, sig);
}

/* ---- sigaltstack ------------------------------------------------------------ */

bool on_sig_stack(unsigned long sp)
{
	const struct task_signal *s = &current->signal;

	return s->sas_ss_size && sp - s->sas_ss_sp < s->sas_ss_size;	/* one compare: unsigned */
}

int sas_ss_flags(unsigned long sp)
{
	if (!current->signal.sas_ss_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

/*
 * Linux's do_sigaltstack(): report the stack, then set a new one.  Not
 * while running on it (-EPERM: a handler would pull the stack from
 * under itself); ss_flags SS_DISABLE, or 0 (SS_ONSTACK is taken as 0,
 * as Linux does for old programs); a size under MINSIGSTKSZ is -ENOMEM.
 */
int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
	struct task_signal *s = &current->signal;

	if (oss) {
		oss->ss_sp = (void *)s->sas_ss_sp;
		oss->ss_size = s->sas_ss_size;
		oss->ss_flags = sas_ss_flags(sp);
	}
	if (!ss)
		return 0;
	if (on_sig_stack(sp))
		return -EPERM;
	if (ss->ss_flags != SS_DISABLE && ss->ss_flags != SS_ONSTACK && ss->ss_flags != 0)
		return -EINVAL;
	if (ss->ss_flags == SS_DISABLE) {
		s->sas_ss_sp = 0;
		s->sas_ss_size = 0;
		return 0;
	}
	if (ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	s->sas_ss_sp = (unsigned long)ss->ss_sp;
	s->sas_ss_size = ss->ss_size;
	return 0;
}

asmlinkage long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss)
{
	stack_t new, old;
	int ret;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	ret = do_sigaltstack(uss ? &new : NULL, &old, current_pt_regs()->sp);
	if (!ret && uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return ret;
}
