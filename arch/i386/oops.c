/*
 * oops.c - what the kernel prints when an exception nobody claimed hits
 * kernel code: the exception, the error code, every register, CR2 for a
 * page fault, and a symbolised backtrace.  The format is fixed so tests
 * and students can read it.
 */
#include "kernel.h"
#include <asm/ptrace.h>
#include "sched.h"
#include <asm/traps.h>
#include <asm/ptrace.h>
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "kallsyms.h"
#include <asm/kdebug.h>
#include "nokprobe.h"
#include <asm/desc.h>
#include "smp.h"
#include "vsprintf.h"

/*
 * The registers of the frame.  A frame from ring 3 holds the process's
 * ss:esp, pushed by the CPU when it switched to TSS.esp0; one from ring
 * 0 holds neither, and the interrupted stack pointer is where the frame
 * ends (kernel_stack_pointer()).  So ESP and SS come from different
 * places, as in Linux i386's __show_regs().  A user ip has no kernel
 * symbol to print.  A frame from vm86 mode (a process that iret'd there)
 * is a user frame whose real-mode segments lie above ss.
 */
void show_regs(struct pt_regs *regs)
{
	/* LAB 1: BEGIN oops report: the register dump */
	bool user = user_mode(regs);
	unsigned short ds = regs->ds, es = regs->es, fs = regs->fs, gs = regs->gs;
	char sym[96], ss[16] = "";

	if (user) {
		snprintf(sym, sizeof(sym), v8086_mode(regs) ? "vm86 mode" : "user mode");
		snprintf(ss, sizeof(ss), " SS: %04x", regs->ss);
	} else {
		sprint_symbol(sym, sizeof(sym), regs->ip);
	}
	if (v8086_mode(regs)) {
		/* the entry saved the null selectors the CPU loaded; the real ones are above ss */
		struct kernel_vm86_regs *vm86 = (struct kernel_vm86_regs *)regs;

		ds = vm86->ds, es = vm86->es, fs = vm86->fs, gs = vm86->gs;
	}
	printk("EIP: %04x:%08lx [%s]\n", regs->cs, regs->ip, sym);
	printk("EFLAGS: %08lx  (IF=%d TF=%d)\n", regs->flags,
	       !!(regs->flags & X86_EFLAGS_IF), !!(regs->flags & X86_EFLAGS_TF));
	printk("EAX: %08lx EBX: %08lx ECX: %08lx EDX: %08lx\n",
	       regs->ax, regs->bx, regs->cx, regs->dx);
	printk("ESI: %08lx EDI: %08lx EBP: %08lx ESP: %08lx\n",
	       regs->si, regs->di, regs->bp,
	       user ? user_stack_pointer(regs) : kernel_stack_pointer(regs));
	printk("DS: %04x ES: %04x FS: %04x GS: %04x%s\n", ds, es, fs, gs, ss);
	/* LAB 1: STUB printk("lab 1: show_regs: not yet\n"); */
	/* LAB 1: END */
}

static void describe_page_fault(unsigned long err)
{
	/* LAB 1: BEGIN oops report: the page fault's address and error code */
	printk("CR2: %08lx (%s, %s access, %s mode%s)\n", read_cr2(),
	       (err & PF_PROT) ? "protection violation" : "page not present",
	       (err & PF_WRITE) ? "write" : "read",
	       (err & PF_USER) ? "user" : "kernel",
	       (err & PF_INSTR) ? ", instruction fetch" : "");
	/* LAB 1: STUB printk("lab 1: describe_page_fault: not yet\n"); */
	/* LAB 1: END */
}

/*
 * #TS, #NP, #SS and #GP push a "selector error code" (SDM vol. 3,
 * 6.13): which descriptor the CPU was loading when it gave up.
 *   bit 0 EXT  the fault happened while delivering an external event
 *   bit 1 IDT  the index is an IDT vector, not a GDT/LDT selector
 *   bit 2 TI   (IDT=0) the index is in the LDT, not the GDT
 *   15:3       the descriptor's index
 * An error code of 0 means the fault is not about a selector (a limit,
 * a privileged instruction, a null selector...).
 */
