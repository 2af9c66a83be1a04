/*
 * test_module_mutants.c - the "module_mutants" suite: broken .ko files
 * made in the kernel, fed to the loader by the hundred.
 *
 * A module file is input from outside the kernel.  Each case takes the
 * good .ko files the boot loader passed (the samples and tests/modules,
 * see test_modules.c), damages copies of them in one way - a class of
 * damage each case - with a fixed-seed PRNG, and hands every copy to
 * link_only(): all of load_module() that trusts the file
 * (check, layout, copy, link, protect), then free.  The mutant's init is
 * never run: a flipped bit in its code is the module's bug, the
 * loader's job is that no file can make it fault or leak.  For each
 * mutant: refused with a message, or linked cleanly; and when the class
 * makes the file invalid, refused.  After each case the heap and page
 * counters are exactly where they were.  The same failure shapes run on
 * the host under ASan in tests/host/test_module_elf.c and the fuzzer.
 */
#include "ktest.h"
#include "module.h"
#include "mm.h"
#include "errno.h"
#include "string.h"
#include "vsprintf.h"

#define MUTANTS_PER_CLASS	240
#define BITFLIP_MAX_BITS	8
#define EXTRA_BSS_MIN		1100	/* more than MODULE_MAX_SECTIONS */
#define EXTRA_BSS_SPREAD	3000
#define FEW_BSS_MAX		8

/* The good objects the mutants are made from (boot modules). */
static const char *const parents[] = {
	"modtest_basic", "kprobe_example", "jprobe_example",
	"kretprobe_example", "modtest_forget", "modtest_initfail",
};

/* ---- a deterministic PRNG (xorshift32): the same mutants every run ---- */

static uint32_t prng_state;

static uint32_t prng(void)
{
	uint32_t x = prng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return prng_state = x;
}

static uint32_t prng_below(uint32_t n)
{
	return n ? prng() % n : 0;
}

/* ---- a mutable copy of a good object ------------------------------------ */

struct mutant {
	uint8_t *img;
	size_t len;
	Elf32_Ehdr *hdr;
	Elf32_Shdr *sh;
	Elf32_Sym *syms;
	unsigned int nsyms;
	const char *strtab;
};

/* Copy parent into a buffer with room for `extra` more bytes; parse it. */
static bool mutant_make(struct mutant *m, const char *parent, size_t extra)
{
	const void *image;
	size_t len;

	image = find_boot_module(parent, &len);
	if (!image)
		return false;
	m->img = kmalloc(len + extra);
	if (!m->img)
		return false;
	memcpy(m->img, image, len);
	m->len = len;
	m->hdr = (void *)m->img;
	m->sh = (void *)(m->img + m->hdr->e_shoff);
	m->syms = NULL;
	for (unsigned int i = 1; i < m->hdr->e_shnum; i++) {
		if (m->sh[i].sh_type != SHT_SYMTAB)
			continue;
		m->syms = (void *)(m->img + m->sh[i].sh_offset);
		m->nsyms = m->sh[i].sh_size / sizeof(Elf32_Sym);
		m->strtab = (const char *)m->img + m->sh[m->sh[i].sh_link].sh_offset;
	}
	return true;
}

static bool loaded_section(const struct mutant *m, unsigned int i)
{
	return i > 0 && i < m->hdr->e_shnum && m->sh[i].sh_type != SHT_NULL &&
	       (m->sh[i].sh_flags & SHF_ALLOC);
}

/* A random symbol defined in a loaded section (0 if none). */
static unsigned int pick_defined_symbol(const struct mutant *m)
{
	for (int tries = 0; tries < 64; tries++) {
		unsigned int i = 1 + prng_below(m->nsyms - 1);

		if (loaded_section(m, m->syms[i].st_shndx))
			return i;
	}
	return 0;
}

static unsigned int find_symbol(const struct mutant *m, const char *name)
{
	for (unsigned int i = 1; i < m->nsyms; i++)
		if (strcmp(m->strtab + m->syms[i].st_name, name) == 0)
			return i;
	return 0;
}

/* ---- running mutants ------------------------------------------------------ */

struct tally {
	unsigned int refused, linked;
};

/* load_module() up to, not including, init; then everything freed again. */
static int link_only(const void *image, size_t len, const char *name)
{
	struct module *mod;
	int ret = layout_and_link(image, len, name, &mod);

	if (!ret)
		free_module(mod);
	return ret;
}

/*
 * Link one mutant.  A refusal must say why; must_refuse says the
 * damage makes the file invalid, so linking it would be a bug.
 */
static void try_mutant(struct ktest *t, struct mutant *m, bool must_refuse,
		       struct tally *tally, const char *what)
{
	int ret = link_only(m->img, m->len, "mutant");

