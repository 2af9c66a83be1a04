/*
 * test_user.c - suite "user": processes in ring 3 (docs/user-mode.md).
 *
 * Each case runs the built-in programs of user/ as real processes - an
 * address space, int $0x80, ring-3 exceptions - and checks what the
 * kernel did: the wait status, the report line, the console output,
 * the pages and heap blocks left over.  The kernel thread running the
 * case is the processes' parent.
 */
#include "ktest.h"
#include "process.h"
#include "syscalls.h"
#include "sched.h"
#include "mm.h"
#include "mm_types.h"
#include <asm/segment.h>
#include "uaccess.h"
#include "smp.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include "exec_elf.h"
#include "pseudofs.h"
#include "shell.h"
#include "keyboard.h"
#include "console_input.h"
#include <asm/kdebug.h>
#include <asm/ptrace.h>
#include "kprobes.h"

#define LEAK_RUNS	1000	/* faulting processes in the leak case */
#define MIGRATION_PROCS	8	/* syscallers at once, to spread over the CPUs */
#define MIGRATION_CRASHERS 4

/* Program header i of an image being broken on purpose. */
static Elf32_Phdr *elf_phdr_mut(unsigned char *img, unsigned int i)
{
	return (Elf32_Phdr *)(img + ((Elf32_Ehdr *)img)->e_phoff) + i;
}

/* Run NAME with up to two arguments (NULL: none) and return its wait status. */
static int run(const char *name, const char *arg1, const char *arg2)
{
	const char *argv[] = { name, arg1, arg2 };
	int argc = arg1 ? (arg2 ? 3 : 2) : 1, err;
	struct task_struct *p = process_spawn(name, argv, argc, &err);

	return p ? process_wait(p) : err;
}

static struct task_struct *start(const char *name, const char *arg1, int *err)
{
	const char *argv[] = { name, arg1 };

	return process_spawn(name, argv, arg1 ? 2 : 1, err);
}

static void hello_runs_in_ring3(struct ktest *t)
{
	int status;

	ktest_capture_start();
	status = run("hello", "first-arg", NULL);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "Hello from user space!") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "argv[1] = \"first-arg\"") != NULL);
}

struct crash_case {
	const char *prog, *arg;
	int sig;
	const char *report;	/* in the kill line, after "NAME[pid]: " */
};

static const struct crash_case crash_cases[] = {
	{ "crash_null", NULL, SIGSEGV, "SIGSEGV (page fault) in user mode" },
	{ "crash_gp", NULL, SIGSEGV, "SIGSEGV (general protection fault) in user mode" },
	{ "div0", NULL, SIGFPE, "SIGFPE (divide error) in user mode" },
	{ "ud2", NULL, SIGILL, "SIGILL (invalid opcode) in user mode" },
	{ "int3", NULL, SIGTRAP, "SIGTRAP (breakpoint (int3)) in user mode" },
	{ "int3", "-long", SIGTRAP, "SIGTRAP (breakpoint (int3)) in user mode" },
	{ "stack_overflow", NULL, SIGSEGV, "(stack guard page)" },
};

/* One crasher: killed by its signal, with a report naming it. */
static void check_crash(struct ktest *t, const struct crash_case *c)
{
	int status;

	ktest_capture_start();
	status = run(c->prog, c->arg, NULL);
	ktest_capture_stop();
	if (status != W_EXITCODE(0, c->sig))
		ktest_fail(t, __FILE__, __LINE__, "%s %s: wait status %#x, want %s",
			   c->prog, c->arg ? c->arg : "", status, signal_name(c->sig));
	if (!strstr(ktest_captured(), c->report))
		ktest_fail(t, __FILE__, __LINE__, "%s: no \"%s\" in the report", c->prog,
			   c->report);
}

/*
 * Every exception class, while another process (spin) runs on: it
 * must still finish its 20 rounds and exit 0.
 */
