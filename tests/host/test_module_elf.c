/*
 * test_module_elf.c - lib/module_elf.c, the module loader's ELF half, on
 * the host under ASan/UBSan.
 *
 * Each case builds a small, valid i386 relocatable object in memory
 * (what gcc -c would make of a module with one call to printk, one
 * exported function, a string and a .bss variable), damages one field,
 * and checks the loader's answer word for word.  The good object is
 * linked for real at a made-up base address, and the patched bytes are
 * compared with the i386 psABI formulas.
 */
#include <stdlib.h>
#include "ktest_host.h"
#include "module_elf.h"
#include "errno.h"
#include "vsprintf.h"

#define BASE		0xd0000000u	/* where the test module "runs" */
#define PRINTK_ADDR	0xc0101234u	/* what the fake kernel exports */
#define PAGE		MODULE_PAGE_SIZE

enum { S_NULL, S_TEXT, S_REL_TEXT, S_DATA, S_BSS, S_SYMTAB, S_STRTAB,
       S_SHSTRTAB, S_KSYMTAB, S_REL_KSYMTAB, NSECS };
enum { SYM_NULL, SYM_TEXT, SYM_DATA, SYM_INIT, SYM_EXIT, SYM_PRINTK,
       SYM_COUNTER, NSYMS };

static const uint8_t text[16] = {
	0xe8, 0xfc, 0xff, 0xff, 0xff,	/* call printk     (R_386_PC32 at 1) */
	0xb8, 0x00, 0x00, 0x00, 0x00,	/* mov $.data, %eax (R_386_32 at 6) */
	0xc3,				/* ret: cleanup_module at 10 */
};
static const char data[8] = "hello";
static const char strtab[] = "\0init_module\0cleanup_module\0printk\0counter";
static const char shstrtab[] = "\0.text\0.rel.text\0.data\0.bss\0.symtab\0"
			       ".strtab\0.shstrtab\0__ksymtab\0.rel__ksymtab";

/* The object, section table last so that any truncation cuts into it. */
static struct {
	uint32_t buf[1024];
	size_t len;
	Elf32_Ehdr *hdr;
	Elf32_Shdr *sh;
	Elf32_Sym *syms;
	Elf32_Rel *rel_text, *rel_ksym;
} obj;

static uint32_t str_off(const char *table, size_t size, const char *name)
{
	for (size_t i = 1; i < size; i += strlen(table + i) + 1)
		if (strcmp(table + i, name) == 0)
			return i;
	abort();
}

/* Append bytes to the object on a 4-byte boundary; return their offset. */
static uint32_t put(const void *p, size_t n)
{
	uint8_t *img = (uint8_t *)obj.buf;
	uint32_t off = (obj.len + 3) & ~3u;

	memcpy(img + off, p, n);
	obj.len = off + n;
	return off;
}

static void section(int i, const char *name, uint32_t type, uint32_t flags,
		    uint32_t off, uint32_t size, uint32_t link, uint32_t info,
		    uint32_t align, uint32_t entsize)
{
	obj.sh[i] = (Elf32_Shdr){ str_off(shstrtab, sizeof(shstrtab), name), type,
				  flags, 0, off, size, link, info, align, entsize };
}

static Elf32_Sym sym(const char *name, uint32_t value, uint32_t size,
		     unsigned int bind, unsigned int type, uint16_t shndx)
{
	return (Elf32_Sym){ name ? str_off(strtab, sizeof(strtab), name) : 0,
			    value, size, bind << 4 | type, 0, shndx };
}

