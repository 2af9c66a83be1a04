/*
 * test_signals.c - suite "signals": handlers, frames and sigreturn
 * (kernel/signal.c, arch/i386/signal.c; docs/signals.md).
 *
 * The programs check most things from inside (user/sigtest.c: the
 * handler compares its siginfo and sigcontext with the labels of the
 * faulting instructions); the cases here run them, check how each
 * ended and what the kernel printed, send them signals, forge their
 * sigreturns (user/sigforge.c), and put kprobes and uprobes in their
 * handlers.
 */
#include "ktest.h"
#include "process.h"
#include "signal.h"
#include "sched.h"
#include "uprobes.h"
#include "exec_elf.h"
#include "kprobes.h"
#include "pseudofs.h"
#include "trace.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include <asm/sigframe.h>

#define WAIT_POLLS	200	/* x 10 ms: a program's first line */

/* Run NAME ARG (ARG2) to its end with the output captured; its wait status. */
static int run2(const char *name, const char *arg, const char *arg2)
{
	const char *argv[] = { name, arg, arg2 };
	struct task_struct *p;
	int err, st;

	ktest_capture_start();
	p = process_spawn(name, argv, arg2 ? 3 : arg ? 2 : 1, &err);
	st = p ? process_wait(p) : err;
	ktest_capture_stop();
	return st;
}

static int run(const char *name, const char *arg)
{
	return run2(name, arg, NULL);
}

static bool said(const char *text)
{
	return strstr(ktest_captured(), text) != NULL;
}

/* One sigtest mode: exit 0 and its "ok" line, or the program's own FAIL lines. */
static void check_mode(struct ktest *t, const char *mode)
{
	char ok[48];
	int st = run("sigtest", mode);

	snprintf(ok, sizeof(ok), "sigtest %s: ok", mode);
	if (st != W_EXITCODE(0, 0) || !said(ok))
		ktest_fail(t, __FILE__, __LINE__, "sigtest %s: status %#x; it said:\n%s", mode, st,
			   ktest_captured());
}

static void every_exception_class_reaches_a_handler(struct ktest *t)
{
	static const char *const modes[] = { "fpe", "ill", "trap", "step", "gp", "segv" };

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		check_mode(t, modes[i]);
}

/*
 * #AC: CR0.AM is on, so a program that sets EFLAGS.AC gets SIGBUS for a
 * misaligned access - on a CPU that checks: Bochs and real ones do,
 * QEMU's TCG never raises #AC, and the case says so and skips.
 */
static void alignment_check_is_sigbus(struct ktest *t)
{
	check_mode(t, "bus");
	if (said("no #AC: this CPU ignores EFLAGS.AC"))
		ktest_skip(t, "this CPU never raises #AC (QEMU's TCG)");
}

static void handlers_masks_and_flags(struct ktest *t)
{
	static const char *const modes[] = {
		"kill", "nested", "inhandler", "defer", "nodefer", "mask", "ignore", "chld",
		"longjmp", "plain", "norestorer", "pgrp",
	};

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		check_mode(t, modes[i]);
}

/* One sigcalls mode (user/sigcalls.c): exit 0 and its "ok" line. */
static void check_call(struct ktest *t, const char *mode)
{
	char ok[48];
	int st = run("sigcalls", mode);

	snprintf(ok, sizeof(ok), "sigcalls %s: ok", mode);
	if (st != W_EXITCODE(0, 0) || !said(ok))
		ktest_fail(t, __FILE__, __LINE__, "sigcalls %s: status %#x; it said:\n%s", mode, st,
			   ktest_captured());
}

/* SA_RESTART: -ERESTARTSYS becomes the int $0x80 again (ip -= 2, ax = orig_ax), or -EINTR. */
static void slow_calls_restart_or_eintr(struct ktest *t)
{
	check_call(t, "restart");
	check_call(t, "eintr");
}

static void pause_and_sigsuspend(struct ktest *t)
{
	check_call(t, "pause");
	check_call(t, "sigsuspend");
}

static void sigtimedwait_takes_a_blocked_signal(struct ktest *t)
{
	check_call(t, "sigtimedwait");
}

static void tkill_and_tgkill(struct ktest *t)
{
	check_call(t, "tkill");
}

static void sigpipe_on_a_write_nobody_reads(struct ktest *t)
{
	check_call(t, "sigpipe");
}

static void nanosleep_interrupted_tells_the_time_left(struct ktest *t)
{
	check_call(t, "nanosleep");
}

static void sigaltstack_and_sa_onstack(struct ktest *t)
{
	check_call(t, "altstack");
	check_call(t, "overflow");
	KTEST_EXPECT_TRUE(t, said("sigcalls overflow: survived a stack overflow"));
}

