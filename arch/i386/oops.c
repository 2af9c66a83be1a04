/*
 * oops.c - what the kernel prints when an exception nobody claimed hits
 * kernel code: the exception, the error code, every register, CR2 for a
 * page fault, and a symbolised backtrace.  The format is fixed so tests
 * and students can read it.
 */
#include "kernel.h"
#include "traps.h"
#include "ptrace.h"
#include "processor.h"
#include "irqflags.h"
#include "kallsyms.h"
#include "ktest.h"
#include "nokprobe.h"

void show_regs(struct pt_regs *regs)
{
	char sym[96];

	sprint_symbol(sym, sizeof(sym), regs->ip);
	printk("EIP: %04lx:%08lx [%s]\n", regs->cs & 0xFFFF, regs->ip, sym);
	printk("EFLAGS: %08lx  (IF=%d TF=%d)\n", regs->flags,
	       !!(regs->flags & X86_EFLAGS_IF), !!(regs->flags & X86_EFLAGS_TF));
	printk("EAX: %08lx EBX: %08lx ECX: %08lx EDX: %08lx\n",
	       regs->ax, regs->bx, regs->cx, regs->dx);
	printk("ESI: %08lx EDI: %08lx EBP: %08lx ESP: %08lx\n",
	       regs->si, regs->di, regs->bp, kernel_stack_pointer(regs));
	printk("DS: %04lx ES: %04lx FS: %04lx GS: %04lx\n",
	       regs->ds & 0xFFFF, regs->es & 0xFFFF, regs->fs & 0xFFFF,
	       regs->gs & 0xFFFF);
}

static void describe_page_fault(unsigned long err)
{
	printk("CR2: %08lx (%s, %s access, %s mode%s)\n", read_cr2(),
	       (err & PF_PROT) ? "protection violation" : "page not present",
	       (err & PF_WRITE) ? "write" : "read",
	       (err & PF_USER) ? "user" : "kernel",
	       (err & PF_INSTR) ? ", instruction fetch" : "");
}

void die(const char *msg, struct pt_regs *regs, unsigned long vector)
{
	local_irq_disable();
	printk("Oops: %s [vector %lu] error code %08lx\n", msg, vector,
	       regs->orig_ax);
	if (vector == X86_TRAP_PF)
		describe_page_fault(regs->orig_ax);
	show_regs(regs);
	printk("Call Trace:\n");
	show_backtrace(regs, 0);
	if (ktest_running)
		printk("not ok - kernel oops during test run\n");
	if (ktest_running || cmdline_has("panic_exit"))
		qemu_exit(QEMU_EXIT_FAIL);
	printk("---[ end trace: system halted ]---\n");
	halt_forever();
}
NOKPROBE_SYMBOL(die);
NOKPROBE_SYMBOL(show_regs);
