/*
 * module_elf.c - check, lay out and relocate an ELF32 module image.
 *
 * A module file comes from outside the kernel, so nothing in it is
 * trusted: elf_check_module() checks every offset, size, index and value
 * the later steps use, with arithmetic that cannot wrap, before the
 * loader allocates or writes anything.  The later steps then only do
 * arithmetic on checked numbers.  A broken .ko gets one message naming
 * the field and its value, never a fault.  docs/modules.md lists the
 * checks.
 *
 * A relocatable object has no addresses yet: a symbol is "offset X in
 * section N", and a relocation says "the 4 bytes at offset Y of section
 * M must hold symbol S (+ what is there now)".  Once the sections have
 * addresses, both become plain arithmetic.
 *
 * Freestanding: built into the kernel and, with HOST_BUILD, into the
 * host unit tests and the libFuzzer target (include/module_elf.h).
 */
#include <stdarg.h>
#include "module_elf.h"
#include "errno.h"
#include "string.h"
#include "vsprintf.h"

#define RELOC_BYTES	4	/* R_386_32 and R_386_PC32 patch a 32-bit word */
#define ALIGN_PAGE(x)	(((x) + MODULE_PAGE_SIZE - 1) & ~(MODULE_PAGE_SIZE - 1))

int __attribute__((format(printf, 3, 4)))
elf_error(struct load_info *info, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(info->error, sizeof(info->error), fmt, ap);
	va_end(ap);
	return err;
}

/* Relocation places need not be aligned (a call's rel32 is at +1). */
static uint32_t get_unaligned_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_unaligned_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Is [off, off + size) inside the file?  Written so it cannot overflow. */
bool elf_in_file(const struct load_info *info, uint32_t off, uint32_t size)
{
	return off <= info->len && size <= info->len - off;
}

/* Round up to align (a power of two); false if that passes 2^32. */
static bool align_up_checked(uint32_t x, uint32_t align, uint32_t *out)
{
	uint32_t sum;

	if (__builtin_add_overflow(x, align - 1, &sum))
		return false;
	*out = sum & ~(align - 1);
	return true;
}

/* Section i is copied into module memory.  SHT_NULL headers are inactive. */
static bool sec_loaded(const struct load_info *info, unsigned int i)
{
	const Elf32_Shdr *s = &info->sechdrs[i];

	return i > 0 && i < info->shnum && s->sh_type != SHT_NULL &&
	       (s->sh_flags & SHF_ALLOC);
}

static const char *sec_name(const struct load_info *info, unsigned int i)
{
	if (!info->secstrings || info->sechdrs[i].sh_name >= info->secstrings_size)
		return "<bad name>";
	return info->secstrings + info->sechdrs[i].sh_name;
}

static const char *sym_name(const struct load_info *info, const Elf32_Sym *sym)
{
	return info->strtab + sym->st_name;	/* st_name checked in check_symbol */
}

/* For messages: "init_module", or "#5" for a symbol without a name. */
static const char *sym_label(const struct load_info *info, unsigned int i)
{
	static char number[16];

	if (info->syms[i].st_name)
		return sym_name(info, &info->syms[i]);
	snprintf(number, sizeof(number), "#%u", i);
	return number;
}

/*
 * A string table must lie in the file and end in NUL, or a name could run
 * off its end.  Section 0 is never one: check_sections() does not look at
 * its fields (the ELF spec reserves it), so they may say anything.
 */
static bool valid_strtab(const struct load_info *info, unsigned int i)
{
	const Elf32_Shdr *s = &info->sechdrs[i];

	return i != SHN_UNDEF && s->sh_type == SHT_STRTAB && s->sh_size > 0 &&
	       elf_in_file(info, s->sh_offset, s->sh_size) &&
	       info->image[s->sh_offset + s->sh_size - 1] == '\0';
}

/* Where a loaded section goes: code, constants, or writable data. */
enum region { REGION_TEXT, REGION_RODATA, REGION_DATA };

static enum region sec_region(const Elf32_Shdr *s)
{
	if (s->sh_flags & SHF_WRITE)
		return REGION_DATA;
	if (s->sh_flags & SHF_EXECINSTR)
		return REGION_TEXT;
	return REGION_RODATA;
}

