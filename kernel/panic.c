/*
 * panic.c - stopping the machine: on purpose (panic), forever
 * (halt_forever), by leaving QEMU (qemu_exit), or by switching it off
 * (machine_power_off).  oops_end() decides how an oops or a panic ends.
 */
#include "kernel.h"
#include <asm/io.h>
#include <asm/irqflags.h>
#include "kallsyms.h"
#include "notifier.h"
#include "vsprintf.h"
#include "smp.h"
#include <asm/atomic.h>
#include "nokprobe.h"

/*
 * QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4):
 * writing value v to the port makes QEMU exit with status (v << 1) | 1.
 */
#define QEMU_DEBUG_EXIT_PORT 0xF4

void halt_forever(void)
{
	for (;;) {
		local_irq_disable();
		native_halt();
	}
}

void qemu_exit(int code)
{
	outl(QEMU_DEBUG_EXIT_PORT, code);
	/* Not under QEMU (or no exit device): just stop. */
	halt_forever();
}

/*
 * ACPI soft-off on QEMU's PC machine: the firmware (SeaBIOS) puts the
 * PIIX4 power-management registers at 0x600, and writing SLP_EN with
 * sleep type 0 (QEMU's \_S5 package) to PM1a_CNT at 0x604 powers off.
 * QEMU then exits with status 0, as when its window is closed.
 */
#define PIIX4_PM1A_CNT_PORT 0x604
#define ACPI_PM1_SLP_EN     0x2000	/* bit 13: enter the sleep state */
#define POWER_OFF_WAIT      10000000	/* pauses: QEMU acts between instructions */

void machine_power_off(void)
{
	local_irq_disable();
	outw(PIIX4_PM1A_CNT_PORT, ACPI_PM1_SLP_EN);
	/* QEMU shuts down from its main loop, a moment after the write. */
	for (long i = 0; i < POWER_OFF_WAIT; i++)
		cpu_relax();
	/* Still running: no ACPI there.  Try the debug-exit port. */
	qemu_exit(QEMU_EXIT_PASS);
}

/*
 * The end of an oops or a panic.  Tests and `make run` boot with
 * panic_exit: QEMU exits with a failure status and the terminal comes
 * back.  Without it (`make debug`) the CPU stays halted with the state
 * intact for gdb - and the user is told how to get out.
 */
void oops_end(void)
{
	if (cmdline_has("panic_exit")) {
		printk("---[ end trace: leaving QEMU (panic_exit) ]---\n");
		qemu_exit(QEMU_EXIT_FAIL);
	}
	printk("---[ end trace: system halted ]---\n"
	       "The CPU is stopped with interrupts off.  Press Ctrl-A X to quit QEMU,\n"
	       "or look around first: gdb -x scripts/gdbinit (with make debug).\n");
	halt_forever();
}

/*
 * The start of an oops or a panic.  Only one CPU may report: a second
 * one that dies while the first is still printing stops right here,
 * and the first one's report (and smp_send_stop()) shows where it was.
 */
#define NO_CPU	(~0ul)
static volatile unsigned long oops_cpu = NO_CPU;

void oops_begin(void)
{
	unsigned long me, owner;

	local_irq_disable();
	me = smp_processor_id();
	owner = cmpxchg(&oops_cpu, NO_CPU, me);
	if (owner != NO_CPU && owner != me)
		halt_forever();
}

#define PANIC_MSG_MAX 256

void panic(const char *fmt, ...)
{
	static char msg[PANIC_MSG_MAX];	/* static: the stack may be what broke */
	va_list ap;
	unsigned long bp;

	oops_begin();
	console_verbose();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("PANIC: %s\nCPU: %d\nCall Trace:\n", msg, smp_processor_id());
	bp = (unsigned long)__builtin_frame_address(0);	/* our %ebp */
	show_backtrace(NULL, bp);   /* no trap frame: start from our caller */
	smp_send_stop();
	/* Last words for whoever listens (the test runner fails its run). */
	atomic_notifier_call_chain(&panic_notifier_list, 0, msg);
	oops_end();
}
NOKPROBE_SYMBOL(panic);
NOKPROBE_SYMBOL(oops_begin);
NOKPROBE_SYMBOL(halt_forever);
NOKPROBE_SYMBOL(qemu_exit);
NOKPROBE_SYMBOL(oops_end);