static void build(void)
{
	const Elf32_Sym syms[NSYMS] = {
		[SYM_TEXT] = sym(NULL, 0, 0, STB_LOCAL, STT_SECTION, S_TEXT),
		[SYM_DATA] = sym(NULL, 0, 0, STB_LOCAL, STT_SECTION, S_DATA),
		[SYM_INIT] = sym("init_module", 0, 11, STB_GLOBAL, STT_FUNC, S_TEXT),
		[SYM_EXIT] = sym("cleanup_module", 10, 1, STB_GLOBAL, STT_FUNC, S_TEXT),
		[SYM_PRINTK] = sym("printk", 0, 0, STB_GLOBAL, STT_NOTYPE, SHN_UNDEF),
		[SYM_COUNTER] = sym("counter", 0, 4, STB_GLOBAL, STT_OBJECT, S_BSS),
	};
	const Elf32_Rel rel_text[] = {
		{ 1, SYM_PRINTK << 8 | R_386_PC32 }, { 6, SYM_DATA << 8 | R_386_32 },
	};
	const Elf32_Rel rel_ksym[] = {
		{ 0, SYM_INIT << 8 | R_386_32 }, { 4, SYM_DATA << 8 | R_386_32 },
	};
	const uint32_t ksym[2] = { 0, 0 };
	Elf32_Ehdr hdr = {
		.e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_REL, .e_machine = EM_386, .e_version = EV_CURRENT,
		.e_ehsize = sizeof(Elf32_Ehdr), .e_shentsize = sizeof(Elf32_Shdr),
		.e_shnum = NSECS, .e_shstrndx = S_SHSTRTAB,
	};
	uint32_t o_text, o_rt, o_data, o_sym, o_str, o_shstr, o_ksym, o_rk;

	memset(&obj, 0, sizeof(obj));
	obj.len = sizeof(hdr);
	o_text = put(text, sizeof(text));
	o_rt = put(rel_text, sizeof(rel_text));
	o_data = put(data, sizeof(data));
	o_sym = put(syms, sizeof(syms));
	o_str = put(strtab, sizeof(strtab));
	o_shstr = put(shstrtab, sizeof(shstrtab));
	o_ksym = put(ksym, sizeof(ksym));
	o_rk = put(rel_ksym, sizeof(rel_ksym));
	hdr.e_shoff = put(&hdr, 0);	/* just aligns */
	obj.len += NSECS * sizeof(Elf32_Shdr);
	memcpy(obj.buf, &hdr, sizeof(hdr));

	obj.hdr = (void *)obj.buf;
	obj.sh = (void *)((uint8_t *)obj.buf + hdr.e_shoff);
	obj.syms = (void *)((uint8_t *)obj.buf + o_sym);
	obj.rel_text = (void *)((uint8_t *)obj.buf + o_rt);
	obj.rel_ksym = (void *)((uint8_t *)obj.buf + o_rk);
	section(S_TEXT, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
		o_text, sizeof(text), 0, 0, 16, 0);
	section(S_REL_TEXT, ".rel.text", SHT_REL, 0, o_rt, sizeof(rel_text),
		S_SYMTAB, S_TEXT, 4, sizeof(Elf32_Rel));
	section(S_DATA, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE,
		o_data, sizeof(data), 0, 0, 4, 0);
	section(S_BSS, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0, 32, 0, 0, 4, 0);
	section(S_SYMTAB, ".symtab", SHT_SYMTAB, 0, o_sym, sizeof(syms),
		S_STRTAB, SYM_INIT, 4, sizeof(Elf32_Sym));
	section(S_STRTAB, ".strtab", SHT_STRTAB, 0, o_str, sizeof(strtab), 0, 0, 1, 0);
	section(S_SHSTRTAB, ".shstrtab", SHT_STRTAB, 0, o_shstr, sizeof(shstrtab),
		0, 0, 1, 0);
	section(S_KSYMTAB, "__ksymtab", SHT_PROGBITS, SHF_ALLOC, o_ksym,
		sizeof(ksym), 0, 0, 4, 0);
	section(S_REL_KSYMTAB, ".rel__ksymtab", SHT_REL, 0, o_rk, sizeof(rel_ksym),
		S_SYMTAB, S_KSYMTAB, 4, sizeof(Elf32_Rel));
}

/* ---- the loader's steps, as kernel/module.c runs them ---------------------- */

static uint32_t fake_resolve(void *ctx, const char *name, int *err)
{
	if (strcmp(name, "printk") == 0)
		return PRINTK_ADDR;
	*err = -ENOENT;
	return 0;
}

static struct load_info info;
static uint32_t secoff[MODULE_MAX_SECTIONS], symval[NSYMS + 64];
static uint8_t *mem;

static int check(void)
{
	memset(&info, 0, sizeof(info));
	info.name = "test";
	info.image = (const uint8_t *)obj.buf;
	info.len = obj.len;
	return elf_check_module(&info);
}

