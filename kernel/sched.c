/*
 * sched.c - kernel threads and a preemptive round-robin scheduler that
 * runs them on every CPU.
 *
 * Every thread has its own stack.  Switching threads means switching
 * stacks: switch_to() (arch/i386/switch.S) pushes the callee-saved
 * registers on the old stack, stores %esp in the old task, loads the new
 * task's %esp and pops that task's registers.  Everything else a thread
 * owns - its locals, return addresses, even a half-finished interrupt
 * frame - simply stays on its stack until it is switched back in, on
 * this CPU or on another one.
 *
 * Two ways into __schedule():
 *   - voluntarily: yield(), msleep(), kthread_join(), kthread_exit(),
 *     mutex_lock(), schedule();
 *   - preemption: each CPU's timer interrupt calls scheduler_tick();
 *     when the running thread's time slice is used up, and its
 *     preempt_count is 0, it calls __schedule() right there, inside the
 *     interrupt handler.  The interrupted thread's registers sit in its
 *     pt_regs on its own stack; when it is picked again, __schedule()
 *     returns into the handler, do_trap() returns, and iret resumes it.
 *
 * Locking (docs/scheduler.md): one run queue for every CPU - the ring of
 * all tasks - under one spinlock, rq_lock.  It guards the ring, every
 * task's state, on_cpu and cpus_allowed.  Interrupt handlers wake
 * threads, so it is always taken with interrupts off.  A CPU switching
 * threads holds it across switch_to(), and the thread switched TO
 * releases it (finish_task_switch()), as in Linux's context_switch():
 * no other CPU can look at either thread while both stacks are in use.
 *
 * Each CPU has an idle task, run when nothing else can run there: it
 * halts with interrupts on and looks at the ring after every interrupt.
 */
#include "kernel.h"
#include "sched.h"
#include "spinlock.h"
#include "smp.h"
#include "timer.h"
#include "mm.h"
#include "mm_types.h"
#include <asm/desc.h>
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "stacktrace.h"
#include "nokprobe.h"
#include "kprobes.h"
#include "ftrace.h"
#include "rethook.h"
#include "hw_breakpoint.h"
#include "trace.h"	/* trace_pid_exit() */
#include <asm/tls.h>
#include <asm/fpu.h>

#define TIMESLICE_TICKS 2		/* 20 ms at HZ=100 */
#define ALL_CPUS	(~0UL)		/* cpus_allowed: anywhere */

/* In arch/i386/switch.S. */
void switch_to(unsigned long *prev_esp, unsigned long next_esp);

/* The boot stack, from boot/multiboot.S. */
extern char boot_stack_bottom[], boot_stack_top[];

/*
 * Task 0 is the boot thread: kmain() running on the boot stack, later
 * the shell.  Like Linux's init_task it is set up at compile time, so
 * `current` and preempt_count() work from the very first instruction of
 * kmain().  Unlike Linux's, it is not the boot CPU's idle task: it goes
 * on to run the shell and may move to any CPU.
 */
static struct task_struct init_task = {
	.name = "swapper",
	.pid = 0,
	.state = TASK_RUNNABLE,
	.stack_base = (unsigned long)boot_stack_bottom,
	.on_cpu = 1,
	.cpu = 0,
	.cpus_allowed = ALL_CPUS,
	.next = &init_task,
};

/* CPU 0's copy is the template itself, so this holds from the start. */
DEFINE_PER_CPU(struct task_struct *, current_task) = &init_task;

static DEFINE_PER_CPU(struct task_struct *, idle_task);
static DEFINE_PER_CPU(struct task_struct *, switch_prev);  /* for finish_task_switch() */
static DEFINE_PER_CPU(int, slice_left);
static DEFINE_PER_CPU(int, need_resched);  /* a preemption is owed here */

static struct task_struct idle_tasks[NR_CPUS];

static DEFINE_SPINLOCK(rq_lock);
static void kick_idle_cpu(struct task_struct *t);
static struct task_struct *rq_cursor = &init_task;  /* where idle CPUs start looking */
static int next_pid = 1;
static int single_cpu;	/* > 0: threads run on CPU 0 alone (sched_single_cpu_begin()) */