	if (ret == 0) {
		tally->linked++;
		if (must_refuse)
			ktest_fail(t, __FILE__, __LINE__, "%s: invalid file linked", what);
	} else {
		tally->refused++;
		if (!module_last_error()[0] || ret >= 0)
			ktest_fail(t, __FILE__, __LINE__, "%s: refused (%d) without "
				   "a message", what, ret);
	}
	kfree(m->img);
}

struct counters {
	unsigned long live_allocs, live_bytes, pages;
};

static void counters_get(struct counters *c)
{
	struct heap_stats st;

	heap_get_stats(&st);
	c->live_allocs = st.live_allocs;
	c->live_bytes = st.live_bytes;
	c->pages = pages_free();
}

/* Run `mutate` MUTANTS_PER_CLASS times over the parents; check no leak. */
static void run_class(struct ktest *t, uint32_t seed, size_t extra,
		      bool (*mutate)(struct mutant *m))
{
	struct counters before, after;
	struct tally tally = { 0 };
	size_t len;

	if (!find_boot_module(parents[0], &len)) {
		ktest_skip(t, "boot without the .ko files (run via make test)");
		return;
	}
	prng_state = seed;
	counters_get(&before);
	for (int n = 0; n < MUTANTS_PER_CLASS; n++) {
		const char *parent = parents[n % ARRAY_SIZE(parents)];
		struct mutant m;
		char what[64];
		bool must_refuse;

		if (!mutant_make(&m, parent, extra)) {
			ktest_fail(t, __FILE__, __LINE__, "%s: no copy", parent);
			return;
		}
		must_refuse = mutate(&m);
		snprintf(what, sizeof(what), "%s mutant %d", parent, n);
		try_mutant(t, &m, must_refuse, &tally, what);
	}
	counters_get(&after);
	KTEST_EXPECT_EQ(t, after.live_allocs, before.live_allocs);
	KTEST_EXPECT_EQ(t, after.live_bytes, before.live_bytes);
	KTEST_EXPECT_EQ(t, after.pages, before.pages);
	KTEST_EXPECT_EQ(t, nr_modules(), 0);
	ktest_info(t, "%d mutants: %u refused with a message, %u linked and freed",
		   MUTANTS_PER_CLASS, tally.refused, tally.linked);
}

/* ---- the classes ---------------------------------------------------------- */

/*
 * A symbol's value far outside its section, or its section index made
 * special (SHN_ABS, SHN_COMMON, a reserved or missing index).  For
 * init_module and cleanup_module, which the loader calls, every one of
 * those is invalid; for other symbols a value outside the section is.
 */
static bool mutate_symbol(struct mutant *m)
{
	static const uint16_t shndx[] = { SHN_ABS, SHN_COMMON, SHN_LORESERVE, 0xfff0,
					  SHN_XINDEX };
	bool entry = prng_below(3) == 0;
	unsigned int i = entry ? find_symbol(m, prng_below(2) ? "init_module" :
					      "cleanup_module")
			       : pick_defined_symbol(m);
	Elf32_Sym *sym;

	if (i == 0)
		i = find_symbol(m, "init_module");
	sym = &m->syms[i];
	switch (prng_below(4)) {
	case 0:
		sym->st_value = 0x7fffffff;
		return true;
	case 1:
		sym->st_value = m->sh[sym->st_shndx].sh_size + 1 + prng_below(0x100000);
		return true;
	case 2:
		sym->st_shndx = shndx[prng_below(ARRAY_SIZE(shndx))];
		return entry || sym->st_shndx != SHN_ABS;
	default:
		sym->st_shndx = m->hdr->e_shnum + prng_below(SHN_LORESERVE - m->hdr->e_shnum);
		return true;
	}
}

static void symbol_values_and_indices(struct ktest *t)
{
	run_class(t, 0x5eed0001, 0, mutate_symbol);
}

/* A random relocation of a loaded section, and the section it patches. */
static Elf32_Rel *pick_rel(struct mutant *m, Elf32_Shdr **target)
{
	for (int tries = 0; tries < 64; tries++) {
		Elf32_Shdr *s = &m->sh[1 + prng_below(m->hdr->e_shnum - 1)];

		if (s->sh_type != SHT_REL || s->sh_size == 0 ||
		    !loaded_section(m, s->sh_info))
			continue;
		*target = &m->sh[s->sh_info];
		return (Elf32_Rel *)(m->img + s->sh_offset) +
		       prng_below(s->sh_size / sizeof(Elf32_Rel));
	}
	return NULL;
}