/* Check, lay out, copy, resolve, relocate: 0 or the first error. */
static int link_all(void)
{
	int ret = check();

	if (ret)
		return ret;
	info.secoff = secoff;
	info.symval = symval;
	elf_layout(&info);
	free(mem);
	mem = calloc(1, info.size);
	elf_place_sections(&info, mem, BASE);
	ret = elf_resolve_symbols(&info, fake_resolve, NULL);
	if (ret)
		return ret;
	elf_apply_relocations(&info);
	return 0;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Refused with -ENOEXEC, and the message says this. */
#define EXPECT_REFUSED(t, want) do {					\
	KTEST_EXPECT_EQ(t, check(), -ENOEXEC);				\
	KTEST_EXPECT_STREQ(t, info.error, want);			\
	build();							\
} while (0)

/* ---- cases ----------------------------------------------------------------- */

static void good_object_links(struct ktest *t)
{
	struct module_symbol ks[8];
	char names[64];
	uint32_t off, count;
	unsigned int n;

	build();
	KTEST_ASSERT_EQ(t, link_all(), 0);
	KTEST_EXPECT_STREQ(t, info.error, "");
	/* text | rodata (__ksymtab) | data, .bss: regions start on pages */
	KTEST_EXPECT_EQ(t, info.text_size, sizeof(text));
	KTEST_EXPECT_EQ(t, info.ro_size, 2 * PAGE);
	KTEST_EXPECT_EQ(t, secoff[S_KSYMTAB], PAGE);
	KTEST_EXPECT_EQ(t, secoff[S_DATA], 2 * PAGE);
	KTEST_EXPECT_EQ(t, secoff[S_BSS], 2 * PAGE + 8);
	KTEST_EXPECT_EQ(t, info.size, 2 * PAGE + 8 + 32);
	/* R_386_PC32: S + A - P, A = -4 left by the assembler */
	KTEST_EXPECT_EQ(t, le32(mem + 1), PRINTK_ADDR - 4 - (BASE + 1));
	/* R_386_32: S + A, S = the .data section */
	KTEST_EXPECT_EQ(t, le32(mem + 6), BASE + 2 * PAGE);
	KTEST_EXPECT_EQ(t, symval[info.init_sym], BASE);
	KTEST_EXPECT_EQ(t, symval[info.exit_sym], BASE + 10);
	KTEST_EXPECT_EQ(t, symval[SYM_COUNTER], BASE + 2 * PAGE + 8);

	KTEST_EXPECT_EQ(t, elf_check_exports(&info, &off, &count), 0);
	KTEST_EXPECT_EQ(t, off, PAGE);
	KTEST_EXPECT_EQ(t, count, 1);
	KTEST_EXPECT_EQ(t, le32(mem + PAGE), BASE);
	KTEST_EXPECT_STREQ(t, (char *)mem + le32(mem + PAGE + 4) - BASE, "hello");

	KTEST_EXPECT_EQ(t, elf_kallsyms_size(&info, &n), sizeof("init_module") +
			sizeof("cleanup_module") + sizeof("counter"));
	KTEST_ASSERT_EQ(t, n, 3);
	elf_kallsyms_fill(&info, ks, names);
	KTEST_EXPECT_STREQ(t, ks[2].name, "counter");
	KTEST_EXPECT_EQ(t, ks[2].addr, BASE + 2 * PAGE + 8);
	KTEST_EXPECT_EQ(t, ks[2].size, 4);
}

static void header_fields(struct ktest *t)
{
	char want[96];

	build();
	obj.hdr->e_shnum = MODULE_MAX_SECTIONS + 1;
	EXPECT_REFUSED(t, "too many sections: e_shnum 1025 (at most 1024)");
	obj.hdr->e_shnum = 0;		/* extended numbering */
	EXPECT_REFUSED(t, "bad section table: e_shentsize 40, e_shnum 0");
	obj.hdr->e_shoff = 0xfffffff0;		/* + the table's size wraps */
	EXPECT_REFUSED(t, "truncated: section table (e_shoff 0xfffffff0) outside the file");
	obj.hdr->e_shoff = obj.len - 8;
	snprintf(want, sizeof(want), "truncated: section table (e_shoff %#zx) "
		 "outside the file", obj.len - 8);
	EXPECT_REFUSED(t, want);
	obj.hdr->e_shstrndx = SHN_XINDEX;
	EXPECT_REFUSED(t, "bad section name table (e_shstrndx 65535)");
	obj.hdr->e_shstrndx = S_TEXT;
	EXPECT_REFUSED(t, "bad section name table (e_shstrndx 1)");
	/* Section 0 is never checked as a section: it cannot be the name table. */
	obj.sh[S_NULL].sh_type = SHT_STRTAB;
	obj.sh[S_NULL].sh_offset = 0x7ffffff0;
	obj.sh[S_NULL].sh_size = 16;
	obj.hdr->e_shstrndx = S_NULL;
	EXPECT_REFUSED(t, "bad section name table (e_shstrndx 0)");
}

