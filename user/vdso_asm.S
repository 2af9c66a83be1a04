/*
 * vdso_asm.S - the calls user/vdso.c makes through __kernel_vsyscall
 * with every register chosen: C cannot say "call with %ebp = a6".
 */
	.data
	.globl vsyscall_clobbers
vsyscall_clobbers:			/* calls that changed a register besides %eax */
	.long 0
vsyscall_entry:
	.long 0

	.text
/*
 * long vsyscall6(entry, nr, a1, a2, a3, a4, a5, a6): %eax = nr, %ebx,
 * %ecx, %edx, %esi, %edi, %ebp = a1..a6, call *entry, as glibc's
 * "call *%gs:0x10" does; the result in %eax.  Every other register must
 * come back as it went: counted in vsyscall_clobbers if one did not.
 */
	.globl vsyscall6
	.type vsyscall6, @function
vsyscall6:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl 20(%esp), %eax
	movl %eax, vsyscall_entry
	movl 24(%esp), %eax
	movl 28(%esp), %ebx
	movl 32(%esp), %ecx
	movl 36(%esp), %edx
	movl 40(%esp), %esi
	movl 44(%esp), %edi
	movl 48(%esp), %ebp
	call *vsyscall_entry
	cmpl 28(%esp), %ebx
	jne 1f
	cmpl 32(%esp), %ecx
	jne 1f
	cmpl 36(%esp), %edx
	jne 1f
	cmpl 40(%esp), %esi
	jne 1f
	cmpl 44(%esp), %edi
	jne 1f
	cmpl 48(%esp), %ebp
	je 2f
1:	incl vsyscall_clobbers
2:	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size vsyscall6, . - vsyscall6

/*
 * long vsyscall_stepped(entry, nr): the same call with EFLAGS.TF set -
 * a SIGTRAP after every instruction, the vDSO's and the kernel's entry
 * through sysenter included.  The SIGTRAP handler clears TF when the
 * step reaches vsyscall_step_done.
 */
	.globl vsyscall_stepped
	.type vsyscall_stepped, @function
vsyscall_stepped:
	movl 4(%esp), %ecx
	movl 8(%esp), %eax
	pushfl
	orl $0x100, (%esp)		/* X86_EFLAGS_TF */
	popfl
	call *%ecx
	.globl vsyscall_step_done
vsyscall_step_done:
	ret
	.size vsyscall_stepped, . - vsyscall_stepped
