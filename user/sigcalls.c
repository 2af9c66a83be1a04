/*
 * sigcalls MODE - the signal system calls real programs rely on, one
 * mode each, checked from inside (tests/kernel/test_signals.c runs
 * them; docs/signals.md, "Slow calls, waiting, the alternate stack"):
 *   restart      a handler with SA_RESTART: a pipe read and a waitpid a
 *                signal interrupts start again - the handler's frame
 *                holds the int $0x80 itself (ip on cd 80, ax the number)
 *   eintr        the same without SA_RESTART: -EINTR
 *   pause        pause() returns -EINTR once a handler has run
 *   sigsuspend   rt_sigsuspend() and the old sigsuspend(): a blocked
 *                pending signal is taken the moment the mask opens, and
 *                the old mask is back after the handler
 *   sigtimedwait a blocked signal taken with no handler; the timeouts
 *   tkill        tkill() and tgkill(): SI_TKILL, and their errors
 *   sigpipe      a write to a pipe with no reader: SIGPIPE ends the
 *                writer, or, handled, the write is -EPIPE
 *   nanosleep    a signal ends a sleep early: -EINTR and the time left
 *   altstack     sigaltstack(): an SA_ONSTACK handler runs on it, uc_stack,
 *                -EPERM while on it, SS_DISABLE, bad arguments, fork keeps it
 *   overflow     a SIGSEGV handler on the alternate stack survives a
 *                stack overflow, which no handler on the overflowed stack could
 * Prints "sigcalls MODE: ok" and exits 0, or FAIL lines and exits 1.
 */
#include "ulib.h"
static const char *mode;
#define CHECK_PREFIX()	printf("sigcalls %s: FAIL line %d: ", mode, __LINE__)
#include "ucheck.h"
#include <asm/unistd_32.h>
#include <stdbool.h>

#define INT80_OPCODE	0x80cd		/* cd 80, as a little-endian 16-bit load reads it */
#define CHILD_DELAY_MS	200		/* long enough for the parent to be asleep */
#define CHILD_STATUS	7

static volatile int hits;
static volatile unsigned long frame_ax, frame_insn;	/* what the last handler's frame held */
static volatile int frame_code, frame_pid;
static volatile unsigned long handler_sp;
static volatile sigset_t frame_mask;
static volatile stack_t frame_stack;
static char alt_stack[SIGSTKSZ];
static jmp_buf env;

static void recorder(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;
	volatile char here;

	hits++;
	frame_ax = uc->uc_mcontext.ax;
	frame_insn = *(unsigned short *)uc->uc_mcontext.ip;
	frame_code = si->si_code;
	frame_pid = si->si_pid;
	frame_mask = uc->uc_sigmask;
	frame_stack = uc->uc_stack;
	handler_sp = (unsigned long)&here;
}

static void on(int sig, unsigned long flags)
{
	struct sigaction sa = { .sa_sigaction = recorder, .sa_flags = SA_SIGINFO | flags };

	CHECK(sigaction(sig, &sa, NULL) == 0, "sigaction(%d)", sig);
}

/* A child that signals us after a while, then (write_fd >= 0) writes a byte, and exits. */
static long child_signals_later(int sig, int write_fd)
{
	long parent = getpid(), pid = fork();

	if (pid)
		return pid;
	msleep(CHILD_DELAY_MS);
	kill(parent, sig);
	msleep(CHILD_DELAY_MS);
	if (write_fd >= 0)
		write(write_fd, "x", 1);
	exit(CHILD_STATUS);
}

static bool frame_is_the_call(long nr)
{
	return frame_insn == INT80_OPCODE && frame_ax == (unsigned long)nr;
}

/* A read and a waitpid interrupted; restart says whether they start again. */
static void interrupted_calls(bool restart)
{
	char c;
	int p[2], st;
	long pid, n;

	on(SIGUSR1, restart ? SA_RESTART : 0);
	pipe(p);
	pid = child_signals_later(SIGUSR1, p[1]);
	n = read(p[0], &c, 1);
	CHECK(hits == 1, "hits %d", hits);
	if (restart) {
		CHECK(n == 1 && c == 'x', "read %ld, want the byte after the restart", n);
		CHECK(frame_is_the_call(__NR_read), "frame: ax %lu at %04lx, want read's int $0x80",
		      frame_ax, frame_insn);
	} else {
		CHECK(n == -EINTR && (long)frame_ax == -EINTR, "read %ld, frame ax %ld", n, frame_ax);
		CHECK(read(p[0], &c, 1) == 1, "the byte, read again");
	}
	CHECK(waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == CHILD_STATUS, "reap");
	pid = child_signals_later(SIGUSR1, -1);
	n = waitpid(pid, &st, 0);
	CHECK(hits == 2, "hits %d", hits);
	if (restart) {
		CHECK(n == pid && WEXITSTATUS(st) == CHILD_STATUS, "waitpid %ld, status %x", n, st);
		CHECK(frame_is_the_call(__NR_waitpid), "frame: ax %lu, want waitpid's", frame_ax);
	} else {
		CHECK(n == -EINTR, "waitpid %ld", n);
		CHECK(waitpid(pid, &st, 0) == pid, "waitpid again");
	}
	close(p[0]);
	close(p[1]);
}

