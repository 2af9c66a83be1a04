/*
 * doublefault.c - surviving a kernel thread that runs off its stack.
 *
 * WHY A DOUBLE FAULT.  Below each thread stack lies a guard page mapped
 * not-present (kernel/sched.c).  A thread that recurses too deep pushes
 * into it and takes a page fault.  To deliver that #PF the CPU must push
 * EFLAGS, CS, EIP and an error code - on the same stack, because we run
 * in ring 0 and an interrupt gate never switches stacks within a ring.
 * Those pushes hit the guard page too: a fault while delivering a #PF.
 * The CPU gives up on the #PF and raises a double fault (#DF, vector 8)
 * instead (SDM vol. 3, 6.15, "Interrupt 8").
 *
 * WHY A TASK GATE.  Delivering the #DF through an ordinary interrupt
 * gate would push onto the very same dead stack, fault a third time and
 * "triple fault": the CPU shuts down and the PC resets.  The one x86-32
 * mechanism that changes stacks without a privilege change is the
 * hardware task switch.  So IDT vector 8 is a task gate naming df_tss:
 *
 *   1. the CPU stores all registers of the current task (the thread that
 *      overflowed) into the TSS the task register names: this CPU's
 *      cpu_tss[cpu];
 *   2. it loads every register - EIP, ESP, EFLAGS, segments, CR3 - from
 *      the CPU's df_tss, sets EFLAGS.NT and writes cpu_tss's selector
 *      into df_tss.prev_task ("I was called by cpu_tss");
 *   3. it pushes the #DF error code on df_tss's stack and runs
 *      double_fault_task (df_entry.S) on a stack that is known good.
 *
 * RECOVERY.  cpu_tss now holds the dead thread's registers, and iret
 * (with NT set) will reload them.  We edit them first: EIP becomes
 * stack_overflow_exit(), ESP the top of the thread's own stack (its old
 * frames are abandoned), interrupts off, segments the kernel's.  The
 * iret switches back and the thread "continues" by calling
 * kthread_exit(-EFAULT); whoever joins it gets -EFAULT.
 *
 * Anything else that double-faults is a real bug: report and panic.
 */
#include "kernel.h"
#include <asm/desc.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include <asm/processor.h>
#include "sched.h"
#include "mm.h"
#include "string.h"
#include "errno.h"
#include "kallsyms.h"
#include "smp.h"
#include "nokprobe.h"

#define DF_STACK_SIZE 8192   /* printk and panic run on it */

/* One #DF task per CPU: two CPUs may overflow a stack at once. */
static struct tss_struct df_tss[NR_CPUS] __aligned(16);
static char df_stack[NR_CPUS][DF_STACK_SIZE] __aligned(16);

/* df_entry.S */
void double_fault_task(void);

/* Where the overflowed thread resumes, at the top of its own stack. */
static void __noreturn stack_overflow_exit(void)
{
	/* It may have died inside a preempt_disable() section. */
	current->preempt_count = 0;
	kthread_exit(-EFAULT);
}

/*
 * Make the interrupted task, when iret switches back to it, start
 * stack_overflow_exit() on a fresh stack instead of faulting again.
 */
static void redirect_to_exit(struct task_struct *t)
{
	struct tss_struct *tss = this_cpu_tss();
	unsigned long *sp = (unsigned long *)task_stack_top(t);

	*--sp = 0;   /* a return address of 0: backtraces stop here */
	tss->esp = (unsigned long)sp;
	tss->ebp = 0;
	tss->eip = (unsigned long)stack_overflow_exit;
	tss->eflags = X86_EFLAGS_FIXED;   /* IF off until it schedules */
	tss->cs = __KERNEL_CS;
	tss->ss = tss->ds = tss->es = tss->gs = __KERNEL_DS;
	tss->fs = __KERNEL_PERCPU;
}

/*
 * What the task switch left behind: we run as df_tss, whose back link
 * names the task that faulted, and that task's registers are in
 * cpu_tss exactly as the CPU stored them.  The saved EIP of a #DF is
 * undefined (SDM), but in practice it is the instruction that faulted.
 */
static void show_tss_state(unsigned long error_code, unsigned long cr2)
{
	struct tss_struct *tss = this_cpu_tss();
	char sym[96];
	uint16_t tr;

	__asm__ __volatile__("str %0" : "=r"(tr));
	sprint_symbol(sym, sizeof(sym), tss->eip);
	printk("double fault (error code %lu) on CPU %d: now running the #DF task, TR=%04x, back link %04x\n",
	       error_code, smp_processor_id(), tr, df_tss[smp_processor_id()].prev_task);
	printk("  cpu_tss[%d], as the task switch saved it:\n"
	       "  EIP: %08x [%s]\n"
	       "  ESP: %08x EBP: %08x EFLAGS: %08x CR3: %08x\n"
	       "  CR2: %08lx (the page fault that could not be delivered)\n",
	       smp_processor_id(), tss->eip, sym, tss->esp, tss->ebp, tss->eflags,
	       tss->cr3, cr2);
}

/* Called by double_fault_task on df_stack, interrupts off. */
void do_double_fault(unsigned long error_code)
{
	/* CR2 still holds the address of the #PF that could not be delivered. */
	unsigned long cr2 = read_cr2();
	struct task_struct *t = task_for_guard_page(cr2);

	show_tss_state(error_code, cr2);
	if (!t || t != current)
		panic("double fault in thread '%s' (not a thread stack overflow)",
		      task_name(current));

	printk("stack overflow in thread '%s' (guard page %#lx)\n",
	       task_name(t), t->stack_base);

	redirect_to_exit(t);
}

/* This CPU's #DF task: from sched_init() on CPU 0, start_secondary() on an AP. */
void doublefault_init(void)
{
	int cpu = smp_processor_id();
	struct tss_struct *df = &df_tss[cpu];

	/*
	 * CR3 is a "static" TSS field: a task switch loads it from the new
	 * TSS but never saves it into the old one.  Both tasks use the one
	 * kernel page directory, so write it into both - otherwise the iret
	 * back to this CPU's TSS would load CR3 = 0.
	 */
	this_cpu_tss()->cr3 = read_cr3();

	memset(df, 0, sizeof(*df));
	df->cr3 = read_cr3();
	df->eip = (unsigned long)double_fault_task;
	df->esp = (unsigned long)df_stack[cpu] + DF_STACK_SIZE;
	df->eflags = X86_EFLAGS_FIXED;   /* IF off: no tick may interrupt us */
	df->cs = __KERNEL_CS;
	df->ss = df->ds = df->es = df->gs = __KERNEL_DS;
	df->fs = __KERNEL_PERCPU;	/* so smp_processor_id() works there */
	df->iomap_base = sizeof(*df);   /* past the limit: no I/O bitmap */

	/*
	 * Each CPU's GDT has its own #DF TSS descriptor at the same index:
	 * the one task gate in the shared IDT reaches the right one.
	 */
	gdt_set_tss(GDT_ENTRY_DOUBLEFAULT_TSS, df);
	set_task_gate(X86_TRAP_DF, __DF_TSS_SEL);
}

NOKPROBE_SYMBOL(do_double_fault);
NOKPROBE_SYMBOL(redirect_to_exit);
NOKPROBE_SYMBOL(show_tss_state);
