/*
 * printk.c - kernel printf: format into a buffer, hand it to every
 * registered console.
 *
 * printk holds printk_lock, with interrupts off, for the whole line, so
 * two lines - of two threads or of two CPUs - never interleave.  An
 * exception or NMI that interrupts printk on the same CPU and prints
 * (a kprobe handler, an oops) goes through without the lock: this CPU
 * already holds it, so no other CPU is printing, and waiting would
 * never end.  printk is on the kprobes blacklist: a probe inside it
 * would fire while a handler prints.
 */
#include "kernel.h"
#include "printk.h"
#include "vsprintf.h"
#include <asm/irqflags.h>
#include "spinlock.h"
#include "nokprobe.h"
#include "string.h"

#define PRINTK_BUF_SIZE 512
#define PRINTK_CUT_MARK " [cut]\n"	/* the end of a message too long for it */

static struct console *consoles;
static void (*before_write)(const char *text, size_t len);

void printk_set_before_write(void (*hook)(const char *text, size_t len))
{
	WRITE_ONCE(before_write, hook);
}
DEFINE_SPINLOCK(printk_lock);

void register_console(struct console *con)
{
	con->next = consoles;
	consoles = con;
}

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;

void console_loglevel_setup(void)
{
	char buf[8];
	unsigned long level;

	if (cmdline_value("loglevel", buf, sizeof(buf)) &&
	    kstrtoul(buf, 10, &level) == 0 && level <= LOGLEVEL_DEBUG + 1)
		console_loglevel = level;
}

/*
 * KERN_SOH and one character at the start of fmt: the message's level.
 * Returns the level and moves *fmt past the prefix.  KERN_CONT and
 * KERN_DEFAULT (and no prefix at all) are MESSAGE_LOGLEVEL_DEFAULT.
 */
static int printk_get_level(const char **fmt)
{
	const char *f = *fmt;

	if (f[0] != KERN_SOH[0] || !f[1])
		return MESSAGE_LOGLEVEL_DEFAULT;
	*fmt = f + 2;
	if (f[1] >= '0' && f[1] <= '0' + LOGLEVEL_DEBUG)
		return f[1] - '0';
	return MESSAGE_LOGLEVEL_DEFAULT;
}

/*
 * Text to every console, the typed line hidden first.  No buffer of our
 * own: a command's output (an echo of a 4095-character line) goes out
 * whole, not cut at PRINTK_BUF_SIZE.
 */
void printk_write(const char *text, size_t len)
{
	void (*hook)(const char *text, size_t len);
	struct console *con;
	unsigned long flags;
	bool nested;

	flags = local_irq_save();
	nested = READ_ONCE(printk_lock.owner_cpu) == smp_processor_id();
	if (!nested)
		spin_lock(&printk_lock);
	hook = READ_ONCE(before_write);
	if (hook)
		hook(text, len);	/* the shell: not into the middle of a typed line */
	for (con = consoles; con; con = con->next)
		con->write(text, len);
	if (!nested)
		spin_unlock(&printk_lock);
	local_irq_restore(flags);
}

/*
 * One message is formatted on the stack, so it has a limit; one that
 * is longer ends in PRINTK_CUT_MARK instead of stopping short unseen.
 */
int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF_SIZE];
	int len;

	/* Like Linux, a message at or above console_loglevel is not shown. */
	if (printk_get_level(&fmt) >= console_loglevel)
		return 0;
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (len >= (int)sizeof(buf)) {
		len = sizeof(buf) - 1;
		memcpy(buf + len - strlen(PRINTK_CUT_MARK), PRINTK_CUT_MARK,
		       strlen(PRINTK_CUT_MARK));
	}
	printk_write(buf, len);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
NOKPROBE_SYMBOL(printk_get_level);
NOKPROBE_SYMBOL(printk_write);
NOKPROBE_SYMBOL(vprintk);
NOKPROBE_SYMBOL(printk);
