/*
 * sigforge [-catch] FIELD - a forged sigreturn: the SIGUSR1 handler
 * rewrites one field of the sigcontext the kernel saved, then returns
 * through rt_sigreturn, which must refuse it or make it harmless
 * (arch/i386/signal.c, restore_sigcontext(); docs/signals.md).
 *
 *   selectors: cs_kernel cs_data ss_kernel ds_kernel fs_percpu gs_tss
 *              refused: SIGSEGV, "bad frame in rt_sigreturn"
 *   ip_kernel, sp_kernel: taken, and ring 3 faults on them: SIGSEGV
 *   flags_iopl flags_nt flags_vm flags_noif: the bits are not taken; the
 *              program goes on and shows its EFLAGS
 *   flags_tf:  taken, as Linux: SIGTRAP after one instruction
 *   srop_ok, srop_cs: no signal at all, a frame built by hand and
 *              rt_sigreturn called: valid, it lands where it says; with
 *              the kernel's cs, refused
 *   unmapped:  rt_sigreturn with the stack pointer on no page
 *
 * -catch installs a SIGSEGV handler that checks what the refused call
 * left: the registers of the rt_sigreturn call itself (ip in
 * __restore_rt, eax its number) and SIGUSR1 still blocked - nothing of
 * the forged frame was taken - then exits 0.
 */
#include <stdbool.h>
#include "ulib.h"
#include <asm/segment.h>
#include <asm/processor.h>
#include <asm/unistd_32.h>

#define KERNEL_TEXT	0x00100000ul	/* where the kernel is loaded: supervisor pages */

static const char *field;
void __restore_rt(void);
extern char __restore_rt_end[];

static void forge(struct sigcontext *sc)
{
	if (!strcmp(field, "cs_kernel"))
		sc->cs = __KERNEL_CS;
	else if (!strcmp(field, "cs_data"))
		sc->cs = __USER_DS;
	else if (!strcmp(field, "ss_kernel"))
		sc->ss = __KERNEL_DS;
	else if (!strcmp(field, "ds_kernel"))
		sc->ds = __KERNEL_DS;
	else if (!strcmp(field, "fs_percpu"))
		sc->fs = __KERNEL_PERCPU;
	else if (!strcmp(field, "gs_tss"))
		sc->gs = __TSS_SEL;
	else if (!strcmp(field, "ip_kernel"))
		sc->ip = KERNEL_TEXT;
	else if (!strcmp(field, "sp_kernel"))
		sc->sp = KERNEL_TEXT;
	else if (!strcmp(field, "flags_iopl"))
		sc->flags |= X86_EFLAGS_IOPL;
	else if (!strcmp(field, "flags_nt"))
		sc->flags |= X86_EFLAGS_NT;
	else if (!strcmp(field, "flags_vm"))
		sc->flags |= X86_EFLAGS_VM;
	else if (!strcmp(field, "flags_noif"))
		sc->flags &= ~X86_EFLAGS_IF;
	else if (!strcmp(field, "flags_tf"))
		sc->flags |= X86_EFLAGS_TF;
}

static void usr1_handler(int sig, siginfo_t *si, void *uc)
{
	forge(&((struct ucontext *)uc)->uc_mcontext);
}

/* -catch: the refused rt_sigreturn changed nothing. */
static void segv_handler(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;
	struct sigcontext *sc = &uc->uc_mcontext;
	bool in_restorer = sc->ip > (unsigned long)__restore_rt &&
			   sc->ip <= (unsigned long)__restore_rt_end;

	printf("sigforge %s: SIGSEGV, code %d, at ip %08lx eax %lu, SIGUSR1 %s\n", field,
	       si->si_code, sc->ip, sc->ax,
	       sigismember(&uc->uc_sigmask, SIGUSR1) ? "still blocked" : "unblocked");
	if (in_restorer && sc->ax == __NR_rt_sigreturn && sigismember(&uc->uc_sigmask, SIGUSR1)) {
		printf("sigforge %s: refused, nothing restored\n", field);
		exit(0);
	}
	if (sc->trapno == 14 && sc->ip == KERNEL_TEXT && sc->cr2 == KERNEL_TEXT) {
		printf("sigforge %s: ring 3 faulted fetching the kernel's text, cr2 %08lx err %lx\n",
		       field, sc->cr2, sc->err);
		exit(0);
	}
	exit(3);
}

static void landed(void)
{
	printf("sigforge %s: rt_sigreturn landed in landed()\n", field);
	exit(0);
}

/* A whole rt frame built by hand; rt_sigreturn with the stack pointer just past pretcode. */
static void srop(unsigned short cs)
{
	static struct rt_sigframe f __attribute__((aligned(16)));
	static char stack[1024] __attribute__((aligned(16)));

	memset(&f, 0, sizeof(f));
	f.uc.uc_mcontext.cs = cs;
	f.uc.uc_mcontext.ss = f.uc.uc_mcontext.ds = f.uc.uc_mcontext.es = __USER_DS;
	f.uc.uc_mcontext.fs = f.uc.uc_mcontext.gs = __USER_DS;
	f.uc.uc_mcontext.ip = (unsigned long)landed;
	f.uc.uc_mcontext.sp = (unsigned long)(stack + sizeof(stack) - 16);
	f.uc.uc_mcontext.flags = X86_EFLAGS_FIXED | X86_EFLAGS_IF;
	__asm__ __volatile__("movl %0, %%esp; movl %1, %%eax; int $0x80"
			     : : "r"(&f.sig), "i"(__NR_rt_sigreturn) : "memory");
}

static void show_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfl; popl %0" : "=r"(flags));
	printf("sigforge %s: survived, eflags %08lx: IOPL %lu NT %d IF %d\n", field, flags,
	       (flags & X86_EFLAGS_IOPL) >> 12, !!(flags & X86_EFLAGS_NT),
	       !!(flags & X86_EFLAGS_IF));
}

int main(int argc, char **argv)
{
	struct sigaction usr1 = { .sa_sigaction = usr1_handler, .sa_flags = SA_SIGINFO };
	struct sigaction segv = { .sa_sigaction = segv_handler, .sa_flags = SA_SIGINFO };
	bool catch = argc == 3 && !strcmp(argv[1], "-catch");

	if (argc != 2 && !catch) {
		printf("usage: sigforge [-catch] FIELD\n");
		return 2;
	}
	field = argv[argc - 1];
	if (catch)
		sigaction(SIGSEGV, &segv, NULL);
	if (!strcmp(field, "srop_ok") || !strcmp(field, "srop_cs"))
		srop(field[5] == 'o' ? __USER_CS : __KERNEL_CS);
	if (!strcmp(field, "unmapped"))
		__asm__ __volatile__("movl %0, %%esp; movl %1, %%eax; int $0x80"
				     : : "i"(KERNEL_TEXT), "i"(__NR_rt_sigreturn));
	sigaction(SIGUSR1, &usr1, NULL);
	raise(SIGUSR1);
	show_flags();
	return 0;
}
