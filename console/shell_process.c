/*
 * shell_process.c - the shell's commands for user processes:
 *
 *   exec NAME [ARGS]     run a program (user/NAME.c, as /bin/NAME; or a
 *                        PATH, from the working directory), wait for
 *                        it, say how it ended: "exit status 0" or the
 *                        signal that killed it; Ctrl-C sends SIGINT
 *                        to its process group;
 *   exec -b NAME [ARGS]  the same in the background: the shell goes on,
 *                        a reaper thread waits and reports the end;
 *   exec                 list the programs;
 *   kill [-SIG] PID      send a process a signal (SIGKILL unless
 *                        -INT, -TERM, -USR1, -9... says another).
 */
#include "kernel.h"
#include "shell.h"
#include "process.h"
#include "sched.h"
#include "string.h"
#include "errno.h"
#include "mm.h"
#include "mutex.h"
#include "vsprintf.h"
#include "pseudofs.h"
#include "tty.h"
#include "console_input.h"
#include "trace.h"

static void exec_usage(void)
{
	unsigned long i;

	sh_printf("usage: exec [-b] NAME|PATH [ARGS]  (-b: in the background; NAME is /bin/NAME); programs:");
	for (i = 0; i < nr_user_programs; i++)
		sh_printf(" %s", user_programs[i].name);
	sh_printf("\n");
}

/*
 * How a program ended, through `print`: sh_printf for `exec`, which
 * waits as a command (its output may be redirected or captured), printk
 * for a background program's reaper, which reports when no command may
 * be running at all - on the console, above the line being typed, as
 * any asynchronous message.
 */
static void report_end(int (*print)(const char *fmt, ...),
		       const char *name, int pid, int status)
{
	if (WIFSIGNALED(status))
		print("[%d] %s: killed by %s\n", pid, name,
		      signal_name(WTERMSIG(status)));
	else
		print("[%d] %s: exit status %d\n", pid, name, WEXITSTATUS(status));
}

/* A background process's own waiter: joins it, reports, and is itself joined by the next. */
struct reaper {
	struct task_struct *proc;
	struct task_struct *prev;	/* the previous reaper, to join (and free) */
	char name[TASK_NAME_LEN];
	int pid;
};

static struct task_struct *last_reaper;
static DEFINE_MUTEX(reaper_mutex);

static int reap(void *arg)
{
	struct reaper *r = arg;
	int status = process_wait(r->proc);

	report_end(printk, r->name, r->pid, status);
	if (r->prev)
		kthread_join(r->prev);
	kfree(r);
	return 0;
}

static int exec_background(struct task_struct *t)
{
	struct reaper *r = kzalloc(sizeof(*r));
	struct task_struct *w;

	if (!r)
		return -ENOMEM;	/* t runs on, unwaited: a zombie when it ends */
	r->proc = t;
	r->pid = t->pid;
	strlcpy(r->name, t->name, sizeof(r->name));
	mutex_lock(&reaper_mutex);
	r->prev = last_reaper;
	w = kthread_create(reap, r, "reaper");
	if (w)
		last_reaper = w;
	mutex_unlock(&reaper_mutex);
	if (!w) {
		kfree(r);
		return -ENOMEM;
	}
	sh_printf("[%d] %s\n", r->pid, r->name);
	return 0;
}

/*
 * The process `exec` waits for (0: none), for Ctrl-C.  The console's
 * interrupt handlers see every key (console_input.c) even while the
 * shell is blocked, as Ctrl-P's SysRq does.  The console is then that
 * program's terminal: its process group (the program's pid: a process
 * the kernel starts leads a group of its own, as a job-control shell's
 * setpgid(pid, pid) makes it) is the foreground group, and Ctrl-C sends
 * SIGINT to every process in it - Linux's n_tty isig() -> kill_pgrp().
 * A program may catch it; by default it ends the program.
 */
static volatile int foreground_pid;

int shell_foreground_pid(void)
{
	return READ_ONCE(foreground_pid);
}

/*
 * The line being run on the console, for Ctrl-C when no program is in
 * the foreground: a kernel command cannot be killed, so it is told, the
 * way a Linux kernel loop looks at signal_pending(), and a long one (a
 * workload) looks at shell_interrupted() and stops.
 */
static volatile bool command_running;
static volatile bool interrupted;

void shell_command_begin(void)
{
	WRITE_ONCE(interrupted, false);
	WRITE_ONCE(command_running, true);
}

