/*
 * sigtest MODE - one signal behaviour per mode, checked from inside the
 * program: the handler reads its siginfo and sigcontext and compares
 * them with what it knows of the fault (the faulting instruction's
 * address, from a label).  Prints "sigtest MODE: ok" and exits 0, or
 * "sigtest MODE: FAIL ..." and exits 1 (tests/kernel/test_signals.c
 * runs every mode; docs/signals.md).
 */
#include "ulib.h"
static const char *mode;
#define CHECK_PREFIX()	printf("sigtest %s: FAIL line %d: ", mode, __LINE__)
#include "ucheck.h"
#include <asm/segment.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/unistd_32.h>
#include <stdint.h>
#include <stdbool.h>

static volatile int hits, depth, max_depth;
static volatile int order[8], norder;

static struct sigcontext *ctx(void *uc)
{
	return &((struct ucontext *)uc)->uc_mcontext;
}

static void on(int sig, void (*h)(int, siginfo_t *, void *), unsigned long flags)
{
	struct sigaction sa = { .sa_sigaction = h, .sa_flags = SA_SIGINFO | flags };

	CHECK(sigaction(sig, &sa, NULL) == 0, "sigaction(%d)", sig);
}

/* The fault sites: a label on each faulting instruction, its length known. */
extern char de_insn[], ud_insn[], bp_next[], gp_insn[], pf_insn[], pf_write_insn[];
extern char ac_insn[], step_next[], plain_bp_next[];

/* ---- every exception class -------------------------------------------- */

/* #DE: SIGFPE, FPE_INTDIV at the divide; the handler skips it (2 bytes) and gives the result. */
static void fpe_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);

	hits++;
	CHECK(sig == SIGFPE && si->si_signo == SIGFPE, "sig %d", sig);
	CHECK(si->si_code == FPE_INTDIV, "si_code %d", si->si_code);
	CHECK(si->si_addr == de_insn && sc->ip == (unsigned long)de_insn,
	      "si_addr %p ip %lx, want %p", si->si_addr, sc->ip, de_insn);
	CHECK(sc->trapno == X86_TRAP_DE && sc->cs == __USER_CS && sc->ss == __USER_DS,
	      "trapno %lu cs %x ss %x", sc->trapno, sc->cs, sc->ss);
	sc->ip += 2;		/* divl %ecx: f7 f1 */
	sc->ax = 42;		/* the "quotient" */
}

static void mode_fpe(void)
{
	unsigned int q = 1, r = 0, d = 0;

	on(SIGFPE, fpe_handler, 0);
	__asm__ __volatile__("de_insn: divl %%ecx" : "+a"(q), "+d"(r) : "c"(d));
	CHECK(hits == 1 && q == 42, "hits %d q %u", hits, q);
}

/* #UD: SIGILL, ILL_ILLOPN at the ud2; skip it. */
static void ill_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);

	hits++;
	CHECK(sig == SIGILL && si->si_code == ILL_ILLOPN, "sig %d code %d", sig, si->si_code);
	CHECK(sc->ip == (unsigned long)ud_insn && si->si_addr == ud_insn, "ip %lx", sc->ip);
	CHECK(sc->trapno == X86_TRAP_UD, "trapno %lu", sc->trapno);
	sc->ip += 2;		/* ud2: 0f 0b */
}

static void mode_ill(void)
{
	on(SIGILL, ill_handler, 0);
	__asm__ __volatile__("ud_insn: ud2");
	CHECK(hits == 1, "hits %d", hits);
}

/* #BP: SIGTRAP (SI_KERNEL, as Linux's int3), ip already past the int3. */
static void trap_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);

	hits++;
	CHECK(sig == SIGTRAP && si->si_code == SI_KERNEL, "sig %d code %d", sig, si->si_code);
	CHECK(sc->ip == (unsigned long)bp_next, "ip %lx want %p", sc->ip, bp_next);
	CHECK(sc->trapno == X86_TRAP_BP, "trapno %lu", sc->trapno);
}

static void mode_trap(void)
{
	on(SIGTRAP, trap_handler, 0);
	__asm__ __volatile__("int3\nbp_next:");
	CHECK(hits == 1, "hits %d", hits);
}