struct task_struct *get_current(void)
{
	return this_cpu_read(current_task);
}

const char *task_name(struct task_struct *t)
{
	return t->name;
}

int task_pid(struct task_struct *t)
{
	return t->pid;
}

unsigned long task_stack_top(struct task_struct *t)
{
	return t->stack_base + t->stack_size;
}

unsigned long current_stack_top(void)
{
	return task_stack_top(current);
}

static bool is_idle_task(struct task_struct *t)
{
	return t >= idle_tasks && t < idle_tasks + NR_CPUS;
}

/* ---- choosing and switching ------------------------------------------- */

/* May t run on cpu: its affinity, and CPU 0 alone in single-CPU mode. */
static bool cpu_allowed(struct task_struct *t, int cpu)
{
	return ((t->cpus_allowed >> cpu) & 1) && (!READ_ONCE(single_cpu) || cpu == 0);
}

/* Single-CPU mode and not CPU 0: run nothing, not even the run queue's lock. */
static bool parked_here(void)
{
	return READ_ONCE(single_cpu) && smp_processor_id() != 0;
}

/*
 * May this CPU run t now?  Runnable, allowed here, and not running on
 * (or still switching away from) another CPU - prev is running here.
 */
static bool can_run_here(struct task_struct *t, struct task_struct *prev, int cpu)
{
	/* LAB 6: BEGIN can_run_here: a runnable thread may be running elsewhere */
	return t->state == TASK_RUNNABLE && (t == prev || !t->on_cpu) && cpu_allowed(t, cpu);
	/* LAB 6: STUB return t->state == TASK_RUNNABLE && cpu_allowed(t, cpu); */
	/* LAB 6: LATER // Until lab 6, asymmetric: CPU 0 runs every shared thread, another CPU */
	/* LAB 6: LATER // only its own and the ones bound to it alone, which no other CPU runs. */
	/* LAB 6: LATER return t->state == TASK_RUNNABLE && cpu_allowed(t, cpu) && */
	/* LAB 6: LATER        (t == prev || cpu == 0 || t->cpus_allowed == 1UL << cpu); */
	/* LAB 6: END */
}

/*
 * Round robin over the ring: the first task after prev that can run
 * here, prev itself last; this CPU's idle task if none can.  An idle
 * CPU starts after the task picked last, anywhere.  rq_lock held.
 */
static struct task_struct *pick_next_task(struct task_struct *prev, int cpu)
{
	struct task_struct *start = is_idle_task(prev) ? rq_cursor->next : prev->next;
	struct task_struct *t = start;

	do {
		if (can_run_here(t, prev, cpu)) {
			rq_cursor = t;
			return t;
		}
		t = t->next;
	} while (t != start);
	return this_cpu_read(idle_task);
}

/*
 * EFLAGS.TF (a debugger's single-step) belongs to the thread that set
 * it, but switch_to() leaves EFLAGS as they are, and the CPU keeps the
 * flag.  So each thread puts back its own after a switch: otherwise
 * the next thread on this CPU would be stepped in its place (the idle
 * task, say), and the stepped thread not at all on another CPU.
 */
static void set_trap_flag(unsigned long flags)
{
	unsigned long now = read_eflags();

	if ((now ^ flags) & X86_EFLAGS_TF)
		native_restore_fl(now ^ X86_EFLAGS_TF);
}

static void unlink_task(struct task_struct *t)
{
	struct task_struct *prev = &init_task;

	while (prev->next != t)
		prev = prev->next;
	prev->next = t->next;
	if (rq_cursor == t)
		rq_cursor = prev;
}

/* A dead thread's last trace: its stack (guard page made present again) and task. */
static void free_task(struct task_struct *t)
{
	set_page_present(t->stack_base, 1);
	free_pages((void *)t->stack_base, THREAD_STACK_PAGES);
	kfree(t);
}

/*
 * Run on the new stack right after every switch, with rq_lock held: the
 * CPU no longer uses prev's stack, so prev may now run elsewhere - or,
 * if it exited, be freed by the thread waiting in kthread_join().  An
 * autoreaped one has nobody waiting: it leaves the ring here and is
 * returned, for the caller to free once rq_lock is released (Linux's
 * finish_task_switch() puts a dead task's last reference the same way).
 */
