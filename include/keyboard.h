/*
 * keyboard.h - the PS/2 keyboard (IRQ 1) as a stream of ASCII characters.
 *
 * The interrupt handler turns scancodes into characters and queues them;
 * kbd_getc() takes one out.  Enter gives '\n', Backspace gives '\b'.
 */
#ifndef KEYBOARD_H
#define KEYBOARD_H

#include <stdint.h>

void keyboard_init(void);

/* Next character typed, or -1 if none is waiting.  Never blocks. */
int kbd_getc(void);

/*
 * Feed one set-1 scancode through the translator, exactly as the IRQ
 * handler does.  Tests use it to "type" without a real key press.
 */
void kbd_handle_scancode(uint8_t code);

#endif