/* #DB from the program's own TF: SIGTRAP, TRAP_TRACE, after one instruction; the handler clears TF. */
static void step_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);
	unsigned long flags;

	hits++;
	__asm__ __volatile__("pushfl; popl %0" : "=r"(flags));
	CHECK(!(flags & X86_EFLAGS_TF), "the handler runs with TF set");
	CHECK(sig == SIGTRAP && si->si_code == TRAP_TRACE, "sig %d code %d", sig, si->si_code);
	CHECK(sc->trapno == X86_TRAP_DB && (sc->flags & X86_EFLAGS_TF), "trapno %lu flags %lx",
	      sc->trapno, sc->flags);
	CHECK(sc->ip == (unsigned long)step_next, "ip %lx want %p", sc->ip, step_next);
	sc->flags &= ~X86_EFLAGS_TF;
}

static void mode_step(void)
{
	on(SIGTRAP, step_handler, 0);
	/* popfl sets TF; the next instruction (nop) runs, then #DB */
	__asm__ __volatile__("pushfl; orl %0, (%%esp); popfl; nop\nstep_next: nop"
			     : : "i"(X86_EFLAGS_TF) : "cc", "memory");
	CHECK(hits == 1, "hits %d", hits);
}

/* #GP: a privileged instruction in ring 3; SIGSEGV, SI_KERNEL, err 0; skip it. */
static void gp_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);

	hits++;
	CHECK(sig == SIGSEGV && si->si_code == SI_KERNEL && si->si_addr == NULL,
	      "sig %d code %d addr %p", sig, si->si_code, si->si_addr);
	CHECK(sc->trapno == X86_TRAP_GP && sc->err == 0, "trapno %lu err %lx", sc->trapno, sc->err);
	CHECK(sc->ip == (unsigned long)gp_insn, "ip %lx", sc->ip);
	sc->ip += 1;		/* hlt: f4 */
}

static void mode_gp(void)
{
	on(SIGSEGV, gp_handler, 0);
	__asm__ __volatile__("gp_insn: hlt");
	CHECK(hits == 1, "hits %d", hits);
}

/*
 * #PF: a read through NULL (SEGV_MAPERR, err 4: user, read, not
 * present) whose handler fixes the register and lets it retry; then a
 * write to the program's own text (SEGV_ACCERR, err 7), skipped.
 */
static int good_value = 1234;
static const char read_only[4] = "ro";	/* .rodata: mapped with the text, read-only */

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);

	hits++;
	CHECK(sig == SIGSEGV && sc->trapno == X86_TRAP_PF, "sig %d trapno %lu", sig, sc->trapno);
	if (sc->ip == (unsigned long)pf_insn) {
		CHECK(si->si_code == SEGV_MAPERR && si->si_addr == NULL && sc->cr2 == 0 &&
		      sc->err == (PF_USER), "code %d addr %p cr2 %lx err %lx",
		      si->si_code, si->si_addr, sc->cr2, sc->err);
		sc->bx = (unsigned long)&good_value;	/* retried: the load now succeeds */
		return;
	}
	CHECK(sc->ip == (unsigned long)pf_write_insn, "ip %lx", sc->ip);
	CHECK(si->si_code == SEGV_ACCERR && si->si_addr == (void *)read_only &&
	      sc->err == (PF_USER | PF_WRITE | PF_PROT), "code %d addr %p err %lx",
	      si->si_code, si->si_addr, sc->err);
	sc->ip += 2;		/* movb %al, (%ebx): 88 03 */
}

static void mode_segv(void)
{
	int v;

	on(SIGSEGV, segv_handler, 0);
	__asm__ __volatile__("pf_insn: movl (%%ebx), %0" : "=a"(v) : "b"(0) : "memory");
	CHECK(hits == 1 && v == good_value, "hits %d v %d", hits, v);
	/* a write to a present read-only page: P=1 */
	__asm__ __volatile__("pf_write_insn: movb %%al, (%%ebx)" : : "a"(0), "b"(read_only) : "memory");
	CHECK(hits == 2, "hits %d", hits);
}