static struct task_struct *finish_task_switch(void)
{
	struct task_struct *prev = this_cpu_read(switch_prev);

	barrier();	/* x86 keeps stores in order: the stack is done with first */
	prev->on_cpu = 0;
	if (prev->state == TASK_DEAD && prev->autoreap) {
		unlink_task(prev);	/* nobody joins it: it is freed by the caller */
		return prev;
	}
	if (prev->state == TASK_DEAD && prev->joiner &&
	    prev->joiner->state == TASK_BLOCKED) {
		prev->joiner->state = TASK_RUNNABLE;
		/* An idle CPU would otherwise find the joiner only at its next tick. */
		kick_idle_cpu(prev->joiner);
	}
	return NULL;
}

/*
 * Give this CPU to the next task that can run here (maybe the caller
 * again).  The caller has already set its own state: RUNNABLE to just
 * take turns, anything else to wait.  Returns when the caller is picked
 * again - on this CPU or another.
 */
static void __schedule(void)
{
	struct task_struct *prev, *next, *dead = NULL;
	unsigned long flags;
	int cpu;

	spin_lock_irqsave(&rq_lock, flags);
	cpu = smp_processor_id();
	prev = this_cpu_read(current_task);
	next = pick_next_task(prev, cpu);
	/*
	 * A thread another CPU runs (or is still switching away from):
	 * switching to it would put two CPUs on one stack, and the damage
	 * would show up far from here.  Stop at the cause instead.
	 */
	if (next != prev && next->on_cpu)
		panic("sched: CPU %d picked thread '%s', which CPU %d is running (on_cpu)",
		      cpu, next->name, next->cpu);
	this_cpu_write(need_resched, 0);
	this_cpu_write(slice_left, TIMESLICE_TICKS);
	if (next != prev) {
		next->on_cpu = 1;
		next->cpu = cpu;
		this_cpu_write(current_task, next);
		this_cpu_write(switch_prev, prev);
		switch_mm(next->mm);			/* its address space */
		load_sp0(task_stack_top(next));		/* its stack for ring 3's traps */
		load_TLS(next, cpu);			/* its %gs's descriptors (tls.c) */
		fpu_switch(prev, next);			/* its x87 and SSE registers (fpu.c) */
		hw_breakpoint_switch(prev, next);	/* next's own debug registers */
		ftrace_graph_sched_switch(prev, next);	/* sleep-time off: next's calls lose the time away */
		switch_to(&prev->esp, next->esp);
		/* ...some time later, some CPU switched back to us. */
		set_trap_flag(flags);
		dead = finish_task_switch();
	}
	spin_unlock_irqrestore(&rq_lock, flags);
	if (dead)
		free_task(dead);
}

/*
 * Sleeping where it is forbidden ("scheduling while atomic"): with a
 * spinlock held, a CPU spinning on it waits for a thread that is not
 * running; with preemption off, the code that turned it off expected
 * to keep the CPU.  Reported; the thread then sleeps anyway.
 */
void might_sleep(const char *what)
{
	struct task_struct *me = current;

	if (me->spinlocks_held) {
		printk("BUG: sleeping function %s() called with %d spinlock(s) held, "
		       "thread '%s' on CPU %d\n", what, me->spinlocks_held, me->name,
		       smp_processor_id());
		dump_stack();
	} else if (me->preempt_count) {
		printk("BUG: %s() in thread '%s' with preempt_count %d\n",
		       what, me->name, me->preempt_count);
	}
}

void schedule(void)
{
	might_sleep("schedule");
	__schedule();
}

void set_current_state(enum task_state state)
{
	unsigned long flags;

	/* Under the lock: a waker's test of the state sees this store. */
	spin_lock_irqsave(&rq_lock, flags);
	current->state = state;
	spin_unlock_irqrestore(&rq_lock, flags);
}

/*
 * t just became runnable: if a CPU it may run on is idle, send that CPU
 * a reschedule IPI.  The interrupt ends its hlt, and its idle loop picks
 * t now rather than at its next tick.  rq_lock held.
 */
