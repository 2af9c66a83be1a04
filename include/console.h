/* console.h - the two output devices printk writes to, and serial input. */
#ifndef CONSOLE_H
#define CONSOLE_H

void serial_init(void);     /* COM1, 115200 8N1, polled output */
void vga_init(void);        /* 80x25 text mode at 0xB8000 */
int serial_getc(void);      /* next received byte, or -1 */
/* Receive by interrupt (IRQ 4): fn(byte) runs in the interrupt handler. */
void serial_set_rx_handler(void (*fn)(int c));

#endif
