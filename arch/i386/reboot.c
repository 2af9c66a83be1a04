/*
 * reboot.c - machine_restart(): reset the PC, the ways Linux's
 * arch/x86/kernel/reboot.c tries them (its BOOT_KBD, then BOOT_TRIPLE).
 */
#include "kernel.h"
#include <asm/desc.h>
#include <asm/io.h>
#include <asm/irqflags.h>

/* The 8042 keyboard controller's command port: its output line 0 is
 * wired to the CPU's RESET pin, a relic of the IBM AT. */
#define KBD_CONTROLLER_PORT	0x64
#define KBD_CMD_PULSE_RESET	0xFE	/* pulse output line 0 */
#define KBD_RESET_WAIT		1000000	/* loops: the controller acts in a moment */

void machine_restart(void)
{
	struct desc_ptr no_idt = { 0, 0 };

	local_irq_disable();
	outb(KBD_CONTROLLER_PORT, KBD_CMD_PULSE_RESET);
	for (volatile int i = 0; i < KBD_RESET_WAIT; i++)
		;
	/*
	 * Still here: with an empty IDT the next exception finds no gate,
	 * nor does the #DF it turns into - a triple fault, and the CPU
	 * resets itself.
	 */
	idt_load(&no_idt);
	__asm__ __volatile__("int3");
	halt_forever();
}