static void mode_restart(void)
{
	interrupted_calls(true);
}

static void mode_eintr(void)
{
	interrupted_calls(false);
}

static void mode_pause(void)
{
	long pid;

	on(SIGUSR1, SA_RESTART);	/* pause ends all the same: -ERESTARTNOHAND */
	pid = child_signals_later(SIGUSR1, -1);
	CHECK(pause() == -EINTR && hits == 1, "pause: hits %d", hits);
	CHECK(waitpid(pid, NULL, 0) == pid, "reap");
}

static bool blocked(int sig)
{
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, sig);
}

static void mode_sigsuspend(void)
{
	sigset_t usr1, none;

	on(SIGUSR1, SA_RESTART);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	raise(SIGUSR1);
	CHECK(hits == 0, "delivered while blocked");
	CHECK(sigsuspend(&none) == -EINTR && hits == 1, "rt_sigsuspend: hits %d", hits);
	CHECK(sigismember((sigset_t *)&frame_mask, SIGUSR1), "uc_sigmask is not the old mask");
	CHECK(blocked(SIGUSR1), "the old mask is not back");
	raise(SIGUSR1);
	CHECK(old_sigsuspend(0, 0, 0) == -EINTR && hits == 2, "sigsuspend: hits %d", hits);
	CHECK(blocked(SIGUSR1), "the old mask is not back after sigsuspend");
}

static void mode_sigtimedwait(void)
{
	struct timespec zero = { 0, 0 }, short_wait = { 0, 50 * 1000 * 1000 };
	sigset_t usr1;
	siginfo_t si;
	long pid;

	on(SIGUSR1, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	raise(SIGUSR1);
	CHECK(sigtimedwait(&usr1, &si, NULL) == SIGUSR1, "a pending one");
	CHECK(si.si_signo == SIGUSR1 && si.si_code == SI_USER && si.si_pid == getpid(),
	      "siginfo %d %d %d", si.si_signo, si.si_code, si.si_pid);
	CHECK(sigtimedwait(&usr1, &si, &zero) == -EAGAIN, "zero timeout");
	CHECK(sigtimedwait(&usr1, &si, &short_wait) == -EAGAIN, "50 ms timeout");
	pid = child_signals_later(SIGUSR1, -1);
	CHECK(sigtimedwait(&usr1, &si, NULL) == SIGUSR1 && si.si_pid == pid, "waited for: from %d",
	      si.si_pid);
	CHECK(hits == 0 && blocked(SIGUSR1), "a handler ran (%d), or the mask changed", hits);
	CHECK(waitpid(pid, NULL, 0) == pid, "reap");
	CHECK(rt_sigtimedwait(&usr1, &si, NULL, 4) == -EINVAL, "bad sigsetsize");
}

static void mode_tkill(void)
{
	on(SIGUSR1, 0);
	CHECK(tkill(getpid(), SIGUSR1) == 0 && hits == 1, "tkill: hits %d", hits);
	CHECK(frame_code == SI_TKILL && frame_pid == getpid(), "si_code %d pid %d",
	      frame_code, frame_pid);
	CHECK(tgkill(getpid(), getpid(), SIGUSR1) == 0 && hits == 2, "tgkill: hits %d", hits);
	CHECK(tgkill(getpid(), getpid() + 1000, SIGUSR1) == -ESRCH, "a tid not in the group");
	CHECK(tgkill(0, getpid(), SIGUSR1) == -EINVAL, "tgid 0");
	CHECK(tkill(0, SIGUSR1) == -EINVAL, "tid 0");
	CHECK(tkill(getpid(), 65) == -EINVAL, "signal 65");
	CHECK(tkill(30000, SIGUSR1) == -ESRCH, "no such thread");
}

static void mode_sigpipe(void)
{
	int p[2], st;
	long pid;

	pipe(p);
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		write(p[1], "x", 1);
		exit(0);		/* not reached: SIGPIPE ends it */
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE,
	      "the writer's status %x, want killed by SIGPIPE", st);
	on(SIGPIPE, 0);
	CHECK(write(p[1], "x", 1) == -EPIPE && hits == 1, "handled: -EPIPE, hits %d", hits);
	CHECK(frame_code == SI_USER && frame_pid == getpid(), "si_code %d", frame_code);
	close(p[1]);
}

static void mode_nanosleep(void)
{
	struct timespec ts = { 5, 0 }, rem = { -1, -1 };
	long pid, left_ms;

	on(SIGUSR1, SA_RESTART);	/* nanosleep gives -EINTR all the same, as Linux's */
	pid = child_signals_later(SIGUSR1, -1);
	CHECK(nanosleep(&ts, &rem) == -EINTR && hits == 1, "nanosleep: hits %d", hits);
	left_ms = rem.tv_sec * 1000 + rem.tv_nsec / 1000000;
	CHECK(left_ms > 0 && left_ms < 5000, "time left %ld ms", left_ms);
	CHECK(waitpid(pid, NULL, 0) == pid, "reap");
}