static uint32_t sec_align(const Elf32_Shdr *s)
{
	return s->sh_addralign ? s->sh_addralign : 1;
}

/* ---- the header and the section table ------------------------------------ */

/* The ELF header: an i386 ELF32 file of type `type` (ET_REL, ET_EXEC). */
int elf_check_ident(struct load_info *info, const Elf32_Ehdr *h, unsigned int type)
{
	if (info->len < sizeof(*h))
		return elf_error(info, -ENOEXEC,
				 "truncated: %zu bytes is smaller than an ELF header",
				 info->len);
	if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0)
		return elf_error(info, -ENOEXEC, "bad ELF magic (not an ELF file)");
	if (h->e_ident[EI_CLASS] != ELFCLASS32)
		return elf_error(info, -ENOEXEC,
				 "wrong ELF class %u (want ELFCLASS32: an i386 object)",
				 h->e_ident[EI_CLASS]);
	if (h->e_ident[EI_DATA] != ELFDATA2LSB)
		return elf_error(info, -ENOEXEC, "not little endian");
	if (h->e_type != type)
		return elf_error(info, -ENOEXEC, "ELF type %u is not %s",
				 h->e_type, type == ET_REL ?
				 "a relocatable object (gcc -c)" : "an executable");
	if (h->e_machine != EM_386)
		return elf_error(info, -ENOEXEC,
				 "wrong machine %u (want EM_386)", h->e_machine);
	return 0;
}

static int check_header(struct load_info *info)
{
	const Elf32_Ehdr *h = (const void *)info->image;
	int ret = elf_check_ident(info, h, ET_REL);

	if (ret)
		return ret;
	/* e_shnum 0 with a table means "more than 0xff00 sections" (extended). */
	if (h->e_shentsize != sizeof(Elf32_Shdr) || h->e_shnum == 0)
		return elf_error(info, -ENOEXEC,
				 "bad section table: e_shentsize %u, e_shnum %u",
				 h->e_shentsize, h->e_shnum);
	if (h->e_shnum > MODULE_MAX_SECTIONS)
		return elf_error(info, -ENOEXEC, "too many sections: e_shnum %u (at most %u)",
				 h->e_shnum, MODULE_MAX_SECTIONS);
	if (!elf_in_file(info, h->e_shoff, h->e_shnum * sizeof(Elf32_Shdr)))
		return elf_error(info, -ENOEXEC,
				 "truncated: section table (e_shoff %#x) outside the file",
				 h->e_shoff);
	if (h->e_shoff & 3)
		return elf_error(info, -ENOEXEC, "misaligned section table: e_shoff %#x",
				 h->e_shoff);
	info->hdr = h;
	info->sechdrs = (const void *)(info->image + h->e_shoff);
	info->shnum = h->e_shnum;
	return 0;
}

static int check_section(struct load_info *info, unsigned int i)
{
	const Elf32_Shdr *s = &info->sechdrs[i];
	uint32_t align = sec_align(s);

	/* "Inactive": the ELF spec leaves its other fields undefined. */
	if (s->sh_type == SHT_NULL)
		return 0;
	if (s->sh_type != SHT_NOBITS && !elf_in_file(info, s->sh_offset, s->sh_size))
		return elf_error(info, -ENOEXEC,
				 "section %u extends past the end of the file "
				 "(sh_offset %#x, sh_size %#x)", i, s->sh_offset, s->sh_size);
	if (align & (align - 1) || align > MODULE_PAGE_SIZE)
		return elf_error(info, -ENOEXEC, "section %u: bad alignment %u", i, align);
	if ((s->sh_flags & SHF_ALLOC) && s->sh_size > MODULE_MAX_SIZE)
		return elf_error(info, -ENOEXEC, "section %u is too big (sh_size %#x)",
				 i, s->sh_size);
	return 0;
}

static int check_sections(struct load_info *info)
{
	unsigned int shstrndx = info->hdr->e_shstrndx;
	int ret;

	for (unsigned int i = 1; i < info->shnum; i++) {
		ret = check_section(info, i);
		if (ret)
			return ret;
	}
	if (shstrndx >= info->shnum || !valid_strtab(info, shstrndx))
		return elf_error(info, -ENOEXEC, "bad section name table (e_shstrndx %u)",
				 shstrndx);
	info->secstrings = (const char *)info->image + info->sechdrs[shstrndx].sh_offset;
	info->secstrings_size = info->sechdrs[shstrndx].sh_size;
	return 0;
}

