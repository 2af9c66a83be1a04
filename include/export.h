/*
 * export.h - EXPORT_SYMBOL(): the kernel functions a module may call.
 *
 * A module is linked against the running kernel by the loader, not by
 * ld.  To find "printk" the loader needs a table of names and addresses;
 * EXPORT_SYMBOL(printk) adds one entry to it.  Each entry is placed in
 * the __ksymtab section, and linker.ld gathers every such section
 * between __start_ksymtab and __stop_ksymtab, so the table builds
 * itself with no central list.  Only exported symbols can be used by
 * modules: the rest of the kernel stays private, as in Linux.
 *
 * A module may export symbols too (the same macro in its source): the
 * loader reads the module's own __ksymtab and lets later modules use them.
 */
#ifndef EXPORT_H
#define EXPORT_H

struct kernel_symbol {
	unsigned long value;	/* the address */
	const char *name;
};

#define EXPORT_SYMBOL(sym)						\
	extern __typeof__(sym) sym;					\
	static const char __kstrtab_##sym[] = #sym;			\
	static const struct kernel_symbol __ksymtab_##sym		\
	__attribute__((used, section("__ksymtab"), aligned(4))) =	\
		{ (unsigned long)&sym, __kstrtab_##sym }

/* The kernel's table, from linker.ld. */
extern const struct kernel_symbol __start_ksymtab[], __stop_ksymtab[];

#endif
