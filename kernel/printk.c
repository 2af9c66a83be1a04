/*
 * printk.c - kernel printf: format into a buffer, hand it to every
 * registered console.
 *
 * printk runs with interrupts off for the whole line so two lines never
 * interleave, and it takes no lock, so it is safe from an exception
 * handler - including a kprobe handler.  That is also why it is on the
 * kprobes blacklist: a probe inside printk would fire while a handler
 * prints.
 */
#include "kernel.h"
#include "console.h"
#include "vsprintf.h"
#include "irqflags.h"
#include "nokprobe.h"
#include "line_editor.h"

#define PRINTK_BUF_SIZE 512

static struct console *consoles;

void register_console(struct console *con)
{
	con->next = consoles;
	consoles = con;
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF_SIZE];
	struct console *con;
	unsigned long flags;
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;   /* truncated: print what fits */
	flags = local_irq_save();
	line_editor_hide(buf, len);	/* not into the middle of a typed line */
	for (con = consoles; con; con = con->next)
		con->write(buf, len);
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
NOKPROBE_SYMBOL(vprintk);
NOKPROBE_SYMBOL(printk);
