/*
 * func_extent.c - where a function really is, for the optimizer's
 * safety analysis (docs/optprobes.md, "The safety analysis", step 1).
 *
 * kallsyms knows symbols, not functions.  Two kinds of symbols need a
 * second look, and one pass over the table at first use finds them:
 *   - outer symbols: an assembly routine with a .size that contains
 *     global labels (fixup_routine and its fx_* labels).  The label is
 *     what kallsyms_lookup() returns, but the routine is the function.
 *   - cold parts: "foo.cold", code gcc split off foo that jumps back
 *     into the middle of foo.
 * Symbols of modules loaded later are not indexed: module code is
 * compiled C, where neither happens except .cold (documented limit).
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include "mm.h"
#include "string.h"

#define MAX_INDEXED_SYMS	64

struct sym_range {
	unsigned long start, end;
	unsigned long parent;		/* cold parts: where foo starts */
};

static struct sym_range outer_syms[MAX_INDEXED_SYMS], cold_parts[MAX_INDEXED_SYMS];
static int nr_outer, nr_cold;
static bool extent_index_ready, extent_index_full;
static struct { unsigned long start, end; bool recorded; } widest;	/* during the pass */
static const char *cold_names[MAX_INDEXED_SYMS];

#define COLD_SUFFIX	".cold"

static void add_range(struct sym_range *tab, int *nr, unsigned long start,
		      unsigned long end)
{
	if (*nr == MAX_INDEXED_SYMS) {
		extent_index_full = true;
		return;
	}
	tab[*nr].start = start;
	tab[*nr].end = end;
	tab[(*nr)++].parent = 0;
}

/* Symbols come sorted by address; widest is the one reaching furthest so far. */
static int index_symbol(void *data, const char *name, unsigned long addr,
			unsigned long size)
{
	size_t n = strlen(name), k = sizeof(COLD_SUFFIX) - 1;

	if (!kernel_text_address(addr))
		return 0;
	if (n > k && strcmp(name + n - k, COLD_SUFFIX) == 0) {
		if (nr_cold < MAX_INDEXED_SYMS)
			cold_names[nr_cold] = name;
		add_range(cold_parts, &nr_cold, addr, addr + size);
	}
	if (addr > widest.start && addr < widest.end && !widest.recorded) {
		add_range(outer_syms, &nr_outer, widest.start, widest.end);
		widest.recorded = true;
	}
	if (addr >= widest.end || addr + size > widest.end) {
		widest.start = addr;
		widest.end = addr + size;
		widest.recorded = false;
	}
	return 0;
}

static void build_extent_index(void)
{
	char parent[KSYM_NAME_LEN];

	kallsyms_on_each_symbol(index_symbol, NULL);
	for (int i = 0; i < nr_cold; i++) {
		size_t n = strlen(cold_names[i]) - (sizeof(COLD_SUFFIX) - 1);

		if (n >= sizeof(parent)) {
			extent_index_full = true;
			continue;
		}
		memcpy(parent, cold_names[i], n);
		parent[n] = '\0';
		cold_parts[i].parent = kallsyms_lookup_name(parent);
	}
	extent_index_ready = true;
}

int kprobe_function_extent(unsigned long addr, struct func_extent *fx)
{
	unsigned long size, offset, other;

	if (!kallsyms_lookup(addr, &size, &offset) || size == 0)
		return -OPT_NO_SIZE;
	if (!extent_index_ready)
		build_extent_index();
	if (extent_index_full)
		return -OPT_NO_SIZE;	/* we could be missing an outer symbol */
	fx->start = addr - offset;
	fx->end = fx->start + size;
	for (int i = 0; i < nr_outer; i++) {	/* the widest symbol around addr */
		if (outer_syms[i].start <= fx->start && outer_syms[i].end >= fx->end &&
		    outer_syms[i].end - outer_syms[i].start > fx->end - fx->start) {
			fx->start = outer_syms[i].start;
			fx->end = outer_syms[i].end;
		}
	}
	fx->other_start = fx->other_end = 0;
	for (int i = 0; i < nr_cold; i++) {
		if (cold_parts[i].parent == fx->start) {	/* foo, with a foo.cold */
			fx->other_start = cold_parts[i].start;
			fx->other_end = cold_parts[i].end;
		} else if (cold_parts[i].start == fx->start && cold_parts[i].parent &&
			   kallsyms_lookup(cold_parts[i].parent, &size, &offset)) {
			other = cold_parts[i].parent;	/* foo.cold itself */
			fx->other_start = other;
			fx->other_end = other + size;
		}
	}
	return 0;
}
