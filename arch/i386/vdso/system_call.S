/*
 * system_call.S - __kernel_vsyscall, the vDSO's door into the kernel
 * (Linux's arch/x86/entry/vdso/vdso32/system_call.S; docs/vdso.md).
 *
 * glibc makes every system call as "call *%gs:0x10": the address
 * exec gave it in AT_SYSINFO, this function.  It is built twice
 * (Makefile): with sysenter for a CPU that has it, with int $0x80 alone
 * for one that does not; the kernel maps the one its CPU can run
 * (arch/i386/vdso.c), so the program never asks which.
 *
 * Why sysenter needs this page at all: int $0x80 pushes the user's
 * ss, esp, eflags, cs and eip, so the kernel knows where to return.
 * sysenter pushes nothing and saves nothing - it loads %cs, %eip and
 * %esp from MSRs and goes - so the kernel cannot know where the caller
 * was.  The answer is a fixed place to return to: the kernel sends
 * every sysenter back to int80_landing_pad, below, in this page it
 * mapped itself, and the stack pointer comes in %ebp, copied just
 * before.  That frees %ebp, the sixth argument, so the user's %ebp is
 * pushed first and the kernel reads it from the stack.  sysexit takes
 * the return %eip from %edx and %esp from %ecx, so those two are
 * pushed too and popped after.
 */
	.text
	.globl __kernel_vsyscall
	.type __kernel_vsyscall, @function
	.balign 16
__kernel_vsyscall:
	.cfi_startproc
	pushl %ecx			/* sysexit returns with %ecx = esp, */
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ecx, 0
	pushl %edx			/* %edx = eip */
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %edx, 0
	pushl %ebp			/* the sixth argument: the kernel reads it here */
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ebp, 0
#ifdef CONFIG_VDSO_SYSENTER
	movl %esp, %ebp			/* where the kernel finds us */
	sysenter			/* comes back at int80_landing_pad */
#endif
	/*
	 * int $0x80: the only way in without sysenter, and the way a
	 * system call restarts after a signal - the kernel moves the
	 * return address 2 bytes back, onto this instruction.
	 */
	int $0x80
	.globl int80_landing_pad
int80_landing_pad:
	popl %ebp
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebp
	popl %edx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %edx
	popl %ecx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ecx
	ret
	.cfi_endproc
	.size __kernel_vsyscall, . - __kernel_vsyscall