/* #AC: EFLAGS.AC in ring 3 (CR0.AM is on) and a misaligned load: SIGBUS, BUS_ADRALN. */
static void bus_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = ctx(uc);

	hits++;
	CHECK(sig == SIGBUS && si->si_code == BUS_ADRALN, "sig %d code %d", sig, si->si_code);
	CHECK(sc->trapno == X86_TRAP_AC && sc->ip == (unsigned long)ac_insn, "trapno %lu ip %lx",
	      sc->trapno, sc->ip);
	sc->flags &= ~X86_EFLAGS_AC;	/* the instruction is retried, aligned checks off */
}

static void mode_bus(void)
{
	static char buf[8] __attribute__((aligned(4)));
	int v;

	on(SIGBUS, bus_handler, 0);
	__asm__ __volatile__("pushfl; orl %2, (%%esp); popfl\n"
			     "ac_insn: movl (%1), %0"
			     : "=r"(v) : "r"(buf + 1), "i"(X86_EFLAGS_AC) : "cc", "memory");
	__asm__ __volatile__("pushfl; andl %0, (%%esp); popfl" : : "i"(~X86_EFLAGS_AC) : "cc");
	if (hits == 0)		/* the load went through: QEMU's TCG never checks alignment */
		printf("sigtest %s: no #AC: this CPU ignores EFLAGS.AC\n", mode);
	CHECK(hits <= 1, "hits %d", hits);
}

/* ---- handlers and masks ------------------------------------------------- */

/* kill(getpid()): SI_USER with the sender's pid. */
static void usr_info_handler(int sig, siginfo_t *si, void *uc)
{
	hits++;
	CHECK(sig == SIGUSR1 && si->si_code == SI_USER && si->si_pid == getpid(),
	      "sig %d code %d pid %d", sig, si->si_code, si->si_pid);
	CHECK(sigismember(&((struct ucontext *)uc)->uc_sigmask, SIGUSR1) == 0,
	      "uc_sigmask has SIGUSR1: it is the mask before the handler");
}

static void mode_kill(void)
{
	on(SIGUSR1, usr_info_handler, 0);
	CHECK(raise(SIGUSR1) == 0, "kill");
	CHECK(hits == 1, "hits %d", hits);
}

/* Nested: SIGUSR1's handler raises SIGUSR2, whose handler runs on top of it. */
static void usr2_handler(int sig, siginfo_t *si, void *uc)
{
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	order[norder++] = sig;
	depth--;
}

static void usr1_nest_handler(int sig, siginfo_t *si, void *uc)
{
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	order[norder++] = sig;
	raise(SIGUSR2);		/* delivered on this kill's way back: nested */
	order[norder++] = -sig;	/* after SIGUSR2's handler returned */
	depth--;
}

static void mode_nested(void)
{
	on(SIGUSR1, usr1_nest_handler, 0);
	on(SIGUSR2, usr2_handler, 0);
	raise(SIGUSR1);
	CHECK(max_depth == 2 && norder == 3 && order[0] == SIGUSR1 && order[1] == SIGUSR2 &&
	      order[2] == -SIGUSR1, "depth %d order %d %d %d", max_depth, order[0], order[1],
	      order[2]);
}

/* A fault inside a handler: SIGFPE's handler runs on top of SIGUSR1's. */
static void usr1_faulting_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned int q = 1, r = 0, d = 0;

	order[norder++] = sig;
	__asm__ __volatile__("divl %%ecx" : "+a"(q), "+d"(r) : "c"(d));
	order[norder++] = q;
}

static void fpe_skip_handler(int sig, siginfo_t *si, void *uc)
{
	order[norder++] = sig;
	ctx(uc)->ip += 2;
	ctx(uc)->ax = 7;
}

static void mode_inhandler(void)
{
	on(SIGUSR1, usr1_faulting_handler, 0);
	on(SIGFPE, fpe_skip_handler, 0);
	raise(SIGUSR1);
	CHECK(norder == 3 && order[0] == SIGUSR1 && order[1] == SIGFPE && order[2] == 7,
	      "order %d: %d %d %d", norder, order[0], order[1], order[2]);
}

