/*
 * exec.c - load a static ELF executable into a new address space
 * (Linux's fs/binfmt_elf.c, for the one kind of file we run; fs/exec.c
 * finds the file and puts the new address space in place).
 *
 *   1. lib/exec_elf.c checks every program header (nothing allocated
 *      yet, so a broken file costs nothing);
 *   2. each PT_LOAD gets an area (mm/mmap.c), and fresh zeroed pages,
 *      U/S=1, writable only if the segment says PF_W, for its p_filesz
 *      bytes, copied in (the .bss past them gets pages on demand);
 *   3. a stack area of USER_STACK_PAGES below TASK_SIZE (growing down
 *      on demand to USER_STACK_LIMIT), its top pages holding the
 *      arguments, the environment and the auxiliary vector laid out as
 *      Linux's exec leaves them (create_elf_tables(), below), so crt0 finds
 *          sp -> argc, argv[0..argc-1], NULL, envp[..], NULL, auxv.
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
#include "binfmts.h"
#include "random.h"
#include <asm/processor.h>
#include <asm/vdso.h>

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

/* Where the program headers are in memory: PT_PHDR, or the PT_LOAD whose bytes hold them. */
static unsigned long phdr_vaddr(const struct load_info *info)
{
	const Elf32_Ehdr *h = info->hdr;
	unsigned int i;

	for (i = 0; i < h->e_phnum; i++)
		if (elf_phdr(info, i)->p_type == PT_PHDR)
			return elf_phdr(info, i)->p_vaddr;
	for (i = 0; i < h->e_phnum; i++) {
		const Elf32_Phdr *p = elf_phdr(info, i);

		if (p->p_type == PT_LOAD && h->e_phoff >= p->p_offset &&
		    h->e_phoff - p->p_offset < p->p_filesz)
			return p->p_vaddr + (h->e_phoff - p->p_offset);
	}
	return 0;
}

#define NR_AUX_PAIRS	20	/* the pairs create_elf_tables() writes, AT_NULL's included */

/* The words below the strings: argc, argv and envp with their NULLs, auxv. */
static size_t elf_tables_words(const struct linux_binprm *bprm)
{
	return 1 + bprm->argc + 1 + bprm->envc + 1 + 2 * NR_AUX_PAIRS;
}

/*
 * The stack's top pages, the ones create_elf_tables() writes, are mapped
 * before it writes them (Linux builds them in bprm's own stack area);
 * the rest of the stack comes a page at a time, on demand.
 */
static int map_arg_pages(struct mm_struct *mm, const struct linux_binprm *bprm)
{
	size_t need = strlen(bprm->filename) + 1 + bprm->strings_len +
		      sizeof(ELF_PLATFORM) + AT_RANDOM_BYTES +
		      elf_tables_words(bprm) * sizeof(long) + 2 * 16;

	if (need > USER_STACK_TOP - USER_STACK_BOTTOM - PAGE_SIZE)
		return -E2BIG;	/* create_elf_tables() would refuse it too */
	return mm_map_range(mm, USER_STACK_TOP - need, need, true);
}

/* Bytes at the stack's top, going down from *p; their user address. */
static unsigned long push_bytes(struct mm_struct *mm, unsigned long *p,
				const void *bytes, size_t len)
{
	*p -= len;
	copy_to_mm(mm, *p, bytes, len);
	return *p;
}

/*
 * Linux's create_elf_tables(): the stack a program starts on.  From the
 * top down: the file name (AT_EXECFN), the argument and environment
 * strings, the platform's name (AT_PLATFORM), 16 random bytes
 * (AT_RANDOM: glibc's stack protector and pointer guard), then,
 * 16-byte aligned at sp,
 *
 *	argc, argv[0..argc-1], NULL, envp[0..envc-1], NULL,
 *	auxv: (AT_SYSINFO, ...) pairs in Linux's order, (AT_NULL, 0).
 *
 * Linux i386's ARCH_DLINFO comes first: AT_SYSINFO, the vDSO's
 * __kernel_vsyscall, through which glibc makes every call, and
 * AT_SYSINFO_EHDR, the vDSO's ELF header (arch/i386/vdso.c,
 * docs/vdso.md).  Returns the initial sp, or 0 if it all does not fit (-E2BIG).
 */