/* Every length short of the whole file is refused, never read past. */
static void every_truncation_refused(struct ktest *t)
{
	int bad = 0;

	build();
	for (size_t len = 0; len < obj.len; len++) {
		uint8_t *copy = malloc(len ? len : 1);

		memcpy(copy, obj.buf, len);
		memset(&info, 0, sizeof(info));
		info.name = "test";
		info.image = copy;
		info.len = len;
		if (elf_check_module(&info) != -ENOEXEC || !info.error[0])
			bad++;
		free(copy);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static void section_fields(struct ktest *t)
{
	char want[96];

	build();
	obj.sh[S_TEXT].sh_offset = 0xfffffff0;
	EXPECT_REFUSED(t, "section 1 extends past the end of the file "
		       "(sh_offset 0xfffffff0, sh_size 0x10)");
	obj.sh[S_DATA].sh_size = 0xffffffff;		/* offset + size wraps */
	snprintf(want, sizeof(want), "section 3 extends past the end of the file "
		 "(sh_offset %#x, sh_size 0xffffffff)", obj.sh[S_DATA].sh_offset);
	EXPECT_REFUSED(t, want);
	obj.sh[S_DATA].sh_addralign = 24;
	EXPECT_REFUSED(t, "section 3: bad alignment 24");
	obj.sh[S_BSS].sh_size = MODULE_MAX_SIZE + 1;
	EXPECT_REFUSED(t, "section 4 is too big (sh_size 0x400001)");
	/* Each fits; together past the cap. */
	obj.sh[S_BSS].sh_size = MODULE_MAX_SIZE - 2 * PAGE;
	EXPECT_REFUSED(t, "module too big: section .bss (sh_size 0x3fe000) ends "
		       "past 4194304 bytes");
	obj.sh[S_KSYMTAB].sh_size = 12;
	EXPECT_REFUSED(t, "__ksymtab: sh_size 12 is not a whole number of entries");
}

/* SHT_NULL: inactive, whatever its other fields say. */
static void null_section_ignored(struct ktest *t)
{
	build();
	obj.sh[S_BSS].sh_type = SHT_NULL;
	obj.sh[S_BSS].sh_offset = 0xfffffff0;
	obj.sh[S_BSS].sh_size = 0xffffff00;
	KTEST_EXPECT_EQ(t, link_all(), 0);
	KTEST_EXPECT_EQ(t, info.size, 2 * PAGE + 8);	/* no .bss in it */
	KTEST_EXPECT_EQ(t, symval[SYM_COUNTER], 0);
	build();
	obj.sh[S_DATA].sh_type = SHT_NULL;
	EXPECT_REFUSED(t, "relocation against symbol #2 in section 3, which is not loaded");
	obj.sh[S_SYMTAB].sh_type = SHT_NULL;
	EXPECT_REFUSED(t, "no symbol table (stripped?)");
	obj.sh[S_STRTAB].sh_type = SHT_SYMTAB;
	EXPECT_REFUSED(t, "more than one symbol table");
}

static void symbol_values(struct ktest *t)
{
	build();
	obj.syms[SYM_INIT].st_value = 0x7fffffff;
	EXPECT_REFUSED(t, "symbol init_module: st_value 0x7fffffff outside section "
		       ".text (16 bytes)");
	obj.syms[SYM_COUNTER].st_value = 33;
	EXPECT_REFUSED(t, "symbol counter: st_value 0x21 outside section .bss (32 bytes)");
	obj.syms[SYM_COUNTER].st_size = 40;
	EXPECT_REFUSED(t, "symbol counter: st_size 0x28 runs past section .bss");
	obj.syms[SYM_DATA].st_value = 9;
	EXPECT_REFUSED(t, "symbol #2: st_value 0x9 outside section .data (8 bytes)");
	obj.syms[SYM_INIT].st_name = sizeof(strtab);
	EXPECT_REFUSED(t, "symbol #3: st_name 0x2b outside the string table");
}

static void symbol_section_indices(struct ktest *t)
{
	build();
	obj.syms[SYM_COUNTER].st_shndx = SHN_COMMON;
	EXPECT_REFUSED(t, "common symbol counter: build with -fno-common");
	obj.syms[SYM_COUNTER].st_shndx = SHN_LORESERVE;
	EXPECT_REFUSED(t, "symbol counter: reserved st_shndx 0xff00");
	obj.syms[SYM_COUNTER].st_shndx = SHN_XINDEX;
	EXPECT_REFUSED(t, "symbol counter: reserved st_shndx 0xffff");
	obj.syms[SYM_COUNTER].st_shndx = NSECS;
	EXPECT_REFUSED(t, "symbol counter: st_shndx 10 past the 10 sections");
	/* An absolute symbol nothing relocates against is just a number. */
	obj.syms[SYM_COUNTER].st_shndx = SHN_ABS;
	KTEST_EXPECT_EQ(t, link_all(), 0);
	KTEST_EXPECT_EQ(t, symval[SYM_COUNTER], 0);
}

/* init_module and cleanup_module are called: code of the module only. */
static void entry_points(struct ktest *t)
{
	build();
	obj.syms[SYM_INIT].st_shndx = SHN_ABS;
	EXPECT_REFUSED(t, "init_module is not in the module's code (st_shndx 0xfff1)");
	obj.syms[SYM_EXIT].st_shndx = S_DATA;
	obj.syms[SYM_EXIT].st_value = 0;
	EXPECT_REFUSED(t, "cleanup_module is not in the module's code (st_shndx 0x3)");
	obj.syms[SYM_INIT].st_value = sizeof(text);
	obj.syms[SYM_INIT].st_size = 0;
	EXPECT_REFUSED(t, "init_module: st_value 0x10 is not inside section .text "
		       "(16 bytes)");
	obj.syms[SYM_INIT].st_shndx = SHN_UNDEF;
	EXPECT_REFUSED(t, "init_module is not defined in the module");
	obj.syms[SYM_INIT].st_name = 0;
	EXPECT_REFUSED(t, "no init function (did you forget module_init()?)");
	/* An empty symbol table holds no entry point (not even symbol 0). */
	obj.sh[S_SYMTAB].sh_size = 0;
	EXPECT_REFUSED(t, "no init function (did you forget module_init()?)");
	/* No cleanup_module: loads, cannot be unloaded. */
	obj.syms[SYM_EXIT].st_name = 0;
	KTEST_EXPECT_EQ(t, check(), 0);
	KTEST_EXPECT_EQ(t, info.exit_sym, 0);
}

static void relocations(struct ktest *t)
{
	char want[128];

	build();
	obj.rel_text[0].r_offset = sizeof(text) - 3;	/* straddles the end */
	EXPECT_REFUSED(t, "relocation at r_offset 0xd outside its section (16 bytes)");
	obj.rel_text[1].r_offset = sizeof(text);
	EXPECT_REFUSED(t, "relocation at r_offset 0x10 outside its section (16 bytes)");
	obj.rel_text[1].r_offset = 0xfffffffe;		/* + 4 wraps */
	EXPECT_REFUSED(t, "relocation at r_offset 0xfffffffe outside its section (16 bytes)");
	obj.rel_text[0].r_info = NSYMS << 8 | R_386_PC32;
	EXPECT_REFUSED(t, "relocation against bad symbol 7");
	obj.rel_text[0].r_info = SYM_PRINTK << 8 | R_386_GOTPC;
	EXPECT_REFUSED(t, "unsupported relocation R_386_GOTPC (build with -fno-pie)");
	obj.syms[SYM_PRINTK].st_shndx = SHN_ABS;
	EXPECT_REFUSED(t, "relocation against absolute symbol printk");
	obj.sh[S_REL_TEXT].sh_info = S_BSS;
	EXPECT_REFUSED(t, "relocation section .rel.text patches .bss");
	obj.sh[S_REL_TEXT].sh_info = 0x7ff0;
	EXPECT_REFUSED(t, "relocation section .rel.text applies to missing section 32752");
	obj.sh[S_REL_TEXT].sh_link = S_STRTAB;
	EXPECT_REFUSED(t, "relocation section .rel.text: wrong symbol table (sh_link 6)");
	obj.sh[S_REL_TEXT].sh_size = 12;
	snprintf(want, sizeof(want), "malformed relocation section .rel.text (sh_entsize 8, "
		 "sh_size 0xc, sh_offset %#x)", obj.sh[S_REL_TEXT].sh_offset);
	EXPECT_REFUSED(t, want);
	obj.sh[S_SYMTAB].sh_entsize = 24;
	snprintf(want, sizeof(want), "malformed symbol table (sh_entsize 24, sh_size 0x70, "
		 "sh_offset %#x)", obj.sh[S_SYMTAB].sh_offset);
	EXPECT_REFUSED(t, want);
}

static void undefined_symbols(struct ktest *t)
{
	build();
	memcpy((char *)obj.buf + obj.sh[S_STRTAB].sh_offset +
	       obj.syms[SYM_PRINTK].st_name, "nosuch", 6);
	KTEST_EXPECT_EQ(t, link_all(), -ENOENT);
	KTEST_EXPECT_STREQ(t, info.error, "unknown symbol nosuch");
	/* Two missing: both named in one message, as Linux names each. */
	obj.syms[SYM_COUNTER].st_shndx = SHN_UNDEF;
	obj.syms[SYM_COUNTER].st_value = obj.syms[SYM_COUNTER].st_size = 0;
	KTEST_EXPECT_EQ(t, link_all(), -ENOENT);
	KTEST_EXPECT_STREQ(t, info.error, "unknown symbols nosuch, counter");
	build();
	memcpy((char *)obj.buf + obj.sh[S_STRTAB].sh_offset +
	       obj.syms[SYM_PRINTK].st_name, "nosuch", 6);
	/* Weak: allowed to stay undefined, and is then 0. */
	obj.syms[SYM_PRINTK].st_info = STB_WEAK << 4 | STT_NOTYPE;
	KTEST_EXPECT_EQ(t, link_all(), 0);
	KTEST_EXPECT_EQ(t, le32(mem + 1), 0 - 4 - (BASE + 1));
}

/* After relocation, what other modules will read must point inside. */
static void exports_checked(struct ktest *t)
{
	uint32_t off, count;

	build();
	obj.rel_ksym[1].r_info = SYM_PRINTK << 8 | R_386_32;	/* name -> kernel */
	KTEST_ASSERT_EQ(t, link_all(), 0);
	KTEST_EXPECT_EQ(t, elf_check_exports(&info, &off, &count), -ENOEXEC);
	KTEST_EXPECT_STREQ(t, info.error, "__ksymtab entry 0: address 0xd0000000 or "
			   "name 0xc0101234 outside the module");
	/* A name running to the very end of module memory, unterminated. */
	build();
	obj.rel_ksym[1].r_info = SYM_COUNTER << 8 | R_386_32;
	KTEST_ASSERT_EQ(t, link_all(), 0);
	memset(mem + secoff[S_BSS], 'x', 32);
	KTEST_EXPECT_EQ(t, elf_check_exports(&info, &off, &count), -ENOEXEC);
	memset(mem + secoff[S_BSS] + 31, 0, 1);
	KTEST_EXPECT_EQ(t, elf_check_exports(&info, &off, &count), 0);
	free(mem);
	mem = NULL;
}

static struct ktest_case cases[] = {
	KTEST_CASE(good_object_links),
	KTEST_CASE(header_fields),
	KTEST_CASE(every_truncation_refused),
	KTEST_CASE(section_fields),
	KTEST_CASE(null_section_ignored),
	KTEST_CASE(symbol_values),
	KTEST_CASE(symbol_section_indices),
	KTEST_CASE(entry_points),
	KTEST_CASE(relocations),
	KTEST_CASE(undefined_symbols),
	KTEST_CASE(exports_checked),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
