/*
 * fuzz_module_elf.c - libFuzzer target for the module loader's ELF half.
 *
 * Each input is a module file.  It goes through lib/module_elf.c the
 * way kernel/module.c takes it (check, lay out, copy, resolve, relocate,
 * exports, kallsyms), into a buffer standing for module memory, built
 * with clang -fsanitize=fuzzer,address,undefined: any read outside the
 * file, any write outside module memory, any overflow is a crash.  On
 * top of the sanitizers we check what must hold for every file:
 *
 *   - a refused file is refused with -ENOEXEC or -ENOENT and a message;
 *   - an accepted one fits the limits: at most MODULE_MAX_SIZE bytes,
 *     text inside read-only inside the whole, init (and exit) inside
 *     the text, every kallsyms entry inside the module;
 *   - checking never allocates: elf_check_module() gets no buffers.
 *
 * Seeds: the sample and test modules (make modules test-modules).
 *   make fuzz-modules FUZZ_TIME=300     run for 5 minutes
 */
#include <stdint.h>
#include <stdlib.h>
#include "errno.h"
#include "string.h"
#include "module_elf.h"

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#define BASE		0xd0000000u	/* where the module "runs" */
#define EXPORT_ADDR	0xc0100000u	/* what every export resolves to... */
#define EXPORT_SPREAD	0x10000u	/* ...plus a hash of its name */

/* Any name exports something, except the ones starting "nosuch". */
static uint32_t fake_resolve(void *ctx, const char *name, int *err)
{
	uint32_t h = 0;

	if (strncmp(name, "nosuch", 6) == 0) {
		*err = -ENOENT;
		return 0;
	}
	while (*name)
		h = h * 31 + (unsigned char)*name++;
	return EXPORT_ADDR + h % EXPORT_SPREAD;
}

static bool inside(uint32_t addr, uint32_t start, uint32_t size)
{
	return addr - start < size;
}

static void check_accepted(const struct load_info *info)
{
	CHECK(info->size <= MODULE_MAX_SIZE);
	CHECK(info->text_size <= info->ro_size && info->ro_size <= info->size);
	CHECK(info->init_sym > 0 && info->init_sym < info->nsyms);
	CHECK(info->exit_sym < info->nsyms);
}

/* After linking: what the kernel will call and list lies in the module. */
static void check_linked(struct load_info *info)
{
	struct module_symbol *syms;
	unsigned int n;
	uint32_t off, count;
	size_t names;
	char *buf;

	CHECK(inside(info->symval[info->init_sym], BASE, info->text_size));
	if (info->exit_sym)
		CHECK(inside(info->symval[info->exit_sym], BASE, info->text_size));
	if (elf_check_exports(info, &off, &count) == 0)
		CHECK(count == 0 || (uint64_t)off + count * 8 <= info->size);
	else
		CHECK(info->error[0]);
	names = elf_kallsyms_size(info, &n);
	syms = malloc((n + 1) * sizeof(*syms));
	buf = malloc(names + 1);
	elf_kallsyms_fill(info, syms, buf);
	for (unsigned int i = 0; i < n; i++) {
		CHECK(inside(syms[i].addr, BASE, info->size + 1));
		CHECK(syms[i].addr - BASE + syms[i].size <= info->size);
		CHECK(syms[i].name >= buf && syms[i].name < buf + names);
	}
	free(syms);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct load_info info = { .name = "fuzz" };
	uint8_t *image = malloc(size ? size : 1);	/* 4-byte aligned, exact size */
	uint8_t *mem;
	int ret;

	memcpy(image, data, size);
	info.image = image;
	info.len = size;
	ret = elf_check_module(&info);
	if (ret) {
		CHECK(ret == -ENOEXEC && info.error[0]);
		free(image);
		return 0;
	}
	check_accepted(&info);
	info.secoff = calloc(info.shnum, sizeof(*info.secoff));
	info.symval = calloc(info.nsyms, sizeof(*info.symval));
	mem = calloc(1, info.size ? info.size : 1);
	elf_layout(&info);
	elf_place_sections(&info, mem, BASE);
	ret = elf_resolve_symbols(&info, fake_resolve, NULL);
	if (ret) {
		CHECK(ret == -ENOENT && info.error[0]);
	} else {
		elf_apply_relocations(&info);
		check_linked(&info);
	}
	free(mem);
	free(info.secoff);
	free(info.symval);
	free(image);
	return 0;
}