static unsigned long create_elf_tables(struct mm_struct *mm, struct linux_binprm *bprm,
				       const struct load_info *info)
{
	unsigned long p = USER_STACK_TOP - sizeof(long), execfn, strings, platform, random;
	unsigned char rnd[AT_RANDOM_BYTES];
	unsigned long *words, *w, sp;
	size_t nwords = elf_tables_words(bprm), off = 0;
	int i;

	execfn = push_bytes(mm, &p, bprm->filename, strlen(bprm->filename) + 1);
	strings = push_bytes(mm, &p, bprm->strings, bprm->strings_len);
	platform = push_bytes(mm, &p, ELF_PLATFORM, sizeof(ELF_PLATFORM));
	get_random_bytes(rnd, sizeof(rnd));
	random = push_bytes(mm, &p, rnd, sizeof(rnd));
	sp = ALIGN_DOWN(p - nwords * sizeof(long), 16);
	if (sp < USER_STACK_BOTTOM + PAGE_SIZE)
		return 0;	/* leave the program at least a page of stack */
	words = w = kzalloc(nwords * sizeof(long));
	if (!words)
		return 0;
	*w++ = bprm->argc;
	for (i = 0; i < bprm->argc; i++, off += strlen(bprm->strings + off) + 1)
		*w++ = strings + off;
	*w++ = 0;			/* argv's end */
	mm->arg_start = strings;	/* /proc/PID/cmdline's bytes */
	mm->arg_end = mm->env_start = strings + off;
	for (i = 0; i < bprm->envc; i++, off += strlen(bprm->strings + off) + 1)
		*w++ = strings + off;
	*w++ = 0;			/* envp's end */
	mm->env_end = strings + off;	/* /proc/PID/environ's */
#define NEW_AUX_ENT(id, val) do { *w++ = (id); *w++ = (val); } while (0)
	NEW_AUX_ENT(AT_SYSINFO, vdso_symbol(mm, vdso_image()->sym___kernel_vsyscall));
	NEW_AUX_ENT(AT_SYSINFO_EHDR, mm->vdso);
	NEW_AUX_ENT(AT_HWCAP, cpuid_features_edx());
	NEW_AUX_ENT(AT_PAGESZ, PAGE_SIZE);
	NEW_AUX_ENT(AT_CLKTCK, USER_HZ);
	NEW_AUX_ENT(AT_PHDR, phdr_vaddr(info));
	NEW_AUX_ENT(AT_PHENT, sizeof(Elf32_Phdr));
	NEW_AUX_ENT(AT_PHNUM, info->hdr->e_phnum);
	NEW_AUX_ENT(AT_BASE, 0);
	NEW_AUX_ENT(AT_FLAGS, 0);
	NEW_AUX_ENT(AT_ENTRY, info->hdr->e_entry);
	NEW_AUX_ENT(AT_UID, 0);
	NEW_AUX_ENT(AT_EUID, 0);
	NEW_AUX_ENT(AT_GID, 0);
	NEW_AUX_ENT(AT_EGID, 0);
	NEW_AUX_ENT(AT_SECURE, 0);
	NEW_AUX_ENT(AT_RANDOM, random);
	NEW_AUX_ENT(AT_EXECFN, execfn);
	NEW_AUX_ENT(AT_PLATFORM, platform);
	NEW_AUX_ENT(AT_NULL, 0);
#undef NEW_AUX_ENT
	copy_to_mm(mm, sp, words, (w - words) * sizeof(long));
	kfree(words);
	return sp;
}

static int exec_mm(struct mm_struct *mm, struct load_info *info, struct linux_binprm *bprm)
{
	int ret = load_segments(mm, info);

	if (ret)
		return ret;
	ret = mm_setup_stack(mm);
	if (ret)
		return ret;
	ret = arch_setup_additional_pages(mm);	/* the vDSO: after the heap's start is set */
	if (ret)
		return ret;
	ret = map_arg_pages(mm, bprm);
	if (ret)
		return ret;
	bprm->sp = create_elf_tables(mm, bprm, info);
	return bprm->sp ? 0 : -E2BIG;
}

int load_elf_binary(struct linux_binprm *bprm)
{
	struct load_info info = { .name = bprm->filename, .image = bprm->image,
				  .len = bprm->size };
	struct mm_struct *mm;
	int ret;

	/* Segments end below the stack's guard gap. */
	ret = elf_check_exec(&info, USER_BASE, USER_STACK_BOTTOM - STACK_GUARD_GAP);
	if (ret) {
		strlcpy(bprm->error, info.error, sizeof(bprm->error));
		return ret;
	}
	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	ret = exec_mm(mm, &info, bprm);
	if (ret) {
		mmput(mm);	/* every page mapped so far */
		return ret;
	}
	bprm->entry = info.hdr->e_entry;
	bprm->mm = mm;
	return 0;
}

int exec_load(const unsigned char *elf, size_t len, const char *const argv[],
	      int argc, struct mm_struct **mmp, unsigned long *entry,
	      unsigned long *sp, char *err, size_t errlen)
{
	struct linux_binprm bprm;
	int i, ret;

	if (argc < 1 || argc > MAX_ARG_STRINGS)
		return -E2BIG;
	ret = bprm_init(&bprm, argv[0]);
	for (i = 0; i < argc && !ret; i++)
		ret = bprm_add_string(&bprm, argv[i], false);
	if (!ret) {
		bprm.image = elf;
		bprm.size = len;
		ret = load_elf_binary(&bprm);
		strlcpy(err, bprm.error, errlen);
	}
	if (!ret) {
		*mmp = bprm.mm;
		*entry = bprm.entry;
		*sp = bprm.sp;
	}
	bprm_free(&bprm);
	return ret;
}