void shell_command_end(void)
{
	WRITE_ONCE(command_running, false);
}

bool shell_interrupted(void)
{
	return READ_ONCE(interrupted);
}

bool shell_interrupt_foreground(void)
{
	int pid = READ_ONCE(foreground_pid);

	if (pid)
		return kill_pgrp(pid, SIGINT) == 0;
	/*
	 * With init=, the first program owns the console: Ctrl-C is SIGINT
	 * to the terminal's foreground group while ISIG is on (n_tty's
	 * isig()); an editing shell turns ISIG off and reads the key itself.
	 */
	pid = tty_get_pgrp();
	if (pid)
		return tty_isig() && kill_pgrp(pid, SIGINT) == 0;
	if (!READ_ONCE(command_running))
		return false;	/* the line editor's: drop the line typed */
	WRITE_ONCE(interrupted, true);
	return true;
}

int cmd_exec(int argc, char **argv)
{
	bool background = argc > 1 && strcmp(argv[1], "-b") == 0;
	int first = background ? 2 : 1, err, pid, status;
	char path[PSEUDOFS_PATH_MAX];
	struct task_struct *t;

	if (argc <= first) {
		exec_usage();
		return argc == 1 ? 0 : -EINVAL;
	}
	/* A path is read from the working directory, as a Linux shell does. */
	if (!strchr(argv[first], '/'))
		strlcpy(path, argv[first], sizeof(path));
	else if ((err = shell_resolve_path(argv[first], path, sizeof(path))))
		return err;
	t = process_spawn(path, (const char *const *)&argv[first], argc - first, &err);
	if (!t) {
		sh_printf("exec: %s: %s\n", argv[first], shell_strerror(err));
		return err;
	}
	if (background)
		return exec_background(t);
	pid = t->pid;
	seq_buf_flush(shell_out);	/* our lines before the program's */
	WRITE_ONCE(foreground_pid, pid);
	status = process_wait(t);
	WRITE_ONCE(foreground_pid, 0);
	report_end(sh_printf, argv[first], pid, status);
	return 0;
}

/* "-9", "-INT", "-SIGINT": the signal's number, or 0 if none is called so. */
static int parse_signal(const char *arg)
{
	const char *name = strncmp(arg, "SIG", 3) == 0 ? arg + 3 : arg;
	long nr;
	int sig;

	if (!kstrtol(arg, 10, &nr))
		return nr > 0 && nr <= _NSIG ? nr : 0;
	for (sig = 1; sig <= _NSIG; sig++)
		if (strcmp(signal_name(sig) + 3, name) == 0)
			return sig;
	return 0;
}

int cmd_kill(int argc, char **argv)
{
	int sig = argc == 3 && argv[1][0] == '-' ? parse_signal(argv[1] + 1) : SIGKILL;
	long pid;
	int err;

	if (argc < 2 || argc > 3 || !sig || kstrtol(argv[argc - 1], 10, &pid)) {
		sh_printf("usage: kill [-SIGNAL] PID  (SIGKILL unless -INT, -TERM, -USR1, -15...)\n");
		return -EINVAL;
	}
	err = kill_pid(pid, sig);
	if (err)
		sh_printf("kill: %ld: %s\n", pid, err == -EPERM ?
			  "a kernel thread, not a process" : shell_strerror(err));
	return err;
}

/*
 * init=PATH (Linux's run_init_process()): the first program is PATH
 * from the initramfs, not the kernel's shell.  The console becomes its
 * terminal - its keys are the program's to read (kernel/tty.c), its
 * process group the foreground one - until it ends.  Linux panics when
 * init exits; here the kernel's shell takes the console instead.
 */
void console_run_init(const char *path)
{
	const char *argv[] = { path };
	struct task_struct *t;
	int err, status;

	if (tracefs_init())
		printk("init: could not create the tracefs files\n");
	console_input_init();
	tty_attach_input(console_poll);
	t = process_spawn(path, argv, 1, &err);
	if (!t) {
		tty_detach_input();
		printk("init: cannot run %s: %s; the kernel's shell instead\n", path,
		       errno_name(err));
		return;
	}
	printk("init: %s is pid %d, the console is its terminal\n", path, t->pid);
	tty_set_pgrp(t->pid);
	status = process_wait(t);
	tty_set_pgrp(0);
	tty_detach_input();
	printk("init: %s ended (status %#x); the kernel's shell takes the console\n",
	       path, status);
}
