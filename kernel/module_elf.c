/*
 * module_elf.c - read, check, lay out and relocate an ELF32 module.
 *
 * The file comes from outside the kernel, so every offset, size and
 * index in it is checked against the file before it is used: a broken
 * .ko must produce an error message, never a fault.  The steps, in the
 * order kernel/module.c calls them:
 *
 *   elf_check_module      header, section table, symbol and string tables
 *   elf_layout            where each SHF_ALLOC section goes in module memory
 *   elf_place_sections    copy them there (.bss is already zero)
 *   elf_resolve_symbols   give every symbol its final address
 *   elf_apply_relocations patch the code and data with those addresses
 *   elf_build_kallsyms    keep the function/object names for kallsyms
 *
 * A relocatable object has no addresses yet: a symbol is "offset X in
 * section N", and a relocation says "the 4 bytes at offset Y of section
 * M must hold symbol S (+ what is there now)".  Once the sections have
 * addresses, both become plain arithmetic.
 */
#include "kernel.h"
#include "module.h"
#include "elf.h"
#include "mm.h"
#include "errno.h"
#include "string.h"

#define MAX_MODULE_SIZE	(4ul << 20)	/* refuse anything bigger: a .bss of 3 GiB is a bug */

/* Is [off, off + size) inside the file?  Written so it cannot overflow. */
static bool in_file(const struct load_info *info, unsigned long off,
		    unsigned long size)
{
	return off <= info->len && size <= info->len - off;
}

static const char *sec_name(const struct load_info *info, unsigned int i)
{
	const Elf32_Shdr *strsec = &info->sechdrs[info->hdr->e_shstrndx];

	if (info->sechdrs[i].sh_name >= strsec->sh_size)
		return "<bad name>";
	return info->secstrings + info->sechdrs[i].sh_name;
}

static const char *sym_name(const struct load_info *info, const Elf32_Sym *sym)
{
	return info->strtab + sym->st_name;	/* st_name checked in check_symtab */
}

/* A string table must end in NUL, or a name could run off its end. */
static bool valid_strtab(const struct load_info *info, unsigned int i)
{
	const Elf32_Shdr *s = &info->sechdrs[i];

	return s->sh_type == SHT_STRTAB && s->sh_size > 0 &&
	       info->image[s->sh_offset + s->sh_size - 1] == '\0';
}

/* ---- checking the file -------------------------------------------------- */

static int check_header(struct load_info *info)
{
	const Elf32_Ehdr *h = (const void *)info->image;

	if (info->len < sizeof(*h))
		return module_error(info, -ENOEXEC,
				    "truncated: %zu bytes is smaller than an ELF header",
				    info->len);
	if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0)
		return module_error(info, -ENOEXEC, "bad ELF magic (not an ELF file)");
	if (h->e_ident[EI_CLASS] != ELFCLASS32)
		return module_error(info, -ENOEXEC,
				    "wrong ELF class %u (want ELFCLASS32: an i386 object)",
				    h->e_ident[EI_CLASS]);
	if (h->e_ident[EI_DATA] != ELFDATA2LSB)
		return module_error(info, -ENOEXEC, "not little endian");
	if (h->e_type != ET_REL)
		return module_error(info, -ENOEXEC,
				    "ELF type %u is not a relocatable object (gcc -c)",
				    h->e_type);
	if (h->e_machine != EM_386)
		return module_error(info, -ENOEXEC,
				    "wrong machine %u (want EM_386)", h->e_machine);
	if (h->e_shentsize != sizeof(Elf32_Shdr) || h->e_shnum == 0 ||
	    !in_file(info, h->e_shoff, (unsigned long)h->e_shnum * sizeof(Elf32_Shdr)))
		return module_error(info, -ENOEXEC,
				    "truncated: section table outside the file");
	if (h->e_shoff & 3)
		return module_error(info, -ENOEXEC, "misaligned section table");
	info->hdr = h;
	info->sechdrs = (const void *)(info->image + h->e_shoff);
	info->shnum = h->e_shnum;
	return 0;
}

static int check_sections(struct load_info *info)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];
		unsigned long align = s->sh_addralign ? s->sh_addralign : 1;

		if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL &&
		    !in_file(info, s->sh_offset, s->sh_size))
			return module_error(info, -ENOEXEC,
					    "section %u extends past the end of the file",
					    i);
		if (align & (align - 1) || align > PAGE_SIZE)
			return module_error(info, -ENOEXEC,
					    "section %u: bad alignment %lu", i, align);
	}
	if (info->hdr->e_shstrndx >= info->shnum ||
	    !valid_strtab(info, info->hdr->e_shstrndx))
		return module_error(info, -ENOEXEC, "bad section name table");
	info->secstrings = (const char *)info->image +
			   info->sechdrs[info->hdr->e_shstrndx].sh_offset;
	return 0;
}