#define SEL_ERR_EXT      0x1
#define SEL_ERR_IDT      0x2
#define SEL_ERR_TI       0x4
#define SEL_ERR_INDEX(e) (((e) & 0xFFFF) >> 3)

static bool has_selector_error_code(unsigned long vector)
{
	return vector == X86_TRAP_TS || vector == X86_TRAP_NP ||
	       vector == X86_TRAP_SS || vector == X86_TRAP_GP;
}

/* Is a GDT index past the table's limit (no such descriptor at all)? */
static bool past_gdt_limit(unsigned long index)
{
	struct desc_ptr gdtr;

	__asm__ __volatile__("sgdt %0" : "=m"(gdtr));
	return index * 8 + 7 > gdtr.size;
}

static void describe_selector_error(unsigned long err)
{
	bool in_gdt = !(err & (SEL_ERR_IDT | SEL_ERR_TI));
	const char *table = (err & SEL_ERR_IDT) ? "IDT" :
			    (err & SEL_ERR_TI) ? "LDT" : "GDT";

	if (err == 0) {
		printk("Selector: none (error code 0: not a descriptor problem)\n");
		return;
	}
	printk("Selector: %s %s %lu (EXT=%d IDT=%d TI=%d)%s%s\n", table,
	       (err & SEL_ERR_IDT) ? "vector" : "index", SEL_ERR_INDEX(err),
	       !!(err & SEL_ERR_EXT), !!(err & SEL_ERR_IDT), !!(err & SEL_ERR_TI),
	       in_gdt && past_gdt_limit(SEL_ERR_INDEX(err)) ? ", past the GDT limit" : "",
	       (err & SEL_ERR_EXT) ? ", during delivery of an external event" : "");
}

/*
 * Where the fault was: a kernel frame (an oops is always the kernel's
 * fault; a process's own faults are signals, kernel/signal.c), in a
 * kernel thread or in a process's system call or interrupt - then the
 * call trace ends at that process's user frame.
 */
static void describe_context(struct pt_regs *regs)
{
	struct task_struct *me = current;

	printk("Mode: %s (CS %04x), %s %s[%d]\n",
	       user_mode(regs) ? "user" : "kernel", regs->cs,
	       me->mm ? "in process" : "in kernel thread", me->comm, me->pid);
}

/*
 * The report, as Linux's __die() prints it: what happened, the error
 * code decoded, the registers, and the trace.  It starts at the trap
 * frame, not here: the interrupted function is the one to blame.
 */
void __die(const char *msg, struct pt_regs *regs, unsigned long vector)
{
	printk("Oops: %s [vector %lu] error code %08lx\n", msg, vector,
	       regs->orig_ax);
	if (vector == X86_TRAP_PF)
		describe_page_fault(regs->orig_ax);
	else if (has_selector_error_code(vector))
		describe_selector_error(regs->orig_ax);
	printk("CPU: %d (APIC id %d)\n", smp_processor_id(),
	       cpu_apic_id[smp_processor_id()]);
	describe_context(regs);
	show_regs(regs);
	/* LAB 1: BEGIN oops report: the call trace of the interrupted code */
	printk("Call Trace:\n");
	show_backtrace(regs, 0);
	/* LAB 1: STUB printk("lab 1: the call trace: not yet\n"); */
	/* LAB 1: END */
}

void die(const char *msg, struct pt_regs *regs, unsigned long vector)
{
	oops_begin();		/* interrupts off; one CPU reports */
	console_verbose();
	__die(msg, regs, vector);
	smp_send_stop();	/* the others: what they were doing; then halt */
	/*
	 * Linux's __die() tells the die chain too.  We do it after the
	 * report, so a listener that ends the machine (the test runner
	 * failing its run) leaves the whole report behind.
	 */
	notify_die(DIE_OOPS, msg, regs, regs->orig_ax, vector);
	oops_end();
}
NOKPROBE_SYMBOL(die);
NOKPROBE_SYMBOL(__die);
NOKPROBE_SYMBOL(show_regs);
NOKPROBE_SYMBOL(describe_selector_error);
