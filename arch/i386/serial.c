/*
 * serial.c - the 16550 UART on COM1: the console every test reads.
 *
 * Output polls the Line Status Register until the transmit holding
 * register is empty, so printk works with interrupts off - even inside
 * an exception handler.  Receive is left to the console code.
 */
#include "kernel.h"
#include "console.h"
#include "io.h"
#include "nokprobe.h"

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
