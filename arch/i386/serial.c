/*
 * serial.c - the 16550 UART on COM1: the console every test reads.
 *
 * Output polls the Line Status Register until the transmit holding
 * register is empty, so printk works with interrupts off - even inside
 * an exception handler.  Receive is interrupt-driven once the console
 * asks for it (serial_set_rx_handler): IRQ 4 hands each byte over.
 */
#include "kernel.h"
#include "printk.h"
#include <asm/serial.h>
#include <asm/io.h>
#include "nokprobe.h"
#include <asm/traps.h>

#define COM1_BASE   0x3F8
#define UART_DATA   0   /* THR (write) / RBR (read); divisor low when DLAB=1 */
#define UART_IER    1   /* interrupt enable; divisor high when DLAB=1 */
#define UART_FCR    2   /* FIFO control */
#define UART_LCR    3   /* line control */
#define UART_MCR    4   /* modem control */
#define UART_LSR    5   /* line status */

#define LCR_8N1     0x03        /* 8 data bits, no parity, 1 stop bit */
#define LCR_DLAB    0x80        /* divisor latch access */
#define FCR_ENABLE_CLEAR 0xC7   /* enable FIFOs, clear both, 14-byte threshold */
#define MCR_DTR_RTS_OUT2 0x0B   /* OUT2 gates the UART's IRQ line to the PIC */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20

#define IER_RX_AVAILABLE 0x01   /* interrupt when a received byte is waiting */
#define FCR_ENABLE_CLEAR_TRIGGER1 0x07  /* FIFOs on, cleared, IRQ at 1 byte */
#define COM1_IRQ    4

#define UART_CLOCK  115200
#define BAUD        115200

static int serial_present;

static void serial_putc(char c)
{
	int spins = 100000;

	while (!(inb(COM1_BASE + UART_LSR) & LSR_THR_EMPTY) && --spins)
		;
	outb(COM1_BASE + UART_DATA, c);
}

static void serial_write(const char *s, size_t len)
{
	size_t i;

	if (!serial_present)
		return;
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			serial_putc('\r');   /* terminals want CR LF */
		serial_putc(s[i]);
	}
}

int serial_getc(void)
{
	if (!serial_present || !(inb(COM1_BASE + UART_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1_BASE + UART_DATA);
}

static void (*rx_handler)(int c);

/* IRQ 4: the UART has received bytes; drain the FIFO (reading the data
 * register is what clears the interrupt). */
static void serial_interrupt(struct pt_regs *regs)
{
	int c;

	while ((c = serial_getc()) >= 0)
		if (rx_handler)
			rx_handler(c);
}

/* Deliver every received byte to fn, in interrupt context. */
void serial_set_rx_handler(void (*fn)(int c))
{
	if (!serial_present)
		return;
	rx_handler = fn;
	/* Interrupt on every byte, not after 14: a typed key must not wait. */
	outb(COM1_BASE + UART_FCR, FCR_ENABLE_CLEAR_TRIGGER1);
	request_irq(COM1_IRQ, serial_interrupt);
	outb(COM1_BASE + UART_IER, IER_RX_AVAILABLE);
}

static struct console serial_console = { .name = "ttyS0", .write = serial_write };

void serial_init(void)
{
	uint16_t divisor = UART_CLOCK / BAUD;

	outb(COM1_BASE + UART_IER, 0);
	outb(COM1_BASE + UART_LCR, LCR_DLAB);
	outb(COM1_BASE + UART_DATA, divisor & 0xFF);
	outb(COM1_BASE + UART_IER, divisor >> 8);
	outb(COM1_BASE + UART_LCR, LCR_8N1);
	outb(COM1_BASE + UART_FCR, FCR_ENABLE_CLEAR);
	outb(COM1_BASE + UART_MCR, MCR_DTR_RTS_OUT2);
	/* No UART answers with all ones on the status port. */
	serial_present = inb(COM1_BASE + UART_LSR) != 0xFF;
	register_console(&serial_console);
}
NOKPROBE_SYMBOL(serial_putc);
NOKPROBE_SYMBOL(serial_write);