/* The signal is blocked in its own handler: a second one waits for the first to return. */
static void usr1_again_handler(int sig, siginfo_t *si, void *uc)
{
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	if (++hits == 1)
		raise(SIGUSR1);
	depth--;
}

static void mode_defer(void)
{
	on(SIGUSR1, usr1_again_handler, 0);
	raise(SIGUSR1);
	CHECK(hits == 2 && max_depth == 1, "hits %d depth %d: blocked in its handler", hits,
	      max_depth);
}

/* SA_NODEFER: the second one nests at once. */
static void mode_nodefer(void)
{
	on(SIGUSR1, usr1_again_handler, SA_NODEFER);
	raise(SIGUSR1);
	CHECK(hits == 2 && max_depth == 2, "hits %d depth %d", hits, max_depth);
}

/* SA_RESETHAND: one shot; the second SIGUSR1 takes the default action and ends us. */
static void mode_resethand(void)
{
	struct sigaction old;

	on(SIGUSR1, usr_info_handler, SA_RESETHAND);
	raise(SIGUSR1);
	CHECK(hits == 1, "hits %d", hits);
	sigaction(SIGUSR1, NULL, &old);
	CHECK(old.sa_handler == SIG_DFL, "handler %p after SA_RESETHAND", old.sa_handler);
	printf("sigtest %s: handler ran once, now SIG_DFL\n", mode);
	raise(SIGUSR1);
	CHECK(0, "still alive after the second SIGUSR1");
}

/* Blocked: pending until unblocked, then delivered on sigprocmask's way out. */
static void mode_mask(void)
{
	sigset_t set, pend;

	on(SIGUSR1, usr_info_handler, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGKILL);	/* silently not blocked */
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR1);
	CHECK(hits == 0, "delivered while blocked");
	rt_sigpending(&pend, sizeof(pend));
	CHECK(sigismember(&pend, SIGUSR1), "not pending");
	sigprocmask(SIG_BLOCK, NULL, &set);
	CHECK(!sigismember(&set, SIGKILL), "SIGKILL blocked");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	CHECK(hits == 1, "hits %d after unblocking", hits);
	CHECK(rt_sigaction(SIGKILL, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL,
			   sizeof(sigset_t)) == -EINVAL, "SIGKILL's action changed");
	CHECK(rt_sigaction(SIGUSR1, NULL, NULL, 4) == -EINVAL, "a wrong sigsetsize taken");
	CHECK(kill(getpid(), 65) == -EINVAL, "signal 65 taken");
}

/* SIG_IGN, and SIGCHLD's default: nothing happens. */
static void mode_ignore(void)
{
	const char *argv[] = { "hello", NULL };
	int st, pid;

	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	pid = spawn("hello", argv);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "spawn/waitpid");	/* SIGCHLD: ignored */
	CHECK(kill(getpid(), 0) == 0, "kill(pid, 0)");
}

/*
 * execve(): a caught signal goes back to SIG_DFL (its handler was the
 * old program's), an ignored one stays ignored, the mask stays.
 */
static void mode_exec(void)
{
	const char *argv[] = { "sigtest", "afterexec", NULL };
	sigset_t set;

	on(SIGUSR1, usr_info_handler, 0);
	signal(SIGUSR2, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	execve("/bin/sigtest", argv, NULL);
	CHECK(0, "execve returned");
}

static void mode_afterexec(void)
{
	struct sigaction old;
	sigset_t set;

	CHECK(rt_sigaction(SIGUSR1, NULL, &old, sizeof(sigset_t)) == 0 &&
	      old.sa_handler == SIG_DFL, "SIGUSR1's handler survived exec");
	CHECK(rt_sigaction(SIGUSR2, NULL, &old, sizeof(sigset_t)) == 0 &&
	      old.sa_handler == SIG_IGN, "SIGUSR2 no longer ignored after exec");
	CHECK(sigprocmask(SIG_BLOCK, NULL, &set) == 0 && sigismember(&set, SIGTERM),
	      "the blocked mask was lost at exec");
}

/* SIGCHLD with a handler: the child's pid and exit status. */
static volatile int chld_pid, chld_code, chld_status;

static void chld_handler(int sig, siginfo_t *si, void *uc)
{
	hits++;
	chld_pid = si->si_pid;
	chld_code = si->si_code;
	chld_status = si->si_status;
}

static void mode_chld(void)
{
	const char *argv[] = { "hello", NULL };
	int st, pid;

	on(SIGCHLD, chld_handler, 0);
	pid = spawn("hello", argv);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "spawn/waitpid");
	CHECK(hits == 1 && chld_pid == pid && chld_code == CLD_EXITED && chld_status == 0,
	      "hits %d pid %d/%d code %d status %d", hits, chld_pid, pid, chld_code, chld_status);
}

