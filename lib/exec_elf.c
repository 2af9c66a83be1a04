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
 */
#include <stdbool.h>
#include "exec_elf.h"
#include "errno.h"

static int check_phdr_table(struct load_info *info, const Elf32_Ehdr *h)
{
	if (h->e_phentsize != sizeof(Elf32_Phdr) || h->e_phnum == 0 ||
	    h->e_phnum > EXEC_MAX_PHDRS)
		return elf_error(info, -ENOEXEC,
				 "bad program header table: e_phentsize %u, e_phnum %u",
				 h->e_phentsize, h->e_phnum);
	if (!elf_in_file(info, h->e_phoff, h->e_phnum * sizeof(Elf32_Phdr)))
		return elf_error(info, -ENOEXEC,
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

	if (!elf_in_file(info, p->p_offset, p->p_filesz))
		return elf_error(info, -ENOEXEC,
				 "truncated: segment %u's %#x bytes at %#x outside the file",
				 i, p->p_filesz, p->p_offset);
	if (p->p_filesz > p->p_memsz)
		return elf_error(info, -ENOEXEC, "segment %u: p_filesz %#x > p_memsz %#x",
				 i, p->p_filesz, p->p_memsz);
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
