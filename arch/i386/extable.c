/*
 * extable.c - exception fixups: resume at a recovery address instead of
 * oopsing, for the few instructions that are allowed to fault.
 *
 * The table is built by the linker from every _ASM_EXTABLE() entry
 * (section __ex_table).  It is small, so a linear search is fine and
 * easy to read.
 */
#include "kernel.h"
#include <asm/extable.h>
#include <asm/traps.h>
#include <asm/processor.h>
#include "nokprobe.h"

extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

const struct exception_table_entry *search_exception_tables(unsigned long ip)
{
	const struct exception_table_entry *e;

	for (e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == ip)
			return e;
	return NULL;
}

int fixup_exception(struct pt_regs *regs, unsigned long vector)
{
	const struct exception_table_entry *e = search_exception_tables(regs->ip);

	if (!e)
		return 0;
	regs->ip = e->fixup;
	return 1;
}
NOKPROBE_SYMBOL(search_exception_tables);
NOKPROBE_SYMBOL(fixup_exception);
