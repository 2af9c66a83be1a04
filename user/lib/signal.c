/*
 * signal.c - the C library's side of signals: sigaction() gives the
 * kernel a restorer (SA_RESTORER, user/lib/sigrestore.S), as glibc's
 * does, so the handler's return goes through code of the program's own
 * rather than the trampoline the kernel writes on the stack.
 */
#include "ulib.h"

void __restore_rt(void);
void __restore(void);

int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction k;

	if (!act)
		return rt_sigaction(sig, NULL, oact, sizeof(sigset_t));
	k = *act;
	if (!(k.sa_flags & SA_RESTORER)) {
		k.sa_flags |= SA_RESTORER;
		k.sa_restorer = (k.sa_flags & SA_SIGINFO) ? __restore_rt : __restore;
	}
	return rt_sigaction(sig, &k, oact, sizeof(sigset_t));
}

/* glibc's signal(): BSD semantics - a slow call the handler interrupted starts again. */
__sighandler_t signal(int sig, __sighandler_t handler)
{
	struct sigaction act = { .sa_handler = handler, .sa_flags = SA_RESTART }, old;

	if (sigaction(sig, &act, &old))
		return (__sighandler_t)-1;	/* SIG_ERR */
	return old.sa_handler;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return rt_sigprocmask(how, set, old, sizeof(sigset_t));
}

int sigemptyset(sigset_t *set)
{
	memset(set, 0, sizeof(*set));
	return 0;
}

int sigaddset(sigset_t *set, int sig)
{
	set->sig[(sig - 1) / _NSIG_BPW] |= 1UL << ((sig - 1) % _NSIG_BPW);
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	return set->sig[(sig - 1) / _NSIG_BPW] >> ((sig - 1) % _NSIG_BPW) & 1;
}

int raise(int sig)
{
	return kill(getpid(), sig);
}

int sigsuspend(const sigset_t *mask)
{
	return rt_sigsuspend(mask, sizeof(sigset_t));
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	return rt_sigtimedwait(set, info, timeout, sizeof(sigset_t));
}