/* execve(): handlers back to SIG_DFL, SIG_IGN and the mask kept (Linux's flush_signal_handlers()). */
static void exec_resets_handlers(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run("sigtest", "exec"), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, said("sigtest afterexec: ok"));
}

/* SA_RESETHAND: the handler once, then the default action ends it. */
static void resethand_is_one_shot(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run("sigtest", "resethand"), W_EXITCODE(0, SIGUSR1));
	KTEST_EXPECT_TRUE(t, said("handler ran once, now SIG_DFL"));
	KTEST_EXPECT_TRUE(t, said("sigtest[") && said("]: SIGUSR1"));
}

/* The demo programs say what they did, and end well. */
static void demos_survive_their_faults(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run("sigfpe", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, said("went on after the divide, quotient -1"));
	KTEST_EXPECT_EQ(t, run("sigsegv", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, said("cr2 00000000 err 4"));
	KTEST_EXPECT_TRUE(t, said("the retried load read 4242"));
	KTEST_EXPECT_TRUE(t, said("(si_code 2) at ip"));	/* SEGV_ACCERR: an area, no access */
	KTEST_EXPECT_TRUE(t, said("the retried store wrote 'x'"));
}

/* Wait until a running program printed text (it is capturing). */
static bool wait_said(const char *text)
{
	for (int i = 0; i < WAIT_POLLS; i++) {
		if (said(text))
			return true;
		msleep(10);
	}
	return false;
}

static struct task_struct *start(const char *name, const char *arg)
{
	const char *argv[] = { name, arg };
	int err;

	return process_spawn(name, argv, 2, &err);
}

/* kill with a caught signal runs the handler; the defaults end or ignore. */
static void default_actions_and_caught_kills(struct ktest *t)
{
	struct task_struct *p;
	int st;

	ktest_capture_start();
	p = start("sigtest", "catch");
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_TRUE(t, wait_said("sigtest catch: waiting"));
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGTERM), 0);
	st = process_wait(p);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, st, W_EXITCODE(SIGTERM, 0));
	KTEST_EXPECT_TRUE(t, said("caught SIGTERM from pid 0"));

	ktest_capture_start();
	p = start("spin", "100");
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGCHLD), 0);	/* ignored by default */
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGCONT), 0);	/* ignored: no job control */
	msleep(50);
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGUSR2), 0);	/* ends it, one line */
	st = process_wait(p);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, st, W_EXITCODE(0, SIGUSR2));
	KTEST_EXPECT_TRUE(t, said("spin[") && said("]: SIGUSR2"));
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGTERM), -ESRCH);
}

/* A core signal sent with kill is reported as sent, with the registers. */
static void killed_by_a_core_signal_is_reported(struct ktest *t)
{
	struct task_struct *p;
	int st;

	ktest_capture_start();
	p = start("spin", "100");
	KTEST_ASSERT_TRUE(t, p != NULL);
	msleep(20);
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGSEGV), 0);
	st = process_wait(p);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, st, W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, said("SIGSEGV (kill) in user mode"));
	KTEST_EXPECT_TRUE(t, said("sent by pid 0"));
}

/* ---- forged sigreturns --------------------------------------------------- */

struct forge_case {
	const char *field;
	int status;		/* wait status */
	const char *said;	/* in the output */
};

static const struct forge_case forge_cases[] = {
	{ "cs_kernel", W_EXITCODE(0, SIGSEGV), "bad frame in rt_sigreturn" },
	{ "cs_data", W_EXITCODE(0, SIGSEGV), "(cs: not a user selector)" },
	{ "ss_kernel", W_EXITCODE(0, SIGSEGV), "(ss: not a user selector)" },
	{ "ds_kernel", W_EXITCODE(0, SIGSEGV), "(ds: not a user selector)" },
	{ "fs_percpu", W_EXITCODE(0, SIGSEGV), "(fs: not a user selector)" },
	{ "gs_tss", W_EXITCODE(0, SIGSEGV), "(gs: not a user selector)" },
	{ "ip_kernel", W_EXITCODE(0, SIGSEGV), "(kernel address)" },
	{ "sp_kernel", W_EXITCODE(0, SIGSEGV), "SIGSEGV" },
	{ "flags_iopl", W_EXITCODE(0, 0), "IOPL 0 NT 0 IF 1" },
	{ "flags_nt", W_EXITCODE(0, 0), "IOPL 0 NT 0 IF 1" },
	{ "flags_vm", W_EXITCODE(0, 0), "IOPL 0 NT 0 IF 1" },
	{ "flags_noif", W_EXITCODE(0, 0), "IOPL 0 NT 0 IF 1" },
	{ "flags_tf", W_EXITCODE(0, SIGTRAP), "SIGTRAP (debug) in user mode" },
	{ "srop_ok", W_EXITCODE(0, 0), "rt_sigreturn landed in landed()" },
	{ "srop_cs", W_EXITCODE(0, SIGSEGV), "(cs: not a user selector)" },
	{ "unmapped", W_EXITCODE(0, SIGSEGV), "(unreadable)" },
};

