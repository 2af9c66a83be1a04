/*
 * sched.h - kernel threads and a preemptive round-robin scheduler that
 * runs them on every CPU (docs/scheduler.md).
 *
 * Each CPU's timer interrupt preempts the thread running there when its
 * time slice is over, unless preempt_count is non-zero.  kprobes raises preempt_count
 * while its handlers run inside an exception, and lowers it before the
 * iret, as Linux does since 5.8: the probed code never sees it.
 */
#ifndef SCHED_H
#define SCHED_H

#include "ftrace_ret_stack.h"
#include "kernel.h"
#include <asm/percpu.h>
#include "hw_breakpoint.h"
#include "signal.h"
#include "linux/compiler.h"
#include <asm/desc_defs.h>
#include <asm/segment.h>
#include <asm/fpu.h>

#define TASK_NAME_LEN 16

/*
 * A thread's stack, from alloc_pages().  The LOWEST page is the guard
 * page: mapped not-present, so running off the stack faults instead of
 * silently overwriting whatever lies below (see doublefault.c).
 */
#define THREAD_STACK_PAGES 4   /* 16 KiB: 4 KiB guard + 12 KiB usable */

enum task_state { TASK_RUNNABLE, TASK_SLEEPING, TASK_BLOCKED, TASK_DEAD };

struct mm_struct;
struct kretprobe_instance;
struct uprobe_task;

struct task_struct {
	union {
		char name[TASK_NAME_LEN];
		char comm[TASK_NAME_LEN];   /* Linux's name for it */
	};
	int pid;
	/*
	 * Linux's user address space; NULL for a kernel thread (probe code
	 * tests current->mm for that).  A process is a thread with an mm:
	 * it runs in ring 3 and enters the kernel on its own kernel stack
	 * (docs/user-mode.md).
	 */
	struct mm_struct *mm;
	struct files_struct *files; /* a process's open files (kernel/file.c) */
	struct uprobe_task *utask;  /* a uprobe hit in flight, pending returns */
	int sigkill_pending;        /* kill PID: exit on the way back to ring 3 */
	struct task_struct *parent; /* the process that spawned it (waitpid) */
	int exit_state;             /* EXIT_ZOMBIE once it has exited, for wait4 (kernel/exit.c) */
	int hardirq_count;          /* >0 while this thread runs an IRQ handler */
	enum task_state state;
	unsigned long esp;          /* saved by switch_to() while not running */
	unsigned long stack_base;   /* lowest address (the guard page) */
	unsigned long stack_size;   /* bytes, guard page included */
	int preempt_count;          /* per thread, as in Linux: >0 = no preemption */
	int spinlocks_held;         /* taken and not yet released (spinlock.h) */
	/*
	 * 1 from the moment a CPU picks the thread until that CPU has
	 * finished switching away from it (Linux's on_cpu): until then the
	 * thread's stack is still in use, so no other CPU may run it, and
	 * kthread_join() may not free it.
	 */
	volatile int on_cpu;
	int cpu;                    /* the CPU it runs, or last ran, on */
	unsigned long cpus_allowed; /* bit n: may run on CPU n */
	unsigned long trap_flag;    /* EFLAGS.TF a new thread starts with */
	unsigned long wake_at;      /* jiffies to wake at, while TASK_SLEEPING */
	int exit_code;              /* valid once TASK_DEAD */
	struct task_struct *joiner; /* blocked in kthread_join() on us */
	int (*fn)(void *);          /* what the thread runs, and its argument */
	void *arg;
	struct task_struct *next;   /* ring of every task, for round robin */
	struct thread_debugreg debugreg; /* its hardware breakpoints (hw_breakpoint.h) */
	/*
	 * Its kretprobed calls in progress, newest first, and how many
	 * (probes/kretprobes.c).  Only the thread itself changes them, with
	 * interrupts off, so they need no lock (Linux's kretprobe_instances).
	 */
	struct kretprobe_instance *kretprobe_instances;
	int kretprobe_nr;
	/*
	 * function_graph's hooked returns, newest on top (Linux's
	 * ret_stack): only the thread itself pushes and pops, interrupts off.
	 */
	struct ftrace_ret_stack ret_stack[FTRACE_RETFUNC_DEPTH];
	int curr_ret_stack;		/* entries in use */
	unsigned long long ftrace_timestamp;	/* trace_clock() when it last left a CPU (sleep-time off) */
	struct rethook_node *rethooks;	/* its hooked returns, newest first (kernel/trace/rethook.c) */
	unsigned long min_flt;		/* page faults handled, none from disk (getrusage's ru_minflt) */
	/* Its handlers, blocked mask, pending signals, process group (kernel/signal.c). */
	struct task_signal signal;
	/*
	 * Freed as it ends, with no wait4() (Linux's autoreap): set when its
	 * parent exits first, as nobody is left to reap it (kernel/exit.c).
	 */
	bool autoreap;
	/* The signal its parent gets when it ends (SIGCHLD; clone() may ask another, or none). */
	int exit_signal;
	/* A vfork() child: its parent waits until it execs or exits (kernel/fork.c). */
	struct vfork_done *vfork_done;
	/*
	 * Its thread-local storage segments, GDT entries 6..8 while it runs
	 * (Linux's thread.tls_array): set_thread_area() writes them, every
	 * switch to it loads them (arch/i386/tls.c).
	 */
	struct desc_struct tls_array[GDT_ENTRY_TLS_ENTRIES];
	/* set_tid_address() and set_robust_list(): kept for the thread library (kernel/sys.c). */
	int __user *clear_child_tid;
	void __user *robust_list;
	/* Its x87 and SSE registers while it is switched out (arch/i386/fpu.c). */
	struct fpu_state fpu;
};

