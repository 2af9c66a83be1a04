/*
 * sched.c - kernel threads and a preemptive round-robin scheduler.
 *
 * Every thread has its own stack.  Switching threads means switching
 * stacks: switch_to() (arch/i386/switch.S) pushes the callee-saved
 * registers on the old stack, stores %esp in the old task, loads the new
 * task's %esp and pops that task's registers.  Everything else a thread
 * owns - its locals, return addresses, even a half-finished interrupt
 * frame - simply stays on its stack until it is switched back in.
 *
 * Two ways into schedule():
 *   - voluntarily: yield(), msleep(), kthread_join(), kthread_exit();
 *   - preemption: the PIT interrupt calls scheduler_tick() every tick;
 *     when the running thread's time slice is used up, and its
 *     preempt_count is 0, it calls schedule() right there, inside the
 *     interrupt handler.  The interrupted thread's registers sit in its
 *     pt_regs on its own stack; when it is picked again, schedule()
 *     returns into the handler, do_trap() returns, and iret resumes it.
 *
 * There is one CPU, so "turn interrupts off" is the only lock we need:
 * the task list and every task's state are changed with IF clear.
 *
 * When nothing is runnable schedule() halts with interrupts on until a
 * tick wakes a sleeper; there is no separate idle thread.
 */
#include "kernel.h"
#include "sched.h"
#include "timer.h"
#include "mm.h"
#include "irqflags.h"
#include "string.h"
#include "errno.h"
#include "nokprobe.h"
#include "kprobes.h"

#define TIMESLICE_TICKS 2   /* 20 ms at HZ=100 */

/* In arch/i386/switch.S. */
void switch_to(unsigned long *prev_esp, unsigned long next_esp);

/* The boot stack, from boot/multiboot.S. */
extern char boot_stack_bottom[], boot_stack_top[];

/*
 * Task 0 is the boot thread: kmain() running on the boot stack.  Like
 * Linux's init_task it is set up at compile time, so `current` and
 * preempt_count() work from the very first instruction of kmain().
 */
static struct task_struct init_task = {
	.name = "swapper",
	.pid = 0,
	.state = TASK_RUNNABLE,
	.stack_base = (unsigned long)boot_stack_bottom,
	.next = &init_task,
};

struct task_struct *current_task = &init_task;	/* sched.h: for __preempt_count_add() */
static int next_pid = 1;
static int slice_left = TIMESLICE_TICKS;
static bool need_resched;   /* a preemption is owed to the running thread */
static bool idling;         /* schedule() is halted waiting for work */

struct task_struct *get_current(void)
{
	return current_task;
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
	return task_stack_top(current_task);
}

/* ---- choosing and switching ------------------------------------------- */

/* Round robin: the first runnable task after prev, prev itself last. */
static struct task_struct *pick_next_task(struct task_struct *prev)
{
	struct task_struct *t = prev->next;

	for (;;) {
		if (t->state == TASK_RUNNABLE)
			return t;
		if (t == prev)
			return NULL;
		t = t->next;
	}
}

/*
 * Nothing can run: enable interrupts and halt until one arrives.  sti
 * only takes effect after the NEXT instruction, so no interrupt can
 * slip in between it and hlt and leave us halted with work to do.
 */
static void idle_wait(void)
{
	idling = true;
	__asm__ __volatile__("sti; hlt; cli" ::: "memory");
	idling = false;
}

/*
 * Give the CPU to the next runnable task (maybe the caller again).  The
 * caller has already set its own state: RUNNABLE to just take turns,
 * anything else to wait.  Returns when the caller is picked again.
 */
static void schedule(void)
{
	unsigned long flags = local_irq_save();
	struct task_struct *prev = current_task, *next;

	while (!(next = pick_next_task(prev)))
		idle_wait();
	need_resched = false;
	slice_left = TIMESLICE_TICKS;
	if (next != prev) {
		current_task = next;
		switch_to(&prev->esp, next->esp);
		/* ...and, some time later, someone switched back to us. */
	}
	local_irq_restore(flags);
}

/* "Scheduling while atomic": sleeping with preemption off is a bug. */
static void might_sleep(const char *what)
{
	if (current_task->preempt_count)
		printk("BUG: %s() in thread '%s' with preempt_count %d\n",
		       what, current_task->name, current_task->preempt_count);
}

/* ---- the timer's view --------------------------------------------------- */

static void wake_sleepers(void)
{
	struct task_struct *t = &init_task;

	do {
		if (t->state == TASK_SLEEPING && time_after_eq(jiffies, t->wake_at))
			t->state = TASK_RUNNABLE;
		t = t->next;
	} while (t != &init_task);
}

/* From the PIT interrupt (IF clear, EOI already sent). */
void scheduler_tick(void)
{
	wake_sleepers();
	if (idling)
		return;   /* we interrupted schedule() itself: it will look again */
	if (slice_left > 0)
		slice_left--;
	if (slice_left == 0)
		need_resched = true;
	if (need_resched && current_task->preempt_count == 0)
		schedule();
}

/* ---- preemption control ------------------------------------------------- */

void preempt_disable(void)
{
	current_task->preempt_count++;
	barrier();   /* the protected code must stay after the increment */
}

void preempt_enable(void)
{
	barrier();
	if (current_task->preempt_count <= 0)
		panic("preempt_enable: unbalanced in thread '%s'", current_task->name);
	/*
	 * If a tick wanted to preempt us while we were protected, do it now.
	 * Not with interrupts off, though (say, inside a trap handler): the
	 * next tick will do it instead.
	 */
	if (--current_task->preempt_count == 0 && need_resched && !irqs_disabled())
		schedule();
}

