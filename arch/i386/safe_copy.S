/*
 * safe_copy.S - memory copies that survive a bad pointer.
 *
 *   long copy_from_kernel_nofault(void *dst, const void *src, size_t n)
 *   long copy_to_kernel_nofault(void *dst, const void *src, size_t n)
 *   long raw_copy_from_user(void *dst, const void __user *src, size_t n)
 *   long raw_copy_to_user(void __user *dst, const void *src, size_t n)
 *
 * Each copies byte by byte.  The one instruction that touches the
 * untrusted side has an exception-table entry: if it faults (#PF on an
 * unmapped page, #GP past a segment limit), do_trap() finds the
 * entry and resumes at the fixup label, which returns -EFAULT.  The
 * byte-by-byte loop is slow but obvious, and it means a fault can only
 * ever happen on that one instruction.
 *
 * A process's memory is reached the same way (arch/i386/usercopy.c
 * checks the range first, access_ok()): whatever a user pointer names -
 * an unmapped page, a read-only one, a page freed under us - the copy
 * ends in -EFAULT, never in an oops.  Separate names, as Linux keeps
 * them: a backtrace or a probe tells user copies from kernel ones.
 *
 * dst, src, n arrive in %eax, %edx, %ecx (the kernel's -mregparm=3).
 */
#include <asm/extable.h>
#include "nokprobe.h"
#include "errno.h"

/* Which side of the copy is untrusted: that access gets the table entry. */
#define UNTRUSTED_SRC 0
#define UNTRUSTED_DST 1

/* name(dst, src, n): byte copy; returns 0, or -EFAULT if the untrusted side faults. */
.macro NOFAULT_COPY name, untrusted
	.globl \name
	.type \name, @function
\name:
	pushl %esi
	pushl %edi
	movl %eax, %edi         /* dst */
	movl %edx, %esi         /* src */
					/* %ecx = n */
1:	testl %ecx, %ecx
	jz 3f
	.if \untrusted == UNTRUSTED_SRC
2:	movb (%esi), %al        /* may fault */
	movb %al, (%edi)
	.else
	movb (%esi), %al
2:	movb %al, (%edi)        /* may fault */
	.endif
	incl %esi
	incl %edi
	decl %ecx
	jmp 1b
3:	xorl %eax, %eax
	popl %edi
	popl %esi
	ret
4:	movl $-EFAULT, %eax
	popl %edi
	popl %esi
	ret
	_ASM_EXTABLE(2b, 4b)
	.size \name, . - \name
	NOKPROBE_ASM(\name)
.endm

	.text
	NOFAULT_COPY copy_from_kernel_nofault, UNTRUSTED_SRC
	NOFAULT_COPY copy_to_kernel_nofault, UNTRUSTED_DST
	NOFAULT_COPY raw_copy_from_user, UNTRUSTED_SRC
	NOFAULT_COPY raw_copy_to_user, UNTRUSTED_DST
