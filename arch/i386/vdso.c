/*
 * vdso.c - the vDSO: one page of kernel-provided code in every process
 * (Linux's arch/x86/entry/vdso/vma.c and vdso32-setup.c; docs/vdso.md).
 *
 * The kernel knows things a program's code cannot: whether this CPU
 * has sysenter, how a signal handler must return.  Rather than have
 * every C library test for them, Linux maps a small shared object of
 * its own into every process and tells the program where, in the
 * auxiliary vector: AT_SYSINFO_EHDR, its ELF header (glibc reads its
 * symbol table as a dynamic linker would), and AT_SYSINFO, its
 * __kernel_vsyscall - the function glibc calls for every system call
 * ("call *%gs:0x10").  The page is the kernel's: one frame, filled once
 * at boot, mapped read-only into each process, so no process can change
 * another's copy (a write faults; fork shares it like any other page).
 *
 * Two images are built (arch/i386/vdso/, the Makefile): one whose
 * __kernel_vsyscall enters by sysenter, one by int $0x80.  The boot
 * CPU's CPUID picks; the other CPUs are the same model.  The image is
 * position-independent and has no relocations: the bytes are copied
 * as they are.
 */
#include "kernel.h"
#include "mm.h"
#include "mm_types.h"
#include "uprobes.h"
#include "string.h"
#include "errno.h"
#include <asm/vdso.h>
#include <asm/sysenter.h>

_Static_assert(VDSO_VADDR >= XOL_AREA_VADDR + PAGE_SIZE &&
	       VDSO_VADDR + PAGE_SIZE <= USER_STACK_BOTTOM - STACK_GUARD_GAP,
	       "the vDSO lies between the XOL page and the stack's guard gap");

static void *vdso_page;			/* the one frame every process maps */
static const struct vdso_image *vdso_chosen;

void init_vdso_image(void)
{
	vdso_chosen = sysenter_enabled() ? &vdso_image_32_sysenter : &vdso_image_32_int80;
	vdso_page = alloc_pages(1);	/* its reference is never dropped */
	if (!vdso_page)
		panic("vdso: no page for the image");
	memcpy(vdso_page, vdso_chosen->data, vdso_chosen->size);
}

const struct vdso_image *vdso_image(void)
{
	return vdso_chosen;
}

/*
 * The area first (what /proc/PID/maps shows as [vdso]), then the PTE:
 * present, user, not writable - the frame is shared by every process,
 * and each mapping holds a reference, which pgd_free() drops.
 */
int arch_setup_additional_pages(struct mm_struct *mm)
{
	unsigned long *pte;
	int ret = mm_add_area(mm, VDSO_VADDR, PAGE_SIZE, VM_READ | VM_EXEC);

	if (ret)
		return ret;
	pte = user_pte(mm->pgd, VDSO_VADDR, true);
	if (!pte)
		return -ENOMEM;
	get_page(vdso_page);
	*pte = (unsigned long)vdso_page | PTE_PRESENT | PTE_USER;
	mm->nr_pages++;
	mm->vdso = VDSO_VADDR;
	return 0;
}

unsigned long vdso_symbol(struct mm_struct *mm, unsigned long offset)
{
	return mm && mm->vdso ? mm->vdso + offset : 0;
}
