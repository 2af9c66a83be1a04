/*
 * kallsyms.h - the kernel's own symbol table, produced at build time by
 * a two-pass link (scripts/kallsyms.py) as Linux's kallsyms does.
 */
#ifndef KALLSYMS_H
#define KALLSYMS_H

#include <stddef.h>

/* Address of a symbol, 0 if unknown. */
unsigned long kallsyms_lookup_name(const char *name);

/*
 * Name of the symbol containing addr; *size and *offset describe it.
 * Returns NULL if addr is not inside any known symbol.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/*
 * Format "name+0xoff/0xsize" (or "0x..." when unknown) into buf: printk's
 * %pS.  Code kprobes made has no symbol; it is named after its probe:
 * "[kprobe slot for fib+0x1d]+0x2/0x10", "[optprobe detour for fib]+0x25/0x3c".
 */
int sprint_symbol(char *buf, size_t len, unsigned long addr);
/* Only the name, "fib": printk's %ps. */
int sprint_symbol_no_offset(char *buf, size_t len, unsigned long addr);
/*
 * For a return address (printk's %pB): the call before addr names the
 * caller, even when the call was the caller's last instruction.
 */
int sprint_backtrace(char *buf, size_t len, unsigned long addr);

/* Call fn for each symbol; stop early if fn returns non-zero. */
int kallsyms_on_each_symbol(int (*fn)(void *data, const char *name,
				      unsigned long addr, unsigned long size),
			    void *data);

/* Frame-pointer backtrace starting from bp, printed through printk. */
void show_backtrace(unsigned long ip, unsigned long bp);
/* Walk frames: fill up to max return addresses, return count. */
int save_stack_trace_bp(unsigned long bp, unsigned long *out, int max);

#endif