/* ---- the symbol table ---------------------------------------------------- */

static int find_symtab(struct load_info *info)
{
	const Elf32_Shdr *symsec = NULL;
	unsigned int link;

	for (unsigned int i = 1; i < info->shnum; i++) {
		if (info->sechdrs[i].sh_type != SHT_SYMTAB)
			continue;
		if (symsec)
			return elf_error(info, -ENOEXEC, "more than one symbol table");
		symsec = &info->sechdrs[i];
		info->symindex = i;
	}
	if (!symsec)
		return elf_error(info, -ENOEXEC, "no symbol table (stripped?)");
	if (symsec->sh_entsize != sizeof(Elf32_Sym) ||
	    symsec->sh_size % sizeof(Elf32_Sym) || (symsec->sh_offset & 3))
		return elf_error(info, -ENOEXEC, "malformed symbol table (sh_entsize %u, "
				 "sh_size %#x, sh_offset %#x)", symsec->sh_entsize,
				 symsec->sh_size, symsec->sh_offset);
	link = symsec->sh_link;
	if (link >= info->shnum || !valid_strtab(info, link))
		return elf_error(info, -ENOEXEC, "bad symbol string table (sh_link %u)",
				 link);
	info->syms = (const void *)(info->image + symsec->sh_offset);
	info->nsyms = symsec->sh_size / sizeof(Elf32_Sym);
	info->strtab = (const char *)info->image + info->sechdrs[link].sh_offset;
	info->strtab_size = info->sechdrs[link].sh_size;
	return 0;
}

/* A function or variable gets a kallsyms entry: its size must fit too. */
static bool sym_has_extent(const Elf32_Sym *sym)
{
	unsigned int type = ELF32_ST_TYPE(sym->st_info);

	return type == STT_FUNC || type == STT_OBJECT;
}

/*
 * st_shndx, as the ELF spec defines it: SHN_UNDEF (found among the
 * exports), SHN_ABS (a plain number), SHN_COMMON (not allocated yet:
 * refused), another reserved index (refused), or a section of the file.
 */
static int check_symbol(struct load_info *info, unsigned int i)
{
	const Elf32_Sym *sym = &info->syms[i];
	const Elf32_Shdr *sec;
	const char *name;

	if (sym->st_name >= info->strtab_size)
		return elf_error(info, -ENOEXEC, "symbol #%u: st_name %#x outside the "
				 "string table", i, sym->st_name);
	name = sym_label(info, i);
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return 0;
	if (sym->st_shndx == SHN_COMMON)
		return elf_error(info, -ENOEXEC,
				 "common symbol %s: build with -fno-common", name);
	if (sym->st_shndx >= SHN_LORESERVE)
		return elf_error(info, -ENOEXEC, "symbol %s: reserved st_shndx %#x",
				 name, sym->st_shndx);
	if (sym->st_shndx >= info->shnum)
		return elf_error(info, -ENOEXEC,
				 "symbol %s: st_shndx %u past the %u sections",
				 name, sym->st_shndx, info->shnum);
	if (!sec_loaded(info, sym->st_shndx))
		return 0;	/* debug info: keeps no value; relocations refused */
	sec = &info->sechdrs[sym->st_shndx];
	if (sym->st_value > sec->sh_size)
		return elf_error(info, -ENOEXEC, "symbol %s: st_value %#x outside "
				 "section %s (%u bytes)", name, sym->st_value,
				 sec_name(info, sym->st_shndx), sec->sh_size);
	if (sym_has_extent(sym) && sym->st_size > sec->sh_size - sym->st_value)
		return elf_error(info, -ENOEXEC, "symbol %s: st_size %#x runs past "
				 "section %s", name, sym->st_size,
				 sec_name(info, sym->st_shndx));
	return 0;
}

/*
 * init_module and cleanup_module are called: each must be defined in
 * the module, inside one of its code sections (not SHN_ABS, not data).
 */
