/* console.h - the consoles printk writes to (serial, VGA), and serial input. */
#ifndef CONSOLE_H
#define CONSOLE_H

#include <stddef.h>

/* Register an output sink (serial, VGA); printk mirrors to all of them. */
struct console {
	const char *name;
	void (*write)(const char *s, size_t len);
	struct console *next;
};
void register_console(struct console *con);

/* printk's lock: one CPU's line at a time on every console (kernel/printk.c). */
struct spinlock;
extern struct spinlock printk_lock;

void serial_init(void);     /* COM1, 115200 8N1, polled output */
void vga_init(void);        /* 80x25 text mode at 0xB8000 */
int serial_getc(void);      /* next received byte, or -1 */
/* Receive by interrupt (IRQ 4): fn(byte) runs in the interrupt handler. */
void serial_set_rx_handler(void (*fn)(int c));

#endif
