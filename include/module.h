/*
 * module.h - loadable kernel modules: code added to the running kernel.
 *
 * A module is an ELF32 relocatable object (a .ko, what `gcc -c` makes).
 * The loader (kernel/module.c, with lib/module_elf.c) checks the file,
 * copies its sections into fresh pages, links it against the kernel's
 * exported symbols (EXPORT_SYMBOL, include/export.h), makes its code
 * read-only and calls its init function.  rmmod calls the exit function
 * and gives the pages back.  docs/modules.md shows the whole round trip.
 *
 * Writing one:
 *
 *	#include "module.h"
 *	static int __init hello_init(void) { printk("hello\n"); return 0; }
 *	static void __exit hello_exit(void) { printk("bye\n"); }
 *	module_init(hello_init);
 *	module_exit(hello_exit);
 *	MODULE_LICENSE("GPL");
 */
#ifndef MODULE_H
#define MODULE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "kernel.h"
#include "list.h"
#include "export.h"
#include "module_elf.h"
#include "moduleparam.h"

/* ---- what a module's source uses ----------------------------------------- */

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

/*
 * The loader looks for the symbols init_module and cleanup_module, as
 * Linux's does.  module_init(fn) makes init_module another name for fn
 * (an ELF alias: same address); the inline function checks fn's type.
 */
/*
 * The macros end with their own ';', as Linux's do: every Linux sample
 * writes "module_init(fn)" with no semicolon after it.  Writing one
 * anyway leaves an empty declaration, which C accepts.
 */