static int find_entry_point(struct load_info *info, const char *name,
			    unsigned int *index)
{
	const Elf32_Sym *sym;
	const Elf32_Shdr *sec;
	unsigned int i;

	*index = 0;
	for (i = 1; i < info->nsyms; i++)
		if (strcmp(sym_name(info, &info->syms[i]), name) == 0)
			break;
	if (i >= info->nsyms)	/* not found; ">=": an empty table has no symbol 0 either */
		return 0;
	sym = &info->syms[i];
	if (sym->st_shndx == SHN_UNDEF)
		return elf_error(info, -ENOEXEC, "%s is not defined in the module", name);
	if (!sec_loaded(info, sym->st_shndx) ||
	    sec_region(&info->sechdrs[sym->st_shndx]) != REGION_TEXT)
		return elf_error(info, -ENOEXEC, "%s is not in the module's code "
				 "(st_shndx %#x)", name, sym->st_shndx);
	sec = &info->sechdrs[sym->st_shndx];
	if (sym->st_value >= sec->sh_size)
		return elf_error(info, -ENOEXEC, "%s: st_value %#x is not inside "
				 "section %s (%u bytes)", name, sym->st_value,
				 sec_name(info, sym->st_shndx), sec->sh_size);
	*index = i;
	return 0;
}

static int check_symbols(struct load_info *info)
{
	int ret = find_symtab(info);

	/* Symbol 0 is the reserved null symbol. */
	for (unsigned int i = 1; !ret && i < info->nsyms; i++)
		ret = check_symbol(info, i);
	if (!ret)
		ret = find_entry_point(info, "init_module", &info->init_sym);
	if (!ret)
		ret = find_entry_point(info, "cleanup_module", &info->exit_sym);
	if (!ret && !info->init_sym)
		return elf_error(info, -ENOEXEC,
				 "no init function (did you forget module_init()?)");
	return ret;
}

/* ---- relocations ---------------------------------------------------------- */

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
	for (size_t i = 0; i < sizeof(reloc_names) / sizeof(reloc_names[0]); i++)
		if (reloc_names[i].type == type)
			return reloc_names[i].name;
	return NULL;
}

static int unsupported_reloc(struct load_info *info, unsigned int type)
{
	const char *name = elf_reloc_name(type);

	if (name)
		return elf_error(info, -ENOEXEC, "unsupported relocation %s "
				 "(build with -fno-pie)", name);
	return elf_error(info, -ENOEXEC, "unsupported relocation type %u", type);
}

/*
 * A relocation must patch 4 bytes inside its section, with a symbol
 * that is an export (SHN_UNDEF) or lives in a loaded section.  An
 * absolute symbol is refused too: C compiled with gcc -c never
 * relocates against one, so in a module it means a corrupt file, and
 * the loader would write an arbitrary address into the code.
 */
static int check_rel(struct load_info *info, const Elf32_Shdr *target,
		     const Elf32_Rel *rel)
{
	unsigned int symidx = ELF32_R_SYM(rel->r_info);
	unsigned int type = ELF32_R_TYPE(rel->r_info);
	const Elf32_Sym *sym;

	if (type != R_386_32 && type != R_386_PC32)
		return unsupported_reloc(info, type);
	if (symidx == 0 || symidx >= info->nsyms)
		return elf_error(info, -ENOEXEC, "relocation against bad symbol %u",
				 symidx);
	sym = &info->syms[symidx];
	if (sym->st_shndx == SHN_ABS)
		return elf_error(info, -ENOEXEC, "relocation against absolute symbol %s",
				 sym_label(info, symidx));
	if (sym->st_shndx != SHN_UNDEF && !sec_loaded(info, sym->st_shndx))
		return elf_error(info, -ENOEXEC, "relocation against symbol %s in "
				 "section %u, which is not loaded",
				 sym_label(info, symidx), sym->st_shndx);
	if (rel->r_offset > target->sh_size ||
	    target->sh_size - rel->r_offset < RELOC_BYTES)
		return elf_error(info, -ENOEXEC, "relocation at r_offset %#x outside "
				 "its section (%u bytes)", rel->r_offset, target->sh_size);
	return 0;
}

static const Elf32_Rel *rel_entries(const struct load_info *info,
				    const Elf32_Shdr *s, unsigned int *n)
{
	*n = s->sh_size / sizeof(Elf32_Rel);
	return (const void *)(info->image + s->sh_offset);
}

