/*
 * keyboard.c - PS/2 keyboard: scancodes in, ASCII out.
 *
 * The keyboard controller (an 8042 on the PC, emulated by QEMU) raises
 * IRQ 1 whenever it has a byte for us at port 0x60.  By default the
 * controller translates whatever the keyboard sends into "scancode set 1",
 * the original IBM PC/XT codes:
 *
 *   - pressing a key sends its "make" code (0x01..0x58),
 *   - releasing it sends the "break" code: make | 0x80,
 *   - newer keys (arrows, right Ctrl, ...) are prefixed with 0xE0.
 *
 * Scancodes name physical keys, not letters, so we keep the Shift and
 * Caps Lock state ourselves and look the character up in one of two
 * tables.  Characters go into a kfifo (a small ring buffer) that
 * kbd_getc() drains.
 */
#include "kernel.h"
#include <asm/io.h>
#include <asm/irqflags.h>
#include "timer.h"
#include <asm/traps.h>
#include "keyboard.h"
#include "kfifo.h"
#include "spinlock.h"

#define KBD_DATA_PORT    0x60
#define KBD_STATUS_PORT  0x64
#define KBD_STATUS_OUTPUT_FULL 0x01   /* a byte is waiting at 0x60 */

#define KBD_IRQ          1

/* Set-1 codes we treat specially. */
#define SC_BREAK_BIT     0x80   /* set in every key-release code */
#define SC_EXTENDED      0xE0   /* prefix: the next code is an extended key */
#define SC_LSHIFT        0x2A
#define SC_RSHIFT        0x36
#define SC_CAPSLOCK      0x3A
#define SC_CTRL          0x1D   /* left Ctrl; E0 1D is right Ctrl */
#define SC_UP            0x48   /* E0 48: cursor up */
#define SC_DOWN          0x50   /* E0 50: cursor down */

#define ASCII_ESC        27
#define CTRL_MASK        0x1F   /* Ctrl-A..Ctrl-Z are 1..26: letter & 0x1F */

#define KBD_BUF_SIZE     128    /* a power of two, as a kfifo's size must be */

/* What each make code types without and with Shift.  0 = no character. */
static const char keymap[128] = {
	[0x01] = ASCII_ESC,
	[0x02] = '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=',
	[0x0E] = '\b', '\t',
	[0x10] = 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']',
	[0x1C] = '\n',
	[0x1E] = 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	[0x2B] = '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/',
	[0x37] = '*',
	[0x39] = ' ',
};

static const char keymap_shift[128] = {
	[0x01] = ASCII_ESC,
	[0x02] = '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+',
	[0x0E] = '\b', '\t',
	[0x10] = 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}',
	[0x1C] = '\n',
	[0x1E] = 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	[0x2B] = '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?',
	[0x37] = '*',
	[0x39] = ' ',
};

static bool shift_held[2];   /* left, right */
static bool caps_lock;
static bool ctrl_held[2];    /* left, right */
static bool (*irq_hook)(int c);
static bool extended_next;   /* the previous byte was SC_EXTENDED */

/*
 * The keys, in a kfifo (include/kfifo.h): only the IRQ handler puts,
 * only kbd_getc() gets, and a full fifo drops new keys - counted in
 * kbd_dropped, so that the reader can say so instead of handing on a
 * line with a hole in it as if it had been typed that way.
 */
DEFINE_KFIFO(kbd_fifo, KBD_BUF_SIZE);
static unsigned int kbd_dropped;	/* under kbd_lock */
/* One reader at a time, from any CPU, and the IRQ handler. */
static DEFINE_SPINLOCK(kbd_lock);

static void kbd_put(char c)
{
	/* The console sees each key first, in the IRQ: Ctrl-P (SysRq). */
	if (irq_hook && irq_hook((unsigned char)c))
		return;
	spin_lock(&kbd_lock);
	if (!kfifo_put(&kbd_fifo, c))
		kbd_dropped++;		/* full: nobody is reading */
	spin_unlock(&kbd_lock);
}