static void kick_idle_cpu(struct task_struct *t)
{
	int cpu;

	/*
	 * By affinity alone, even in single-CPU mode: the same IPIs whether
	 * probes exist or not (the probe-everything sweep compares the two).
	 */
	for_each_online_cpu(cpu) {
		if (cpu != smp_processor_id() && ((t->cpus_allowed >> cpu) & 1) &&
		    per_cpu(current_task, cpu) == per_cpu(idle_task, cpu)) {
			smp_send_reschedule(cpu);
			return;
		}
	}
}

/* ---- the timer's view --------------------------------------------------- */

static void wake_sleepers(void)
{
	struct task_struct *t = &init_task;
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	do {
		if (t->state == TASK_SLEEPING && time_after_eq(jiffies, t->wake_at)) {
			t->state = TASK_RUNNABLE;
			kick_idle_cpu(t);
		}
		t = t->next;
	} while (t != &init_task);
	spin_unlock_irqrestore(&rq_lock, flags);
}

/*
 * May the running thread be preempted now?  Not with preemption off,
 * and not once it has set itself to sleep: it is on its way into
 * __schedule() and has yet to look at what it waits for.  Switched out
 * right there it would sleep without having looked, and a wake-up that
 * came before it set its state would be lost.  (Linux preempts it but
 * leaves it on the run queue; here it simply keeps the CPU the few
 * instructions to its own __schedule().)
 */
static bool preemptible_now(struct task_struct *t)
{
	return t->preempt_count == 0 && t->state == TASK_RUNNABLE;
}

/* From this CPU's timer interrupt (IF clear, EOI already sent). */
void scheduler_tick(void)
{
	struct task_struct *curr = current;

	if (smp_processor_id() == 0)
		wake_sleepers();	/* jiffies count on CPU 0: sleepers wake there */
	if (curr == this_cpu_read(idle_task))
		return;   /* the idle loop looks at the ring after every interrupt */
	if (this_cpu_read(slice_left) > 0)
		this_cpu_dec(slice_left);
	if (this_cpu_read(slice_left) == 0 || !cpu_allowed(curr, smp_processor_id()))
		this_cpu_write(need_resched, 1);	/* slice used up, or not allowed here */
	if (this_cpu_read(need_resched) && preemptible_now(curr))
		__schedule();
}

/* ---- preemption control ------------------------------------------------- */

void preempt_disable(void)
{
	current->preempt_count++;
	barrier();   /* the protected code must stay after the increment */
}

void preempt_enable(void)
{
	struct task_struct *me = current;

	barrier();
	if (me->preempt_count <= 0)
		panic("preempt_enable: unbalanced in thread '%s'", me->name);
	/*
	 * If a tick wanted to preempt us while we were protected, do it now.
	 * Not with interrupts off, though (say, inside a trap handler or
	 * under spin_lock_irqsave()): the next tick will do it instead.
	 */
	if (--me->preempt_count == 0 && this_cpu_read(need_resched) &&
	    preemptible_now(me) && !irqs_disabled())
		__schedule();
}

int preempt_count(void)
{
	return current->preempt_count;
}

/* ---- idle --------------------------------------------------------------- */

/* The reschedule IPIs this CPU had taken when its idle loop last looked. */
static DEFINE_PER_CPU(unsigned long, idle_resched_seen);

/*
 * Should an idle CPU take rq_lock and look at the ring now?  Yes when a
 * waker kicked it (a reschedule IPI came: kick_idle_cpu() has a thread
 * for it), and yes when the lock is free.  While another CPU holds the
 * lock, that CPU is scheduling, and a thread it makes runnable for us
 * comes with a kick; joining the lock's queue anyway only makes the
 * CPUs with real work wait behind the idle ones.  With more vCPUs than
 * host cores that queue is what hurts: each hand-over of a ticket lock
 * waits until the host runs the next ticket's vCPU, so idle CPUs
 * queueing on every tick could use up every hand-over and leave the
 * one busy CPU almost no turns (a convoy, the lock-waiter preemption
 * problem paravirtualized spinlocks were made for).
 */
