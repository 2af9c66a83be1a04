/*
 * sigreturn.S - the vDSO's signal trampolines (Linux's
 * arch/x86/entry/vdso/vdso32/sigreturn.S; docs/signals.md).
 *
 * A handler returns to the frame's pretcode.  A program that names no
 * SA_RESTORER gets these, as on Linux: the kernel points pretcode here
 * (arch/i386/signal.c).  The old frame's handler(sig) left sig on the
 * stack: popped first, so that the frame starts where sigreturn
 * expects it.  The bytes are the ones the frame's retcode holds - gdb
 * recognises a signal trampoline by them.
 */
#include <asm/unistd_32.h>

	.text
	.globl __kernel_sigreturn
	.type __kernel_sigreturn, @function
	.balign 32
__kernel_sigreturn:
	popl %eax
	movl $__NR_sigreturn, %eax
	int $0x80
	.size __kernel_sigreturn, . - __kernel_sigreturn

	.globl __kernel_rt_sigreturn
	.type __kernel_rt_sigreturn, @function
	.balign 32
__kernel_rt_sigreturn:
	movl $__NR_rt_sigreturn, %eax
	int $0x80
	.size __kernel_rt_sigreturn, . - __kernel_rt_sigreturn
