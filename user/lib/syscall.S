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
	SYSCALL pause, __NR_pause
	SYSCALL rt_sigsuspend, __NR_rt_sigsuspend
	SYSCALL old_sigsuspend, __NR_sigsuspend
	SYSCALL rt_sigtimedwait, __NR_rt_sigtimedwait
	SYSCALL sigaltstack, __NR_sigaltstack
	SYSCALL tkill, __NR_tkill
	SYSCALL tgkill, __NR_tgkill
	SYSCALL vfork, __NR_vfork
	SYSCALL chdir, __NR_chdir
	SYSCALL fchdir, __NR_fchdir
	SYSCALL getcwd, __NR_getcwd
	SYSCALL openat, __NR_openat
	SYSCALL mkdirat, __NR_mkdirat
	SYSCALL unlinkat, __NR_unlinkat
	SYSCALL renameat, __NR_renameat
	SYSCALL renameat2, __NR_renameat2
	SYSCALL rename, __NR_rename
	SYSCALL rmdir, __NR_rmdir
	SYSCALL access, __NR_access
	SYSCALL faccessat, __NR_faccessat
	SYSCALL readlink, __NR_readlink
	SYSCALL readlinkat, __NR_readlinkat
	SYSCALL umask, __NR_umask
	SYSCALL chmod, __NR_chmod
	SYSCALL fchmod, __NR_fchmod
	SYSCALL utimensat, __NR_utimensat
	SYSCALL fstatat64, __NR_fstatat64
	SYSCALL statx, __NR_statx
	SYSCALL fcntl64, __NR_fcntl64
	SYSCALL dup3, __NR_dup3
	SYSCALL readv, __NR_readv
	SYSCALL writev, __NR_writev
	SYSCALL pread64, __NR_pread64
	SYSCALL pwrite64, __NR_pwrite64
	SYSCALL truncate64, __NR_truncate64
	SYSCALL ftruncate64, __NR_ftruncate64
	SYSCALL lstat64, __NR_lstat64
	SYSCALL symlink, __NR_symlink
	SYSCALL symlinkat, __NR_symlinkat

/*
 * syscall(nr, a1, ..., a6): any call by its number, Linux's syscall(2),
 * for the calls without a function of their own here (user/linuxabi.c).
 */
	.globl syscall
	.type syscall, @function
syscall:
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl %ebp
	movl ARG(0), %eax
	movl ARG(1), %ebx
	movl ARG(2), %ecx
	movl ARG(3), %edx
	movl ARG(4), %esi
	movl ARG(5), %edi
	movl ARG(6), %ebp
	int $0x80
	popl %ebp
	popl %edi
	popl %esi
	popl %ebx
	ret
	.size syscall, . - syscall
	SYSCALL mount, __NR_mount
	SYSCALL umount2, __NR_umount2
	SYSCALL umount, __NR_umount
