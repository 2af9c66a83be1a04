/*
 * sigrestore.S - the return trampolines a C library gives the kernel as
 * SA_RESTORER (glibc's __restore_rt and __restore on i386): a signal
 * handler "returns" here, with the stack pointer just past pretcode,
 * and the kernel's frame above it (arch/i386/signal.c).
 *
 * __restore_rt: the rt frame's handler returned; rt_sigreturn reads
 * the frame 4 bytes below %esp.
 * __restore: the old frame's; its sig argument is still on the stack,
 * so pop it first: sigreturn reads the frame 8 bytes below %esp.
 */
#include <asm/unistd_32.h>

	.text
	.globl __restore_rt
	.type __restore_rt, @function
__restore_rt:
	movl $__NR_rt_sigreturn, %eax
	int $0x80
	.globl __restore_rt_end		/* where a refused rt_sigreturn leaves ip */
__restore_rt_end:
	.size __restore_rt, . - __restore_rt

	.globl __restore
	.type __restore, @function
__restore:
	popl %eax
	movl $__NR_sigreturn, %eax
	int $0x80
	.size __restore, . - __restore