static void exceptions_kill_only_the_process(struct ktest *t)
{
	struct task_struct *bystander;
	size_t i;
	int err;

	bystander = start("spin", "20", &err);
	KTEST_ASSERT_TRUE(t, bystander != NULL);
	for (i = 0; i < ARRAY_SIZE(crash_cases); i++)
		check_crash(t, &crash_cases[i]);
	KTEST_EXPECT_EQ(t, process_wait(bystander), W_EXITCODE(0, 0));
}

/* The hex number after `key` in text, or 0 (*found says whether key was there). */
/*
 * The kill report shows the user frame: ip with the user code selector,
 * "[user mode]" instead of a kernel symbol, ESP the process's own (on
 * its stack, the sp of the report line), and SS, which only a frame
 * from ring 3 has: the user data selector.
 */
static void kill_report_shows_the_user_frame(struct ktest *t)
{
	char want[48];
	const char *out;
	unsigned long sp, esp;

	ktest_capture_start();
	KTEST_EXPECT_EQ(t, run("crash_null", NULL, NULL), W_EXITCODE(0, SIGSEGV));
	ktest_capture_stop();
	out = ktest_captured();
	KTEST_ASSERT_TRUE(t, ktest_hex_after(strstr(out, "in user mode at ip "), " sp ", &sp));
	KTEST_ASSERT_TRUE(t, ktest_hex_after(out, " ESP: ", &esp));
	KTEST_EXPECT_EQ(t, esp, sp);
	KTEST_EXPECT_TRUE(t, esp >= USER_STACK_BOTTOM && esp < USER_STACK_TOP);
	snprintf(want, sizeof(want), "EIP: %04x:", __USER_CS);
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "[user mode]") != NULL);
	snprintf(want, sizeof(want), " SS: %04x\n", __USER_DS);
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	ktest_info(t, "user ESP %08lx in the report", esp);
}

static int show_some_text(struct seq_buf *s, void *data)
{
	seq_buf_puts(s, "some text for read()\n");
	return 0;
}

#define BADPTR_FILE "/test/user/text"

/* Every kind of bad pointer (user/badptr.c) is -EFAULT; the exit status counts the others. */
static void bad_pointers_get_efault(struct ktest *t)
{
	int status;

	KTEST_ASSERT_EQ(t, pseudofs_create(BADPTR_FILE, show_some_text, NULL, NULL), 0);
	ktest_capture_start();
	status = run("badptr", BADPTR_FILE, NULL);
	ktest_capture_stop();
	pseudofs_remove(BADPTR_FILE);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "badptr: 0 failures") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "FAIL") == NULL);
}

static void access_ok_bounds(struct ktest *t)
{
	char c;

	KTEST_EXPECT_FALSE(t, access_ok(NULL, 1));
	KTEST_EXPECT_FALSE(t, access_ok((void *)_text, 1));
	KTEST_EXPECT_FALSE(t, access_ok((void *)(TASK_SIZE - 4), 8));
	KTEST_EXPECT_FALSE(t, access_ok((void *)USER_BASE, ~0ul));
	KTEST_EXPECT_TRUE(t, access_ok((void *)(TASK_SIZE - 8), 8));
	KTEST_EXPECT_TRUE(t, access_ok((void *)USER_BASE, 0));
	/* From a kernel thread: nothing is mapped in user space. */
	KTEST_EXPECT_EQ(t, copy_from_user(&c, (void *)USER_BASE, 1), 1);
	KTEST_EXPECT_EQ(t, strncpy_from_user(&c, (void *)_text, 1), -EFAULT);
}

/* 1,000 faulting processes: every page and heap block comes back. */
static void faulting_processes_leak_nothing(struct ktest *t)
{
	unsigned long pages0 = pages_free();
	int loglevel = console_loglevel, i, bad = 0;
	struct heap_stats h0, h1;

	heap_get_stats(&h0);
	console_loglevel = 1;		/* 1,000 report lines would take the serial port a while */
	for (i = 0; i < LEAK_RUNS; i++)
		bad += run("crash_null", "-q", NULL) != W_EXITCODE(0, SIGSEGV);
	console_loglevel = loglevel;
	heap_get_stats(&h1);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	ktest_info(t, "%d processes faulted; %lu pages free before and after",
		   LEAK_RUNS, pages0);
}

