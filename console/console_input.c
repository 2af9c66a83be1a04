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
#include "printk.h"
#include <asm/serial.h>
#include "console_input.h"
#include "keyboard.h"
#include "kprobes.h"
#include <asm/irqflags.h>
#include "sched.h"
#include "timer.h"
#include "string.h"
#include "errno.h"
#include "shell.h"
#include "line_editor.h"
#include "kfifo.h"
#include "spinlock.h"

/* After an overrun, this long without input ends the broken line. */
#define OVERRUN_QUIET_MS 500

DEFINE_KFIFO(input_fifo, INPUT_BUF_SIZE);
static DEFINE_SPINLOCK(input_lock);
static struct task_struct *volatile input_waiter;	/* asleep in console_wait() */
static volatile bool sysrq_pending;	/* Ctrl-P came at a bad moment */
unsigned long sysrq_count;

/* ---- SysRq ---------------------------------------------------------------- */

/*
 * The dump is many printk calls.  Between two of them the shell thread,
 * on another CPU, could take printk_lock and draw its prompt back in the
 * middle of the list; holding the lock across the whole dump keeps it
 * one piece (printk lets the CPU that holds printk_lock through).
 * Returns false if kprobe_mutex was busy: nothing was printed.
 */
bool sysrq_show_probes(void)
{
	unsigned long flags;
	bool shown;

	spin_lock_irqsave(&printk_lock, flags);
	shown = kprobes_list_print("SysRq") == 0;
	if (shown)
		sysrq_count++;
	spin_unlock_irqrestore(&printk_lock, flags);
	return shown;
}

/*
 * The probe list is walked under kprobe_mutex, which an interrupt may
 * not sleep on: if a thread holds it - on this CPU or another, maybe in
 * the middle of (un)register_kprobe with the table half-changed - wait
 * for the next timer tick that finds it free.
 */
static void sysrq_now_or_later(void)
{
	sysrq_pending = !sysrq_show_probes();	/* hides the line being typed, if any */
}

static void sysrq_tick(void)
{
	if (sysrq_pending)
		sysrq_now_or_later();
}

/* Input is coming: the reader need not sleep out its tick. */
static void wake_input_waiter(void)
{
	struct task_struct *t = input_waiter;

	if (t)
		wake_up_process(t);
}

/* Both consoles' interrupt handlers call this for every character. */
static bool sysrq_filter(int c)
{
	if (c == KEY_CTRL_C && shell_interrupt_foreground())
		return true;	/* it ended the program `exec` waits for */
	if (c != KEY_CTRL_P) {
		wake_input_waiter();
		return false;
	}
	sysrq_now_or_later();
	return true;
}

/* ---- the COM1 input fifo ------------------------------------------------- */

/*
 * A full fifo drops the byte, as a UART overruns - but not in silence:
 * the reader must not take what is left of the line for the line typed
 * (a cut "$arg12" is "$arg1", a valid, wrong probe).  The fifo's `in`
 * counts every byte queued, so it names the places in the stream where
 * bytes went missing: the first gap not yet reported, and the last.
 */
static struct {
	unsigned int dropped;	/* bytes lost, not reported yet (0: none) */
	unsigned int first;	/* input_fifo.in at the first of them */
	unsigned int last;	/* ...and at the last */
} overrun;

/*
 * The fifo needs one writer and one reader at a time; IRQ 4 and a test
 * feeding it, or two readers, may be on two CPUs: so each side takes
 * input_lock, as Linux's kfifo_in_spinlocked() does.
 */
void console_input_feed(int c)
{
	unsigned long flags;

	spin_lock_irqsave(&input_lock, flags);
	if (!kfifo_put(&input_fifo, c)) {
		if (!overrun.dropped)
			overrun.first = input_fifo.in;
		overrun.last = input_fifo.in;
		overrun.dropped++;
	}
	spin_unlock_irqrestore(&input_lock, flags);
	wake_input_waiter();
}

/* IRQ 4, one received byte. */
static void serial_rx(int c)
{
	if (!sysrq_filter(c))
		console_input_feed(c);
}

