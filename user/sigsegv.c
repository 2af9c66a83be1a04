/*
 * sigsegv - a SIGSEGV handler that repairs the fault and retries.
 *
 * A load through a NULL pointer faults (#PF, error 4: a user read of a
 * page not present, CR2 0).  The handler gets SIGSEGV (SEGV_MAPERR,
 * si_addr 0) and the saved registers; it cannot map the page (this
 * kernel has no mmap() yet), so it fixes the register instead: the
 * pointer in the saved %ebx now points at real data.  rt_sigreturn
 * restores ip unchanged, so the CPU runs the same load again, and this
 * time it succeeds.
 */
#include "ulib.h"

static int rescue = 4242;

static void segv_handler(int sig, siginfo_t *si, void *ucv)
{
	struct sigcontext *sc = &((struct ucontext *)ucv)->uc_mcontext;

	printf("sigsegv: SIGSEGV (si_code %d) at ip %08lx for address %p: cr2 %08lx err %lx\n",
	       si->si_code, sc->ip, si->si_addr, sc->cr2, sc->err);
	printf("sigsegv: %%ebx was %08lx; pointing it at real data and retrying\n", sc->bx);
	sc->bx = (unsigned long)&rescue;
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = segv_handler, .sa_flags = SA_SIGINFO };
	int v;

	sigaction(SIGSEGV, &sa, NULL);
	printf("sigsegv: reading through a NULL pointer\n");
	__asm__ __volatile__("movl (%%ebx), %0" : "=a"(v) : "b"(0) : "memory");
	printf("sigsegv: the retried load read %d\n", v);
	return 0;
}
