/*
 * signal.c - the x86 half of signals: running a handler in ring 3 and
 * coming back from it (Linux's arch/x86/kernel/signal.c and
 * signal_32.c; docs/signals.md).
 *
 * On the way back to ring 3 (exit_to_user_mode()), a signal with a
 * handler makes the kernel write a frame on the user stack - the
 * registers the trap saved (struct sigcontext), the blocked mask, the
 * siginfo - and change the trap frame so that iret lands on the
 * handler, with the frame as its stack: as if the interrupted code had
 * called handler(sig, ...) with a return address that leads to
 * sigreturn.  sigreturn reads the frame back into the trap frame, and
 * iret resumes the interrupted code - or code the handler chose, for
 * it may change the saved registers.
 *
 * That is the danger: sigreturn loads whatever the user stack holds
 * into the frame iret uses.  iret itself, with a ring-3 %cs, will not
 * enter ring 0; but a selector iret cannot load makes iret fault in
 * the kernel, and EFLAGS bits such as IOPL (port access), VM (vm86
 * mode) or NT (a task switch on the next iret) are not the program's
 * to set.  restore_sigcontext() refuses the first and keeps the second
 * (FIX_EFLAGS).  An ip or sp pointing into the kernel passes: the
 * first instruction fetch or stack access in ring 3 page-faults (the
 * kernel's pages are supervisor-only), and the process gets SIGSEGV.
 *
 * The return trampoline.  The handler returns to pretcode: the
 * program's SA_RESTORER (the C library's __restore_rt, as glibc always
 * gives), or else, as on Linux, the vDSO's __kernel_rt_sigreturn (or
 * __kernel_sigreturn): "movl $__NR_rt_sigreturn, %eax; int $0x80" in
 * the page the kernel maps into every process (arch/i386/vdso.c).  The
 * frame still holds the same bytes, retcode, as Linux's does: gdb
 * recognises a signal frame by them; and a process without a vDSO
 * (it unmapped it) returns through them - this kernel's 32-bit
 * non-PAE page tables have no NX bit, so the stack can run them, as
 * Linux 2.4's did.
 */
#include <asm/tls.h>
#include "kernel.h"
#include "signal.h"
#include "process.h"
#include "sched.h"
#include "syscalls.h"
#include "uaccess.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include <asm/sigframe.h>
#include <asm/segment.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/unistd_32.h>
#include <asm/fpu.h>
#include <asm/vdso.h>

/*
 * The EFLAGS bits a handler may change through the sigcontext (Linux's
 * FIX_EFLAGS, 32-bit): the arithmetic flags, DF, AC, TF and RF.  TF
 * restored set makes the CPU trap after one instruction: a SIGTRAP, as
 * Linux does.  Every other bit - IF, IOPL, NT, VM, ID - stays as the
 * kernel had it.
 */
#define FIX_EFLAGS	(X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF | \
			 X86_EFLAGS_SF | X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF | \
			 X86_EFLAGS_CF | X86_EFLAGS_RF)

/* The i386 ABI: at a function's entry, (sp + 4) is 16-byte aligned. */
#define FRAME_ALIGNMENT	16

/* Opcodes of the stack trampolines (retcode). */
#define OPCODE_POPL_EAX		0x58
#define OPCODE_MOVL_IMM_EAX	0xb8
#define OPCODE_INT		0xcd
#define IA32_SYSCALL_VECTOR_BYTE 0x80
#define INT80_INSN_BYTES	2	/* int $0x80: cd 80 */

/* Linux's setup_sigcontext(): the trapped registers, and why we trapped. */
static void setup_sigcontext(struct sigcontext *sc, const struct pt_regs *regs,
			     unsigned long mask)
{
	const struct thread_trap_info *trap = &current->signal.trap;

	memset(sc, 0, sizeof(*sc));
	sc->gs = regs->gs;
	sc->fs = regs->fs;
	sc->es = regs->es;
	sc->ds = regs->ds;
	sc->di = regs->di;
	sc->si = regs->si;
	sc->bp = regs->bp;
	sc->sp = regs->sp;
	sc->bx = regs->bx;
	sc->dx = regs->dx;
	sc->cx = regs->cx;
	sc->ax = regs->ax;
	sc->trapno = trap->trap_nr;
	sc->err = trap->error_code;
	sc->ip = regs->ip;
	sc->cs = regs->cs;
	sc->flags = regs->flags;
	sc->sp_at_signal = regs->sp;
	sc->ss = regs->ss;
	sc->fpstate = 0;		/* get_sigframe() says where */
	sc->oldmask = mask;
	sc->cr2 = trap->cr2;
}