/* A malformed executable: -ENOEXEC with a reason, and nothing allocated. */
static void malformed_elf_is_refused(struct ktest *t)
{
	const struct user_program *hello = find_user_program("hello");
	const char *argv[] = { "broken" };
	unsigned long pages0 = pages_free(), entry, sp;
	struct mm_struct *mm = NULL;
	unsigned char *img;
	Elf32_Ehdr *h;
	char why[MODULE_ERROR_LEN];

	KTEST_ASSERT_TRUE(t, hello != NULL);
	img = kmalloc(hello->size);
	KTEST_ASSERT_TRUE(t, img != NULL);
	h = (Elf32_Ehdr *)img;

	memcpy(img, hello->elf, hello->size);
	img[0] = 'X';
	KTEST_EXPECT_EQ(t, exec_load(img, hello->size, argv, 1, &mm, &entry, &sp,
				     why, sizeof(why)), -ENOEXEC);
	KTEST_EXPECT_TRUE(t, strstr(why, "magic") != NULL);

	memcpy(img, hello->elf, hello->size);
	KTEST_EXPECT_EQ(t, exec_load(img, h->e_phoff + 8, argv, 1, &mm, &entry, &sp,
				     why, sizeof(why)), -EIO);	/* Linux's short read */
	KTEST_EXPECT_TRUE(t, strstr(why, "truncated") != NULL);

	elf_phdr_mut(img, 0)->p_vaddr = 0x00100000;	/* onto the kernel */
	KTEST_EXPECT_EQ(t, exec_load(img, hello->size, argv, 1, &mm, &entry, &sp,
				     why, sizeof(why)), -ENOEXEC);
	KTEST_EXPECT_TRUE(t, strstr(why, "outside user space") != NULL);

	memcpy(img, hello->elf, hello->size);
	h->e_entry = 0x10;
	KTEST_EXPECT_EQ(t, exec_load(img, hello->size, argv, 1, &mm, &entry, &sp,
				     why, sizeof(why)), -ENOEXEC);
	KTEST_EXPECT_TRUE(t, strstr(why, "entry point") != NULL);

	KTEST_EXPECT_TRUE(t, mm == NULL);
	kfree(img);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

/* kill ends a sleeping process; a kernel thread and a missing pid are refused. */
static void kill_ends_a_process(struct ktest *t)
{
	struct task_struct *p;
	int err;

	p = start("spin", NULL, &err);		/* runs for ever */
	KTEST_ASSERT_TRUE(t, p != NULL);
	msleep(100);
	KTEST_EXPECT_EQ(t, kill_pid(p->pid, SIGKILL), 0);
	KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, SIGKILL));
	KTEST_EXPECT_EQ(t, kill_pid(current->pid, SIGKILL), -EPERM);
	KTEST_EXPECT_EQ(t, kill_pid(1000000, SIGKILL), -ESRCH);
}

/*
 * A process killed before its thread has run - before it has taken its
 * address space - is a process all the same: the kill sticks, and it
 * dies on its first trap from ring 3.  At -smp 1 the kill always comes
 * first (the spawner keeps the CPU); a refused kill is retried later,
 * so that spin, which runs for ever, cannot hang the suite.
 */
static void kill_before_the_process_runs(struct ktest *t)
{
	struct task_struct *p;
	int err, first;

	p = start("spin", NULL, &err);
	KTEST_ASSERT_TRUE(t, p != NULL);
	first = kill_pid(p->pid, SIGKILL);
	if (first) {
		msleep(100);
		kill_pid(p->pid, SIGKILL);
	}
	KTEST_EXPECT_EQ(t, first, 0);
	KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, SIGKILL));
}

