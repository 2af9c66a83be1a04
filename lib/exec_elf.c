/*
 * exec_elf.c - check a static ELF executable's program headers.
 *
 * An executable, unlike a module, needs no linking: `ld` has already
 * put every byte at its final address.  Its program headers say which
 * bytes of the file go where (PT_LOAD: p_filesz bytes from p_offset to
 * p_vaddr, then zeros up to p_memsz - that is .bss).  exec trusts
 * nothing in them: every offset and size is checked here, once, before
 * any page is allocated, so a broken file gets a clear error and the
 * loader (kernel/exec.c) never has anything to undo halfway.
 *
 * The errno is Linux's: a file that is not an i386 executable is
 * -ENOEXEC (no binary format claims it); one whose header promises
 * bytes the file does not have is -EIO, the short read of Linux's
 * elf_read().  (Linux maps a segment past the file's end and the
 * program dies of SIGBUS on touching it; exec copies every byte here,
 * so it refuses the file up front.)
 */
#include <stdbool.h>
#include "exec_elf.h"
#include "errno.h"
#include "string.h"

static int check_phdr_table(struct load_info *info, const Elf32_Ehdr *h)
{
	if (h->e_phentsize != sizeof(Elf32_Phdr) || h->e_phnum == 0 ||
	    h->e_phnum > EXEC_MAX_PHDRS)
		return elf_error(info, -ENOEXEC,
				 "bad program header table: e_phentsize %u, e_phnum %u",
				 h->e_phentsize, h->e_phnum);
	if (!elf_in_file(info, h->e_phoff, h->e_phnum * sizeof(Elf32_Phdr)))
		return elf_error(info, -EIO,
				 "truncated: program headers (e_phoff %#x) outside the file",
				 h->e_phoff);
	if (h->e_phoff & 3)
		return elf_error(info, -ENOEXEC, "misaligned program headers: e_phoff %#x",
				 h->e_phoff);
	return 0;
}

static int check_load(struct load_info *info, unsigned int i, uint32_t lo, uint32_t hi)
{
	const Elf32_Phdr *p = elf_phdr(info, i);

	if (p->p_filesz > p->p_memsz)
		return elf_error(info, -ENOEXEC, "segment %u: p_filesz %#x > p_memsz %#x",
				 i, p->p_filesz, p->p_memsz);
	if (!elf_in_file(info, p->p_offset, p->p_filesz))
		return elf_error(info, -EIO,
				 "truncated: segment %u's %#x bytes at %#x outside the file",
				 i, p->p_filesz, p->p_offset);
	if (p->p_memsz > EXEC_MAX_SIZE)
		return elf_error(info, -ENOEXEC, "segment %u too big: %#x bytes", i,
				 p->p_memsz);
	if (p->p_vaddr < lo || p->p_vaddr > hi || p->p_memsz > hi - p->p_vaddr)
		return elf_error(info, -ENOEXEC,
				 "segment %u at %#x-%#x is outside user space %#x-%#x",
				 i, p->p_vaddr, p->p_vaddr + p->p_memsz, lo, hi);
	return 0;
}

static bool entry_in(const Elf32_Phdr *p, uint32_t entry)
{
	return (p->p_flags & PF_X) && entry >= p->p_vaddr &&
	       entry - p->p_vaddr < p->p_filesz;
}

int elf_check_exec(struct load_info *info, uint32_t lo, uint32_t hi)
{
	const Elf32_Ehdr *h = (const void *)info->image;
	unsigned int i, loads = 0;
	bool entry_ok = false;
	int ret;

	ret = elf_check_ident(info, h, ET_EXEC);
	if (!ret)
		ret = check_phdr_table(info, h);
	if (ret)
		return ret;
	info->hdr = h;
	for (i = 0; i < h->e_phnum; i++) {
		const Elf32_Phdr *p = elf_phdr(info, i);

		if (p->p_type != PT_LOAD)
			continue;
		ret = check_load(info, i, lo, hi);
		if (ret)
			return ret;
		loads++;
		entry_ok |= entry_in(p, h->e_entry);
	}
	if (!loads)
		return elf_error(info, -ENOEXEC, "no PT_LOAD segment: nothing to run");
	if (!entry_ok)
		return elf_error(info, -ENOEXEC,
				 "entry point %#x is in no executable segment", h->e_entry);
	return 0;
}

/*
 * The symbol table of an executable, if it kept one (ours are not
 * stripped): every section header and the table itself checked to lie
 * inside the file.  NULL when there is none.
 */
static const Elf32_Shdr *exec_symtab(const struct load_info *info, const Elf32_Shdr **strtab)
{
	const Elf32_Ehdr *h = (const void *)info->image;
	const Elf32_Shdr *sh = (const void *)(info->image + h->e_shoff);

	if (!h->e_shoff || h->e_shentsize != sizeof(*sh) ||
	    !elf_in_file(info, h->e_shoff, h->e_shnum * sizeof(*sh)))
		return NULL;
	for (unsigned int i = 0; i < h->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= h->e_shnum ||
		    !elf_in_file(info, sh[i].sh_offset, sh[i].sh_size) ||
		    !elf_in_file(info, sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size))
			continue;
		*strtab = &sh[sh[i].sh_link];
		return &sh[i];
	}
	return NULL;
}

const Elf32_Sym *elf_exec_func(const struct load_info *info, const char *name,
			       uint32_t vaddr)
{
	const Elf32_Shdr *symtab, *strtab;
	const Elf32_Sym *sym;
	const char *strs;

	symtab = exec_symtab(info, &strtab);
	if (!symtab)
		return NULL;
	sym = (const void *)(info->image + symtab->sh_offset);
	strs = (const char *)info->image + strtab->sh_offset;
	for (uint32_t n = symtab->sh_size / sizeof(*sym); n; n--, sym++) {
		if (ELF32_ST_TYPE(sym->st_info) != STT_FUNC)
			continue;
		if (name ? sym->st_name < strtab->sh_size &&
			   strncmp(strs + sym->st_name, name, strtab->sh_size - sym->st_name) == 0
			 : vaddr - sym->st_value < sym->st_size)
			return sym;
	}
	return NULL;
}
