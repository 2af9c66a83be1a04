/*
 * exec_elf.h - the checks an executable passes before exec loads it
 * (lib/exec_elf.c).  Pure, like module_elf.h: no allocation, so the
 * host unit tests feed it broken files.
 */
#ifndef EXEC_ELF_H
#define EXEC_ELF_H

#include "module_elf.h"

#define EXEC_MAX_PHDRS	16		/* static programs have 2 to 4 */
/*
 * Bytes of memory per segment.  A .bss costs nothing until it is touched
 * (demand-zero pages, mm/memory.c), so the limit is only a sanity bound
 * on the header: big_bss's 4 MiB and the program's own data fit.
 */
#define EXEC_MAX_SIZE	(16u << 20)

/*
 * A static i386 executable: header, program header table inside the
 * file, every PT_LOAD's bytes inside the file and its memory inside
 * [lo, hi), p_filesz <= p_memsz, and the entry point in an executable
 * segment.  0, or -ENOEXEC (-EIO: a table or segment past the file's
 * end, Linux's short read) with the reason in info->error.
 */
int elf_check_exec(struct load_info *info, uint32_t lo, uint32_t hi);

/*
 * The function symbol called name, or (name NULL) the one whose bytes
 * hold vaddr, from the file's symbol table; NULL if there is no table
 * or no such function.  info->image and info->len are all it reads.
 */
const Elf32_Sym *elf_exec_func(const struct load_info *info, const char *name,
			       uint32_t vaddr);

/* Program header i of a checked file. */
static inline const Elf32_Phdr *elf_phdr(const struct load_info *info, unsigned int i)
{
	const Elf32_Ehdr *h = (const void *)info->image;

	return (const Elf32_Phdr *)(info->image + h->e_phoff) + i;
}

#endif
