/*
 * sigsegv - SIGSEGV handlers that repair the fault and retry, two ways.
 *
 * 1. A load through a NULL pointer faults (#PF, error 4: a user read of
 *    a page not present, CR2 0).  The handler gets SIGSEGV (SEGV_MAPERR,
 *    si_addr 0) and the saved registers.  Page 0 is never mapped, so it
 *    fixes the register instead: the pointer in the saved %ebx now
 *    points at real data.  rt_sigreturn restores ip unchanged, so the
 *    CPU runs the same load again, and this time it succeeds.
 * 2. A store into a page mapped PROT_NONE faults (#PF, error 6 on this
 *    kernel: the page is not present to ring 3; SEGV_ACCERR: the area
 *    is there, the access is not allowed).  The handler mprotect()s the
 *    page writable and returns; the store is retried and lands.  This is
 *    how garbage collectors and user-space pagers use SIGSEGV.
 */
#include "ulib.h"

static int rescue = 4242;
static char *guarded;		/* part 2's page, PROT_NONE until the handler opens it */

static void segv_handler(int sig, siginfo_t *si, void *ucv)
{
	struct sigcontext *sc = &((struct ucontext *)ucv)->uc_mcontext;

	printf("sigsegv: SIGSEGV (si_code %d) at ip %08lx for address %p: cr2 %08lx err %lx\n",
	       si->si_code, sc->ip, si->si_addr, sc->cr2, sc->err);
	if (guarded && (char *)si->si_addr == guarded) {
		printf("sigsegv: the page is ours: mprotect() it writable and retry\n");
		if (mprotect(guarded, 4096, PROT_READ | PROT_WRITE))
			exit(3);
		return;
	}
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

	guarded = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guarded == MAP_FAILED)
		return 2;
	printf("sigsegv: writing into a PROT_NONE page\n");
	*(volatile char *)guarded = 'x';
	printf("sigsegv: the retried store wrote '%c'\n", *guarded);
	return 0;
}
