/*
 * test_exec_elf.c - lib/exec_elf.c, exec's checks of an executable's
 * program headers, on the host under ASan/UBSan.
 *
 * Each case builds a small static i386 executable in memory (a header,
 * two PT_LOAD segments as ld lays them out: code at 0x08048000, data
 * with a .bss tail at 0x08049000, and a PT_GNU_STACK-like entry to
 * ignore), damages one field and checks the answer.  Every truncation
 * of the good file must be refused without reading past it.
 */
#include <stdlib.h>
#include "ktest_host.h"
#include "exec_elf.h"
#include "errno.h"

#define LO	0x08000000u	/* user space, as the kernel passes it */
#define HI	0xbffe8000u
#define CODE	0x08048000u
#define DATA	0x08049000u
#define PT_OTHER 0x6474e551u	/* PT_GNU_STACK: not loaded */

static struct {
	Elf32_Ehdr eh;
	Elf32_Phdr ph[3];
	uint8_t bytes[64];	/* the segments' file contents */
} file;

static struct load_info info;

static void build(void)
{
	memset(&file, 0, sizeof(file));
	memcpy(file.eh.e_ident, ELFMAG, SELFMAG);
	file.eh.e_ident[EI_CLASS] = ELFCLASS32;
	file.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	file.eh.e_ident[EI_VERSION] = EV_CURRENT;
	file.eh.e_type = ET_EXEC;
	file.eh.e_machine = EM_386;
	file.eh.e_phoff = offsetof(typeof(file), ph);
	file.eh.e_phentsize = sizeof(Elf32_Phdr);
	file.eh.e_phnum = 3;
	file.eh.e_entry = CODE + 4;
	file.ph[0] = (Elf32_Phdr){ PT_LOAD, 0, CODE, CODE, sizeof(file), sizeof(file),
				   PF_R | PF_X, 0x1000 };
	file.ph[1] = (Elf32_Phdr){ PT_LOAD, offsetof(typeof(file), bytes), DATA, DATA,
				   16, 0x100, PF_R | PF_W, 0x1000 };
	file.ph[2] = (Elf32_Phdr){ PT_OTHER, 0, 0, 0, 0, 0, PF_R | PF_W, 16 };
}

static int check(size_t len)
{
	memset(&info, 0, sizeof(info));
	info.image = (const uint8_t *)&file;
	info.len = len;
	return elf_check_exec(&info, LO, HI);
}

static void good_file_passes(struct ktest *t)
{
	build();
	KTEST_EXPECT_EQ(t, check(sizeof(file)), 0);
	KTEST_EXPECT_STREQ(t, info.error, "");
	KTEST_EXPECT_EQ(t, elf_phdr(&info, 1)->p_vaddr, DATA);
}

static void every_truncation_refused(struct ktest *t)
{
	build();
	for (size_t len = 0; len < sizeof(file); len++) {
		uint8_t *copy = malloc(len ? len : 1);	/* ASan: no byte past len */

		memcpy(copy, &file, len);
		memset(&info, 0, sizeof(info));
		info.image = copy;
		info.len = len;
		/* Linux: no whole ELF header is ENOEXEC, a short read past it EIO. */
		if (elf_check_exec(&info, LO, HI) != (len < sizeof(Elf32_Ehdr) ? -ENOEXEC : -EIO))
			ktest_fail(t, __FILE__, __LINE__, "%zu bytes: not refused with "
				   "Linux's errno", len);
		free(copy);
	}
}

static void header_fields(struct ktest *t)
{
	build();
	file.eh.e_type = ET_REL;
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	KTEST_EXPECT_STREQ(t, info.error, "ELF type 1 is not an executable");
	build();
	file.eh.e_phentsize = 40;
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	build();
	file.eh.e_phnum = EXEC_MAX_PHDRS + 1;
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	build();
	file.eh.e_phoff = 2;
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	KTEST_EXPECT_STREQ(t, info.error, "misaligned program headers: e_phoff 0x2");
}

static void segments_checked(struct ktest *t)
{
	build();
	file.ph[1].p_offset = sizeof(file) - 8;		/* 16 bytes from 8 before the end */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -EIO);
	KTEST_EXPECT_TRUE(t, strstr(info.error, "truncated: segment 1") != NULL);
	build();
	file.ph[1].p_filesz = 0x200;			/* more bytes than memory */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	build();
	file.ph[1].p_vaddr = 0x00100000;		/* onto the kernel */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	KTEST_EXPECT_TRUE(t, strstr(info.error, "outside user space") != NULL);
	build();
	file.ph[1].p_vaddr = HI - 0x80;			/* runs past the end */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	build();
	file.ph[1].p_vaddr = 0xfffff000;		/* vaddr + memsz wraps */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	build();
	file.ph[1].p_memsz = EXEC_MAX_SIZE + 1;
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	build();
	file.ph[0].p_type = file.ph[1].p_type = PT_OTHER;
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	KTEST_EXPECT_STREQ(t, info.error, "no PT_LOAD segment: nothing to run");
}

static void entry_point_must_be_code(struct ktest *t)
{
	build();
	file.eh.e_entry = DATA + 4;			/* in the data segment */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
	KTEST_EXPECT_STREQ(t, info.error, "entry point 0x8049004 is in no executable segment");
	build();
	file.eh.e_entry = CODE + sizeof(file);		/* one past the code */
	KTEST_EXPECT_EQ(t, check(sizeof(file)), -ENOEXEC);
}

static struct ktest_case cases[] = {
	KTEST_CASE(good_file_passes),
	KTEST_CASE(every_truncation_refused),
	KTEST_CASE(header_fields),
	KTEST_CASE(segments_checked),
	KTEST_CASE(entry_point_must_be_code),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
