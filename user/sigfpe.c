/*
 * sigfpe - a SIGFPE handler that skips the faulting instruction.
 *
 * 100 / 0 raises #DE in ring 3; the kernel sends SIGFPE (FPE_INTDIV)
 * and builds an rt_sigframe on our stack.  The handler finds the
 * divide's address in the saved registers (uc_mcontext.ip), steps ip
 * over the two-byte "divl %ecx", and puts a result of its choosing in
 * the saved %eax; rt_sigreturn loads them back and the program goes on
 * after the divide as if it had produced that result.
 */
#include "ulib.h"

#define DIVL_ECX_BYTES	2	/* f7 f1 */
#define SKIPPED_RESULT	-1

static void fpe_handler(int sig, siginfo_t *si, void *ucv)
{
	struct sigcontext *sc = &((struct ucontext *)ucv)->uc_mcontext;

	printf("sigfpe: SIGFPE (si_code %d, FPE_INTDIV) at ip %08lx, trapno %lu: skipping the divide\n",
	       si->si_code, sc->ip, sc->trapno);
	sc->ip += DIVL_ECX_BYTES;
	sc->ax = SKIPPED_RESULT;
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = fpe_handler, .sa_flags = SA_SIGINFO };
	unsigned int q = 100, r = 0, d = 0;

	sigaction(SIGFPE, &sa, NULL);
	printf("sigfpe: 100 / 0\n");
	__asm__ __volatile__("divl %%ecx" : "+a"(q), "+d"(r) : "c"(d));
	printf("sigfpe: went on after the divide, quotient %d\n", (int)q);
	return 0;
}
