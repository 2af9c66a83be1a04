/*
 * console_input.c - characters in from COM1 and the keyboard, lines out.
 *
 * COM1: the UART raises IRQ 4 for each received byte; our handler
 * (serial_rx below, called by arch/i386/serial.c) queues it in a small
 * ring that console_getc() drains.  The keyboard has its own ring in
 * arch/i386/keyboard.c, read with kbd_getc().
 *
 * Both interrupt paths look at each character first: Ctrl-P is the SysRq
 * key and is acted on right there, in the interrupt, so it answers even
 * while the shell is busy running a workload and reads nothing.
 */
#include "kernel.h"
#include "console.h"
#include "console_input.h"
#include "keyboard.h"
#include "kprobes.h"
#include "irqflags.h"
#include "sched.h"
#include "timer.h"
#include "string.h"
#include "errno.h"

#define INPUT_BUF_SIZE 256	/* a power of two: indexes wrap with a mask */

static char input_buf[INPUT_BUF_SIZE];
static volatile unsigned int input_head, input_tail;
static volatile bool reading;		/* console_readline() is waiting */
static volatile bool sysrq_pending;	/* Ctrl-P came at a bad moment */
unsigned long sysrq_count;

/* ---- SysRq ---------------------------------------------------------------- */

void sysrq_show_probes(void)
{
	sysrq_count++;
	printk("\nSysRq: %u probe(s) registered\n", kprobes_nr_registered());
	kprobes_list_print();
}

/*
 * The probe list is walked under kprobe_mutex, which raises the
 * preempt count of whoever holds it.  If the interrupted thread has a
 * non-zero count it may be inside (un)register_kprobe with the table
 * half-changed: wait for the next timer tick that finds it at zero.
 */
static void sysrq_now_or_later(void)
{
	if (preempt_count() == 0) {
		sysrq_pending = false;
		sysrq_show_probes();
		if (reading)
			console_input_feed(KEY_CTRL_R);	/* show the prompt again */
	} else {
		sysrq_pending = true;
	}
}

static void sysrq_tick(void)
{
	if (sysrq_pending)
		sysrq_now_or_later();
}

/* Both consoles' interrupt handlers call this for every character. */
static bool sysrq_filter(int c)
{
	if (c != KEY_CTRL_P)
		return false;
	sysrq_now_or_later();
	return true;
}

/* ---- the COM1 input ring ------------------------------------------------- */

void console_input_feed(int c)
{
	unsigned long flags = local_irq_save();
	unsigned int next = (input_head + 1) & (INPUT_BUF_SIZE - 1);

	if (next != input_tail) {	/* full: drop, like a real UART overrun */
		input_buf[input_head] = c;
		input_head = next;
	}
	local_irq_restore(flags);
}

/* IRQ 4, one received byte. */
static void serial_rx(int c)
{
	if (!sysrq_filter(c))
		console_input_feed(c);
}

static int input_pop(void)
{
	unsigned long flags = local_irq_save();
	int c = -1;

	if (input_tail != input_head) {
		c = (unsigned char)input_buf[input_tail];
		input_tail = (input_tail + 1) & (INPUT_BUF_SIZE - 1);
	}
	local_irq_restore(flags);
	return c;
}

void console_input_init(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	serial_set_rx_handler(serial_rx);
	kbd_set_irq_hook(sysrq_filter);
	timer_add_hook(sysrq_tick);
}

int console_getc(void)
{
	for (;;) {
		int c = input_pop();

		if (c < 0)
			c = kbd_getc();
		if (c >= 0)
			return c;
		/* Let other threads run, then sleep until an interrupt: a key
		 * or, at the latest, the next timer tick. */
		yield();
		__asm__ __volatile__("hlt");
	}
}

/* ---- the line editor ------------------------------------------------------ */

void line_editor_init(struct line_editor *le, const char *prompt)
{
	memset(le, 0, sizeof(*le));
	le->prompt = prompt;
}

static void erase_line(struct line_editor *le)
{
	while (le->len) {
		printk("\b \b");
		le->len--;
	}
}

/* Replace the line with history entry `back` (1 = newest; 0 = empty). */
static void recall(struct line_editor *le, int back)
{
	if (back < 0 || back > le->nr_history)
		return;
	erase_line(le);
	le->history_pos = back;
	if (back)
		le->len = strlcpy(le->buf, le->history[back - 1], sizeof(le->buf));
	le->buf[le->len] = '\0';
	printk("%s", le->buf);
}

void line_editor_remember(struct line_editor *le)
{
	if (le->len == 0 || (le->nr_history && strcmp(le->history[0], le->buf) == 0))
		return;
	memmove(le->history[1], le->history[0],
		sizeof(le->history[0]) * (HISTORY_SIZE - 1));
	strlcpy(le->history[0], le->buf, sizeof(le->history[0]));
	if (le->nr_history < HISTORY_SIZE)
		le->nr_history++;
}

/* ESC [ A (up) and ESC [ B (down); ESC O A/B in "application" mode. */
static void escape_key(struct line_editor *le, int c)
{
	if (le->esc_state == 1) {
		le->esc_state = (c == '[' || c == 'O') ? 2 : 0;
		return;
	}
	le->esc_state = 0;
	if (c == 'A')
		recall(le, le->history_pos + 1);
	else if (c == 'B')
		recall(le, le->history_pos - 1);
}

enum line_result line_editor_key(struct line_editor *le, int c)
{
	bool after_cr = le->last_was_cr;

	le->last_was_cr = (c == '\r');
	if (le->esc_state) {
		escape_key(le, c);
		return LINE_MORE;
	}
	switch (c) {
	case '\n':
		if (after_cr)
			return LINE_MORE;	/* the LF of CR LF */
		/* fall through */
	case '\r':
		le->buf[le->len] = '\0';
		printk("\n");
		return LINE_DONE;
	case KEY_CTRL_C:
		printk("^C\n");
		le->len = 0;
		le->buf[0] = '\0';
		return LINE_CANCEL;
	case KEY_BS:
	case KEY_DEL:
		if (le->len) {
			le->len--;
			printk("\b \b");
		}
		return LINE_MORE;
	case KEY_CTRL_R:
		le->buf[le->len] = '\0';
		printk("%s%s", le->prompt, le->buf);
		return LINE_MORE;
	case KEY_ESC:
		le->esc_state = 1;
		return LINE_MORE;
	case '\t':
		c = ' ';
		break;
	}
	if (c < ' ' || c > '~' || le->len + 1 >= sizeof(le->buf))
		return LINE_MORE;	/* other control bytes, or the line is full */
	le->buf[le->len++] = c;
	printk("%c", c);
	return LINE_MORE;
}

int console_readline(struct line_editor *le)
{
	enum line_result r;

	le->len = 0;
	le->buf[0] = '\0';
	le->history_pos = 0;
	le->esc_state = 0;
	reading = true;		/* before the prompt: a SysRq right after it redraws */
	printk("%s", le->prompt);
	do {
		r = line_editor_key(le, console_getc());
	} while (r == LINE_MORE);
	reading = false;
	return r == LINE_DONE ? (int)le->len : -EINTR;
}
