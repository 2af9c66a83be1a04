/*
 * signal.c - what happens to a process that takes an exception in
 * ring 3, and to one that is killed.
 *
 * Linux turns a user-mode exception into a signal (do_trap() ->
 * force_sig_fault()): a #PF becomes SIGSEGV, a #DE SIGFPE, and so on.
 * A program may catch one; this kernel has no handlers, so the
 * signal's default action always applies: the process dies, with a
 * one-line report in the spirit of Linux's "segfault at ..." line (its
 * show_signal_msg()).  The kernel, and every other process, go on: the
 * fault was the process's, and nothing of the kernel's was half done.
 */
#include "kernel.h"
#include "process.h"
#include "sched.h"
#include "mm_types.h"
#include <asm/traps.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "errno.h"
#include "timer.h"
#include "vsprintf.h"
#include "nokprobe.h"
#include "uprobes.h"

const char *signal_name(int sig)
{
	switch (sig) {
	case SIGILL:  return "SIGILL";
	case SIGTRAP: return "SIGTRAP";
	case SIGBUS:  return "SIGBUS";
	case SIGFPE:  return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	case SIGSEGV: return "SIGSEGV";
	default:      return "signal ?";
	}
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

/* For a page fault: the address, and whether it hit the stack's guard page. */
static void describe_user_fault(struct pt_regs *regs, unsigned long vector,
				char *buf, size_t size)
{
	unsigned long addr = read_cr2();

	if (vector != X86_TRAP_PF) {
		snprintf(buf, size, "error %lx", regs->orig_ax);
		return;
	}
	snprintf(buf, size, "error %lx at %08lx%s", regs->orig_ax, addr,
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

void force_sig_fault(struct pt_regs *regs, unsigned long vector)
{
	char what[64];

	uprobe_abort_xol(regs);		/* a fault in a uprobe's step: name the probed insn */
	describe_user_fault(regs, vector, what, sizeof(what));
	fatal_signal(regs, trap_signal(vector), trap_name(vector), what);
}
NOKPROBE_SYMBOL(force_sig_fault);

/*
 * A process that got into virtual-8086 mode.  A CPU enters vm86 from
 * ring 3 never (iret at CPL > 0 leaves EFLAGS.VM alone), but QEMU's
 * emulated CPU does; this kernel has no vm86 support (Linux's
 * CONFIG_VM86=n) and nothing the process could want there, so any trap
 * from vm86 code ends it: SIGSEGV, before any iret could go back to
 * that frame.
 */
void force_sig_vm86(struct pt_regs *regs)
{
	char what[32];

	snprintf(what, sizeof(what), "cs %04x: no vm86 support", regs->cs);
	fatal_signal(regs, SIGSEGV, "virtual-8086 mode", what);
}
NOKPROBE_SYMBOL(force_sig_vm86);

struct kill_req {
	int pid;
	int ret;
};

/*
 * Under the run-queue lock: the task cannot go away while we mark it.
 * A process just spawned may not have run yet, so it has no mm: it is
 * still a process (task_is_process()), and it dies on its first trap
 * back from ring 3.  (Testing t->mm here lost a kill - a Ctrl-C - sent
 * in that window.)
 */
static void mark_killed(struct task_struct *t, void *arg)
{
	struct kill_req *req = arg;

	if (t->pid != req->pid || t->state == TASK_DEAD)
		return;
	if (!task_is_process(t)) {
		req->ret = -EPERM;
		return;
	}
	t->sigkill_pending = 1;
	if (t->state == TASK_SLEEPING)
		t->wake_at = jiffies;	/* the next tick wakes it */
	req->ret = 0;
}

int kill_pid(int pid)
{
	struct kill_req req = { .pid = pid, .ret = -ESRCH };

	for_each_task(mark_killed, &req);
	return req.ret;
}

/*
 * Linux's exit_to_user_mode(): the last look before iret to ring 3.  A
 * process runs nothing of the kernel's here - no lock, no half-done
 * work - so this is where a kill can end it cleanly, and where a frame
 * from vm86 mode, whatever trap brought it (an interrupt, an exception
 * a notifier claimed), ends its process.
 */
void exit_to_user_mode(struct pt_regs *regs)
{
	if (v8086_mode(regs))
		force_sig_vm86(regs);	/* never iret back into vm86 */
	uprobe_notify_resume(regs);	/* a uprobe's hit or step, left by #BP/#DB */
	if (current->sigkill_pending) {
		printk("%s[%d]: SIGKILL\n", current->comm, current->pid);
		do_exit(W_EXITCODE(0, SIGKILL));
	}
}