#define module_init(fn)							\
	static inline initcall_t __inittest(void) { return fn; }	\
	int init_module(void) __attribute__((alias(#fn)));
#define module_exit(fn)							\
	static inline exitcall_t __exittest(void) { return fn; }	\
	void cleanup_module(void) __attribute__((alias(#fn)));

/* Linux marks these for freeing after boot; we keep it simple. */
#define __init
#define __exit

/* A name of its own for each use of a macro in one file (Linux's __UNIQUE_ID). */
#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)
#define __UNIQUE_ID(prefix)	__PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

/* "tag=value" strings in .modinfo; lsmod-style tools read them. */
#define MODULE_INFO(tag, info)						\
	static const char __UNIQUE_ID(tag)[]				\
	__attribute__((used, section(".modinfo"))) = #tag "=" info;
#define MODULE_LICENSE(s)	MODULE_INFO(license, s)
#define MODULE_AUTHOR(s)	MODULE_INFO(author, s)
#define MODULE_DESCRIPTION(s)	MODULE_INFO(description, s)
#define MODULE_VERSION(s)	MODULE_INFO(version, s)
#define MODULE_ALIAS(s)		MODULE_INFO(alias, s)
/* A parameter's one-line help: "parm=symbol:The function to probe". */
#define MODULE_PARM_DESC(parm, desc)	MODULE_INFO(parm, #parm ":" desc)

/*
 * Every module says which kernel ABI it was compiled for: the loader
 * refuses one whose vermagic is not the kernel's (include/vermagic.h).
 * Linux's modpost adds it in the generated .mod.c; here the header does.
 */
#ifdef MODULE
#include "vermagic.h"
MODULE_INFO(vermagic, VERMAGIC_STRING)
#endif

/*
 * The module itself, as Linux's THIS_MODULE: the loader resolves the
 * symbol __this_module of each module to its own struct module.
 */
extern struct module __this_module;
#define THIS_MODULE	(&__this_module)

/* ---- the loaded module ------------------------------------------------------ */

#define MODULE_NAME_LEN		32
#define MAX_MODULE_DEPS		8	/* modules whose exports one module uses */

enum module_state {
	MODULE_STATE_COMING,	/* linked, init running */
	MODULE_STATE_LIVE,	/* init returned 0 */
	MODULE_STATE_GOING,	/* exit running, memory about to go */
};

struct module {
	char name[MODULE_NAME_LEN];
	enum module_state state;
	struct list_head list;		/* on the loaded-modules list */

	/*
	 * One run of pages: [text | rodata | data+bss].  Text and rodata
	 * end on page boundaries so they can be mapped read-only after
	 * relocation while data stays writable.
	 */
	void *base;
	unsigned int npages;
	unsigned long text_size;	/* executable bytes from base */
	unsigned long ro_size;		/* read-only bytes from base (pages) */
	unsigned long size;		/* bytes in use (lsmod's "size") */

	int (*init)(void);
	void (*exit)(void);		/* NULL: the module cannot be unloaded */

	int refcnt;			/* users: try_module_get, dependent modules */
	struct module *uses[MAX_MODULE_DEPS];	/* modules we took symbols from */
	int nr_uses;

	struct module_symbol *syms;	/* for kallsyms_lookup and friends */
	unsigned int nsyms;
	char *symnames;
	const struct kernel_symbol *ksyms;	/* what it exports (in its memory) */
	unsigned int nksyms;

	const struct kernel_param *kp;	/* its module_param()s (in its memory) */
	unsigned int num_kp;
	char *args;			/* the "name=value" words it was given */
	unsigned long *kprobe_blacklist; /* its NOKPROBE_SYMBOL() entries */
	unsigned int num_kprobe_blacklist;
	unsigned long kprobes_text_start; /* its .kprobes.text (__kprobes) */
	unsigned long kprobes_text_size;
	unsigned long *ftrace_callsites;	/* its __mcount_loc (kernel/trace/ftrace.c) */
	unsigned int num_ftrace_callsites;
};

/* ---- the API ------------------------------------------------------------------ */

/*
 * Link the ELF image at image[0..len) into the kernel as module `name`
 * and run its init.  0 or a negative errno; on error nothing is left
 * behind and module_last_error() says why (it was also printed).
 *   -ENOEXEC  not a valid i386 relocatable object, unsupported content
 *   -ENOENT   an undefined symbol no one exports
 *   -EEXIST   a module of that name is loaded
 *   -ENOMEM   no memory
 *   other     what the init function returned
 */
int load_module(const void *image, size_t len, const char *name,
		struct module **out);
/*
 * The same with module parameters: `args` is "name=value ..." (NULL:
 * none), after any "NAME.name=value" words of the kernel command line.
 * A value that does not parse refuses the load (-EINVAL).
 */
int load_module_params(const void *image, size_t len, const char *name,
		       const char *args, struct module **out);
/* Run exit, clean up forgotten probes, free.  -EBUSY while in use. */
int unload_module(struct module *mod);

struct module *find_module(const char *name);
const char *module_last_error(void);
unsigned int nr_modules(void);

/* Pin a module while you hold pointers into it (rmmod then gets -EBUSY). */
bool try_module_get(struct module *mod);
void module_put(struct module *mod);

/* The module containing addr / whose code contains addr, or NULL. */
struct module *__module_address(unsigned long addr);
bool is_module_text_address(unsigned long addr);
/* A symbol of one module (any binding), 0 if it has none by that name. */
unsigned long module_symbol_address(const struct module *mod, const char *name);

/* ---- kallsyms over modules (kernel/kallsyms.c falls back to these) ------------ */

const char *module_address_lookup(unsigned long addr, unsigned long *size,
				  unsigned long *offset, const char **modname);
unsigned long module_kallsyms_lookup_name(const char *name);
int module_kallsyms_on_each_symbol(int (*fn)(void *data, const char *name,
					     unsigned long addr,
					     unsigned long size),
				   void *data);

/* ---- the user's commands: modules that came with the boot loader ---------- */

/* The Multiboot module "NAME" or "NAME.ko" (any directory), or NULL. */
const void *find_boot_module(const char *name, size_t *len);
int insmod(const char *name);		/* load a boot module by name */
int insmod_params(const char *name, const char *args);	/* ... with parameters */
int rmmod(const char *name);
/* The shell's insmod, rmmod and lsmod commands are console/module_cmds.c. */
/* Call fn for each loaded module, in load order (process context). */
void for_each_module(void (*fn)(const struct module *mod, void *data), void *data);
/* insmod=a,b on the command line: load those at boot (from kmain). */
void load_boot_modules(void);

/*
 * The two halves of load_module() around running init.  layout_and_link()
 * checks the file, lays it out, links it and makes its code read-only; the
 * module is not on the list yet and nothing of it has run.  0 or a negative
 * errno, and on error nothing is left behind.  free_module() undoes it.
 * The loader's tests call them directly, so a broken file goes through
 * every step that trusts the file without executing code from it.
 */
int layout_and_link(const void *image, size_t len, const char *name,
		    struct module **out);
void free_module(struct module *mod);

#endif