/* A handler that never returns: longjmp out of SIGSEGV's, twice. */
static jmp_buf env;

static void segv_longjmp_handler(int sig, siginfo_t *si, void *uc)
{
	hits++;
	longjmp(env, hits);
}

static void mode_longjmp(void)
{
	sigset_t set;
	volatile int rounds = 0;

	on(SIGSEGV, segv_longjmp_handler, 0);
	if (setjmp(env) < 2) {
		rounds++;
		sigemptyset(&set);
		sigaddset(&set, SIGSEGV);
		sigprocmask(SIG_UNBLOCK, &set, NULL);	/* the handler's frame was never returned through */
		*(volatile int *)0 = 1;
	}
	CHECK(hits == 2 && rounds == 2, "hits %d rounds %d", hits, rounds);
}

/* The old frame: handler(int sig) through the old sigaction call and sigreturn. */
static void plain_handler(int sig)
{
	/* the frame starts at the return address, just below the argument */
	struct sigframe *f = (struct sigframe *)((unsigned long)&sig - sizeof(long));

	hits++;
	CHECK(sig == SIGTRAP && f->sig == SIGTRAP, "sig %d", sig);
	CHECK(f->sc.trapno == X86_TRAP_BP && f->sc.ip == (unsigned long)plain_bp_next, "trapno %lu ip %lx",
	      f->sc.trapno, f->sc.ip);
	f->sc.dx = 0x5157;	/* restored by sigreturn */
}

static void mode_plain(void)
{
	struct old_sigaction sa = { .sa_handler = plain_handler };
	unsigned long dx = 0;

	CHECK(old_sigaction(SIGTRAP, &sa, NULL) == 0, "sigaction");	/* no restorer: retcode */
	__asm__ __volatile__("int3\nplain_bp_next:" : "+d"(dx));
	CHECK(hits == 1 && dx == 0x5157, "hits %d dx %lx", hits, dx);
}

/* No SA_RESTORER: the handler returns through the retcode on the stack. */
static void mode_norestorer(void)
{
	struct sigaction sa = { .sa_sigaction = usr_info_handler, .sa_flags = SA_SIGINFO };

	CHECK(rt_sigaction(SIGUSR1, &sa, NULL, sizeof(sigset_t)) == 0, "rt_sigaction");
	raise(SIGUSR1);
	CHECK(hits == 1, "hits %d", hits);
}

/* A handler for SIGINT (Ctrl-C), SIGTERM: report and exit with a status of our own. */
static void int_handler(int sig, siginfo_t *si, void *uc)
{
	printf("sigtest %s: caught %s from pid %d\n", mode, sig == SIGINT ? "SIGINT" : "SIGTERM",
	       si->si_pid);
	exit(sig);
}

static void mode_catch(void)
{
	on(SIGINT, int_handler, 0);
	on(SIGTERM, int_handler, 0);
	printf("sigtest %s: waiting, pgrp %ld\n", mode, getpgrp());
	for (;;)
		msleep(10);
}