/*
 * Many processes at once, calling and faulting: on more than one CPU
 * they migrate, and every CPU's TSS.esp0 must follow each switch (the
 * system call path checks that its frame ends at the caller's stack
 * top, and panics if not).  Every CPU takes system calls.
 */
static void tss_esp0_follows_migrations(struct ktest *t)
{
	struct task_struct *p[MIGRATION_PROCS + MIGRATION_CRASHERS];
	unsigned long before[NR_CPUS];
	int i, cpu, err;

	for_each_online_cpu(cpu)
		before[cpu] = per_cpu(syscall_count, cpu);
	for (i = 0; i < MIGRATION_PROCS; i++)
		p[i] = start("syscaller", "3000", &err);
	for (; i < MIGRATION_PROCS + MIGRATION_CRASHERS; i++)
		p[i] = start("crash_null", "-q", &err);
	for (i = 0; i < MIGRATION_PROCS; i++)
		KTEST_EXPECT_EQ(t, p[i] ? process_wait(p[i]) : err, W_EXITCODE(0, 0));
	for (; i < MIGRATION_PROCS + MIGRATION_CRASHERS; i++)
		KTEST_EXPECT_EQ(t, p[i] ? process_wait(p[i]) : err, W_EXITCODE(0, SIGSEGV));
	for_each_online_cpu(cpu) {
		unsigned long n = per_cpu(syscall_count, cpu) - before[cpu];

		ktest_info(t, "CPU %d: %lu system calls", cpu, n);
		KTEST_EXPECT_TRUE(t, n > 0);
	}
}

/* A process spawns its own children: spawn() and waitpid() from ring 3. */
static void spawn_and_waitpid_from_user(struct ktest *t)
{
	int status;

	ktest_capture_start();
	status = run("run", "hello", "div0");
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "run: hello (pid") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), ") killed by SIGFPE") != NULL);
	KTEST_EXPECT_EQ(t, run("no_such_program", NULL, NULL), -ENOENT);
}

/* spawn() is fork() + execve(): a missing program is execve's -ENOENT in the parent. */
static void spawn_reports_the_childs_execve_error(struct ktest *t)
{
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, run("run", "no_such_program", "hello"), W_EXITCODE(0, 0));
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "run: no_such_program: error -2") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "run: hello (pid") != NULL);
}

/* clone()'s flags from ring 3: each one this kernel takes, and -EINVAL for the rest. */
static void clone_flags_as_linux(struct ktest *t)
{
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, run("clone", NULL, NULL), W_EXITCODE(0, 0));
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "clone: 0 failures") != NULL);
}

static int clone_returns, clone_last_ret;
static unsigned long long clone_flags_seen;
static int clone_signal_seen;

static int clone_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kernel_clone_args *args = (void *)regs_get_kernel_argument(regs, 0);

	clone_flags_seen = args->flags;
	clone_signal_seen = args->exit_signal;
	return 0;
}

static int clone_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	clone_returns++;
	clone_last_ret = regs_return_value(regs);
	return 0;
}

/*
 * fork() is kernel_clone(), as on Linux: a kretprobe there returns once
 * per fork with the child's pid, and its argument is Linux's struct.
 */
static void fork_goes_through_kernel_clone(struct ktest *t)
{
	struct kretprobe rp = { .kp = { .symbol_name = "kernel_clone" },
				.entry_handler = clone_entry, .handler = clone_return };
	int pid;

	clone_returns = 0;
	clone_last_ret = clone_signal_seen = -1;
	clone_flags_seen = ~0ULL;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, run("run", "hello", NULL), W_EXITCODE(0, 0));
	ktest_capture_stop();
	unregister_kretprobe(&rp);
	KTEST_EXPECT_EQ(t, clone_returns, 1);
	KTEST_EXPECT_EQ(t, clone_flags_seen, 0);
	KTEST_EXPECT_EQ(t, clone_signal_seen, SIGCHLD);
	KTEST_ASSERT_TRUE(t, strstr(ktest_captured(), "run: hello (pid ") != NULL);
	pid = simple_strtol(strstr(ktest_captured(), "run: hello (pid ") + strlen("run: hello (pid "),
			    NULL, 10);
	KTEST_EXPECT_EQ(t, clone_last_ret, pid);
}