static int check_rel_section(struct load_info *info, unsigned int i)
{
	const Elf32_Shdr *s = &info->sechdrs[i];
	const Elf32_Rel *rel;
	unsigned int n;
	int ret;

	if (s->sh_entsize != sizeof(Elf32_Rel) ||
	    s->sh_size % sizeof(Elf32_Rel) || (s->sh_offset & 3))
		return elf_error(info, -ENOEXEC, "malformed relocation section %s "
				 "(sh_entsize %u, sh_size %#x, sh_offset %#x)",
				 sec_name(info, i), s->sh_entsize, s->sh_size,
				 s->sh_offset);
	if (s->sh_link != info->symindex)
		return elf_error(info, -ENOEXEC,
				 "relocation section %s: wrong symbol table (sh_link %u)",
				 sec_name(info, i), s->sh_link);
	if (s->sh_info == 0 || s->sh_info >= info->shnum)
		return elf_error(info, -ENOEXEC,
				 "relocation section %s applies to missing section %u",
				 sec_name(info, i), s->sh_info);
	/* Relocations of sections we do not load (debug info) are skipped. */
	if (!sec_loaded(info, s->sh_info))
		return 0;
	if (info->sechdrs[s->sh_info].sh_type == SHT_NOBITS)
		return elf_error(info, -ENOEXEC, "relocation section %s patches .bss",
				 sec_name(info, i));
	rel = rel_entries(info, s, &n);
	for (unsigned int j = 0; j < n; j++) {
		ret = check_rel(info, &info->sechdrs[s->sh_info], &rel[j]);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_relocations(struct load_info *info)
{
	int ret;

	for (unsigned int i = 1; i < info->shnum; i++) {
		if (info->sechdrs[i].sh_type == SHT_RELA)
			return elf_error(info, -ENOEXEC,
					 "RELA relocations are not used on i386");
		if (info->sechdrs[i].sh_type != SHT_REL)
			continue;
		ret = check_rel_section(info, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- layout ------------------------------------------------------------- */

/*
 * Give every section of `region` an offset from *off on, and move *off
 * past them.  Every sum is checked, and the total capped, so thousands
 * of huge .bss sections cannot wrap it back to something small.
 * secoff may be NULL: elf_check_module() only wants the sizes.
 */
static int layout_region(struct load_info *info, enum region region,
			 uint32_t *off, uint32_t *secoff)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];
		uint32_t start, end;

		if (!sec_loaded(info, i) || sec_region(s) != region)
			continue;
		if (!align_up_checked(*off, sec_align(s), &start) ||
		    __builtin_add_overflow(start, s->sh_size, &end) ||
		    end > MODULE_MAX_SIZE)
			return elf_error(info, -ENOEXEC, "module too big: section %s "
					 "(sh_size %#x) ends past %u bytes",
					 sec_name(info, i), s->sh_size, MODULE_MAX_SIZE);
		if (secoff)
			secoff[i] = start;
		*off = end;
	}
	return 0;
}

/*
 * Text first, then read-only data, then writable data and .bss, each
 * region starting on a page so paging can protect the first two.
 * Offsets stay below MODULE_MAX_SIZE, so page-aligning them cannot wrap.
 */
static int layout(struct load_info *info, uint32_t *secoff)
{
	uint32_t off = 0;
	int ret;

	ret = layout_region(info, REGION_TEXT, &off, secoff);
	if (ret)
		return ret;
	info->text_size = off;
	off = ALIGN_PAGE(off);
	ret = layout_region(info, REGION_RODATA, &off, secoff);
	if (ret)
		return ret;
	info->ro_size = off = ALIGN_PAGE(off);
	ret = layout_region(info, REGION_DATA, &off, secoff);
	info->size = off;
	return ret;
}

/* __ksymtab, if any: whole entries, or the loader would read past it. */
static int find_ksymtab(const struct load_info *info)
{
	for (unsigned int i = 1; i < info->shnum; i++)
		if (sec_loaded(info, i) && strcmp(sec_name(info, i), "__ksymtab") == 0)
			return i;
	return 0;
}

static int check_ksymtab(struct load_info *info)
{
	int i = find_ksymtab(info);

	if (i && info->sechdrs[i].sh_size % MODULE_KSYM_ENTRY_SIZE)
		return elf_error(info, -ENOEXEC, "__ksymtab: sh_size %u is not a whole "
				 "number of entries", info->sechdrs[i].sh_size);
	return 0;
}

/* Everything the later steps read or use, checked; nothing allocated. */
int elf_check_module(struct load_info *info)
{
	int ret;

	info->error[0] = '\0';
	if ((uintptr_t)info->image & 3)
		return elf_error(info, -ENOEXEC, "image not 4-byte aligned");
	ret = check_header(info);
	if (!ret)
		ret = check_sections(info);
	if (!ret)
		ret = check_symbols(info);
	if (!ret)
		ret = check_relocations(info);
	if (!ret)
		ret = check_ksymtab(info);
	if (!ret)
		ret = layout(info, NULL);
	return ret;
}

/* After elf_check_module(): fill info->secoff[] (cannot fail any more). */
void elf_layout(struct load_info *info)
{
	layout(info, info->secoff);
}

/* Copy the sections to mem; the module will run at base.  mem is zeroed. */
void elf_place_sections(struct load_info *info, uint8_t *mem, uint32_t base)
{
	info->mem = mem;
	info->base = base;
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];

		/* .bss has no bytes in the file: the memory is already zero. */
		if (sec_loaded(info, i) && s->sh_type != SHT_NOBITS)
			memcpy(mem + info->secoff[i], info->image + s->sh_offset,
			       s->sh_size);
	}
}