/* Process groups: a child joins ours; setpgid makes it its own; kill(-pgrp) reaches it. */
static void mode_pgrp(void)
{
	const char *argv[] = { "spin", NULL };
	int pid, st;

	CHECK(getpgrp() == getpgid(0), "getpgrp %ld getpgid %ld", getpgrp(), getpgid(0));
	pid = spawn("spin", argv);
	CHECK(pid > 0 && getpgid(pid) == getpgrp(), "child's pgid %ld", getpgid(pid));
	CHECK(setpgid(pid, 0) == 0 && getpgid(pid) == pid, "setpgid: %ld", getpgid(pid));
	CHECK(setpgid(pid, 99999) == -EPERM, "joined a group that does not exist");
	CHECK(setpgid(1, 0) == -ESRCH, "moved a process that is not ours");
	CHECK(kill(-pid, SIGTERM) == 0, "kill(-pgrp)");
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	      "status %x", st);
	CHECK(kill(-pid, SIGTERM) == -ESRCH, "an empty group");
}

/*
 * A uprobe on uprobe_target's nop whose handler sends SIGUSR1
 * (test_signals.c): the signal must wait for the step out of line, so
 * the handler sees ip just past the nop, in the program, and no TF.
 */
void uprobe_target(void);
__asm__(".globl uprobe_target\n.type uprobe_target, @function\n"
	"uprobe_target: nop\n ret\n.size uprobe_target, . - uprobe_target");

static volatile unsigned long usr1_ip, usr1_flags;

static void usr1_ip_handler(int sig, siginfo_t *si, void *uc)
{
	hits++;
	usr1_ip = ctx(uc)->ip;
	usr1_flags = ctx(uc)->flags;
}

static void mode_uprobe(void)
{
	on(SIGUSR1, usr1_ip_handler, 0);
	uprobe_target();
	CHECK(hits == 1, "hits %d (a uprobe's handler sends the signal)", hits);
	CHECK(usr1_ip == (unsigned long)uprobe_target + 1 && !(usr1_flags & X86_EFLAGS_TF),
	      "signal at ip %lx flags %lx, want %lx, no TF", usr1_ip, usr1_flags,
	      (unsigned long)uprobe_target + 1);
}

/* ---- the FPU in the frame --------------------------------------------- */

#define CPUID_SSE2	(1u << 26)
#define MXCSR_MAIN	0x7f80		/* round toward zero, every exception masked */
#define MXCSR_HANDLER	0x1f80		/* the default: round to nearest */
#define MXCSR_RESERVED	0xffff0000u	/* no CPU has these bits */
#define X87_CW_MAIN	0x0f7f		/* round toward zero, 64-bit precision */
#define X87_EXP_PI	0x4000		/* pi = 1.57... x 2^1: the biased exponent */
#define X87_EXP_ONE	0x3fff
#define FPSTATE_FX_ALIGN 64
#define PI_DOUBLE_HIGH	0x400921fbu	/* pi as an IEEE double */
#define PI_DOUBLE_LOW	0x54442d18u

/* What the main code loads before kill() and reads after its return. */
struct fpu_probe {
	uint32_t xmm0_in[4], xmm1_in[4], xmm0_out[4], xmm1_out[4];
	uint32_t st0_out[2];	/* a double: low word, high word */
	uint32_t mxcsr_in, mxcsr_out;
	uint16_t cw_in, cw_out;
};

static bool sse;
static volatile unsigned long fp_addr, fp_magic, fp_magic1, fp_xstate_size, fp_cw;
static volatile uint32_t fp_xmm0, fp_mxcsr;
static volatile unsigned int fp_st0_exp;

static bool cpu_has_sse2(void)
{
	unsigned int a = 1, b, c = 0, d;

	__asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return d & CPUID_SSE2;
}

/*
 * xmm0, xmm1, MXCSR, the x87 control word and st(0) = pi loaded; then
 * kill(pid, sig) - the handler runs on the way back from it - and the
 * same registers stored.  One asm block: no C code runs between.
 */