/*
 * The next byte; INPUT_OVERRUN (once) when the reader reaches the first
 * gap, with how many bytes were lost so far and where the last gap is.
 */
static int input_pop(unsigned int *dropped, unsigned int *last_gap)
{
	unsigned long flags;
	unsigned char c;
	int ret = -1;

	spin_lock_irqsave(&input_lock, flags);
	if (overrun.dropped && input_fifo.out == overrun.first) {
		*dropped = overrun.dropped;
		*last_gap = overrun.last;
		overrun.dropped = 0;
		ret = INPUT_OVERRUN;
	} else if (kfifo_get(&input_fifo, &c)) {
		ret = c;
	}
	spin_unlock_irqrestore(&input_lock, flags);
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

/* The line a gap fell in is lost: skip to its end, past the last gap. */
static unsigned int skip_broken_line(unsigned int dropped, unsigned int last_gap)
{
	unsigned long quiet_since = jiffies;

	for (;;) {
		unsigned int more, gap, pos = READ_ONCE(input_fifo.out);
		int c = input_pop(&more, &gap);

		if (c == INPUT_OVERRUN) {
			dropped += more;	/* still the same flood */
			last_gap = gap;
		} else if (c >= 0) {
			quiet_since = jiffies;
			if ((c == '\r' || c == '\n') && (int)(pos - last_gap) >= 0)
				return dropped;
		} else if (jiffies - quiet_since >= OVERRUN_QUIET_MS * HZ / 1000) {
			return dropped;		/* the end went missing too */
		} else {
			console_wait();
		}
	}
}

int console_poll(void)
{
	unsigned int dropped, last_gap;
	int c = input_pop(&dropped, &last_gap);

	if (c == INPUT_OVERRUN) {
		dropped = skip_broken_line(dropped, last_gap);
		printk("console: input overrun, %u character%s dropped: the line is not run\n",
		       dropped, dropped == 1 ? "" : "s");
		return INPUT_OVERRUN;
	}
	return c >= 0 ? c : kbd_getc();
}

/*
 * Let other threads run until a key comes or, at the latest, the next
 * timer tick (the line editor then redraws a line output has hidden).
 * A key that comes between our look and our sleep is found at that
 * tick.  Not hlt: this thread may run on a CPU no key interrupts.
 */
void console_wait(void)
{
	input_waiter = current;
	msleep(1000 / HZ);
	input_waiter = NULL;
}

int console_getc(void)
{
	int c;

	while ((c = console_poll()) < 0)
		if (c != INPUT_OVERRUN)
			console_wait();
	return c;
}

/* ---- reading a line ---------------------------------------------------------- */

/*
 * Each key is handled under printk_lock, with interrupts off: a printk
 * - from an interrupt handler or another CPU - hides and redraws the
 * line, and must never see it half-edited, nor print inside the echo.
 * The editor's own printk calls go through: this CPU holds the lock.
 */
int console_readline(struct line_editor *le)
{
	enum line_result r;
	unsigned long flags;

	/* Prompt and attach in one step: output arriving right after the
	 * prompt must already find the line to hide. */
	spin_lock_irqsave(&printk_lock, flags);
	line_editor_start(le);
	line_editor_attach(le);
	spin_unlock_irqrestore(&printk_lock, flags);
	do {
		int c = console_poll();

		if (c == INPUT_OVERRUN) {
			r = LINE_CANCEL;	/* console_poll said why */
			break;
		}
		spin_lock_irqsave(&printk_lock, flags);
		/* Whatever printed while we slept hid the line: show it. */
		line_editor_redraw_if_hidden();
		if (c >= 0)
			r = line_editor_key(le, c);
		else
			r = LINE_MORE;
		spin_unlock_irqrestore(&printk_lock, flags);
		if (c < 0)
			console_wait();
	} while (r == LINE_MORE);
	line_editor_attach(NULL);
	if (r == LINE_TOO_LONG) {
		printk("sh: line too long (at most %d characters, %zu more were typed): not run\n",
		       CONSOLE_LINE_MAX - 1, le->dropped);
		return -E2BIG;
	}
	return r == LINE_DONE ? (int)le->len : -EINTR;
}