/*
 * A process that iret's into virtual-8086 mode (user/vm86_iret.c): its
 * next trap has a vm86 frame, cs 1000 - RPL 0 - and EFLAGS.VM.  It is
 * the process's: SIGSEGV, a user-mode report with the real-mode
 * segments the CPU saved above ss, no oops; the kernel goes on.
 */
/*
 * The SDM's IRET takes EFLAGS.VM from the stack only at CPL 0: from ring
 * 3 the frame's 1000 is a protected-mode cs, and the CPU refuses it with
 * #GP, error code 1000 - no vm86 frame ever reaches the kernel.  Bochs
 * does that; QEMU's TCG enters vm86 mode from ring 3 all the same, and
 * only there can these cases run.
 */
#define VM86_REFUSED	"general protection fault) in user mode at ip"
#define VM86_CS_ERROR	"error 1000"
#define VM86_SKIP_WHY	"iret from ring 3 did not enter vm86 mode (#GP 1000, as the SDM's IRET says): only QEMU's TCG enters it from CPL 3"

static bool vm86_refused_by_the_cpu(const char *out)
{
	return strstr(out, VM86_REFUSED) && strstr(out, VM86_CS_ERROR) &&
	       !strstr(out, "vm86 mode");
}

static void vm86_iret_kills_only_the_process(struct ktest *t)
{
	unsigned long pages0 = pages_free();
	const char *out;
	int status;

	ktest_capture_start();
	status = run("vm86_iret", NULL, NULL);
	ktest_capture_stop();
	out = ktest_captured();
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, SIGSEGV));
	if (vm86_refused_by_the_cpu(out)) {
		ktest_skip(t, VM86_SKIP_WHY);
		return;
	}
	KTEST_EXPECT_TRUE(t, strstr(out, "]: SIGSEGV (") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "EIP: 1000:00000000 [vm86 mode]") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "DS: 2000 ES: 3000 FS: 4000 GS: 5000 SS: 6000") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "Oops") == NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "still in protected mode") == NULL);
	KTEST_EXPECT_EQ(t, run("hello", NULL, NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

#define VM86_CLAIMS_MAX	100	/* then let the fault through: a bound, not a hang */

static int vm86_claims;

/* Claim every page fault from vm86 code, as a debugger on the chain might. */
static int claim_vm86_fault(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;

	if (val != DIE_PAGE_FAULT || !v8086_mode(args->regs) ||
	    vm86_claims == VM86_CLAIMS_MAX)
		return NOTIFY_DONE;
	vm86_claims++;
	return NOTIFY_STOP;
}

static struct notifier_block vm86_claimer = {
	.notifier_call = claim_vm86_fault,
	.priority = DIE_PRIO_FIRST,
};

/*
 * A trap from vm86 mode that someone claims still ends the process on
 * its way out (exit_to_user_mode()): the kernel never irets into vm86.
 * Returning there would fault again at once, and again.
 */
static void vm86_claimed_trap_never_returns(struct ktest *t)
{
	int status;

	vm86_claims = 0;
	KTEST_ASSERT_EQ(t, register_die_notifier(&vm86_claimer), 0);
	ktest_capture_start();
	status = run("vm86_iret", NULL, NULL);
	ktest_capture_stop();
	unregister_die_notifier(&vm86_claimer);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, SIGSEGV));
	if (vm86_refused_by_the_cpu(ktest_captured())) {
		ktest_skip(t, VM86_SKIP_WHY);
		return;
	}
	KTEST_EXPECT_TRUE(t, vm86_claims <= 1);		/* 0: an interrupt came first */
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "SIGSEGV (virtual-8086 mode)") != NULL);
}

