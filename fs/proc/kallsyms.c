/*
 * kallsyms.c - /proc/kallsyms: every symbol, "address type name" a line
 * as Linux's kernel/kallsyms.c s_show() prints it, a module's with
 * "\t[module]" after, so `grep fib /proc/kallsyms` works as on Linux.
 *
 * The table (kernel/kallsyms.c) keeps no nm type letter: a symbol in
 * the kernel's text is 'T', in its read-only data 'R', else 'D' (Linux
 * prints lower case for a file's static symbols; all are upper here).
 * Addresses are shown to everyone: there is one user, and it is root
 * (Linux hides them from others, kptr_restrict).
 */
#include "kernel.h"
#include "proc_fs.h"
#include "kallsyms.h"
#include "module.h"
#include "mm.h"
#include "vsprintf.h"

static char kallsyms_type(unsigned long addr)
{
	if (kernel_text_address(addr))
		return 'T';
	return kernel_rodata_address(addr) ? 'R' : 'D';
}

static int kallsyms_proc_one(void *data, const char *name, unsigned long addr,
			     unsigned long size)
{
	struct seq_buf *s = data;
	struct module *mod = __module_address(addr);

	if (mod)
		seq_buf_printf(s, "%08lx %c %s\t[%s]\n", addr,
			       is_module_text_address(addr) ? 't' : 'd', name, mod->name);
	else
		seq_buf_printf(s, "%08lx %c %s\n", addr, kallsyms_type(addr), name);
	return seq_buf_has_overflowed(s);	/* no room: stop, the caller grows the buffer */
}

int kallsyms_proc_show(struct seq_buf *s, void *data)
{
	kallsyms_on_each_symbol(kallsyms_proc_one, s);
	return 0;
}