static int check_symtab(struct load_info *info)
{
	const Elf32_Shdr *symsec = NULL;

	for (unsigned int i = 1; i < info->shnum; i++) {
		if (info->sechdrs[i].sh_type != SHT_SYMTAB)
			continue;
		if (symsec)
			return module_error(info, -ENOEXEC, "more than one symbol table");
		symsec = &info->sechdrs[i];
		info->symindex = i;
	}
	if (!symsec)
		return module_error(info, -ENOEXEC, "no symbol table (stripped?)");
	if (symsec->sh_entsize != sizeof(Elf32_Sym) ||
	    symsec->sh_size % sizeof(Elf32_Sym) || (symsec->sh_offset & 3))
		return module_error(info, -ENOEXEC, "malformed symbol table");
	if (symsec->sh_link >= info->shnum || !valid_strtab(info, symsec->sh_link))
		return module_error(info, -ENOEXEC, "bad symbol string table");

	info->syms = (const void *)(info->image + symsec->sh_offset);
	info->nsyms = symsec->sh_size / sizeof(Elf32_Sym);
	info->strtab = (const char *)info->image +
		       info->sechdrs[symsec->sh_link].sh_offset;
	info->strtab_size = info->sechdrs[symsec->sh_link].sh_size;
	for (unsigned int i = 0; i < info->nsyms; i++)
		if (info->syms[i].st_name >= info->strtab_size)
			return module_error(info, -ENOEXEC,
					    "symbol %u: name outside the string table", i);
	return 0;
}

/* Is section i one we copy into module memory? */
static bool sec_loaded(const struct load_info *info, unsigned int i)
{
	return i > 0 && i < info->shnum && (info->sechdrs[i].sh_flags & SHF_ALLOC);
}

/* Relocation sections: well-formed, and pointing at real sections. */
static int check_rel_sections(struct load_info *info)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];

		if (s->sh_type == SHT_RELA)
			return module_error(info, -ENOEXEC,
					    "RELA relocations are not used on i386");
		if (s->sh_type != SHT_REL)
			continue;
		if (s->sh_entsize != sizeof(Elf32_Rel) ||
		    s->sh_size % sizeof(Elf32_Rel) || (s->sh_offset & 3))
			return module_error(info, -ENOEXEC,
					    "malformed relocation section %s",
					    sec_name(info, i));
		if (s->sh_link != info->symindex)
			return module_error(info, -ENOEXEC,
					    "relocation section %s: wrong symbol table",
					    sec_name(info, i));
		if (s->sh_info == 0 || s->sh_info >= info->shnum)
			return module_error(info, -ENOEXEC,
					    "relocation section %s applies to missing section %u",
					    sec_name(info, i), s->sh_info);
	}
	return 0;
}

int elf_check_module(struct load_info *info)
{
	int ret;

	if ((unsigned long)info->image & 3)
		return module_error(info, -ENOEXEC, "image not 4-byte aligned");
	ret = check_header(info);
	if (!ret)
		ret = check_sections(info);
	if (!ret)
		ret = check_symtab(info);
	if (!ret)
		ret = check_rel_sections(info);
	return ret;
}

/* ---- layout ------------------------------------------------------------- */

enum region { REGION_TEXT, REGION_RODATA, REGION_DATA };

static enum region sec_region(const Elf32_Shdr *s)
{
	if (s->sh_flags & SHF_WRITE)
		return REGION_DATA;
	if (s->sh_flags & SHF_EXECINSTR)
		return REGION_TEXT;
	return REGION_RODATA;
}

/* Give every section of `region` an offset from `off` on; return the end. */
static unsigned long layout_region(struct load_info *info, enum region region,
				   unsigned long off)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];

		if (!sec_loaded(info, i) || sec_region(s) != region)
			continue;
		off = ALIGN_UP(off, s->sh_addralign ? s->sh_addralign : 1);
		info->secaddr[i] = off;
		off += s->sh_size;
	}
	return off;
}

/*
 * Text first, then read-only data, then writable data and .bss, each
 * region starting on a page so paging can protect the first two.
 * secaddr[] holds offsets from the start until elf_place_sections().
 */
int elf_layout(struct load_info *info)
{
	unsigned long off;

	for (unsigned int i = 1; i < info->shnum; i++)
		if (sec_loaded(info, i) && info->sechdrs[i].sh_size > MAX_MODULE_SIZE)
			return module_error(info, -ENOEXEC, "section %s is too big",
					    sec_name(info, i));
	info->secaddr = kzalloc(info->shnum * sizeof(*info->secaddr));
	if (!info->secaddr)
		return module_error(info, -ENOMEM, "out of memory");

	info->text_size = layout_region(info, REGION_TEXT, 0);
	off = layout_region(info, REGION_RODATA, ALIGN_UP(info->text_size, PAGE_SIZE));
	info->ro_size = ALIGN_UP(off, PAGE_SIZE);
	info->size = layout_region(info, REGION_DATA, info->ro_size);
	if (info->size > MAX_MODULE_SIZE)
		return module_error(info, -ENOEXEC, "module too big (%lu bytes)",
				    info->size);
	return 0;
}