/*
 * The running thread: each CPU's own copy of current_task, one
 * %fs-relative load (arch/i386/include/asm/percpu.h).
 */
DECLARE_PER_CPU(struct task_struct *, current_task);
struct task_struct *get_current(void);
#define current get_current()
const char *task_name(struct task_struct *t);
int task_pid(struct task_struct *t);

void sched_init(void);
/* The idle task cpu will run, made before the CPU starts (NULL: no memory). */
struct task_struct *fork_idle(int cpu);
/* An application processor joins the scheduler: IF clear, %fs set; never returns. */
void cpu_startup_entry(void) __attribute__((noreturn));

struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *name);
/* A forked child: parent and exit signal set before it can run (kernel/fork.c). */
struct task_struct *kthread_create_child(int (*fn)(void *), void *arg, const char *name,
					 struct task_struct *parent, int exit_signal);
/* The same, but the thread runs only on `cpu` (NULL if it is offline). */
struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *arg,
					  int cpu, const char *name);
/* Move a thread to one CPU: it runs there from its next time slice on. */
int kthread_bind(struct task_struct *t, int cpu);
int set_cpus_allowed(struct task_struct *t, unsigned long mask);

/*
 * Single-CPU mode, for kprobes until it is SMP-aware: while any request
 * is open, every thread runs on CPU 0 alone and the other CPUs park;
 * _begin() returns once they are idle (when the caller may sleep).
 * Each _begin() is closed by one _end().  See kernel/sched.c.
 */
void sched_single_cpu_begin(void);
void sched_single_cpu_end(void);
bool sched_single_cpu(void);
void kthread_exit(int code) __attribute__((noreturn));
int kthread_join(struct task_struct *t);   /* returns the exit code, frees */
void yield(void);
/* Give up the CPU; the caller set its state first (Linux's schedule()). */
void schedule(void);
void set_current_state(enum task_state state);
/* Report a sleep where none is allowed: a spinlock held, preemption off. */
void might_sleep(const char *what);
void msleep(unsigned long ms);
/* Block until cond() holds; wake_up_process() makes the thread look again. */
void kthread_sleep_until(bool (*cond)(void));
void wake_up_process(struct task_struct *t);

/* Called from each CPU's timer interrupt. */
void scheduler_tick(void);

void preempt_disable(void);
void preempt_enable(void);

/*
 * Linux's __preempt_count_add()/__preempt_count_sub(): the bare count,
 * two instructions, no reschedule - for exception entry and exit, which
 * raise the count around their handlers and lower it before the iret
 * (Linux's __nmi_enter() does the same).
 */
static inline void __preempt_count_add(int val)
{
	this_cpu_read(current_task)->preempt_count += val;
	barrier();	/* the protected code stays after the increment */
}

static inline void __preempt_count_sub(int val)
{
	barrier();
	this_cpu_read(current_task)->preempt_count -= val;
}
int preempt_count(void);

/* Stack bounds of the thread running now (for safe stack copies). */
unsigned long current_stack_top(void);
unsigned long task_stack_top(struct task_struct *t);
/*
 * The trap frame the running process entered the kernel with from ring
 * 3 (Linux's current_pt_regs()): the CPU pushed it from TSS.esp0 down,
 * so it ends exactly at the top of the thread's kernel stack.
 */
struct pt_regs;
static inline struct pt_regs *current_pt_regs(void)
{
	return (struct pt_regs *)task_stack_top(current) - 1;
}

/* Find the thread whose stack guard page holds addr (NULL if none). */
struct task_struct *task_for_guard_page(unsigned long addr);

/*
 * Call fn on every thread (for tests that scan saved instruction
 * pointers, and `ps`), with the run queue locked: fn must not sleep.
 */
void for_each_task(void (*fn)(struct task_struct *t, void *arg), void *arg);

/*
 * The #DF task (arch/i386/doublefault.c): sched_init() installs it.  It
 * reports a thread's stack overflow on the console and ends the thread.
 */
void doublefault_init(void);

#endif
