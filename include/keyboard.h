/*
 * keyboard.h - the PS/2 keyboard (IRQ 1) as a stream of ASCII characters.
 *
 * The interrupt handler turns scancodes into characters and queues them;
 * kbd_getc() takes one out.  Enter gives '\n', Backspace gives '\b'.
 */
#ifndef KEYBOARD_H
#define KEYBOARD_H

#include <stdint.h>
#include <stdbool.h>

void keyboard_init(void);

/* Next character typed, or -1 if none is waiting.  Never blocks. */
int kbd_getc(void);

/*
 * Feed one set-1 scancode through the translator, exactly as the IRQ
 * handler does.  Tests use it to "type" without a real key press.
 */
void kbd_handle_scancode(uint8_t code);

/*
 * Let the console see every character at interrupt time, before it is
 * queued; if hook returns true the character is consumed.  The console
 * uses it for Ctrl-P (dump the probes) while a workload runs.  Ctrl+letter
 * types letter & 0x1F; the up/down arrows type ESC [ A / ESC [ B.
 */
void kbd_set_irq_hook(bool (*hook)(int c));

#endif