void elf_place_sections(struct load_info *info, void *base)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];

		if (!sec_loaded(info, i))
			continue;
		info->secaddr[i] += (unsigned long)base;
		/* .bss has no bytes in the file: alloc_pages() zeroed it. */
		if (s->sh_type != SHT_NOBITS)
			memcpy((void *)info->secaddr[i], info->image + s->sh_offset,
			       s->sh_size);
	}
}

/* ---- symbols --------------------------------------------------------------- */

/*
 * A defined symbol is "st_value bytes into section st_shndx"; an
 * undefined one (SHN_UNDEF) is looked up among the exported symbols.
 * Symbols in sections we do not load (debug info) keep no value; a
 * relocation that uses one is refused in apply_one_rel().
 */
static int resolve_one(struct load_info *info, struct module *mod, unsigned int i)
{
	const Elf32_Sym *sym = &info->syms[i];
	const char *name = sym_name(info, sym);
	int err = 0;

	switch (sym->st_shndx) {
	case SHN_UNDEF:
		info->symval[i] = resolve_symbol(mod, name, &err);
		/* A weak reference nobody defines is allowed to be NULL. */
		if (err == -ENOENT && ELF32_ST_BIND(sym->st_info) == STB_WEAK)
			return 0;
		if (err == -ENOENT)
			return module_error(info, err, "unknown symbol %s", name);
		if (err)
			return module_error(info, err, "cannot use symbol %s", name);
		return 0;
	case SHN_ABS:
		info->symval[i] = sym->st_value;
		return 0;
	case SHN_COMMON:
		return module_error(info, -ENOEXEC,
				    "common symbol %s: build with -fno-common", name);
	default:
		if (sec_loaded(info, sym->st_shndx))
			info->symval[i] = info->secaddr[sym->st_shndx] + sym->st_value;
		return 0;
	}
}

