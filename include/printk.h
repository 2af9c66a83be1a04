/*
 * printk.h - the consoles printk writes to, and the lock that keeps one
 * CPU's line whole on all of them (kernel/printk.c; Linux's struct
 * console and register_console() of <linux/console.h>).
 *
 * The drivers behind them are x86's (<asm/serial.h>, <asm/vga.h>); the
 * shell that reads lines is console/, above all of this.
 */
#ifndef PRINTK_H
#define PRINTK_H

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

/*
 * Called under printk_lock, interrupts off, before any text goes to the
 * consoles (NULL: nothing).  The shell's line editor registers itself
 * here so that output never lands in the middle of a line being typed:
 * it blanks the line first and draws it back later.  printk calls up to
 * the shell only through this pointer, so kernel/ needs no console/
 * header.
 */
void printk_set_before_write(void (*hook)(const char *text, size_t len));

#endif