static void fpu_kill_self(struct fpu_probe *p, int sig)
{
	long ax = __NR_kill;

	__asm__ __volatile__(
		"fldcw %c[cw_in](%%esi)\n\t"
		"fldpi\n\t"
		"testl %%edi, %%edi\n\t"
		"jz 1f\n\t"
		"ldmxcsr %c[mx_in](%%esi)\n\t"
		"movdqu %c[x0_in](%%esi), %%xmm0\n\t"
		"movdqu %c[x1_in](%%esi), %%xmm1\n"
		"1:\tint $0x80\n\t"
		"fstpl %c[st0](%%esi)\n\t"
		"fnstcw %c[cw_out](%%esi)\n\t"
		"testl %%edi, %%edi\n\t"
		"jz 2f\n\t"
		"stmxcsr %c[mx_out](%%esi)\n\t"
		"movdqu %%xmm0, %c[x0_out](%%esi)\n\t"
		"movdqu %%xmm1, %c[x1_out](%%esi)\n"
		"2:"
		: "+a"(ax)
		: "S"(p), "D"((int)sse), "b"(getpid()), "c"(sig),
		  [cw_in] "i"(offsetof(struct fpu_probe, cw_in)),
		  [cw_out] "i"(offsetof(struct fpu_probe, cw_out)),
		  [mx_in] "i"(offsetof(struct fpu_probe, mxcsr_in)),
		  [mx_out] "i"(offsetof(struct fpu_probe, mxcsr_out)),
		  [x0_in] "i"(offsetof(struct fpu_probe, xmm0_in)),
		  [x1_in] "i"(offsetof(struct fpu_probe, xmm1_in)),
		  [x0_out] "i"(offsetof(struct fpu_probe, xmm0_out)),
		  [x1_out] "i"(offsetof(struct fpu_probe, xmm1_out)),
		  [st0] "i"(offsetof(struct fpu_probe, st0_out))
		: "memory");
}

/* What a handler that computes does to the registers: every one changed. */
static void fpu_clobber(void)
{
	static const uint32_t ones[4] = { ~0u, ~0u, ~0u, ~0u };
	uint32_t mxcsr = MXCSR_HANDLER;

	__asm__ __volatile__("fninit\n\tfld1\n\tfld1");
	if (sse)
		__asm__ __volatile__("movdqu %0, %%xmm0\n\tmovdqu %0, %%xmm1\n\tldmxcsr %1"
				     : : "m"(ones), "m"(mxcsr));
}

/* The handler reads the frame's _fpstate_32, edits it, and clobbers the registers. */
static void fpu_rt_handler(int sig, siginfo_t *si, void *uc)
{
	struct _fpstate_32 *fp = (struct _fpstate_32 *)ctx(uc)->fpstate;

	hits++;
	fp_addr = (unsigned long)fp;
	if (fp) {
		fp_magic = fp->magic;
		fp_magic1 = fp->sw_reserved.magic1;
		fp_xstate_size = fp->sw_reserved.xstate_size;
		fp_cw = fp->cw;
		fp_st0_exp = fp->_st[0].exponent;
		fp_xmm0 = fp->_xmm[0].element[0];
		fp_mxcsr = fp->mxcsr;
		fp->_xmm[1].element[0] = 0xfeedf00d;	/* sigreturn loads the frame's xmm1 */
		fp->_fxsr_st[0].exponent = X87_EXP_ONE;	/* ... but st(0) from the fnsave image */
		fp->mxcsr |= MXCSR_RESERVED;	/* fxrstor would #GP: sigreturn clears them */
	}
	fpu_clobber();
}

static void fpu_plain_handler(int sig)
{
	hits++;
	fpu_clobber();
}

static void fpu_probe_init(struct fpu_probe *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 4; i++) {
		p->xmm0_in[i] = 0x11111111u * (i + 1);
		p->xmm1_in[i] = 0x01010101u * (i + 5);
	}
	p->mxcsr_in = MXCSR_MAIN;
	p->cw_in = X87_CW_MAIN;
}

/* The interrupted code's registers survive a handler that clobbers them all. */
static void fpu_check_kept(const struct fpu_probe *p, const char *frame)
{
	CHECK(p->st0_out[0] == PI_DOUBLE_LOW && p->st0_out[1] == PI_DOUBLE_HIGH,
	      "%s: st(0) %08x%08x after the handler, not pi", frame, p->st0_out[1], p->st0_out[0]);
	CHECK(p->cw_out == X87_CW_MAIN, "%s: x87 control word %x, want %x", frame, p->cw_out,
	      X87_CW_MAIN);
	if (!sse)
		return;
	CHECK(memcmp(p->xmm0_out, p->xmm0_in, sizeof(p->xmm0_in)) == 0,
	      "%s: xmm0 %08x %08x %08x %08x after the handler", frame, p->xmm0_out[0],
	      p->xmm0_out[1], p->xmm0_out[2], p->xmm0_out[3]);
	CHECK(p->mxcsr_out == MXCSR_MAIN, "%s: mxcsr %x, want %x", frame, p->mxcsr_out, MXCSR_MAIN);
}

