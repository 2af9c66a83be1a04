/*
 * clone - Linux's clone() flags a fork-like child can have here, each
 * checked from ring 3 (kernel/fork.c, kernel_clone()):
 *   the exit signal   the flags' low byte: SIGUSR1 instead of SIGCHLD,
 *                     or 0, no signal at all when the child ends; such a
 *                     "clone child" is waited for with __WCLONE only;
 *   a new stack       clone(flags, newsp): the child starts with %esp = newsp;
 *   CLONE_PARENT_SETTID, CLONE_CHILD_SETTID
 *                     the child's pid stored in the parent's memory, and
 *                     in the child's own (its copy, not the parent's);
 *   CLONE_VM, CLONE_THREAD, CLONE_SETTLS
 *                     sharing this kernel cannot do: -EINVAL, nothing made;
 *   vfork()           the parent waits for the child's exit or exec.
 * Prints "clone: N failures"; exits with that number.
 */
#include "ulib.h"
#include <asm/unistd_32.h>

#define CLONE_VM		0x00000100
#define CLONE_SIGHAND		0x00000800
#define CLONE_VFORK		0x00004000
#define CLONE_THREAD		0x00010000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_SETTID	0x01000000
#define STACK_BYTES		1024
#define __WCLONE		0x80000000	/* wait4(): a child whose exit signal is not SIGCHLD */

static int failures;
static volatile int got_usr1, got_chld;
static int child_tid = -1;		/* the child's copy gets its pid; ours stays -1 */
static unsigned long new_stack[STACK_BYTES / sizeof(long)];

static void check(const char *what, long got, long want)
{
	if (got == want)
		return;
	printf("clone: %s: got %ld, want %ld\n", what, got, want);
	failures++;
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_usr1++;
	else
		got_chld++;
}

/* Reap pid (options: __WCLONE for a child that does not send SIGCHLD); its exit status. */
static long reap(long pid, int options)
{
	int status = -1;

	return wait4(pid, &status, options, NULL) == pid ? WEXITSTATUS(status) : -1;
}

/* clone(flags) whose child exits at once with `code`; the child's pid. */
static long clone_and_exit(unsigned long flags, int *ptid, int *ctid, int code)
{
	long pid = clone(flags, NULL, ptid, 0, ctid);

	if (pid == 0)
		exit(ctid ? (*ctid == getpid() ? code : 1) : code);
	return pid;
}

/*
 * A child on a new stack cannot return through this C frame (its
 * stack holds none), so the test is one asm block: after int $0x80
 * the child compares %esp with the newsp it asked for (still in %ecx)
 * and exits with 0 if they match.
 */
static long clone_on_new_stack(void *sp)
{
	long ret;

	__asm__ __volatile__("int $0x80\n\t"
			     "testl %%eax, %%eax\n\t"
			     "jnz 1f\n\t"
			     "xorl %%ebx, %%ebx\n\t"
			     "cmpl %%esp, %%ecx\n\t"
			     "setne %%bl\n\t"
			     "movl %[exit], %%eax\n\t"
			     "int $0x80\n"
			     "1:"
			     : "=a"(ret)
			     : "a"(__NR_clone), "b"(SIGCHLD), "c"(sp), "d"(0), "S"(0), "D"(0),
			       [exit] "i"(__NR_exit)
			     : "memory");
	return ret;
}

/*
 * vfork(): the parent goes on only once the child has exited - the
 * child's byte is in the pipe by then, though it slept first - or has
 * exec'd: the parent runs while the new program is still alive.
 */
static void vfork_waits_for_exit_or_exec(void)
{
	const char *argv[] = { "spin", NULL };
	int p[2], st;
	char c = 0;
	long pid;

	pipe2(p, O_NONBLOCK);
	pid = vfork();
	if (pid == 0) {
		msleep(100);
		write(p[1], "v", 1);
		exit(8);
	}
	check("vfork: the child's byte is there", read(p[0], &c, 1), 1);
	check("vfork: status", reap(pid, 0), 8);
	close(p[0]);
	close(p[1]);
	pid = vfork();
	if (pid == 0)
		exit(execve("/bin/spin", argv, NULL) == 0 ? 0 : 9);	/* spin runs without end */
	check("vfork + execve: the program still runs", waitpid(pid, &st, WNOHANG), 0);
	kill(pid, SIGKILL);
	check("vfork + execve: killed", waitpid(pid, &st, 0) == pid && WTERMSIG(st) == SIGKILL, 1);
}

int main(void)
{
	int parent_tid = -1;
	long pid;

	signal(SIGUSR1, on_signal);
	signal(SIGCHLD, on_signal);
	pid = clone_and_exit(SIGUSR1, NULL, NULL, 3);
	while (!got_usr1)
		msleep(1);	/* it has ended once its signal is here */
	check("a clone child: not without __WCLONE", wait4(pid, NULL, 0, NULL), -ECHILD);
	check("exit signal SIGUSR1: status", reap(pid, __WCLONE), 3);
	check("exit signal SIGUSR1: delivered", got_usr1, 1);
	check("exit signal SIGUSR1: no SIGCHLD", got_chld, 0);
	pid = clone_and_exit(0, NULL, NULL, 4);
	check("exit signal 0: status", reap(pid, __WCLONE), 4);
	check("exit signal 0: nothing delivered", got_usr1 + got_chld, 1);
	pid = clone_and_exit(SIGCHLD | CLONE_PARENT_SETTID, &parent_tid, NULL, 5);
	check("CLONE_PARENT_SETTID: stored", parent_tid, pid);
	check("CLONE_PARENT_SETTID: status", reap(pid, 0), 5);
	pid = clone_and_exit(SIGCHLD | CLONE_CHILD_SETTID, NULL, &child_tid, 6);
	check("CLONE_CHILD_SETTID: the child's copy", reap(pid, 0), 6);
	check("CLONE_CHILD_SETTID: not the parent's", child_tid, -1);
	pid = clone_on_new_stack(&new_stack[STACK_BYTES / sizeof(long) - 1]);
	check("new stack: the child's %esp", pid > 0 ? reap(pid, 0) : pid, 0);
	check("CLONE_VM", clone(SIGCHLD | CLONE_VM, NULL, NULL, 0, NULL), -EINVAL);
	check("CLONE_THREAD", clone(SIGCHLD | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM,
				    NULL, NULL, 0, NULL), -EINVAL);
	check("CLONE_SETTLS", clone(SIGCHLD | CLONE_SETTLS, NULL, NULL, 0, NULL), -EINVAL);
	check("CLONE_VFORK | CLONE_VM", clone(SIGCHLD | CLONE_VFORK | CLONE_VM, NULL, NULL, 0, NULL),
	      -EINVAL);
	vfork_waits_for_exit_or_exec();
	check("no child left", waitpid(-1, NULL, WNOHANG), -ECHILD);
	printf("clone: %d failures\n", failures);
	return failures;
}
