/*
 * module_elf.h - check, lay out and relocate an ELF32 module image.
 *
 * The pure half of the module loader (lib/module_elf.c): it reads the
 * file and writes only into the memory the caller gives it, never
 * allocates, never calls into the rest of the kernel.  So the very same
 * code runs in the kernel (kernel/module.c) and on the host, where the
 * unit tests (tests/host/test_module_elf.c) and a libFuzzer target
 * (tests/fuzz/fuzz_module_elf.c) feed it broken files.
 *
 * The order of calls:
 *
 *   elf_check_module       every field the later steps use, checked
 *                          (no allocation yet); computes the layout size
 *   elf_layout             per-section offsets into info->secoff[]
 *   elf_place_sections     copy the sections into module memory
 *   elf_resolve_symbols    every symbol's final address into info->symval[]
 *   elf_apply_relocations  patch code and data with those addresses
 *   elf_check_exports      the module's __ksymtab entries point into it
 *   elf_kallsyms_size / elf_kallsyms_fill   names for kallsyms
 *
 * Module memory has two views: `mem`, where the loader writes the
 * bytes, and `base`, the 32-bit address the module's code will run at.
 * In the kernel they are the same; the host tools write into a buffer
 * and link for any base, so the arithmetic is the i386 one everywhere.
 */
#ifndef MODULE_ELF_H
#define MODULE_ELF_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "elf.h"

/*
 * Limits: a module is input from outside the kernel.  Big enough for
 * any module gcc makes from one source file, small enough that no sum
 * of sizes, offsets and alignments can come near 2^32.
 */
#define MODULE_MAX_SECTIONS	1024
#define MODULE_MAX_SIZE		(4u << 20)	/* bytes of module memory */
#define MODULE_PAGE_SIZE	4096u		/* the i386 page: regions start on one */
#define MODULE_ERROR_LEN	160
#define MODULE_KSYM_ENTRY_SIZE	8	/* struct kernel_symbol on i386: value, name */

/* One function or object of the module, for kallsyms and backtraces. */
struct module_symbol {
	unsigned long addr;
	unsigned long size;
	const char *name;	/* in the module's names buffer */
};

/* An undefined symbol's address (kernel or other module); *err on failure. */
typedef uint32_t (*elf_resolve_fn)(void *ctx, const char *name, int *err);

/* What the loader knows about the file while linking it. */
struct load_info {
	const char *name;
	const uint8_t *image;		/* the file, 4-byte aligned */
	size_t len;

	/* Set by elf_check_module(). */
	const Elf32_Ehdr *hdr;
	const Elf32_Shdr *sechdrs;
	const char *secstrings;
	size_t secstrings_size;
	unsigned int shnum;
	unsigned int symindex;		/* the SHT_SYMTAB section */
	const Elf32_Sym *syms;
	unsigned int nsyms;
	const char *strtab;
	size_t strtab_size;
	uint32_t text_size, ro_size, size;	/* see struct module */
	unsigned int init_sym, exit_sym;	/* init_module, cleanup_module; 0: none */

	/* Arrays the caller provides: shnum and nsyms entries. */
	uint32_t *secoff;		/* per section: offset in module memory */
	uint32_t *symval;		/* per symbol: its final value */

	/* Module memory: where it is written, where it runs. */
	uint8_t *mem;
	uint32_t base;

	char error[MODULE_ERROR_LEN];	/* why the last step failed */
};

int elf_check_module(struct load_info *info);
/* The header alone: i386, ELF32, little endian, of this e_type (also lib/exec_elf.c). */
int elf_check_ident(struct load_info *info, const Elf32_Ehdr *h, unsigned int type);
/* Is [off, off + size) inside the file?  Cannot overflow. */
bool elf_in_file(const struct load_info *info, uint32_t off, uint32_t size);
/* Record why a check failed in info->error; returns err. */
int elf_error(struct load_info *info, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void elf_layout(struct load_info *info);
void elf_place_sections(struct load_info *info, uint8_t *mem, uint32_t base);
int elf_resolve_symbols(struct load_info *info, elf_resolve_fn resolve, void *ctx);
void elf_apply_relocations(struct load_info *info);
int elf_check_exports(struct load_info *info, uint32_t *off, uint32_t *count);
size_t elf_kallsyms_size(const struct load_info *info, unsigned int *count);
void elf_kallsyms_fill(const struct load_info *info, struct module_symbol *syms,
		       char *names);
const char *elf_reloc_name(unsigned int type);
/*
 * A loaded section by name (after elf_layout): its index, its offset in
 * module memory and its size; 0 if the module has none.
 */
int elf_find_section(const struct load_info *info, const char *name,
		     uint32_t *off, uint32_t *size);

#endif