/* ---- symbols --------------------------------------------------------------- */

/*
 * A defined symbol is "st_value bytes into section st_shndx"; an
 * undefined one is looked up among the exports.  Symbols in sections we
 * do not load are 0: check_rel() refused any relocation using them.
 */
static int resolve_one(struct load_info *info, unsigned int i,
		       elf_resolve_fn resolve, void *ctx)
{
	const Elf32_Sym *sym = &info->syms[i];
	const char *name = sym_name(info, sym);
	int err = 0;

	info->symval[i] = 0;
	if (sym->st_shndx == SHN_ABS) {
		info->symval[i] = sym->st_value;
	} else if (sym->st_shndx != SHN_UNDEF) {
		if (sec_loaded(info, sym->st_shndx))
			info->symval[i] = info->base + info->secoff[sym->st_shndx] +
					  sym->st_value;
	} else {
		info->symval[i] = resolve(ctx, name, &err);
		/* A weak reference nobody defines is allowed to be NULL. */
		if (err == -ENOENT && ELF32_ST_BIND(sym->st_info) == STB_WEAK)
			return 0;
		if (err == -ENOENT)
			return -ENOENT;	/* elf_resolve_symbols() names them all */
		if (err)
			return elf_error(info, err, "cannot use symbol %s", name);
	}
	return 0;
}

/*
 * Add one unknown symbol to the list, "a, b, c", ending in "..." when
 * it is full.  Linux prints one "Unknown symbol" line per symbol: whoever
 * ports a module wants the whole list at once, not one rebuild per name.
 */
static void note_unknown(char *list, size_t size, const char *name)
{
	size_t used = strlen(list);
	const char *sep = used ? ", " : "";

	if (used + strlen(sep) + strlen(name) + sizeof(", ...") <= size)
		snprintf(list + used, size - used, "%s%s", sep, name);
	else if (!strstr(list, "..."))
		strlcat(list, ", ...", size);
}

int elf_resolve_symbols(struct load_info *info, elf_resolve_fn resolve, void *ctx)
{
	char unknown[MODULE_ERROR_LEN - sizeof("unknown symbols ")] = "";
	unsigned int nr_unknown = 0;
	int ret;

	info->symval[0] = 0;	/* the reserved null symbol */
	for (unsigned int i = 1; i < info->nsyms; i++) {
		ret = resolve_one(info, i, resolve, ctx);
		if (ret == -ENOENT) {
			note_unknown(unknown, sizeof(unknown),
				     sym_name(info, &info->syms[i]));
			nr_unknown++;
			continue;
		}
		if (ret)
			return ret;
	}
	if (nr_unknown)
		return elf_error(info, -ENOENT, "unknown symbol%s %s",
				 nr_unknown > 1 ? "s" : "", unknown);
	return 0;
}

