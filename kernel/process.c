/*
 * process.c - a user process: a kernel thread that leaves for ring 3.
 *
 * process_spawn() is execve()'s first half (fs/exec.c: find the file,
 * build the address space) run by the parent, and creates a thread to
 * run it.  The thread's first act, process_entry(), is execve()'s
 * second half, begin_new_exec(): it takes a copy of the parent's open
 * files, adopts the address space and "returns" to ring 3 through a
 * trap frame it made itself: the CPU cannot be told to enter ring 3
 * any other way than by a return (iret here) to a %cs whose RPL is 3.
 *
 * From then on the process is in the kernel only through a trap: a
 * system call, an interrupt, an exception.  Each arrives on the
 * thread's own kernel stack, whose top the scheduler put in TSS.esp0
 * (load_sp0()), with the user's ss:esp saved in pt_regs.  The process
 * ends in do_exit(): on its own request (exit()), killed by an
 * exception it took (kernel/signal.c) or by `kill`.
 */
#include "kernel.h"
#include "process.h"
#include "sched.h"
#include "mm_types.h"
#include <asm/segment.h>
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "string.h"
#include "errno.h"
#include "module_elf.h"
#include "uprobes.h"
#include "binfmts.h"
#include "fs.h"
#include "ramfs.h"
#include "vsprintf.h"
#include "signal.h"

/* What the new thread needs to start: set before it runs, its own after. */
struct process_start {
	struct linux_binprm bprm;	/* loaded: bprm.mm is the new address space */
	struct files_struct *files;	/* a copy of the parent's */
	char path[PATH_MAX];
	int pgid;			/* the group it joins; 0: one of its own */
};

void start_user_thread(struct pt_regs *regs) __noreturn;	/* entry.S */

/* Linux's start_thread(): the first trap frame, all segments ring 3's. */
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->ds = regs->es = regs->fs = regs->gs = __USER_DS;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	regs->ip = ip;
	regs->sp = sp;
	regs->flags = X86_EFLAGS_FIXED | X86_EFLAGS_IF;	/* interrupts on in ring 3 */
}

static int process_entry(void *arg)
{
	struct process_start *start = arg;
	struct pt_regs regs;

	current->files = start->files;
	set_new_task_pgid(current, start->pgid ? start->pgid : current->pid);
	/*
	 * From the moment current->mm is set, every switch back to this
	 * thread loads its directory; begin_new_exec() does it with
	 * interrupts off, no switch in between.
	 */
	begin_new_exec(&start->bprm, &regs);
	bprm_free(&start->bprm);
	kfree(start);
	local_irq_disable();
	start_user_thread(&regs);
}

static void free_start(struct process_start *start)
{
	if (start->bprm.mm)
		mmput(start->bprm.mm);
	exit_files_struct(start->files);
	bprm_free(&start->bprm);
	kfree(start);
}

/* A name without a slash is a program in /bin, as a shell's PATH=/bin finds it. */
static void exec_path(char *path, const char *name)
{
	snprintf(path, PATH_MAX, "%s%s", strchr(name, '/') ? "" : "/bin/", name);
}

/*
 * The environment Linux gives init (init/main.c's envp_init), and here
 * every program the kernel's shell starts: busybox's shell adds PATH,
 * PWD and SHLVL to it, as on Linux.
 */
static const char *const envp_init[] = { "HOME=/", "TERM=linux" };

/* execve()'s first half, in the parent: the arguments, the file, the address space. */
static int prepare_exec(struct process_start *start, const char *name,
			const char *const argv[], int argc)
{
	int i, ret;

	exec_path(start->path, name);
	ret = bprm_init(&start->bprm, start->path);
	if (!ret && (argc < 1 || argc > MAX_ARG_STRINGS))
		ret = -E2BIG;
	for (i = 0; i < argc && !ret; i++)
		ret = bprm_add_string(&start->bprm, argv[i], false);
	for (i = 0; i < (int)ARRAY_SIZE(envp_init) && !ret; i++)
		ret = bprm_add_string(&start->bprm, envp_init[i], true);
	if (!ret)
		ret = exec_binprm(&start->bprm);
	if (ret == -ENOEXEC || ret == -EIO)
		printk("exec %s: %s\n", name, start->bprm.error);
	return ret;
}

struct task_struct *process_spawn(const char *name, const char *const argv[],
				  int argc, int *err)
{
	struct process_start *start = kzalloc(sizeof(*start));
	struct task_struct *t;
	int pgid;

	*err = -ENOMEM;
	if (!start)
		return NULL;
	*err = prepare_exec(start, name, argv, argc);
	/* A process's child gets a copy of its files; the shell's, the console. */
	start->files = dup_fd(current->mm ? current->files : NULL);
	if (!*err && !start->files)
		*err = -ENOMEM;
	if (*err) {
		free_start(start);
		return NULL;
	}
	/* A process's child joins its group; the shell's gets one of its own (0: its pid). */
	pgid = start->pgid = current->mm ? current->signal.pgid : 0;
	/* Its exit signal set before it can run: on another CPU it may exit at once. */
	t = kthread_create_child(process_entry, start, kbasename(start->path), NULL, SIGCHLD);
	if (!t) {
		free_start(start);
		*err = -ENOMEM;
		return NULL;
	}
	set_new_task_pgid(t, pgid ? pgid : t->pid);
	return t;
}

int process_wait(struct task_struct *t)
{
	return kthread_join(t);
}

/* Every process's thread runs process_entry() (or ret_from_fork()) from its creation on. */
bool task_is_process(struct task_struct *t)
{
	return t->fn == process_entry || t->fn == ret_from_fork;	/* spawned or forked */
}

/*
 * The address space goes first, while the thread still runs: back on
 * kernel_pgdir, nothing uses the process's directory any more (it has
 * one thread), so it can be freed here.  The kernel stack and the task
 * go when the parent's wait4() reaps the zombie (kernel/exit.c).
 */
void do_exit(int status)
{
	struct mm_struct *mm = current->mm;

	exit_mm_release(current);	/* a vfork() parent goes on */
	exit_reap_children();	/* the zombies among them; the living are orphaned */
	exit_files(current);
	uprobe_free_utask(current);	/* a hit in flight, pending return probes */
	local_irq_disable();
	set_task_mm(current, NULL);	/* a /proc reader may still hold mm: mmput() then frees it */
	switch_mm(NULL);
	local_irq_enable();
	mmput(mm);
	exit_notify();		/* a zombie now: the parent's wait4() may reap it */
	do_notify_parent(current, status);	/* SIGCHLD, once wait4() can see the zombie */
	kthread_exit(status);
}
