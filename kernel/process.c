/*
 * process.c - a user process: a kernel thread that leaves for ring 3.
 *
 * process_spawn() builds the address space (kernel/exec.c) and creates
 * a thread to run it.  The thread's first act, process_entry(), adopts
 * the address space and "returns" to ring 3 through a trap frame it
 * made itself: the CPU cannot be told to enter ring 3 any other way
 * than by a return (iret here) to a %cs whose RPL is 3.
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
#include "signal.h"

/* What the new thread needs to start: set before it runs, its own after. */
struct process_start {
	struct mm_struct *mm;
	unsigned long entry, sp;
};

void start_user_thread(struct pt_regs *regs) __noreturn;	/* entry.S */

/* Linux's start_thread(): the first trap frame, all segments ring 3's. */
static void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
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
	struct process_start start = *(struct process_start *)arg;
	struct pt_regs regs;

	kfree(arg);
	/*
	 * From the moment current->mm is set, every switch back to this
	 * thread loads its directory; until then do it here, with no
	 * switch in between.
	 */
	local_irq_disable();
	current->mm = start.mm;
	switch_mm(start.mm);
	start_thread(&regs, start.entry, start.sp);
	start_user_thread(&regs);
}

struct task_struct *process_spawn(const char *name, const char *const argv[],
				  int argc, int *err)
{
	const struct user_program *prog = find_user_program(name);
	struct process_start *start;
	struct task_struct *t;
	char why[MODULE_ERROR_LEN];

	*err = -ENOENT;
	if (!prog)
		return NULL;
	start = kzalloc(sizeof(*start));
	*err = -ENOMEM;
	if (!start)
		return NULL;
	*err = exec_load(prog->elf, prog->size, argv, argc, &start->mm,
			 &start->entry, &start->sp, why, sizeof(why));
	if (*err) {
		if (*err == -ENOEXEC)
			printk("exec %s: %s\n", name, why);
		kfree(start);
		return NULL;
	}
	uprobe_mmap(start->mm, prog);	/* the probes already on the program */
	t = kthread_create(process_entry, start, name);
	if (!t) {
		mmput(start->mm);
		kfree(start);
		*err = -ENOMEM;
		return NULL;
	}
	t->signal.pgid = t->pid;	/* a group of its own; a spawning process's child joins its */
	return t;
}

int process_wait(struct task_struct *t)
{
	return kthread_join(t);
}

/* Every process's thread runs process_entry() from its creation on. */
bool task_is_process(struct task_struct *t)
{
	return t->fn == process_entry;
}

/*
 * The address space goes first, while the thread still runs: back on
 * kernel_pgdir, nothing uses the process's directory any more (it has
 * one thread), so it can be freed here.  The kernel stack and the task
 * go when the parent's wait joins the thread.
 */
/* Under the run-queue lock: the exiting process's children have no parent to wait now. */
static void forget_parent(struct task_struct *t, void *parent)
{
	if (t->parent == parent)
		t->parent = NULL;
}

void do_exit(int status)
{
	struct mm_struct *mm = current->mm;

	/*
	 * Children nobody waited for stay zombies (no init adopts them
	 * yet); at least no waitpid() may mistake a later task at the same
	 * address for their parent.
	 */
	for_each_task(forget_parent, current);
	do_notify_parent(current, status);	/* SIGCHLD */
	exit_files(current);
	uprobe_free_utask(current);	/* a hit in flight, pending return probes */
	local_irq_disable();
	current->mm = NULL;
	switch_mm(NULL);
	local_irq_enable();
	mmput(mm);
	kthread_exit(status);
}
