/*
 * panic.c - stopping the machine: on purpose (panic), forever
 * (halt_forever), or by leaving QEMU (qemu_exit, tests only).
 */
#include "kernel.h"
#include "io.h"
#include "irqflags.h"
#include "kallsyms.h"
#include "ktest.h"
#include "nokprobe.h"

/*
 * QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4):
 * writing value v to the port makes QEMU exit with status (v << 1) | 1.
 */
#define QEMU_DEBUG_EXIT_PORT 0xF4

void halt_forever(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

void qemu_exit(int code)
{
	outl(QEMU_DEBUG_EXIT_PORT, code);
	/* Not under QEMU (or no exit device): just stop. */
	halt_forever();
}

void panic(const char *fmt, ...)
{
	va_list ap;
	unsigned long bp;

	local_irq_disable();
	printk("PANIC: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\nCall Trace:\n");
	__asm__ __volatile__("movl %%ebp, %0" : "=r"(bp));
	show_backtrace(NULL, bp);   /* no trap frame: start from our caller */
	if (ktest_running)
		printk("not ok - kernel panic during test run\n");
	if (ktest_running || cmdline_has("panic_exit"))
		qemu_exit(QEMU_EXIT_FAIL);
	halt_forever();
}
NOKPROBE_SYMBOL(panic);
NOKPROBE_SYMBOL(halt_forever);
NOKPROBE_SYMBOL(qemu_exit);
