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
#include "console.h"
#include "vsprintf.h"
#include "irqflags.h"
#include "spinlock.h"
#include "nokprobe.h"
#include "line_editor.h"

#define PRINTK_BUF_SIZE 512

static struct console *consoles;
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

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF_SIZE];
	struct console *con;
	unsigned long flags;
	bool nested;
	int len;

	/* Like Linux, a message at or above console_loglevel is not shown. */
	if (printk_get_level(&fmt) >= console_loglevel)
		return 0;
	len = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;   /* truncated: print what fits */
	flags = local_irq_save();
	nested = READ_ONCE(printk_lock.owner_cpu) == smp_processor_id();
	if (!nested)
		spin_lock(&printk_lock);
	line_editor_hide(buf, len);	/* not into the middle of a typed line */
	for (con = consoles; con; con = con->next)
		con->write(buf, len);
	if (!nested)
		spin_unlock(&printk_lock);
	local_irq_restore(flags);
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
NOKPROBE_SYMBOL(vprintk);
NOKPROBE_SYMBOL(printk);