/* Ctrl-C on the keyboard while the shell waits in `exec spin`: spin dies, the shell goes on. */
#define SC_LCTRL	0x1D
#define SC_C		0x2E
#define SC_BREAK(sc)	((sc) | 0x80)

static char shell_text[1024];

static int shell_exec_thread(void *line)
{
	struct seq_buf s;

	seq_buf_init(&s, shell_text, sizeof(shell_text));
	return shell_exec(line, &s);
}

#define TEXT_WAIT_POLLS	250	/* of 20 ms: 5 s, for a loaded host under TCG */

/* Poll for up to TEXT_WAIT_POLLS * 20 ms; false if text never showed up. */
static bool wait_for_text(const char *(*where)(void), const char *text)
{
	for (int i = 0; i < TEXT_WAIT_POLLS; i++) {
		if (strstr(where(), text))
			return true;
		msleep(20);
	}
	return false;
}

static const char *shell_output(void)
{
	return shell_text;
}

static void ctrl_c_sends_sigint_to_the_foreground_group(struct ktest *t)
{
	struct task_struct *sh;
	bool ended;

	console_input_init();
	while (kbd_getc() != -1)
		;
	memset(shell_text, 0, sizeof(shell_text));
	KTEST_EXPECT_FALSE(t, shell_interrupt_foreground());	/* nothing runs yet */
	ktest_capture_start();
	sh = kthread_create(shell_exec_thread, "exec spin", "exec-test");
	KTEST_ASSERT_TRUE(t, sh != NULL);
	for (int i = 0; i < 200 && !shell_foreground_pid(); i++)
		msleep(10);		/* until exec waits for it */
	KTEST_EXPECT_TRUE(t, shell_foreground_pid() > 0);
	kbd_handle_scancode(SC_LCTRL);
	kbd_handle_scancode(SC_C);
	kbd_handle_scancode(SC_BREAK(SC_C));
	kbd_handle_scancode(SC_BREAK(SC_LCTRL));
	ended = wait_for_text(shell_output, "spin: killed by SIGINT");
	ktest_capture_stop();
	if (!ended)
		shell_interrupt_foreground();	/* do not leave the shell thread waiting */
	KTEST_EXPECT_TRUE(t, ended);
	KTEST_EXPECT_EQ(t, kthread_join(sh), 0);
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);		/* consumed, never typed */
	KTEST_EXPECT_FALSE(t, shell_interrupt_foreground());
}

static struct ktest_case user_cases[] = {
	KTEST_CASE(hello_runs_in_ring3),
	KTEST_CASE(exceptions_kill_only_the_process),
	KTEST_CASE(kill_report_shows_the_user_frame),
	KTEST_CASE(bad_pointers_get_efault),
	KTEST_CASE(access_ok_bounds),
	KTEST_CASE(malformed_elf_is_refused),
	KTEST_CASE(kill_ends_a_process),
	KTEST_CASE(kill_before_the_process_runs),
	KTEST_CASE(ctrl_c_sends_sigint_to_the_foreground_group),
	KTEST_CASE(spawn_and_waitpid_from_user),
	KTEST_CASE(spawn_reports_the_childs_execve_error),
	KTEST_CASE(clone_flags_as_linux),
	KTEST_CASE(fork_goes_through_kernel_clone),
	KTEST_CASE(vm86_iret_kills_only_the_process),
	KTEST_CASE(vm86_claimed_trap_never_returns),
	KTEST_CASE(tss_esp0_follows_migrations),
	KTEST_CASE(faulting_processes_leak_nothing),
	KTEST_END
};

static struct ktest_suite user_suite = {
	.name = "user",
	.cases = user_cases,
};
KTEST_SUITE(user_suite);