static void mode_fpu(void)
{
	struct old_sigaction plain = { .sa_handler = fpu_plain_handler };
	struct fpu_probe p;

	sse = cpu_has_sse2();
	if (!sse)
		printf("sigtest fpu: no SSE2: x87 only\n");
	on(SIGUSR1, fpu_rt_handler, 0);
	fpu_probe_init(&p);
	fpu_kill_self(&p, SIGUSR1);
	CHECK(hits == 1, "hits %d", hits);
	fpu_check_kept(&p, "rt frame");
	CHECK(fp_addr && (fp_addr + offsetof(struct _fpstate_32, _fxsr_env)) % FPSTATE_FX_ALIGN == 0,
	      "sc.fpstate %lx: the fxsave image is not 64-byte aligned", fp_addr);
	CHECK(fp_cw == (0xffff0000u | X87_CW_MAIN) && fp_st0_exp == X87_EXP_PI,
	      "fnsave image: cw %lx st(0) exponent %x", fp_cw, fp_st0_exp);
	if (sse) {
		CHECK(fp_magic == X86_FXSR_MAGIC && fp_magic1 == FP_XSTATE_MAGIC1 &&
		      fp_xstate_size == sizeof(struct _fpstate_32) - offsetof(struct _fpstate_32, _fxsr_env),
		      "magic %lx magic1 %lx xstate_size %lu", fp_magic, fp_magic1, fp_xstate_size);
		CHECK(fp_xmm0 == p.xmm0_in[0] && fp_mxcsr == MXCSR_MAIN,
		      "frame: xmm0 %x mxcsr %x", fp_xmm0, fp_mxcsr);
		CHECK(p.xmm1_out[0] == 0xfeedf00d && p.xmm1_out[1] == p.xmm1_in[1],
		      "xmm1 %08x %08x: not the frame's", p.xmm1_out[0], p.xmm1_out[1]);
	}
	CHECK(old_sigaction(SIGUSR2, &plain, NULL) == 0, "sigaction");
	fpu_probe_init(&p);
	fpu_kill_self(&p, SIGUSR2);
	CHECK(hits == 2, "hits %d", hits);
	fpu_check_kept(&p, "sigframe");
}

static const struct {
	const char *name;
	void (*fn)(void);
} modes[] = {
	{ "fpe", mode_fpe }, { "ill", mode_ill }, { "trap", mode_trap }, { "step", mode_step },
	{ "gp", mode_gp }, { "segv", mode_segv }, { "bus", mode_bus }, { "kill", mode_kill },
	{ "nested", mode_nested }, { "inhandler", mode_inhandler }, { "defer", mode_defer },
	{ "nodefer", mode_nodefer }, { "resethand", mode_resethand }, { "mask", mode_mask },
	{ "ignore", mode_ignore }, { "chld", mode_chld }, { "longjmp", mode_longjmp },
	{ "plain", mode_plain }, { "norestorer", mode_norestorer }, { "catch", mode_catch },
	{ "pgrp", mode_pgrp }, { "uprobe", mode_uprobe }, { "exec", mode_exec },
	{ "afterexec", mode_afterexec },
	{ "fpu", mode_fpu },
};

int main(int argc, char **argv)
{
	unsigned int i;

	for (i = 0; argc == 2 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(argv[1], modes[i].name))
			continue;
		mode = argv[1];
		modes[i].fn();
		printf("sigtest %s: %s\n", mode, failures ? "FAIL" : "ok");
		return failures ? 1 : 0;
	}
	printf("usage: sigtest MODE; modes:");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		printf(" %s", modes[i].name);
	printf("\n");
	return 2;
}