static bool idle_should_look(void)
{
	unsigned long kicks = this_cpu_read(irq_resched_count);

	if (kicks != this_cpu_read(idle_resched_seen)) {
		this_cpu_write(idle_resched_seen, kicks);
		return true;
	}
	return !spin_is_locked(&rq_lock);
}

/*
 * Nothing to run here: halt until an interrupt.  sti takes effect only
 * after the NEXT instruction, so no interrupt slips in between it and
 * hlt.  Every interrupt ends the halt, and the loop looks again: a
 * thread woken by this CPU's own interrupt runs at once, one woken by
 * another CPU (with a kick) at once too, any other at the first tick
 * that finds rq_lock free.
 */
static noinline void __noreturn cpu_idle_loop(void)
{
	for (;;) {
		local_irq_disable();
		if (!parked_here() && idle_should_look())
			__schedule();
		native_safe_halt();	/* sti; hlt: no wake-up lost between */
	}
}

static int idle_thread_fn(void *unused)
{
	cpu_idle_loop();
}

/* ---- thread life cycle -------------------------------------------------- */

/*
 * A new thread's first instruction.  The CPU that switched to it holds
 * rq_lock with interrupts off (the new thread's counts were set up to
 * own that lock); the thread finishes the switch, releases the lock and
 * starts with interrupts on - Linux's schedule_tail().
 */
static void __noreturn kthread_entry(void)
{
	struct task_struct *me = current;

	struct task_struct *dead;

	set_trap_flag(me->trap_flag);
	dead = finish_task_switch();
	spin_unlock_irq(&rq_lock);
	if (dead)
		free_task(dead);
	kthread_exit(me->fn(me->arg));
}

/*
 * Lay out the new stack exactly as switch_to() leaves a stack it
 * switched away from, so that switching to it "returns" into
 * kthread_entry() with every callee-saved register zero.  The thread
 * will start with its creator's trap flag, as a forked process keeps
 * its debugger's single-step: a thread created while single-stepping
 * is stepped too.
 */
static void prepare_stack(struct task_struct *t)
{
	unsigned long *sp = (unsigned long *)task_stack_top(t);

	*--sp = 0;                              /* kthread_entry's return address */
	*--sp = (unsigned long)kthread_entry;   /* switch_to's ret goes here */
	*--sp = 0;                              /* ebp = 0 ends backtraces */
	*--sp = 0;                              /* ebx */
	*--sp = 0;                              /* esi */
	*--sp = 0;                              /* edi */
	t->esp = (unsigned long)sp;
	t->trap_flag = read_eflags() & X86_EFLAGS_TF;
}

/* A stack with its guard page, ready to start fn(arg); false if no memory. */
static bool setup_thread(struct task_struct *t, int (*fn)(void *), void *arg,
			 const char *name)
{
	void *stack = alloc_pages(THREAD_STACK_PAGES);

	if (!stack)
		return false;
	strlcpy(t->name, name, sizeof(t->name));
	t->stack_base = (unsigned long)stack;
	t->stack_size = THREAD_STACK_PAGES * PAGE_SIZE;
	t->fn = fn;
	t->arg = arg;
	set_page_present(t->stack_base, 0);   /* the guard page */
	prepare_stack(t);
	/* Its first switch hands it rq_lock, which kthread_entry() releases. */
	t->preempt_count = 1;
	t->spinlocks_held = 1;
	return true;
}

/* Insert t just before init_task: the end of the round-robin ring. */
static void link_task(struct task_struct *t)
{
	struct task_struct *last = &init_task;

	while (last->next != &init_task)
		last = last->next;
	t->next = &init_task;
	last->next = t;
}


static struct task_struct *__kthread_create(int (*fn)(void *), void *arg,
					    const char *name, unsigned long allowed,
					    struct task_struct *parent, int exit_signal)
{
	struct task_struct *t = kzalloc(sizeof(*t));
	unsigned long flags;

	if (!t || !setup_thread(t, fn, arg, name)) {
		kfree(t);
		return NULL;
	}
	t->cpus_allowed = allowed;
	t->parent = parent;
	t->exit_signal = exit_signal;
	/* Its creator's TLS entries, as Linux's dup_task_struct() copies them: a forked child's %gs still works. */
	if (this_cpu_read(current_task)) {
		tls_copy_thread(t, current);
		fpu_clone(t);	/* and its floating-point registers, as Linux's fpu_clone() */
	}