int elf_find_section(const struct load_info *info, const char *name,
		     uint32_t *off, uint32_t *size)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		if (sec_loaded(info, i) && strcmp(sec_name(info, i), name) == 0) {
			*off = info->secoff[i];
			*size = info->sechdrs[i].sh_size;
			return i;
		}
	}
	*off = *size = 0;
	return 0;
}

/*
 * The two relocations a -fno-pie kernel object needs (i386 psABI):
 *   R_386_32    the place holds an absolute address: S + A
 *   R_386_PC32  the place holds a displacement from the end of a call or
 *               jmp; gcc folds the "- 4" into A, so it is S + A - P
 * A (the addend) is what the compiler left at the place.  check_rel()
 * already checked every entry, so this is arithmetic only.
 */
void elf_apply_relocations(struct load_info *info)
{
	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];
		const Elf32_Rel *rel;
		unsigned int n;

		if (s->sh_type != SHT_REL || !sec_loaded(info, s->sh_info))
			continue;
		rel = rel_entries(info, s, &n);
		for (unsigned int j = 0; j < n; j++) {
			uint32_t off = info->secoff[s->sh_info] + rel[j].r_offset;
			uint8_t *place = info->mem + off;
			uint32_t v = get_unaligned_le32(place) +
				     info->symval[ELF32_R_SYM(rel[j].r_info)];

			if (ELF32_R_TYPE(rel[j].r_info) == R_386_PC32)
				v -= info->base + off;
			put_unaligned_le32(place, v);
		}
	}
}

/* ---- exports and kallsyms ----------------------------------------------- */

static bool in_module(const struct load_info *info, uint32_t addr)
{
	return addr - info->base < info->size;
}

/*
 * After relocation every __ksymtab entry holds {address, name}: other
 * modules will strcmp() those names, so each must be a string inside
 * this module's memory, and each address must point into it too.
 * *off and *count say where the table is (0 entries: none).
 */
int elf_check_exports(struct load_info *info, uint32_t *off, uint32_t *count)
{
	int i = find_ksymtab(info);

	*off = *count = 0;
	if (!i)
		return 0;
	*off = info->secoff[i];
	*count = info->sechdrs[i].sh_size / MODULE_KSYM_ENTRY_SIZE;
	for (uint32_t k = 0; k < *count; k++) {
		const uint8_t *e = info->mem + *off + k * MODULE_KSYM_ENTRY_SIZE;
		uint32_t value = get_unaligned_le32(e);
		uint32_t name = get_unaligned_le32(e + 4);

		if (!in_module(info, value) || !in_module(info, name) ||
		    strnlen((const char *)info->mem + (name - info->base),
			    info->size - (name - info->base)) ==
		    info->size - (name - info->base))
			return elf_error(info, -ENOEXEC, "__ksymtab entry %u: address "
					 "%#x or name %#x outside the module", k,
					 value, name);
	}
	return 0;
}

/* Functions and variables that live in module memory and have a name. */
static bool want_kallsym(const struct load_info *info, const Elf32_Sym *sym)
{
	return sym_has_extent(sym) && sym->st_name != 0 &&
	       sec_loaded(info, sym->st_shndx);
}

/* How many kallsyms entries, and the bytes their names need. */
size_t elf_kallsyms_size(const struct load_info *info, unsigned int *count)
{
	size_t names = 0;

	*count = 0;
	for (unsigned int i = 1; i < info->nsyms; i++)
		if (want_kallsym(info, &info->syms[i])) {
			(*count)++;
			names += strlen(sym_name(info, &info->syms[i])) + 1;
		}
	return names;
}

/*
 * Copy what kallsyms needs out of the file: the file itself may be a
 * boot module the user loads again later, and its symbol table is not
 * loaded into module memory.  Sized by elf_kallsyms_size().
 */
void elf_kallsyms_fill(const struct load_info *info, struct module_symbol *syms,
		       char *names)
{
	for (unsigned int i = 1; i < info->nsyms; i++) {
		const Elf32_Sym *sym = &info->syms[i];
		size_t len;

		if (!want_kallsym(info, sym))
			continue;
		syms->addr = info->symval[i];
		syms->size = sym->st_size;
		syms->name = names;
		len = strlen(sym_name(info, sym)) + 1;
		memcpy(names, sym_name(info, sym), len);
		names += len;
		syms++;
	}
}
