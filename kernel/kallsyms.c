/*
 * kallsyms.c - find a symbol by name, or the symbol containing an address.
 *
 * scripts/kallsyms.py turns `nm -n -S` of the first link pass into the
 * arrays below (sorted by address), and the second link pass puts them
 * in the .kallsyms section at the very end of the image.  Every symbol
 * has a size: nm's when the compiler recorded one, else the distance to
 * the next symbol.
 */
#include "kernel.h"
#include "kallsyms.h"
#include "string.h"
#include "vsprintf.h"
#include "nokprobe.h"
#include "kprobes.h"	/* kprobe_text_name */
#include "module.h"

extern const unsigned long kallsyms_num;
extern const unsigned long kallsyms_addresses[];
extern const unsigned long kallsyms_sizes[];
extern const unsigned long kallsyms_name_offsets[];
extern const char kallsyms_names[];

#define MAX_SYMBOL_SIZE     0x100000	/* 1 MiB: bigger than any one symbol */

static const char *sym_name(unsigned long i)
{
	return &kallsyms_names[kallsyms_name_offsets[i]];
}

/* Index of the last symbol whose address is <= addr, or -1. */
static long find_le(unsigned long addr)
{
	long lo = 0, hi = (long)kallsyms_num - 1, best = -1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (kallsyms_addresses[mid] <= addr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	long i = find_le(addr);

	/*
	 * Several symbols may share an address; the script puts the most
	 * useful one (a sized global function) first in such a run.
	 */
	while (i > 0 && kallsyms_addresses[i - 1] == kallsyms_addresses[i])
		i--;
	for (; i >= 0; i--) {
		unsigned long start = kallsyms_addresses[i];

		if (addr < start + kallsyms_sizes[i]) {
			if (size)
				*size = kallsyms_sizes[i];
			if (offset)
				*offset = addr - start;
			return sym_name(i);
		}
		/* A symbol further back may be larger and still cover addr. */
		if (addr - start > MAX_SYMBOL_SIZE)
			break;
	}
	return module_address_lookup(addr, size, offset, NULL);
}

unsigned long kallsyms_lookup_name(const char *name)
{
	unsigned long i;

	for (i = 0; i < kallsyms_num; i++)
		if (strcmp(sym_name(i), name) == 0)
			return kallsyms_addresses[i];
	return module_kallsyms_lookup_name(name);
}

int kallsyms_on_each_symbol(int (*fn)(void *data, const char *name,
				      unsigned long addr, unsigned long size),
			    void *data)
{
	unsigned long i;
	int ret;

	for (i = 0; i < kallsyms_num; i++) {
		ret = fn(data, sym_name(i), kallsyms_addresses[i], kallsyms_sizes[i]);
		if (ret)
			return ret;
	}
	return module_kallsyms_on_each_symbol(fn, data);
}

/*
 * The symbol around addr: the kernel's, a module's, or code kprobes made
 * (named after its probe, into owner).  NULL if none.
 */
static const char *lookup_any(unsigned long addr, unsigned long *size,
			      unsigned long *off, char *owner, size_t len)
{
	const char *name = kallsyms_lookup(addr, size, off);
	unsigned long start;

	if (name)
		return name;
	if (!kprobe_text_name(addr, owner, len, &start, size))
		return NULL;
	*off = addr - start;
	return owner;
}

/*
 * "name+off/size" for the symbol around `lookup`, the offset counted to
 * lookup + delta; " [module]" after a module's symbols, as Linux does.
 */
static int print_symbol(char *buf, size_t len, unsigned long lookup,
			unsigned long delta, bool offset)
{
	char owner[KSYM_NAME_LEN];
	unsigned long size, off;
	const char *name = lookup_any(lookup, &size, &off, owner, sizeof(owner));
	struct module *mod = __module_address(lookup);
	const char *open = mod ? " [" : "", *modname = mod ? mod->name : "";
	const char *close = mod ? "]" : "";

	if (!name)
		return snprintf(buf, len, "%#lx", lookup + delta);
	if (!offset)
		return snprintf(buf, len, "%s%s%s%s", name, open, modname, close);
	/* 0x%lx, not %#lx: Linux prints fib+0x0/0x3b, C's %#lx a bare 0. */
	return snprintf(buf, len, "%s+0x%lx/0x%lx%s%s%s", name, off + delta, size,
			open, modname, close);
}

int sprint_symbol(char *buf, size_t len, unsigned long addr)
{
	return print_symbol(buf, len, addr, 0, true);
}

int sprint_symbol_no_offset(char *buf, size_t len, unsigned long addr)
{
	return print_symbol(buf, len, addr, 0, false);
}

/*
 * For a return address: a call to a function that never returns can be
 * the last instruction of its caller, so the return address may point
 * one past the end.  Look up addr - 1 (inside the call) and print the
 * offset of addr itself, as Linux's %pB does.
 */
int sprint_backtrace(char *buf, size_t len, unsigned long addr)
{
	return print_symbol(buf, len, addr - 1, 1, true);
}

NOKPROBE_SYMBOL(kallsyms_lookup);
NOKPROBE_SYMBOL(find_le);
NOKPROBE_SYMBOL(sym_name);