	spin_lock_irqsave(&rq_lock, flags);
	t->pid = next_pid++;
	t->state = TASK_RUNNABLE;
	link_task(t);
	kick_idle_cpu(t);
	spin_unlock_irqrestore(&rq_lock, flags);
	return t;
}

/*
 * Create a thread running fn(arg) and make it runnable at once (Linux
 * would call this kthread_run), on any CPU.  NULL when out of memory.
 */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *name)
{
	return __kthread_create(fn, arg, name, ALL_CPUS, NULL, 0);
}

/*
 * A forked child (kernel/fork.c): its parent and exit signal set before
 * it can run.  On another CPU it may run at once - call getppid(), or
 * exit and notify its parent - before its creator is back from here.
 */
struct task_struct *kthread_create_child(int (*fn)(void *), void *arg, const char *name,
					 struct task_struct *parent, int exit_signal)
{
	return __kthread_create(fn, arg, name, ALL_CPUS, parent, exit_signal);
}

/* The same, bound to one CPU from its first instruction on. */
struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *arg,
					  int cpu, const char *name)
{
	if (!cpu_online(cpu))
		return NULL;
	return __kthread_create(fn, arg, name, 1UL << cpu, NULL, 0);
}

/*
 * Where t may run from now on.  If that excludes the CPU it is running
 * on, it moves at its next switch: at once when it is the caller and
 * may sleep, at the end of its time slice otherwise.
 */
int set_cpus_allowed(struct task_struct *t, unsigned long mask)
{
	unsigned long flags;
	bool move_now;

	if (!t || is_idle_task(t) || !(mask & READ_ONCE(cpu_online_mask)))
		return -EINVAL;
	spin_lock_irqsave(&rq_lock, flags);
	t->cpus_allowed = mask;
	move_now = t == current && !((mask >> smp_processor_id()) & 1);
	spin_unlock_irqrestore(&rq_lock, flags);
	if (move_now && preempt_count() == 0 && !irqs_disabled())
		__schedule();
	return 0;
}

int kthread_bind(struct task_struct *t, int cpu)
{
	if (!cpu_online(cpu))
		return -EINVAL;
	return set_cpus_allowed(t, 1UL << cpu);
}

void kthread_exit(int code)
{
	struct task_struct *me = current;

	flush_thread_hw_breakpoints(me);	/* may sleep: before the irqs go off */
	trace_pid_exit(me);	/* off the pid filters that follow tasks; may sleep too */
	local_irq_disable();
	if (me == &init_task || is_idle_task(me))
		panic("kthread_exit: '%s' cannot exit", me->name);
	kprobe_flush_task(me);	/* kretprobed calls it will never return from */
	rethook_flush_task(me);	/* and rethooked ones */
	spin_lock(&rq_lock);
	me->exit_code = code;
	me->state = TASK_DEAD;	/* never picked again; finish_task_switch() wakes the joiner */
	spin_unlock(&rq_lock);
	__schedule();
	panic("kthread_exit: dead thread '%s' was scheduled", me->name);
}

/* Has t exited, and has its CPU finished switching away from it? */
static bool task_gone(struct task_struct *t)
{
	return t->state == TASK_DEAD && !t->on_cpu;
}

/*
 * Wait for t to exit, free it and return its exit code.  Each thread
 * must be joined exactly once; one that never is stays a zombie.
 */
int kthread_join(struct task_struct *t)
{
	unsigned long flags;
	int code;

	if (!t || t == current || t == &init_task || is_idle_task(t))
		return -EINVAL;
	might_sleep("kthread_join");

	spin_lock_irqsave(&rq_lock, flags);
	if (t->joiner) {
		spin_unlock_irqrestore(&rq_lock, flags);
		return -EBUSY;
	}
	t->joiner = current;
	while (!task_gone(t)) {
		current->state = TASK_BLOCKED;
		spin_unlock_irqrestore(&rq_lock, flags);
		__schedule();
		spin_lock_irqsave(&rq_lock, flags);
	}
	unlink_task(t);
	spin_unlock_irqrestore(&rq_lock, flags);

	code = t->exit_code;
	free_task(t);
	return code;
}

