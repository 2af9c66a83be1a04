/*
 * vga.c - the 80x25 VGA text console at physical 0xB8000.
 *
 * Each cell is two bytes: the character and its colour.  We keep our
 * own cursor, scroll by moving rows up, and move the blinking hardware
 * cursor through the CRT controller's index/data ports.
 */
#include "kernel.h"
#include "printk.h"
#include <asm/vga.h>
#include <asm/io.h>
#include "string.h"
#include "nokprobe.h"

#define VGA_TEXT_BUFFER 0xB8000
#define VGA_COLS        80
#define VGA_ROWS        25
#define VGA_COLOUR      0x07    /* light grey on black */
#define CRTC_INDEX      0x3D4
#define CRTC_DATA       0x3D5
#define CRTC_CURSOR_HI  0x0E
#define CRTC_CURSOR_LO  0x0F

static volatile uint16_t *const vga = (volatile uint16_t *)VGA_TEXT_BUFFER;
static int row, col;

static uint16_t cell(char c)
{
	return (uint16_t)(unsigned char)c | (VGA_COLOUR << 8);
}

static void scroll(void)
{
	int i;

	for (i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		vga[i] = vga[i + VGA_COLS];
	for (i = 0; i < VGA_COLS; i++)
		vga[(VGA_ROWS - 1) * VGA_COLS + i] = cell(' ');
	row = VGA_ROWS - 1;
}

static void move_cursor(void)
{
	uint16_t pos = row * VGA_COLS + col;

	outb(CRTC_INDEX, CRTC_CURSOR_HI);
	outb(CRTC_DATA, pos >> 8);
	outb(CRTC_INDEX, CRTC_CURSOR_LO);
	outb(CRTC_DATA, pos & 0xFF);
}

static void vga_putc(char c)
{
	if (c == '\n') {
		col = 0;
		row++;
	} else if (c == '\b') {
		if (col > 0)	/* back one column, as a terminal: "\b \b" erases */
			col--;
	} else if (c == '\r') {
		col = 0;
	} else {
		vga[row * VGA_COLS + col] = cell(c);
		if (++col == VGA_COLS) {
			col = 0;
			row++;
		}
	}
	if (row == VGA_ROWS)
		scroll();
}

static void vga_write(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		vga_putc(s[i]);
	move_cursor();
}

static struct console vga_console = { .name = "tty0", .write = vga_write };

void vga_init(void)
{
	int i;

	for (i = 0; i < VGA_COLS * VGA_ROWS; i++)
		vga[i] = cell(' ');
	row = col = 0;
	register_console(&vga_console);
}
NOKPROBE_SYMBOL(vga_putc);
NOKPROBE_SYMBOL(vga_write);
NOKPROBE_SYMBOL(scroll);
NOKPROBE_SYMBOL(move_cursor);
NOKPROBE_SYMBOL(cell);