/*
 * Below the interrupted stack pointer, aligned as a called function's;
 * or, for an SA_ONSTACK handler, at the top of the alternate stack
 * (sigaltstack()) unless the process is already on it - a signal that
 * comes while a handler runs there nests below that handler's frame.
 * The stack overflowed is what it is for: a SIGSEGV handler needs a
 * stack that is not the one it is about.
 */
static unsigned long get_sigframe(const struct ksignal *ksig, const struct pt_regs *regs,
				  size_t frame_size, unsigned long *fpstate)
{
	unsigned long sp = regs->sp, buf_fx;

	if ((ksig->ka.sa_flags & SA_ONSTACK) && sas_ss_flags(sp) == 0)
		sp = current->signal.sas_ss_sp + current->signal.sas_ss_size;
	sp = *fpstate = fpu__alloc_mathframe(sp, &buf_fx);	/* the FPU state first, above */
	sp -= frame_size;
	return ((sp + sizeof(long)) & -FRAME_ALIGNMENT) - sizeof(long);
}

/* A movl's immediate: four bytes, least significant first, at any alignment. */
static void retcode_imm32(unsigned char *p, unsigned long v)
{
	memcpy(p, &v, sizeof(uint32_t));	/* x86 is little-endian */
}

/* pretcode: SA_RESTORER's, else the vDSO's trampoline (vdso_offset), else retcode. */
static unsigned long restorer_or(const struct ksignal *ksig, unsigned long vdso_offset,
				 unsigned long retcode)
{
	unsigned long vdso = vdso_symbol(current->mm, vdso_offset);

	if (ksig->ka.sa_flags & SA_RESTORER)
		return (unsigned long)ksig->ka.sa_restorer;
	return vdso ? vdso : retcode;
}

/* The trap frame iret will use: the handler, on the new frame, ring 3's segments. */
static void enter_handler(struct pt_regs *regs, const struct ksignal *ksig,
			  unsigned long frame, unsigned long dx, unsigned long cx)
{
	regs->sp = frame;
	regs->ip = (unsigned long)ksig->ka.sa_handler;
	regs->ax = ksig->sig;	/* for a handler built -mregparm=3: (sig, info, uc) */
	regs->dx = dx;
	regs->cx = cx;
	regs->ds = regs->es = __USER_DS;
	regs->ss = __USER_DS;
	regs->cs = __USER_CS;
}

/* Linux's __setup_frame(): handler(int sig), and sigreturn after it. */
static int setup_frame(const struct ksignal *ksig, const sigset_t *set, struct pt_regs *regs)
{
	unsigned long fpstate, addr = get_sigframe(ksig, regs, sizeof(struct sigframe), &fpstate);
	struct sigframe *f = (struct sigframe *)addr;
	struct sigframe frame;

	if (copy_fpstate_to_sigframe(fpstate))
		return -EFAULT;
	memset(&frame, 0, sizeof(frame));
	frame.sig = ksig->sig;
	setup_sigcontext(&frame.sc, regs, set->sig[0]);
	frame.sc.fpstate = fpstate;
	frame.extramask[0] = set->sig[1];
	/* popl %eax (the sig argument); movl $__NR_sigreturn, %eax; int $0x80 */
	frame.retcode[0] = OPCODE_POPL_EAX;
	frame.retcode[1] = OPCODE_MOVL_IMM_EAX;
	retcode_imm32(&frame.retcode[2], __NR_sigreturn);
	frame.retcode[6] = OPCODE_INT;
	frame.retcode[7] = IA32_SYSCALL_VECTOR_BYTE;
	frame.pretcode = restorer_or(ksig, vdso_image()->sym___kernel_sigreturn,
				     (unsigned long)f->retcode);
	if (copy_to_user(f, &frame, sizeof(frame)))
		return -EFAULT;
	signal_narrate_frame(ksig->sig, &ksig->ka, addr, sizeof(frame), regs, frame.pretcode);
	enter_handler(regs, ksig, addr, 0, 0);
	return 0;
}

