/*
 * process.h - user processes: a kernel thread that runs a program in
 * ring 3 in an address space of its own (docs/user-mode.md).
 */
#ifndef PROCESS_H
#define PROCESS_H

#include <stddef.h>
#include "kernel.h"
#include <asm/ptrace.h>
#include <asm/signal.h>
#include "linux/compiler.h"

struct task_struct;
struct mm_struct;

/* A program built into the kernel image (user/, build/user/user_image.S). */
struct user_program {
	const char *name;
	const unsigned char *elf;
	unsigned long size;
};
extern const struct user_program user_programs[];
extern const unsigned long nr_user_programs;
const struct user_program *find_user_program(const char *name);

#define MAX_ARG_STRINGS 16      /* argv entries spawn copies (execve: ARG_MAX bytes) */
#define MAX_ARG_STRLEN  128     /* bytes per argument, NUL included */

/*
 * kernel/exec.c: load an ELF image into a new address space, with argv
 * on its stack.  0 and *entry, *sp set; or -ENOEXEC or -EIO (err says
 * why), -E2BIG, -ENOMEM.  On failure nothing is left allocated.
 */
int exec_load(const unsigned char *elf, size_t len, const char *const argv[],
	      int argc, struct mm_struct **mmp, unsigned long *entry,
	      unsigned long *sp, char *err, size_t errlen);

/*
 * kernel/process.c.  Start program `name` as a new process (argv[0] is
 * its name): a path, or a name without a slash for /bin/NAME.  The
 * caller later waits for it with process_wait().  NULL and *err set
 * (execve()'s errno: -ENOENT, -EACCES, -ENOEXEC, -EIO, -E2BIG, -ENOMEM)
 * on failure.
 */
struct task_struct *process_spawn(const char *name, const char *const argv[],
				  int argc, int *err);
/* Linux's start_thread(): regs becomes a ring-3 frame that starts at ip with stack sp. */
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp);
/* Wait for a process to end; its wait status (below), and it is freed. */
int process_wait(struct task_struct *t);
/*
 * Is t a process - from process_spawn() on, before its thread has even
 * run and taken its address space (t->mm) - rather than a kernel thread?
 */
bool task_is_process(struct task_struct *t);
/* kernel/fork.c: a forked child's first code (its thread's function). */
int ret_from_fork(void *arg);
/*
 * Linux's clone flags (include/uapi/linux/sched.h) this kernel knows:
 * the low byte is the signal the child sends its parent at exit, and
 * the rest ask for sharing (kernel/fork.c says which it can do).
 */
#define CSIGNAL			0x000000ff
#define CLONE_VM		0x00000100	/* share the address space: a thread */
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_PIDFD		0x00001000
#define CLONE_PTRACE		0x00002000
#define CLONE_VFORK		0x00004000	/* the parent sleeps until the child execs or exits */
#define CLONE_PARENT		0x00008000
#define CLONE_THREAD		0x00010000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000	/* store the child's pid in the parent's memory */
#define CLONE_CHILD_CLEARTID	0x00200000	/* clear it in the child's memory at exit */
#define CLONE_CHILD_SETTID	0x01000000	/* store it in the child's memory */

/*
 * What a new process is made of (Linux 6.1's include/linux/sched/task.h,
 * same order and types for the fields this kernel has: a Linux probe line
 * like `flags=+0($arg1):x64 sig=+20($arg1):s32` reads the same here).
 * Linux's set_tid, cgroup, io_thread, kthread, idle, fn and the cgroup
 * pointers follow there; this kernel has none of those concepts.
 */
struct kernel_clone_args {
	unsigned long long flags;	/* Linux's u64: CLONE_*, without the exit signal */
	int __user *pidfd;
	int __user *child_tid;		/* CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID */
	int __user *parent_tid;		/* CLONE_PARENT_SETTID */
	int exit_signal;		/* sent to the parent at exit (SIGCHLD for fork) */
	unsigned long stack;		/* the child's user stack pointer; 0: the parent's */
	unsigned long stack_size;
	unsigned long tls;
};

/*
 * Linux's exec_mm_release() and exit_mm_release(): the task lets go of
 * its old address space by exec or exit - a vfork() parent waiting on
 * it goes on (kernel/fork.c).
 */
void exec_mm_release(struct task_struct *tsk);
void exit_mm_release(struct task_struct *tsk);

/* Linux's kernel_clone(): fork, vfork and clone's one path; the child's pid or -errno. */
int kernel_clone(struct kernel_clone_args *args);	/* Linux's pid_t is an int */
/* End the calling process (status as below); never returns. */
void do_exit(int status) __noreturn;

/* Linux's wait status: exit code in bits 8-15, or the killing signal in 0-6. */
#define W_EXITCODE(code, sig)	(((code) & 0xff) << 8 | (sig))
#define WIFSIGNALED(st)		(((st) & 0x7f) != 0)
#define WTERMSIG(st)		((st) & 0x7f)
#define WEXITSTATUS(st)		(((st) >> 8) & 0xff)

/* kernel/signal.c: the signals a ring-3 exception sends, Linux's numbers (<asm/signal.h>). */
const char *signal_name(int sig);
/* The signal Linux sends for an exception taken in ring 3. */
int trap_signal(unsigned long vector);
/* A ring-3 exception nobody claimed: its signal, delivered on the way out. */
void force_sig_fault(struct pt_regs *regs, unsigned long vector);
/* A trap from vm86 mode, which this kernel never returns to: SIGSEGV. */
void force_sig_vm86(struct pt_regs *regs) __noreturn;
/* kill PID with sig from the kernel: 0, -ESRCH (no such process), -EPERM (a kernel thread). */
int kill_pid(int pid, int sig);
/* On every return to ring 3: pending signals are delivered (or end the process) here. */
void exit_to_user_mode(struct pt_regs *regs);

/* kernel/file.c: a process's open files. */
void exit_files(struct task_struct *t);

/* kernel/exit.c: the end a parent sees (wait4). */
#define EXIT_ZOMBIE	0x0020	/* task_struct.exit_state: exited, not yet reaped (Linux's value) */
/* In do_exit(): children orphaned, this task a zombie, its parent woken. */
void exit_notify(void);
/* In do_exit(): reap every child that has already exited. */
void exit_reap_children(void);

#endif