/*
 * The next key, or -1.  Once every key queued before a loss has been
 * read, the hole is next: say how many keys fell into it, once.
 */
int kbd_getc(void)
{
	unsigned int lost = 0;
	unsigned long flags;
	unsigned char c;
	bool got;

	spin_lock_irqsave(&kbd_lock, flags);
	got = kfifo_get(&kbd_fifo, &c);
	if (kfifo_len(&kbd_fifo) == 0) {
		lost = kbd_dropped;
		kbd_dropped = 0;
	}
	spin_unlock_irqrestore(&kbd_lock, flags);
	if (lost)
		printk("keyboard: input overrun, %u key%s dropped "
		       "(typed while nothing read them)\n", lost, lost == 1 ? "" : "s");
	return got ? c : -1;
}

static char translate(uint8_t make)
{
	bool shift = shift_held[0] || shift_held[1];
	char c = keymap[make];

	/* Caps Lock only affects letters, and Shift undoes it. */
	if (c >= 'a' && c <= 'z' && caps_lock)
		shift = !shift;
	return shift ? keymap_shift[make] : c;
}

static void handle_scancode(uint8_t code)
{
	bool released = code & SC_BREAK_BIT;
	uint8_t make = code & ~SC_BREAK_BIT;

	if (code == SC_EXTENDED) {
		extended_next = true;
		return;
	}
	if (extended_next) {
		/* Right Ctrl counts as Ctrl; the up/down arrows type the
		 * escape sequences a serial terminal sends (ESC [ A / ESC [ B),
		 * so the line editor handles both consoles alike.  Other
		 * extended keys (keypad Enter, right Alt...) type nothing. */
		extended_next = false;
		if (make == SC_CTRL)
			ctrl_held[1] = !released;
		else if (!released && (make == SC_UP || make == SC_DOWN)) {
			kbd_put(ASCII_ESC);
			kbd_put('[');
			kbd_put(make == SC_UP ? 'A' : 'B');
		}
		return;
	}

	switch (make) {
	case SC_LSHIFT:
		shift_held[0] = !released;
		return;
	case SC_RSHIFT:
		shift_held[1] = !released;
		return;
	case SC_CTRL:
		ctrl_held[0] = !released;
		return;
	case SC_CAPSLOCK:
		if (!released)
			caps_lock = !caps_lock;
		return;
	}

	if (released || !translate(make))
		return;
	if ((ctrl_held[0] || ctrl_held[1]) && keymap[make] >= 'a' && keymap[make] <= 'z')
		kbd_put(keymap[make] & CTRL_MASK);   /* Ctrl-C = 3, Ctrl-P = 16 */
	else
		kbd_put(translate(make));
}

void kbd_set_irq_hook(bool (*hook)(int c))
{
	irq_hook = hook;
}

/*
 * One byte from the controller.  IRQ 1's handler calls it with
 * interrupts already off; the keyboard tests call it with them on, to
 * type without a keyboard.  The decoder's state (shift, ctrl, an 0xE0
 * prefix) belongs to CPU 0, where the PIC delivers IRQ 1: interrupts
 * off here keep the real handler out while a test stands in for it.
 * The fifo takes kbd_lock; the SysRq hook runs outside it, so that it
 * sees the interrupted thread's own preempt count.
 */
void kbd_handle_scancode(uint8_t code)
{
	unsigned long flags = local_irq_save();

	handle_scancode(code);
	local_irq_restore(flags);
}

/* IRQ 1: drain every byte the controller holds. */
static void keyboard_interrupt(struct pt_regs *regs)
{
	while (inb(KBD_STATUS_PORT) & KBD_STATUS_OUTPUT_FULL)
		kbd_handle_scancode(inb(KBD_DATA_PORT));
}

void keyboard_init(void)
{
	/* Throw away anything typed before we were listening. */
	while (inb(KBD_STATUS_PORT) & KBD_STATUS_OUTPUT_FULL)
		inb(KBD_DATA_PORT);

	request_irq(KBD_IRQ, keyboard_interrupt);
}