/* Linux's __setup_rt_frame(): handler(int sig, siginfo_t *info, void *uc). */
static int setup_rt_frame(const struct ksignal *ksig, const sigset_t *set, struct pt_regs *regs)
{
	unsigned long fpstate, addr = get_sigframe(ksig, regs, sizeof(struct rt_sigframe), &fpstate);
	struct rt_sigframe *f = (struct rt_sigframe *)addr;
	struct rt_sigframe frame;

	if (copy_fpstate_to_sigframe(fpstate))
		return -EFAULT;
	memset(&frame, 0, sizeof(frame));
	frame.sig = ksig->sig;
	frame.pinfo = (unsigned long)&f->info;
	frame.puc = (unsigned long)&f->uc;
	copy_siginfo_to_external(&frame.info, &ksig->info);
	/* The alternate stack as it was, and whether the interrupted code ran on it. */
	frame.uc.uc_stack.ss_sp = (void *)current->signal.sas_ss_sp;
	frame.uc.uc_stack.ss_size = current->signal.sas_ss_size;
	frame.uc.uc_stack.ss_flags = sas_ss_flags(regs->sp);
	setup_sigcontext(&frame.uc.uc_mcontext, regs, set->sig[0]);
	frame.uc.uc_mcontext.fpstate = fpstate;
	frame.uc.uc_sigmask = *set;
	/* movl $__NR_rt_sigreturn, %eax; int $0x80 */
	frame.retcode[0] = OPCODE_MOVL_IMM_EAX;
	retcode_imm32(&frame.retcode[1], __NR_rt_sigreturn);
	frame.retcode[5] = OPCODE_INT;
	frame.retcode[6] = IA32_SYSCALL_VECTOR_BYTE;
	frame.pretcode = restorer_or(ksig, vdso_image()->sym___kernel_rt_sigreturn,
				     (unsigned long)f->retcode);
	if (copy_to_user(f, &frame, sizeof(frame)))
		return -EFAULT;
	signal_narrate_frame(ksig->sig, &ksig->ka, addr, sizeof(frame), regs, frame.pretcode);
	enter_handler(regs, ksig, addr, frame.pinfo, frame.puc);
	return 0;
}

/* Back to the int $0x80 (two bytes, cd 80) with the call's number: it runs again. */
static void restart_syscall_insn(struct pt_regs *regs)
{
	regs->ax = regs->orig_ax;
	regs->ip -= INT80_INSN_BYTES;
}

/*
 * A slow system call a signal interrupted, with a handler to run
 * (Linux's handle_signal()): -EINTR, or - for -ERESTARTSYS under
 * SA_RESTART, and always for -ERESTARTNOINTR - the call again, after
 * the handler: the frame saves the registers of the int $0x80 itself.
 */
static void syscall_restart_for_handler(const struct ksignal *ksig, struct pt_regs *regs)
{
	switch ((long)regs->ax) {
	case -ERESTART_RESTARTBLOCK:
	case -ERESTARTNOHAND:
		regs->ax = -EINTR;
		break;
	case -ERESTARTSYS:
		if (!(ksig->ka.sa_flags & SA_RESTART)) {
			regs->ax = -EINTR;
			break;
		}
		restart_syscall_insn(regs);
		break;
	case -ERESTARTNOINTR:
		restart_syscall_insn(regs);
		break;
	}
}

/*
 * No handler ran (the signal was ignored, or nothing was pending): the
 * call starts again, as if never interrupted.  -ERESTART_RESTARTBLOCK
 * is not returned here (nanosleep gives -EINTR and the time left), so
 * restart_syscall() is not needed.
 */
