/*
 * asm/serial.h - COM1, the PC's first 16550 UART (arch/i386/serial.c):
 * a console for printk, and bytes typed at the other end.
 */
#ifndef ASM_SERIAL_H
#define ASM_SERIAL_H

void serial_init(void);     /* COM1, 115200 8N1, polled output */
int serial_getc(void);      /* next received byte, or -1 */
/* Receive by interrupt (IRQ 4): fn(byte) runs in the interrupt handler. */
void serial_set_rx_handler(void (*fn)(int c));

#endif