void yield(void)
{
	might_sleep("yield");
	__schedule();
}

/*
 * Block until cond() is true: Linux's
 *	set_current_state(TASK_INTERRUPTIBLE); if (!cond) schedule();
 * The state is set before the test.  A waker makes cond() true and then
 * calls wake_up_process(): either it sees TASK_BLOCKED and makes us
 * runnable, or it came before our state change, and then our test sees
 * cond() true.  No wake-up is lost, on any CPU.
 */
void kthread_sleep_until(bool (*cond)(void))
{
	might_sleep("kthread_sleep_until");
	for (;;) {
		set_current_state(TASK_BLOCKED);
		if (cond())
			break;
		__schedule();
	}
	set_current_state(TASK_RUNNABLE);
}

/* Make a blocked or sleeping thread runnable (an msleep() ends early). */
void wake_up_process(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	if (t->state == TASK_BLOCKED || t->state == TASK_SLEEPING) {
		t->state = TASK_RUNNABLE;
		kick_idle_cpu(t);
	}
	spin_unlock_irqrestore(&rq_lock, flags);
}

/* Sleep for at least ms milliseconds, rounded up to whole ticks. */
void msleep(unsigned long ms)
{
	unsigned long ticks = (ms * HZ + 999) / 1000;
	unsigned long flags;

	might_sleep("msleep");
	spin_lock_irqsave(&rq_lock, flags);
	current->wake_at = jiffies + ticks;
	current->state = TASK_SLEEPING;
	spin_unlock_irqrestore(&rq_lock, flags);
	__schedule();
}

/* ---- lookups ------------------------------------------------------------ */

/* From the #DF task: no lock (the thread that overflowed may hold it). */
struct task_struct *task_for_guard_page(unsigned long addr)
{
	struct task_struct *t = &init_task;

	do {
		if (t != &init_task && addr - t->stack_base < PAGE_SIZE)
			return t;
		t = t->next;
	} while (t != &init_task);
	return NULL;
}

void for_each_task(void (*fn)(struct task_struct *t, void *arg), void *arg)
{
	struct task_struct *t = &init_task;
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	do {
		fn(t, arg);
		t = t->next;
	} while (t != &init_task);
	spin_unlock_irqrestore(&rq_lock, flags);
}

/* ---- single-CPU mode ------------------------------------------------------ */

/*
 * kprobes is not SMP-aware yet: its per-hit state is global, and it
 * patches code on the assumption that every other thread is stopped
 * (arch/i386/kprobes/text_quiesce.c).  Until it is, kprobe_mutex_lock()
 * asks for this mode, and keeps it while probes exist: every thread
 * runs on CPU 0, where the PIC's interrupts arrive too, and the other
 * CPUs park in their idle loops, where only their timer and IPI
 * handlers run, which carry no probes and take no lock.  That is
 * kprobes' one CPU, with the others parked beside it.
 *
 * Requests nest: the mode lasts while any is open.  Opening one moves
 * the caller to CPU 0 and waits until every other CPU has switched to
 * its idle task: each does so at its next tick, when it finds its
 * thread no longer allowed there.  A caller that may not sleep (an
 * interrupt handler, preemption off) does not wait.
 */
static bool other_cpus_idle(void)
{
	int cpu;

	if (smp_processor_id() != 0)
		return false;
	for_each_online_cpu(cpu)
		if (cpu != 0 && per_cpu(current_task, cpu) != per_cpu(idle_task, cpu))
			return false;
	return true;
}

void sched_single_cpu_begin(void)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	single_cpu++;
	spin_unlock_irqrestore(&rq_lock, flags);
	if (irqs_disabled() || preempt_count())
		return;
	while (!other_cpus_idle()) {
		__schedule();	/* on another CPU: CPU 0 picks us up */
		cpu_relax();
	}
}

