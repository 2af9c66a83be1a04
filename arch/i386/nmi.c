/*
 * nmi.c - a non-maskable interrupt: report it and carry on.
 *
 * An NMI is not an error in the code it interrupts: it is the chipset
 * (a memory parity error, an I/O channel check, a watchdog) or, under
 * QEMU, the monitor's "nmi" command pulling the CPU's NMI pin.  It
 * arrives even with interrupts off (cli does not mask it), between any
 * two instructions, so the handler must neither oops nor assume anything
 * about what it interrupted.  An NMI another CPU sent to ask for our
 * registers and backtrace (nmi_backtrace.c) is answered first.
 * Otherwise, like Linux's default_do_nmi(): ask the
 * die notifiers (DIE_NMI), then read why from the system control port
 * and say so, and return - the interrupted code continues untouched.
 */
#include "kernel.h"
#include <asm/traps.h>
#include <asm/kdebug.h>
#include <asm/io.h>
#include "kallsyms.h"
#include "smp.h"
#include "nokprobe.h"

/* System control port B: what raised the NMI, as the PC/AT defined it. */
#define NMI_REASON_PORT   0x61
#define NMI_REASON_SERR   0x80	/* a memory or system error (parity) */
#define NMI_REASON_IOCHK  0x40	/* an expansion card pulled IOCHK# */

static const char *nmi_reason(unsigned char reason)
{
	if (reason & NMI_REASON_SERR)
		return "system error (SERR#)";
	if (reason & NMI_REASON_IOCHK)
		return "I/O channel check (IOCHK#)";
	return "no reason latched: an external NMI (QEMU monitor, watchdog)";
}

void do_nmi(struct pt_regs *regs)
{
	unsigned char reason;
	char sym[96];

	if (nmi_cpu_backtrace(regs))
		return;		/* another CPU asked what we are doing */
	reason = inb(NMI_REASON_PORT);
	if (notify_die(DIE_NMI, "nmi", regs, reason, X86_TRAP_NMI) == NOTIFY_STOP)
		return;
	sprint_symbol(sym, sizeof(sym), regs->ip);
	printk("NMI received (port 0x61 reason %02x: %s)\n"
	       "  interrupted at %08lx [%s]; not an error in that code, continuing\n",
	       reason, nmi_reason(reason), regs->ip, sym);
}
NOKPROBE_SYMBOL(do_nmi);
NOKPROBE_SYMBOL(nmi_reason);
