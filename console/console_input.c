/*
 * console_input.c - characters in from COM1 and the keyboard, lines out.
 *
 * COM1: the UART raises IRQ 4 for each received byte; our handler
 * (serial_rx below, called by arch/i386/serial.c) queues it in a small
 * kfifo that console_getc() drains.  The keyboard queues its keys in a
 * kfifo of its own in arch/i386/keyboard.c, read with kbd_getc(); both
 * are include/kfifo.h's ring buffer (lib/kfifo.c).
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
#include "kfifo.h"

#define INPUT_BUF_SIZE 256	/* a power of two, as a kfifo's size must be */

DEFINE_KFIFO(input_fifo, INPUT_BUF_SIZE);
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
		sysrq_show_probes();	/* hides the line being typed, if any */
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

/* ---- the COM1 input fifo ------------------------------------------------- */

void console_input_feed(int c)
{
	unsigned long flags = local_irq_save();

	kfifo_put(&input_fifo, c);	/* full: drop, like a real UART overrun */
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
	unsigned char c;
	int ret = kfifo_get(&input_fifo, &c) ? c : -1;

	local_irq_restore(flags);
	return ret;
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

int console_poll(void)
{
	int c = input_pop();

	return c >= 0 ? c : kbd_getc();
}

/* Let other threads run, then sleep until an interrupt: a key or, at
 * the latest, the next timer tick. */
void console_wait(void)
{
	yield();
	__asm__ __volatile__("hlt");
}

int console_getc(void)
{
	int c;

	while ((c = console_poll()) < 0)
		console_wait();
	return c;
}

/* ---- reading a line ---------------------------------------------------------- */

/*
 * Each key is handled with interrupts off: an interrupt handler's
 * printk hides and redraws the line, and must never see it half-edited.
 */
int console_readline(struct line_editor *le)
{
	enum line_result r;
	unsigned long flags;

	/* Prompt and attach in one step: output arriving right after the
	 * prompt must already find the line to hide. */
	flags = local_irq_save();
	line_editor_start(le);
	line_editor_attach(le);
	local_irq_restore(flags);
	do {
		int c = console_poll();

		flags = local_irq_save();
		/* Whatever printed while we slept hid the line: show it. */
		line_editor_redraw_if_hidden();
		if (c >= 0)
			r = line_editor_key(le, c);
		else
			r = LINE_MORE;
		local_irq_restore(flags);
		if (c < 0)
			console_wait();
	} while (r == LINE_MORE);
	line_editor_attach(NULL);
	return r == LINE_DONE ? (int)le->len : -EINTR;
}
