/*
 * safe_copy.S - memory copies that survive a bad pointer.
 *
 *   long copy_from_kernel_nofault(void *dst, const void *src, size_t n)
 *   long copy_to_kernel_nofault(void *dst, const void *src, size_t n)
 *
 * Each copies byte by byte.  The one instruction that touches the
 * untrusted side has an exception-table entry: if it faults (#PF on an
 * unmapped page, #GP on a non-canonical access), do_trap() finds the
 * entry and resumes at the fixup label, which returns -EFAULT.  The
 * byte-by-byte loop is slow but obvious, and it means a fault can only
 * ever happen on that one instruction.
 */
#include "extable.h"
#include "nokprobe.h"

#define EFAULT 14

	.text
	.globl copy_from_kernel_nofault
	.type copy_from_kernel_nofault, @function
copy_from_kernel_nofault:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi     /* dst */
	movl 16(%esp), %esi     /* src: may be bad */
	movl 20(%esp), %ecx     /* n */
1:	testl %ecx, %ecx
	jz 3f
2:	movb (%esi), %al        /* may fault */
	movb %al, (%edi)
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
	.size copy_from_kernel_nofault, . - copy_from_kernel_nofault
	NOKPROBE_ASM(copy_from_kernel_nofault)

	.globl copy_to_kernel_nofault
	.type copy_to_kernel_nofault, @function
copy_to_kernel_nofault:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi     /* dst: may be bad */
	movl 16(%esp), %esi     /* src */
	movl 20(%esp), %ecx     /* n */
1:	testl %ecx, %ecx
	jz 3f
	movb (%esi), %al
2:	movb %al, (%edi)        /* may fault */
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
	.size copy_to_kernel_nofault, . - copy_to_kernel_nofault
	NOKPROBE_ASM(copy_to_kernel_nofault)