/* Every forged field: refused or made harmless, and the kernel and its bystander go on. */
static void forged_sigreturn_fields(struct ktest *t)
{
	struct task_struct *bystander = start("spin", "20");

	KTEST_ASSERT_TRUE(t, bystander != NULL);
	for (size_t i = 0; i < ARRAY_SIZE(forge_cases); i++) {
		const struct forge_case *c = &forge_cases[i];
		int st = run("sigforge", c->field);

		if (st != c->status || !said(c->said))
			ktest_fail(t, __FILE__, __LINE__, "sigforge %s: status %#x (want %#x), "
				   "no \"%s\" in:\n%s", c->field, st, c->status, c->said,
				   ktest_captured());
	}
	KTEST_EXPECT_EQ(t, process_wait(bystander), W_EXITCODE(0, 0));
}

/*
 * A refused frame takes nothing: the SIGSEGV handler sees the registers
 * of the rt_sigreturn call itself and the handler's mask still in force.
 */
static void refused_sigreturn_changes_nothing(struct ktest *t)
{
	static const char *const fields[] = { "cs_kernel", "ss_kernel", "ds_kernel", "gs_tss" };

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		int st = run2("sigforge", "-catch", fields[i]);

		if (st != W_EXITCODE(0, 0) || !said("refused, nothing restored"))
			ktest_fail(t, __FILE__, __LINE__, "sigforge -catch %s: status %#x:\n%s",
				   fields[i], st, ktest_captured());
	}
	KTEST_EXPECT_EQ(t, run2("sigforge", "-catch", "ip_kernel"), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, said("faulted fetching the kernel's text, cr2 00100000 err 5"));
}

/* ---- probes and signals ------------------------------------------------- */

static int in_handler_hits, outside_hits;

/* sys_getpid from sigtest: inside its SIGUSR1 handler, SIGUSR1 is blocked. */
static int getpid_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (strcmp(current->comm, "sigtest"))
		return 0;
	if (sigismember(&current->signal.blocked, SIGUSR1))
		in_handler_hits++;
	else
		outside_hits++;
	return 0;
}

static void kprobe_hit_in_a_signal_handler(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "sys_getpid", .pre_handler = getpid_pre };

	in_handler_hits = outside_hits = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	check_mode(t, "kill");
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, in_handler_hits, 1);	/* the handler's getpid() */
	KTEST_EXPECT_EQ(t, outside_hits, 1);	/* raise()'s */
}

/* The file offset of a function of sigtest. */
static unsigned long sigtest_offset(const char *name)
{
	const struct user_program *p = find_user_program("sigtest");
	struct load_info info = { .image = p->elf, .len = p->size };
	const Elf32_Sym *sym = elf_exec_func(&info, name, 0);
	const Elf32_Ehdr *h = (const void *)p->elf;
	const Elf32_Phdr *ph = (const void *)(p->elf + h->e_phoff);

	for (unsigned int i = 0; sym && i < h->e_phnum; i++, ph++)
		if (ph->p_type == PT_LOAD && sym->st_value - ph->p_vaddr < ph->p_filesz)
			return sym->st_value - ph->p_vaddr + ph->p_offset;
	return 0;
}

static int uprobe_hits;

static int count_uprobe(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	uprobe_hits++;
	return 0;
}

/* A uprobe on the handler itself: stepped out of line inside the handler, which still works. */
static void uprobe_hit_in_a_signal_handler(struct ktest *t)
{
	struct uprobe_consumer uc = { .handler = count_uprobe };
	unsigned long off = sigtest_offset("usr_info_handler");

	KTEST_ASSERT_TRUE(t, off != 0);
	uprobe_hits = 0;
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode("sigtest"), off, &uc, NULL), 0);
	check_mode(t, "kill");
	uprobe_unregister(ktest_program_inode("sigtest"), off, &uc);
	KTEST_EXPECT_EQ(t, uprobe_hits, 1);
}

/* The uprobe's handler sends SIGUSR1 to the process while its step is being set up. */
static int signal_from_uprobe(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct kernel_siginfo info = { .signo = SIGUSR1, .code = SI_KERNEL };

	uprobe_hits++;
	send_sig_info(SIGUSR1, &info, current);
	return 0;
}