int preempt_count(void)
{
	return current_task->preempt_count;
}

/* ---- thread life cycle -------------------------------------------------- */

/*
 * A new thread's first instruction.  schedule() switched to it with
 * interrupts off; the thread starts with them on.
 */
static void __noreturn kthread_entry(void)
{
	struct task_struct *me = current_task;

	local_irq_enable();
	kthread_exit(me->fn(me->arg));
}

/*
 * Lay out the new stack exactly as switch_to() leaves a stack it
 * switched away from, so that switching to it "returns" into
 * kthread_entry() with every callee-saved register zero.
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

static void unlink_task(struct task_struct *t)
{
	struct task_struct *prev = &init_task;

	while (prev->next != t)
		prev = prev->next;
	prev->next = t->next;
}

/*
 * Create a thread running fn(arg) and make it runnable at once (Linux
 * would call this kthread_run).  Returns NULL when out of memory.
 */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t = kzalloc(sizeof(*t));
	void *stack = alloc_pages(THREAD_STACK_PAGES);

	if (!t || !stack) {
		kfree(t);
		if (stack)
			free_pages(stack, THREAD_STACK_PAGES);
		return NULL;
	}
	strlcpy(t->name, name, sizeof(t->name));
	t->stack_base = (unsigned long)stack;
	t->stack_size = THREAD_STACK_PAGES * PAGE_SIZE;
	t->fn = fn;
	t->arg = arg;
	set_page_present(t->stack_base, 0);   /* the guard page */
	prepare_stack(t);

	unsigned long flags = local_irq_save();
	t->pid = next_pid++;
	t->state = TASK_RUNNABLE;
	link_task(t);
	local_irq_restore(flags);
	return t;
}

void kthread_exit(int code)
{
	struct task_struct *me = current_task;

	local_irq_disable();
	if (me == &init_task)
		panic("kthread_exit: the boot thread cannot exit");
	kprobe_flush_task(me);	/* kretprobed calls it will never return from */
	me->exit_code = code;
	me->state = TASK_DEAD;
	if (me->joiner)
		me->joiner->state = TASK_RUNNABLE;
	schedule();
	panic("kthread_exit: dead thread '%s' was scheduled", me->name);
}

/*
 * Wait for t to exit, free it and return its exit code.  Each thread
 * must be joined exactly once; one that never is stays a zombie.
 */
int kthread_join(struct task_struct *t)
{
	int code;

	if (!t || t == current_task || t == &init_task)
		return -EINVAL;
	might_sleep("kthread_join");

	unsigned long flags = local_irq_save();
	if (t->joiner) {
		local_irq_restore(flags);
		return -EBUSY;
	}
	t->joiner = current_task;
	while (t->state != TASK_DEAD) {
		current_task->state = TASK_BLOCKED;
		schedule();
	}
	/* t switched away for the last time inside kthread_exit(). */
	unlink_task(t);
	local_irq_restore(flags);

	code = t->exit_code;
	set_page_present(t->stack_base, 1);
	free_pages((void *)t->stack_base, THREAD_STACK_PAGES);
	kfree(t);
	return code;
}

void yield(void)
{
	might_sleep("yield");
	schedule();
}

/*
 * Block until cond() is true.  Linux writes this as
 * set_current_state(TASK_INTERRUPTIBLE); if (!cond) schedule(); the test
 * and the state change happen here with interrupts off, so on one CPU no
 * wake_up_process() can fall between them and be lost.
 */
void kthread_sleep_until(bool (*cond)(void))
{
	might_sleep("kthread_sleep_until");
	unsigned long flags = local_irq_save();
	while (!cond()) {
		current_task->state = TASK_BLOCKED;
		schedule();
	}
	local_irq_restore(flags);
}

/* Make a blocked or sleeping thread runnable (an msleep() ends early). */
void wake_up_process(struct task_struct *t)
{
	unsigned long flags = local_irq_save();

	if (t->state == TASK_BLOCKED || t->state == TASK_SLEEPING)
		t->state = TASK_RUNNABLE;
	local_irq_restore(flags);
}

/* Sleep for at least ms milliseconds, rounded up to whole ticks. */
void msleep(unsigned long ms)
{
	unsigned long ticks = (ms * HZ + 999) / 1000;

	might_sleep("msleep");
	unsigned long flags = local_irq_save();
	current_task->wake_at = jiffies + ticks;
	current_task->state = TASK_SLEEPING;
	schedule();
	local_irq_restore(flags);
}

/* ---- lookups ------------------------------------------------------------ */

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

/* fn runs with interrupts off: it must not sleep. */
void for_each_task(void (*fn)(struct task_struct *t, void *arg), void *arg)
{
	unsigned long flags = local_irq_save();
	struct task_struct *t = &init_task;

	do {
		fn(t, arg);
		t = t->next;
	} while (t != &init_task);
	local_irq_restore(flags);
}

void sched_init(void)
{
	init_task.stack_size = boot_stack_top - boot_stack_bottom;
	doublefault_init();
	printk("sched: round robin, %d-tick slices, %u KiB thread stacks + guard page\n",
	       TIMESLICE_TICKS, (THREAD_STACK_PAGES - 1) * PAGE_SIZE / 1024);
}

/* A probe in the middle of a switch would run on a half-switched task. */
NOKPROBE_SYMBOL(schedule);
NOKPROBE_SYMBOL(scheduler_tick);
NOKPROBE_SYMBOL(preempt_disable);
NOKPROBE_SYMBOL(preempt_enable);
NOKPROBE_SYMBOL(preempt_count);
NOKPROBE_SYMBOL(get_current);
