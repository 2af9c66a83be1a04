/*
 * exec.c - load a static ELF executable into a new address space
 * (Linux's fs/binfmt_elf.c, for the one kind of file we run).
 *
 *   1. lib/exec_elf.c checks every program header (nothing allocated
 *      yet, so a broken file costs nothing);
 *   2. each PT_LOAD gets an area (mm/mmap.c), and fresh zeroed pages,
 *      U/S=1, writable only if the segment says PF_W, for its p_filesz
 *      bytes, copied in (the .bss past them gets pages on demand);
 *   3. a stack area of USER_STACK_PAGES below TASK_SIZE (growing down
 *      on demand to USER_STACK_LIMIT), its top page with the arguments
 *      laid out as Linux's exec leaves them, so crt0 finds
 *          sp -> argc, argv[0..argc-1], NULL, envp: NULL, the strings.
 *      The pages below the stack's limit are never mapped (STACK_GUARD_GAP): a
 *      program that runs off its stack faults there (stack_overflow).
 * The pages are written through their frames' kernel addresses
 * (include/mm_types.h): the process's directory need not be loaded.
 */
#include "kernel.h"
#include "process.h"
#include "mm_types.h"
#include "exec_elf.h"
#include "string.h"
#include "errno.h"

const struct user_program *find_user_program(const char *name)
{
	unsigned long i;

	for (i = 0; i < nr_user_programs; i++)
		if (strcmp(user_programs[i].name, name) == 0)
			return &user_programs[i];
	return NULL;
}

/* Copy into mm at user address `to`, one page at a time (frames need not be adjacent). */
static void copy_to_mm(struct mm_struct *mm, unsigned long to, const void *from,
		       size_t len)
{
	while (len) {
		size_t chunk = PAGE_SIZE - (to & ~PAGE_MASK);

		if (chunk > len)
			chunk = len;
		memcpy(user_page_address(mm, to), from, chunk);
		to += chunk;
		from = (const char *)from + chunk;
		len -= chunk;
	}
}

static int load_segments(struct mm_struct *mm, struct load_info *info)
{
	unsigned int i;
	int ret;

	for (i = 0; i < info->hdr->e_phnum; i++) {
		const Elf32_Phdr *p = elf_phdr(info, i);

		if (p->p_type != PT_LOAD || p->p_memsz == 0)
			continue;
		ret = mm_add_area(mm, p->p_vaddr, p->p_memsz, elf_vm_flags(p->p_flags));
		if (!ret)	/* pages now for the file's bytes; the .bss comes on demand */
			ret = mm_map_range(mm, p->p_vaddr, p->p_filesz, p->p_flags & PF_W);
		if (ret)
			return ret;
		copy_to_mm(mm, p->p_vaddr, info->image + p->p_offset, p->p_filesz);
		if (p->p_flags & PF_X) {
			if (!mm->start_code || p->p_vaddr < mm->start_code)
				mm->start_code = p->p_vaddr;
			if (p->p_vaddr + p->p_memsz > mm->end_code)
				mm->end_code = p->p_vaddr + p->p_memsz;
		}
	}
	return 0;
}

/* The argument block at the stack's top; returns the initial sp, or 0 (-E2BIG). */
static unsigned long setup_arg_pages(struct mm_struct *mm, const char *const argv[],
				     int argc)
{
	unsigned long strings = USER_STACK_TOP, ptrs[MAX_ARG_STRINGS];
	unsigned long sp, words[MAX_ARG_STRINGS + 3];
	int i, n = 0;

	for (i = argc - 1; i >= 0; i--) {
		size_t len = strnlen(argv[i], MAX_ARG_STRLEN) + 1;

		if (len > MAX_ARG_STRLEN)
			return 0;
		strings -= len;
		copy_to_mm(mm, strings, argv[i], len - 1);	/* the NUL is there: zeroed page */
		ptrs[i] = strings;
	}
	words[n++] = argc;
	for (i = 0; i < argc; i++)
		words[n++] = ptrs[i];
	words[n++] = 0;			/* argv's end */
	words[n++] = 0;			/* an empty environment */
	sp = ALIGN_DOWN(strings, 16) - n * sizeof(words[0]);
	copy_to_mm(mm, sp, words, n * sizeof(words[0]));
	return sp;
}

static int exec_mm(struct mm_struct *mm, struct load_info *info,
		   const char *const argv[], int argc, unsigned long *sp)
{
	int ret = load_segments(mm, info);

	if (ret)
		return ret;
	ret = mm_setup_stack(mm);
	if (ret)
		return ret;
	*sp = setup_arg_pages(mm, argv, argc);
	return *sp ? 0 : -E2BIG;
}

int exec_load(const unsigned char *elf, size_t len, const char *const argv[],
	      int argc, struct mm_struct **mmp, unsigned long *entry,
	      unsigned long *sp, char *err, size_t errlen)
{
	struct load_info info = { .name = argv[0], .image = elf, .len = len };
	struct mm_struct *mm;
	int ret;

	if (argc < 1 || argc > MAX_ARG_STRINGS)
		return -E2BIG;
	/* Segments end below the stack's guard gap. */
	ret = elf_check_exec(&info, USER_BASE, USER_STACK_BOTTOM - STACK_GUARD_GAP);
	if (ret) {
		strlcpy(err, info.error, errlen);
		return ret;
	}
	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	ret = exec_mm(mm, &info, argv, argc, sp);
	if (ret) {
		mmput(mm);	/* every page mapped so far */
		return ret;
	}
	*entry = info.hdr->e_entry;
	*mmp = mm;
	return 0;
}