/*
 * Linux's uprobe_deny_signal(): the signal waits for the step out of
 * line to end, and the handler's sigcontext has ip after the probed
 * instruction, in the program - not in the XOL slot, and without TF.
 */
static void signal_during_a_uprobe_step_is_deferred(struct ktest *t)
{
	struct uprobe_consumer uc = { .handler = signal_from_uprobe };
	unsigned long off = sigtest_offset("uprobe_target");

	KTEST_ASSERT_TRUE(t, off != 0);
	uprobe_hits = 0;
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode("sigtest"), off, &uc, NULL), 0);
	check_mode(t, "uprobe");
	uprobe_unregister(ktest_program_inode("sigtest"), off, &uc);
	KTEST_EXPECT_EQ(t, uprobe_hits, 1);
}

/* ---- narration ------------------------------------------------------------ */

static void narration_draws_the_frame_and_the_return(struct ktest *t)
{
	const char *on = "1\n", *off = "0\n";

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);	/* the shell makes it; a test boot has no shell */
	KTEST_ASSERT_EQ(t, pseudofs_write("/sys/kernel/debug/signals/narrate", on, 2, true), 0);
	KTEST_EXPECT_EQ(t, run("sigfpe", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, said("signal: SIGFPE to sigfpe["));
	KTEST_EXPECT_TRUE(t, said("struct rt_sigframe (") && said(" pretcode "));
	KTEST_EXPECT_TRUE(t, said("the program's SA_RESTORER"));
	KTEST_EXPECT_TRUE(t, said("trapno 0 err 0"));
	KTEST_EXPECT_TRUE(t, said("signal: iret to the handler"));
	KTEST_EXPECT_TRUE(t, said("signal: rt_sigreturn from sigfpe["));
	KTEST_EXPECT_EQ(t, run("sigtest", "plain"), W_EXITCODE(0, 0));
	/* No SA_RESTORER: the handler returns through the vDSO, as on Linux. */
	KTEST_EXPECT_TRUE(t, said("struct sigframe (") &&
			  said("the handler's return address: __kernel_sigreturn in the vDSO"));
	KTEST_EXPECT_TRUE(t, said("signal: sigreturn from sigtest["));
	KTEST_EXPECT_EQ(t, run("sigforge", "cs_kernel"), W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, said("refused the frame") && said("cs: not a user selector"));
	KTEST_EXPECT_EQ(t, pseudofs_write("/sys/kernel/debug/signals/narrate", off, 2, true), 0);
	KTEST_EXPECT_EQ(t, run("sigfpe", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_FALSE(t, said("signal: "));
	KTEST_EXPECT_EQ(t, pseudofs_write("/sys/kernel/debug/signals/narrate", "2\n", 2, true),
			-EINVAL);
}

/*
 * The x87 and SSE registers of the interrupted code survive a handler
 * that changes them all: the frame carries them (struct _fpstate_32,
 * arch/i386/fpu_signal.c), rt and old frames alike; the handler edits
 * the frame's xmm1 and sigreturn loads it.
 */
static void fpu_state_survives_a_handler(struct ktest *t)
{
	check_mode(t, "fpu");
}

static struct ktest_case signals_cases[] = {
	KTEST_CASE(every_exception_class_reaches_a_handler),
	KTEST_CASE(alignment_check_is_sigbus),
	KTEST_CASE(handlers_masks_and_flags),
	KTEST_CASE(resethand_is_one_shot),
	KTEST_CASE(exec_resets_handlers),
	KTEST_CASE(demos_survive_their_faults),
	KTEST_CASE(default_actions_and_caught_kills),
	KTEST_CASE(killed_by_a_core_signal_is_reported),
	KTEST_CASE(forged_sigreturn_fields),
	KTEST_CASE(refused_sigreturn_changes_nothing),
	KTEST_CASE(kprobe_hit_in_a_signal_handler),
	KTEST_CASE(uprobe_hit_in_a_signal_handler),
	KTEST_CASE(signal_during_a_uprobe_step_is_deferred),
	KTEST_CASE(narration_draws_the_frame_and_the_return),
	KTEST_CASE(slow_calls_restart_or_eintr),
	KTEST_CASE(pause_and_sigsuspend),
	KTEST_CASE(sigtimedwait_takes_a_blocked_signal),
	KTEST_CASE(tkill_and_tgkill),
	KTEST_CASE(sigpipe_on_a_write_nobody_reads),
	KTEST_CASE(nanosleep_interrupted_tells_the_time_left),
	KTEST_CASE(sigaltstack_and_sa_onstack),
	KTEST_CASE(fpu_state_survives_a_handler),
	KTEST_END
};

static struct ktest_suite signals_suite = {
	.name = "signals",
	.cases = signals_cases,
};
KTEST_SUITE(signals_suite);