void sched_single_cpu_end(void)
{
	unsigned long flags;
	int cpu, left;

	spin_lock_irqsave(&rq_lock, flags);
	left = --single_cpu;
	spin_unlock_irqrestore(&rq_lock, flags);
	if (left < 0)
		panic("sched_single_cpu_end: not begun");
	if (left > 0)
		return;
	for_each_online_cpu(cpu)
		smp_send_reschedule(cpu);	/* look for threads now, not at the tick */
}

bool sched_single_cpu(void)
{
	return READ_ONCE(single_cpu) > 0;
}

/* ---- CPUs joining -------------------------------------------------------- */

/*
 * cpu's idle task, outside the ring: picked only when nothing else can
 * run.  Made by the boot CPU for each AP before it wakes it (Linux's
 * fork_idle()): making a stack means a guard page and so a TLB shootdown
 * (arch/i386/tlb.c), which must wait for the other CPUs with interrupts
 * on - an AP on its way in has them off.  A CPU number that did not
 * answer is given to the next AP, which finds its idle task made.
 */
struct task_struct *fork_idle(int cpu)
{
	struct task_struct *idle = &idle_tasks[cpu];
	char name[TASK_NAME_LEN];

	if (!idle->stack_base) {
		snprintf(name, sizeof(name), "idle/%d", cpu);
		if (!setup_thread(idle, idle_thread_fn, NULL, name))
			return NULL;
	}
	idle->pid = 0;
	idle->state = TASK_RUNNABLE;
	idle->cpu = cpu;
	idle->cpus_allowed = 1UL << cpu;
	per_cpu(idle_task, cpu) = idle;
	return idle;
}

/*
 * An application processor's way in, called by its start-up code with
 * interrupts off, its per-CPU area and %fs ready and its idle task made
 * (fork_idle()).  The CPU makes its
 * idle task current first (so that the locks below count against it),
 * then leaves its boot stack for good by switching to the idle task's
 * own stack as if it were a thread it had picked; from there on it runs
 * threads like every other CPU.
 */
void cpu_startup_entry(void)
{
	int cpu = smp_processor_id();
	struct task_struct *idle = this_cpu_read(idle_task);
	unsigned long boot_esp;

	this_cpu_write(current_task, idle);
	/* The idle task takes rq_lock itself here, not as a new thread's. */
	idle->preempt_count = 0;
	idle->spinlocks_held = 0;
	idle->on_cpu = 1;
	spin_lock(&rq_lock);
	this_cpu_write(switch_prev, idle);
	switch_to(&boot_esp, idle->esp);
	panic("cpu_startup_entry: CPU %d came back to its boot stack", cpu);
}

void sched_init(void)
{
	init_task.stack_size = boot_stack_top - boot_stack_bottom;
	if (!fork_idle(0))
		panic("sched: no memory for CPU 0's idle task");
	doublefault_init();
	printk("sched: round robin over one run queue for all CPUs, %d-tick slices, "
	       "%u KiB thread stacks + guard page\n",
	       TIMESLICE_TICKS, (THREAD_STACK_PAGES - 1) * PAGE_SIZE / 1024);
}

/* A probe in the middle of a switch would run on a half-switched task. */
NOKPROBE_SYMBOL(__schedule);
NOKPROBE_SYMBOL(schedule);
NOKPROBE_SYMBOL(pick_next_task);
NOKPROBE_SYMBOL(can_run_here);
NOKPROBE_SYMBOL(finish_task_switch);
NOKPROBE_SYMBOL(scheduler_tick);
NOKPROBE_SYMBOL(wake_sleepers);
NOKPROBE_SYMBOL(preempt_disable);
NOKPROBE_SYMBOL(preempt_enable);
NOKPROBE_SYMBOL(preempt_count);
NOKPROBE_SYMBOL(get_current);
NOKPROBE_SYMBOL(is_idle_task);
NOKPROBE_SYMBOL(cpu_allowed);
NOKPROBE_SYMBOL(parked_here);
NOKPROBE_SYMBOL(preemptible_now);
NOKPROBE_SYMBOL(kick_idle_cpu);
/* What the other CPUs run while kprobes keeps threads on CPU 0. */
NOKPROBE_SYMBOL(cpu_idle_loop);
NOKPROBE_SYMBOL(idle_thread_fn);
