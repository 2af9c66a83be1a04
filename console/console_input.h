/*
 * console_input.h - reading lines from COM1 and the PS/2 keyboard.
 *
 * Both consoles feed one stream of characters: COM1 by its receive
 * interrupt (IRQ 4), the keyboard through kbd_getc().  The line editor
 * (line_editor.h) turns them into command lines.  Ctrl-P on either console is
 * the SysRq key: it dumps the probe list from the interrupt handler, so
 * it works even while a workload keeps the shell busy.
 */
#ifndef CONSOLE_INPUT_H
#define CONSOLE_INPUT_H

#include <stddef.h>
#include <stdbool.h>

#include "line_editor.h"

/*
 * COM1's input queue: a power of two, as a kfifo's size must be, and two
 * whole lines.  QEMU hands a pasted page (CONSOLE_LINE_MAX) to the UART
 * as fast as IRQ 4 takes it, much faster than the editor echoes it, and
 * the next command may already follow.
 */
#define INPUT_BUF_SIZE (2 * CONSOLE_LINE_MAX)

/* Turn on COM1's receive interrupt and the keyboard's SysRq hook. */
void console_input_init(void);
/* Next character from either console; sleeps (hlt) until one arrives. */
int console_getc(void);
/*
 * The next character if one is waiting, else -1.  INPUT_OVERRUN: input
 * was lost (the fifo was full); the rest of that line has been skipped
 * and the loss reported - the caller drops the line it was reading.
 */
#define INPUT_OVERRUN (-2)
int console_poll(void);
/* Sleep until the next interrupt (a key, or the timer tick). */
void console_wait(void);
/* Queue a character as if COM1 had received it (tests, interrupt path). */
void console_input_feed(int c);
/*
 * Print the prompt and edit one line into le->buf.  Returns its length,
 * -EINTR when Ctrl-C or lost input abandoned it, or -E2BIG (said on the
 * console) when more was typed than a line holds.
 */
int console_readline(struct line_editor *le);

/* The SysRq action (Ctrl-P): print every registered probe, or return
 * false if kprobe_mutex is held (try again later).  Counted so tests can
 * see it ran. */
bool sysrq_show_probes(void);
extern unsigned long sysrq_count;

#endif
