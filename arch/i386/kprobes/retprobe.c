/*
 * retprobe.c (arch/i386) - the stack work behind kretprobes.
 *
 * Two functions, as in Linux's arch/x86/kernel/kprobes/core.c:
 * arch_prepare_kretprobe() swaps the return address for
 * kretprobe_trampoline at the function's entry, and trampoline_handler()
 * is what the trampoline (kretprobe_trampoline.S) calls when the function
 * returns into it.  The instance bookkeeping is generic:
 * probes/kretprobes.c.
 */
#include "kernel.h"
#include "kprobes.h"
#include <asm/ptrace.h>
#include "nokprobe.h"

/*
 * At the function's first instruction the top of the stack is the
 * return address.  Keep it in the instance, put the trampoline there.
 */
void arch_prepare_kretprobe(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* LAB 4: BEGIN arch_prepare_kretprobe: hijack the return address */
	unsigned long *slot = (unsigned long *)kernel_stack_pointer(regs);

	ri->stack = slot;
	ri->ret_addr = (kprobe_opcode_t *)*slot;
	*slot = (unsigned long)kretprobe_trampoline;
	/* LAB 4: STUB panic("lab 4: arch_prepare_kretprobe: not yet"); */
	/* LAB 4: END */
}
NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/*
 * Called by kretprobe_trampoline.S with the frame it built (asm/kprobes.h
 * draws it).  Returns the real return address, which the trampoline
 * jumps to.
 */
unsigned long trampoline_handler(struct pt_regs *regs)
{
	return kretprobe_trampoline_handler(regs, kretprobe_trampoline_slot(regs));
}
NOKPROBE_SYMBOL(trampoline_handler);
