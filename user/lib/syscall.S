/*
 * syscall.S - one small function per system call (Linux's i386
 * convention, arch/i386/include/asm/unistd_32.h): the number in %eax, the
 * arguments in %ebx, %ecx, %edx, %esi, %edi, %ebp, then int $0x80.
 * The result comes back in %eax: a negative errno on failure.  (A C
 * library would store that in errno and return -1; ours returns it as
 * the kernel gave it.)
 *
 * %ebx, %esi, %edi and %ebp belong to our caller (the C convention), so
 * they are saved around the trap.
 */
#include <asm/unistd_32.h>

#define SAVED	16	/* four registers pushed */
#define ARG(n)	(SAVED + 4 + 4 * (n))(%esp)

.macro SYSCALL name, nr
	.globl \name
	.type \name, @function
\name:
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl %ebp
	movl ARG(0), %ebx
	movl ARG(1), %ecx
	movl ARG(2), %edx
	movl ARG(3), %esi
	movl ARG(4), %edi
	movl ARG(5), %ebp
	movl $\nr, %eax
	int $0x80
	popl %ebp
	popl %edi
	popl %esi
	popl %ebx
	ret
	.size \name, . - \name
.endm

	.text
	SYSCALL exit, __NR_exit
	SYSCALL read, __NR_read
	SYSCALL write, __NR_write
	SYSCALL open, __NR_open
	SYSCALL close, __NR_close
	SYSCALL waitpid, __NR_waitpid
	SYSCALL getpid, __NR_getpid
	SYSCALL kill, __NR_kill
	SYSCALL nanosleep, __NR_nanosleep
	SYSCALL spawn, __NR_spawn
	SYSCALL execve, __NR_execve
	SYSCALL wait4, __NR_wait4
	SYSCALL exit_group, __NR_exit_group
	SYSCALL lseek, __NR_lseek
	SYSCALL dup, __NR_dup
	SYSCALL dup2, __NR_dup2
	SYSCALL pipe, __NR_pipe
	SYSCALL pipe2, __NR_pipe2
	SYSCALL mkdir, __NR_mkdir
	SYSCALL unlink, __NR_unlink
	SYSCALL getdents64, __NR_getdents64
	SYSCALL stat64, __NR_stat64
	SYSCALL fstat64, __NR_fstat64
	SYSCALL fork, __NR_fork
	SYSCALL clone, __NR_clone
	SYSCALL brk, __NR_brk
	SYSCALL getrusage, __NR_getrusage
	SYSCALL mmap2, __NR_mmap2
	SYSCALL munmap, __NR_munmap
	SYSCALL mprotect, __NR_mprotect
	SYSCALL rt_sigaction, __NR_rt_sigaction
	SYSCALL rt_sigprocmask, __NR_rt_sigprocmask
	SYSCALL rt_sigpending, __NR_rt_sigpending
	SYSCALL old_sigaction, __NR_sigaction
	SYSCALL setpgid, __NR_setpgid
	SYSCALL getpgid, __NR_getpgid
	SYSCALL getpgrp, __NR_getpgrp
	SYSCALL mount, __NR_mount
	SYSCALL umount2, __NR_umount2
	SYSCALL umount, __NR_umount