int elf_resolve_symbols(struct load_info *info, struct module *mod)
{
	int ret;

	info->symval = kzalloc(info->nsyms * sizeof(*info->symval) + 1);
	if (!info->symval)
		return module_error(info, -ENOMEM, "out of memory");
	/* Symbol 0 is the reserved null symbol. */
	for (unsigned int i = 1; i < info->nsyms; i++) {
		ret = resolve_one(info, mod, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* A defined symbol of the module by name (init_module...), 0 if none. */
unsigned long elf_symbol_value(struct load_info *info, const char *name)
{
	for (unsigned int i = 1; i < info->nsyms; i++) {
		const Elf32_Sym *sym = &info->syms[i];

		if (sym->st_shndx != SHN_UNDEF && sec_loaded(info, sym->st_shndx) &&
		    strcmp(sym_name(info, sym), name) == 0)
			return info->symval[i];
	}
	return 0;
}

/* The loaded copy of the section called name, or NULL. */
const void *elf_section_data(struct load_info *info, const char *name,
			     size_t *size)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		if (sec_loaded(info, i) && strcmp(sec_name(info, i), name) == 0) {
			*size = info->sechdrs[i].sh_size;
			return (const void *)info->secaddr[i];
		}
	}
	return NULL;
}

/* ---- relocations ------------------------------------------------------------ */

static const struct {
	unsigned int type;
	const char *name;
} reloc_names[] = {
	{ R_386_NONE, "R_386_NONE" },	{ R_386_32, "R_386_32" },
	{ R_386_PC32, "R_386_PC32" },	{ R_386_GOT32, "R_386_GOT32" },
	{ R_386_PLT32, "R_386_PLT32" },	{ R_386_COPY, "R_386_COPY" },
	{ R_386_GLOB_DAT, "R_386_GLOB_DAT" }, { R_386_JMP_SLOT, "R_386_JMP_SLOT" },
	{ R_386_RELATIVE, "R_386_RELATIVE" }, { R_386_GOTOFF, "R_386_GOTOFF" },
	{ R_386_GOTPC, "R_386_GOTPC" },	{ R_386_32PLT, "R_386_32PLT" },
	{ R_386_16, "R_386_16" },	{ R_386_PC16, "R_386_PC16" },
	{ R_386_8, "R_386_8" },		{ R_386_PC8, "R_386_PC8" },
	{ R_386_IRELATIVE, "R_386_IRELATIVE" }, { R_386_GOT32X, "R_386_GOT32X" },
};

const char *elf_reloc_name(unsigned int type)
{
	for (size_t i = 0; i < ARRAY_SIZE(reloc_names); i++)
		if (reloc_names[i].type == type)
			return reloc_names[i].name;
	return NULL;
}

static int unsupported_reloc(struct load_info *info, unsigned int type)
{
	const char *name = elf_reloc_name(type);

	if (name)
		return module_error(info, -ENOEXEC, "unsupported relocation %s "
				    "(build with -fno-pie)", name);
	return module_error(info, -ENOEXEC, "unsupported relocation type %u", type);
}

/*
 * The two relocations a -fno-pie kernel object needs (i386 psABI):
 *   R_386_32    the place holds an absolute address: S + A
 *   R_386_PC32  the place holds a displacement from the end of a call or
 *               jmp; gcc folds the "- 4" into A, so it is S + A - P
 * A (the addend) is what the compiler left at the place.
 */
static int apply_one_rel(struct load_info *info, const Elf32_Shdr *target,
			 unsigned long target_addr, const Elf32_Rel *rel)
{
	unsigned int symidx = ELF32_R_SYM(rel->r_info);
	unsigned int type = ELF32_R_TYPE(rel->r_info);
	const Elf32_Sym *sym;
	uint32_t *place, s;

	if (type != R_386_32 && type != R_386_PC32)
		return unsupported_reloc(info, type);
	if (symidx == 0 || symidx >= info->nsyms)
		return module_error(info, -ENOEXEC, "relocation against bad symbol %u",
				    symidx);
	sym = &info->syms[symidx];
	if (sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
	    !sec_loaded(info, sym->st_shndx))
		return module_error(info, -ENOEXEC,
				    "relocation against missing section %u%s%s",
				    sym->st_shndx, sym->st_name ? ": symbol " : "",
				    sym_name(info, sym));
	if (rel->r_offset > target->sh_size || target->sh_size - rel->r_offset < 4)
		return module_error(info, -ENOEXEC,
				    "relocation at %#x outside its section", rel->r_offset);

	place = (uint32_t *)(target_addr + rel->r_offset);
	s = info->symval[symidx];
	if (type == R_386_32)
		*place += s;
	else
		*place += s - (uint32_t)(unsigned long)place;
	return 0;
}

int elf_apply_relocations(struct load_info *info)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];
		const Elf32_Shdr *target;
		const Elf32_Rel *rel;
		int ret;

		if (s->sh_type != SHT_REL)
			continue;
		/* Relocations of debug sections: we do not load those. */
		if (!sec_loaded(info, s->sh_info))
			continue;
		target = &info->sechdrs[s->sh_info];
		if (target->sh_type == SHT_NOBITS)
			return module_error(info, -ENOEXEC,
					    "relocation section %s patches .bss",
					    sec_name(info, i));
		rel = (const void *)(info->image + s->sh_offset);
		for (unsigned int j = 0; j < s->sh_size / sizeof(*rel); j++) {
			ret = apply_one_rel(info, target, info->secaddr[s->sh_info],
					    &rel[j]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ---- names for kallsyms ------------------------------------------------------ */

/* Functions and variables that live in module memory and have a name. */
static bool want_kallsym(const struct load_info *info, const Elf32_Sym *sym)
{
	unsigned int type = ELF32_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_OBJECT) &&
	       sym->st_name != 0 && sec_loaded(info, sym->st_shndx);
}

/*
 * Copy what kallsyms needs out of the file: the file itself may be a
 * boot module the user loads again later, and its symbol table is not
 * loaded into module memory.
 */
int elf_build_kallsyms(struct load_info *info, struct module *mod)
{
	size_t names = 0, n = 0;
	char *p;

	for (unsigned int i = 1; i < info->nsyms; i++)
		if (want_kallsym(info, &info->syms[i])) {
			n++;
			names += strlen(sym_name(info, &info->syms[i])) + 1;
		}
	if (n == 0)
		return 0;
	mod->syms = kmalloc(n * sizeof(*mod->syms));
	mod->symnames = kmalloc(names);
	if (!mod->syms || !mod->symnames)
		return module_error(info, -ENOMEM, "out of memory");

	p = mod->symnames;
	for (unsigned int i = 1; i < info->nsyms; i++) {
		const Elf32_Sym *sym = &info->syms[i];
		struct module_symbol *ms;
		size_t len;

		if (!want_kallsym(info, sym))
			continue;
		ms = &mod->syms[mod->nsyms++];
		ms->addr = info->symval[i];
		ms->size = sym->st_size;
		ms->name = p;
		len = strlen(sym_name(info, sym)) + 1;
		memcpy(p, sym_name(info, sym), len);
		p += len;
	}
	return 0;
}

void elf_free_info(struct load_info *info)
{
	kfree(info->secaddr);
	kfree(info->symval);
	info->secaddr = NULL;
	info->symval = NULL;
}