static bool on_alt_stack(unsigned long sp)
{
	return sp - (unsigned long)alt_stack < sizeof(alt_stack);
}

static void mode_altstack(void)
{
	stack_t ss = { alt_stack, 0, sizeof(alt_stack) }, cur, bad = ss;
	long pid;
	int st;

	CHECK(sigaltstack(&ss, &cur) == 0 && cur.ss_flags == SS_DISABLE, "none at first");
	on(SIGUSR1, SA_ONSTACK);
	on(SIGUSR2, 0);
	raise(SIGUSR1);
	CHECK(hits == 1 && on_alt_stack(handler_sp), "SA_ONSTACK handler at %lx", handler_sp);
	CHECK(frame_stack.ss_sp == alt_stack && frame_stack.ss_size == sizeof(alt_stack) &&
	      frame_stack.ss_flags == 0, "uc_stack %p %lu %d", frame_stack.ss_sp,
	      frame_stack.ss_size, frame_stack.ss_flags);
	raise(SIGUSR2);
	CHECK(hits == 2 && !on_alt_stack(handler_sp), "a plain handler on the alternate stack");
	CHECK(sigaltstack(NULL, &cur) == 0 && cur.ss_flags == 0 && cur.ss_sp == alt_stack,
	      "after the handler: flags %d", cur.ss_flags);
	pid = fork();
	if (pid == 0)
		exit(sigaltstack(NULL, &cur) == 0 && cur.ss_sp == alt_stack ? 0 : 1);
	CHECK(waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 0, "the child lost the stack");
	bad.ss_flags = 4;
	CHECK(sigaltstack(&bad, NULL) == -EINVAL, "bad flags");
	bad.ss_flags = 0;
	bad.ss_size = MINSIGSTKSZ - 1;
	CHECK(sigaltstack(&bad, NULL) == -ENOMEM, "too small");
	ss.ss_flags = SS_DISABLE;
	CHECK(sigaltstack(&ss, NULL) == 0, "SS_DISABLE");
	raise(SIGUSR1);
	CHECK(hits == 3 && !on_alt_stack(handler_sp), "SA_ONSTACK with the stack disabled");
	CHECK(sigaltstack(NULL, &cur) == 0 && cur.ss_flags == SS_DISABLE, "flags %d",
	      cur.ss_flags);
}

/* Inside the SA_ONSTACK handler: the stack cannot change under it. */
static void segv_on_alt_stack(int sig, siginfo_t *si, void *uc)
{
	stack_t cur, ss = { alt_stack, 0, sizeof(alt_stack) };
	volatile char here;

	hits++;
	CHECK(on_alt_stack((unsigned long)&here), "SIGSEGV handler at %p", &here);
	CHECK(sigaltstack(NULL, &cur) == 0 && cur.ss_flags == SS_ONSTACK, "flags %d",
	      cur.ss_flags);
	CHECK(sigaltstack(&ss, NULL) == -EPERM, "changed while on it");
	longjmp(env, 1);
}

/* Without end on purpose: the stack runs out. */
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static __attribute__((noinline)) int recurse(int n)
{
	volatile char frame[512];

	frame[0] = n;
	return recurse(n + 1) + frame[0];
}

static void mode_overflow(void)
{
	struct sigaction sa = { .sa_sigaction = segv_on_alt_stack,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t ss = { alt_stack, 0, sizeof(alt_stack) };
	sigset_t segv;

	CHECK(sigaltstack(&ss, NULL) == 0, "sigaltstack");
	sigaction(SIGSEGV, &sa, NULL);
	if (setjmp(env) == 0)
		recurse(0);
	CHECK(hits == 1, "hits %d", hits);
	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	sigprocmask(SIG_UNBLOCK, &segv, NULL);	/* longjmp left the handler's mask */
	printf("sigcalls overflow: survived a stack overflow\n");
}

static const struct {
	const char *name;
	void (*fn)(void);
} modes[] = {
	{ "restart", mode_restart }, { "eintr", mode_eintr }, { "pause", mode_pause },
	{ "sigsuspend", mode_sigsuspend }, { "sigtimedwait", mode_sigtimedwait },
	{ "tkill", mode_tkill }, { "sigpipe", mode_sigpipe }, { "nanosleep", mode_nanosleep },
	{ "altstack", mode_altstack }, { "overflow", mode_overflow },
};

int main(int argc, char **argv)
{
	unsigned int i;

	for (i = 0; argc == 2 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(argv[1], modes[i].name))
			continue;
		mode = argv[1];
		modes[i].fn();
		printf("sigcalls %s: %s\n", mode, failures ? "FAIL" : "ok");
		return failures ? 1 : 0;
	}
	printf("usage: sigcalls MODE; modes:");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		printf(" %s", modes[i].name);
	printf("\n");
	return 2;
}