static void syscall_restart_without_handler(struct pt_regs *regs)
{
	switch ((long)regs->ax) {
	case -ERESTARTNOHAND:
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
		restart_syscall_insn(regs);
		break;
	case -ERESTART_RESTARTBLOCK:
		regs->ax = -EINTR;
		break;
	}
}

/*
 * Linux's handle_signal().  SA_SIGINFO chooses the rt frame.  A stack
 * the frame cannot be written to (overflowed, or a forged sp) is
 * SIGSEGV.  The handler starts with DF clear (the ABI's function
 * entry), RF clear, and TF clear: a SIGTRAP handler must not trap
 * after its own first instruction.
 */
static void handle_signal(struct ksignal *ksig, struct pt_regs *regs)
{
	sigset_t set = *sigmask_to_save();	/* what sigreturn restores */
	int failed;

	current->signal.restore_sigmask = false;	/* the frame has sigsuspend()'s mask now */
	if (current->signal.in_syscall) {
		syscall_restart_for_handler(ksig, regs);
		current->signal.in_syscall = false;	/* one fixup: the next frame saves this one's regs */
	}

	if (ksig->ka.sa_flags & SA_SIGINFO)
		failed = setup_rt_frame(ksig, &set, regs);
	else
		failed = setup_frame(ksig, &set, regs);
	if (failed) {
		force_sigsegv(ksig->sig, "no room for a signal frame");
		return;
	}
	regs->flags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	signal_delivered(ksig->sig, &ksig->ka);
	signal_narrate_entry(regs);
}

/*
 * Every deliverable signal gets its frame, each on top of the last:
 * the handler of the last one runs first, and its sigreturn leads
 * into the one before.  A system call a signal interrupted ends as
 * the first handler's SA_RESTART says (handle_signal()), or, with no
 * handler at all, starts again (Linux's arch_do_signal_or_restart()).
 */
void arch_do_signal_or_restart(struct pt_regs *regs)
{
	struct ksignal ksig;

	while (get_signal(&ksig, regs))
		handle_signal(&ksig, regs);
	if (current->signal.in_syscall)
		syscall_restart_without_handler(regs);
	current->signal.in_syscall = false;
	restore_saved_sigmask();
}

/* A selector iret can load for ring 3: the user's, or a null one (data only). */
static const char *check_selector(unsigned short sel, unsigned short user, bool may_be_null)
{
	sel |= USER_RPL;
	if (sel == user || (may_be_null && sel == USER_RPL))
		return NULL;
	return "not a user selector";
}

/*
 * What restore_sigcontext() refuses: a selector other than ring 3's
 * (with the RPL forced to 3, as Linux's COPY_SEG_CPL3: a forged RPL 0
 * is only made 3).  iret would fault on one - in the kernel, on the
 * kernel's stack - and Linux relies on a fixup there; this kernel
 * checks first.  NULL, or which field.
 */
static const char *check_sigcontext(const struct sigcontext *sc, const char **field)
{
	const char *why;

	*field = "cs";
	if ((why = check_selector(sc->cs, __USER_CS, false)))
		return why;
	*field = "ss";
	if ((why = check_selector(sc->ss, __USER_DS, false)))
		return why;
	*field = "ds";
	if ((why = check_selector(sc->ds, __USER_DS, true)))
		return why;
	*field = "es";
	if ((why = check_selector(sc->es, __USER_DS, true)))
		return why;
	*field = "fs";
	if (!tls_selector_usable(sc->fs) && (why = check_selector(sc->fs, __USER_DS, true)))
		return why;
	*field = "gs";	/* glibc's %gs is a TLS entry (arch/i386/tls.c) */
	if (tls_selector_usable(sc->gs))
		return NULL;
	return check_selector(sc->gs, __USER_DS, true);
}