/* r_offset past the end of the patched section, or straddling it. */
static bool mutate_reloc_offset(struct mutant *m)
{
	Elf32_Shdr *target;
	Elf32_Rel *rel = pick_rel(m, &target);

	if (!rel)
		return false;
	switch (prng_below(3)) {
	case 0:		/* the last 1..3 bytes: the 4-byte write straddles the end */
		rel->r_offset = target->sh_size - 1 - prng_below(3);
		break;
	case 1:
		rel->r_offset = target->sh_size + prng_below(0x10000);
		break;
	default:	/* so big that r_offset + 4 wraps */
		rel->r_offset = 0xffffffff - prng_below(4);
		break;
	}
	return true;
}

static void relocation_offsets(struct ktest *t)
{
	run_class(t, 0x5eed0002, 0, mutate_reloc_offset);
}

/*
 * A section retyped SHT_NULL, with a huge offset or size.  The ELF spec
 * says such a header is inactive, so the loader ignores it: the file
 * is then refused if something needed it, or linked without it.
 */
static bool mutate_null_section(struct mutant *m)
{
	Elf32_Shdr *s = &m->sh[1 + prng_below(m->hdr->e_shnum - 1)];

	s->sh_type = SHT_NULL;
	if (prng_below(2))
		s->sh_offset = 0x80000000 | prng();
	else
		s->sh_size = 0x80000000 | prng();
	return false;
}

static void null_sections(struct ktest *t)
{
	run_class(t, 0x5eed0003, 0, mutate_null_section);
}

/*
 * Extra .bss sections whose sizes add up past 4 GiB: either more
 * sections than MODULE_MAX_SECTIONS, or a few so big that the total
 * wraps.  The section table moves to the end of the file to grow.
 */
#define EXTRA_BSS_ROOM	((EXTRA_BSS_MIN + EXTRA_BSS_SPREAD + 64) * sizeof(Elf32_Shdr) + 4)

static bool mutate_many_bss(struct mutant *m)
{
	unsigned int old = m->hdr->e_shnum, extra, size;
	size_t shoff = ALIGN_UP(m->len, 4);
	Elf32_Shdr *table = (void *)(m->img + shoff);

	switch (prng_below(3)) {
	case 0:		/* more sections than the loader takes */
		extra = EXTRA_BSS_MIN + prng_below(EXTRA_BSS_SPREAD);
		size = 0x100000 + prng_below(0x1000000);
		break;
	case 1:		/* a few, each past 2 GiB: two already wrap a 32-bit sum */
		extra = 2 + prng_below(FEW_BSS_MAX - 1);
		size = 0x80000000 + prng_below(0x7fffffff);
		break;
	default:	/* each one small enough, together past MODULE_MAX_SIZE */
		extra = MODULE_MAX_SECTIONS - old - prng_below(MODULE_MAX_SECTIONS / 2);
		size = MODULE_MAX_SIZE / (extra - 1) + prng_below(MODULE_PAGE_SIZE);
		break;
	}
	memcpy(table, m->sh, old * sizeof(*table));
	for (unsigned int i = old; i < old + extra; i++) {
		table[i] = table[0];
		table[i].sh_type = SHT_NOBITS;
		table[i].sh_flags = SHF_ALLOC | SHF_WRITE;
		table[i].sh_size = size;
		table[i].sh_addralign = 1u << prng_below(6);
	}
	m->hdr->e_shoff = shoff;
	m->hdr->e_shnum = old + extra;
	m->len = shoff + (old + extra) * sizeof(*table);
	return true;
}

static void many_bss_sections(struct ktest *t)
{
	run_class(t, 0x5eed0004, EXTRA_BSS_ROOM, mutate_many_bss);
}

/* 1..8 random bits flipped anywhere in the file. */
static bool mutate_bit_flips(struct mutant *m)
{
	int bits = 1 + prng_below(BITFLIP_MAX_BITS);

	for (int b = 0; b < bits; b++) {
		uint32_t bit = prng_below(m->len * 8);

		m->img[bit / 8] ^= 1u << (bit % 8);
	}
	return false;
}

static void random_bit_flips(struct ktest *t)
{
	run_class(t, 0x5eed0005, 0, mutate_bit_flips);
}

/* The good parents themselves link: the mutants' refusals are the damage's. */
static void parents_link(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(parents); i++) {
		size_t len;
		const void *image = find_boot_module(parents[i], &len);

		if (!image) {
			ktest_skip(t, "boot without the .ko files (run via make test)");
			return;
		}
		KTEST_EXPECT_EQ(t, link_only(image, len, parents[i]), 0);
	}
}

static struct ktest_case module_mutants_cases[] = {
	KTEST_CASE(parents_link),
	KTEST_CASE(symbol_values_and_indices),
	KTEST_CASE(relocation_offsets),
	KTEST_CASE(null_sections),
	KTEST_CASE(many_bss_sections),
	KTEST_CASE(random_bit_flips),
	KTEST_END,
};

static struct ktest_suite module_mutants_suite = {
	.name = "module_mutants",
	.cases = module_mutants_cases,
};
KTEST_SUITE(module_mutants_suite);
