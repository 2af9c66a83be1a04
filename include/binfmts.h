/*
 * binfmts.h - what exec knows about the program it loads (Linux's
 * struct linux_binprm, include/linux/binfmts.h).  docs/exec.md.
 *
 * fs/exec.c fills one from execve()'s arguments (or spawn's), finds the
 * file, and hands it to the ELF loader, kernel/exec.c's
 * load_elf_binary(), which builds a whole new address space in bprm->mm
 * without touching the caller's.  Only then, past the point of no
 * return, does begin_new_exec() put it in place of the old one: a
 * failed exec leaves the caller exactly as it was.
 */
#ifndef BINFMTS_H
#define BINFMTS_H

#include <stddef.h>
#include "kernel.h"
#include "mm_types.h"
#include "module_elf.h"		/* MODULE_ERROR_LEN */
#include "string.h"

struct user_program;
struct pt_regs;

/*
 * Bytes of argument and environment strings, with a pointer's room for
 * each: Linux allows a quarter of the stack limit (_STK_LIM / 4); a
 * quarter of our fixed user stack here.  More is -E2BIG.
 */
#define ARG_MAX		(USER_STACK_PAGES * PAGE_SIZE / 4)
#define AT_RANDOM_BYTES	16	/* the bytes AT_RANDOM points at */

struct linux_binprm {
	const char *filename;		/* as the caller named it: AT_EXECFN */
	int argc, envc;
	char *strings;			/* argv's strings, then envp's, each with its NUL */
	size_t strings_len;		/* bytes used; strings is ARG_MAX long */
	const unsigned char *image;	/* the file's bytes while it loads */
	size_t size;
	struct inode *file;		/* the file these bytes are (a reference), or NULL */
	/* What load_elf_binary() made: */
	struct mm_struct *mm;
	unsigned long entry, sp;
	char error[MODULE_ERROR_LEN];	/* why the ELF checks refused it */
};

/* Linux's auxiliary vector keys (include/uapi/linux/auxvec.h). */
#define AT_NULL		0
#define AT_PHDR		3	/* the program headers, in memory */
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7	/* the interpreter's base: 0, a static program has none */
#define AT_FLAGS	8
#define AT_ENTRY	9
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15	/* a string: the CPU the program may assume, "i686" */
#define AT_HWCAP	16	/* CPUID leaf 1's %edx: the features the CPU has */
#define AT_CLKTCK	17
#define AT_SECURE	23
#define AT_RANDOM	25
#define AT_EXECFN	31
#define AT_SYSINFO	32	/* the vDSO's __kernel_vsyscall: glibc's way into the kernel */
#define AT_SYSINFO_EHDR	33	/* the vDSO's ELF header */
#define ELF_PLATFORM	"i686"	/* Linux i386's for any CPU from the Pentium Pro on */
#define USER_HZ		100	/* AT_CLKTCK: times() ticks per second, Linux's */

/* The last component of a path: a new program's comm, as Linux's __set_task_comm(). */
static inline const char *kbasename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* fs/exec.c */
int bprm_init(struct linux_binprm *bprm, const char *filename);
void bprm_free(struct linux_binprm *bprm);
/* Append one argv (or, once argv is done, envp) string from the kernel. */
int bprm_add_string(struct linux_binprm *bprm, const char *s, bool env);
/* Find the file and load it into bprm->mm: 0, or Linux's errno. */
int exec_binprm(struct linux_binprm *bprm);
/* Past the point of no return: current runs bprm's program from regs. */
void begin_new_exec(struct linux_binprm *bprm, struct pt_regs *regs);

/* kernel/exec.c: check the ELF image and build bprm->mm, entry and sp. */
int load_elf_binary(struct linux_binprm *bprm);

#endif
