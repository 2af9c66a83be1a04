/*
 * asm/vdso.h - the vDSO: one page of the kernel's code mapped into
 * every process (Linux's arch/x86/include/asm/vdso.h; arch/i386/vdso.c,
 * docs/vdso.md).
 */
#ifndef ASM_VDSO_H
#define ASM_VDSO_H

#include <stdbool.h>

struct mm_struct;

/*
 * An image as scripts/vdso2c.py writes it (Linux's struct vdso_image):
 * the bytes of the shared object and where its symbols are, as offsets
 * from its start - which is also the ELF header AT_SYSINFO_EHDR names.
 */
struct vdso_image {
	const void *data;
	unsigned long size;
	unsigned long sym___kernel_vsyscall;	/* AT_SYSINFO */
	unsigned long sym_int80_landing_pad;	/* where sysenter returns */
	unsigned long sym___kernel_sigreturn;	/* the restorers the kernel gives */
	unsigned long sym___kernel_rt_sigreturn;
};

/* __kernel_vsyscall by sysenter, and by int $0x80 alone (arch/i386/vdso/). */
extern const struct vdso_image vdso_image_32_sysenter, vdso_image_32_int80;

/*
 * Where every process has it: a fixed page between the XOL page and
 * the stack's guard gap, out of mmap's way (Linux picks a random one).
 */
#define VDSO_VADDR	0xBFE01000ul

/* At boot: the page, holding the image the boot CPU can run. */
void init_vdso_image(void);
/* exec: the page mapped into mm, read and execute (Linux's arch_setup_additional_pages()). */
int arch_setup_additional_pages(struct mm_struct *mm);
/* A symbol's address in mm's vDSO, 0 if it has none (munmap'ed, or a kernel thread). */
unsigned long vdso_symbol(struct mm_struct *mm, unsigned long offset);
/* The image mapped (for the offsets: vdso_symbol(mm, vdso_image()->sym_...)). */
const struct vdso_image *vdso_image(void);

#endif