/* Linux's restore_sigcontext(), once check_sigcontext() passed. */
static void restore_sigcontext(struct pt_regs *regs, const struct sigcontext *sc)
{
	regs->gs = sc->gs | USER_RPL;
	regs->fs = sc->fs | USER_RPL;
	regs->es = sc->es | USER_RPL;
	regs->ds = sc->ds | USER_RPL;
	regs->di = sc->di;
	regs->si = sc->si;
	regs->bp = sc->bp;
	regs->sp = sc->sp;
	regs->bx = sc->bx;
	regs->dx = sc->dx;
	regs->cx = sc->cx;
	regs->ax = sc->ax;
	regs->ip = sc->ip;
	regs->cs = sc->cs | USER_RPL;
	regs->ss = sc->ss | USER_RPL;
	regs->flags = (regs->flags & ~FIX_EFLAGS) | (sc->flags & FIX_EFLAGS);
	regs->orig_ax = -1;	/* no system call to restart: */
	current->signal.in_syscall = false;	/* ax is the interrupted code's, not a result */
}

/*
 * Linux's signal_fault(): a frame sigreturn cannot use.  One line (as
 * Linux's with show_unhandled_signals), and SIGSEGV; the registers,
 * the mask and %eax are as they were before the call: nothing of the
 * forged frame was taken.
 */
static long signal_fault(struct pt_regs *regs, const char *where, unsigned long frame,
			 const char *field, const char *why)
{
	char reason[64];

	snprintf(reason, sizeof(reason), "%s%s%s", field ? field : "", field ? ": " : "", why);
	printk("%s[%d] bad frame in %s frame:%08lx ip:%08lx sp:%08lx (%s)\n",
	       current->comm, current->pid, where, frame, regs->ip, regs->sp, reason);
	signal_narrate_return(where, frame, regs, reason);
	force_sigsegv(0, "bad frame in sigreturn");
	return regs->ax;
}

/*
 * Both sigreturns: check everything, then take the mask, the registers
 * and (rt) the alternate stack - Linux's restore_altstack(): a handler
 * may have changed it in uc_stack.  Its errors are dropped, as Linux's:
 * returning onto the alternate stack (a nested handler's return) it
 * cannot change (-EPERM) and stays.
 */
static long do_sigreturn(struct pt_regs *regs, const char *where, unsigned long frame,
			 const struct sigcontext *sc, sigset_t *set, const stack_t *stack)
{
	const char *field, *why = check_sigcontext(sc, &field);
	struct fpu_state fpu;

	if (why)
		return signal_fault(regs, where, frame, field, why);
	if (fpu__read_sig(sc->fpstate, &fpu))
		return signal_fault(regs, where, frame, "fpstate", "unreadable");
	set_current_blocked(set);
	restore_sigcontext(regs, sc);
	fpu__restore_sig(&fpu);
	if (stack)
		do_sigaltstack(stack, NULL, regs->sp);
	signal_narrate_return(where, frame, regs, NULL);
	return regs->ax;
}

/*
 * The handler's ret popped pretcode, and the restorer's popl %eax the
 * sig argument: the frame starts 8 bytes below the stack pointer.
 */
asmlinkage long sys_sigreturn(void)
{
	struct pt_regs *regs = current_pt_regs();
	unsigned long addr = regs->sp - 2 * sizeof(long);
	struct sigframe frame;
	sigset_t set;

	if (copy_from_user(&frame, (void __user *)addr, sizeof(frame)))
		return signal_fault(regs, "sigreturn", addr, NULL, "unreadable");
	set.sig[0] = frame.sc.oldmask;
	set.sig[1] = frame.extramask[0];
	return do_sigreturn(regs, "sigreturn", addr, &frame.sc, &set, NULL);
}

/* The handler's ret popped pretcode: the frame starts 4 bytes below. */
asmlinkage long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = current_pt_regs();
	unsigned long addr = regs->sp - sizeof(long);
	struct rt_sigframe frame;


	if (copy_from_user(&frame, (void __user *)addr, sizeof(frame)))
		return signal_fault(regs, "rt_sigreturn", addr, NULL, "unreadable");
	return do_sigreturn(regs, "rt_sigreturn", addr, &frame.uc.uc_mcontext,
			    &frame.uc.uc_sigmask, &frame.uc.uc_stack);
}
