/*
 * asm/unistd_32.h - system call numbers: Linux i386's, for every call
 * that exists there (arch/x86/entry/syscalls/syscall_32.tbl), so a
 * student can read a Linux strace of the same program side by side.
 * Shared by the kernel (arch/i386/syscall.c) and user/lib.
 *
 * The convention, Linux i386's: "int $0x80" with the number in %eax,
 * arguments in %ebx, %ecx, %edx, %esi, %edi, %ebp; the result comes
 * back in %eax, a negative errno on failure.
 */
#ifndef ASM_UNISTD_32_H
#define ASM_UNISTD_32_H

#define __NR_exit		1
#define __NR_fork		2
#define __NR_read		3
#define __NR_write		4
#define __NR_open		5
#define __NR_close		6
#define __NR_waitpid		7
#define __NR_getpid		20
#define __NR_kill		37
#define __NR_brk		45
#define __NR_getrusage		77
#define __NR_munmap		91
#define __NR_clone		120
#define __NR_mprotect		125
#define __NR_nanosleep		162
#define __NR_unlink		10
#define __NR_execve		11
#define __NR_lseek		19
#define __NR_mkdir		39
#define __NR_dup		41
#define __NR_pipe		42
#define __NR_dup2		63
#define __NR_wait4		114
#define __NR__llseek		140
#define __NR_stat64		195
#define __NR_lstat64		196
#define __NR_fstat64		197
#define __NR_getdents64		220
#define __NR_exit_group		252
#define __NR_pipe2		331
#define __NR_mmap2		192
#define __NR_setpgid		57
#define __NR_getpgrp		65
#define __NR_sigaction		67
#define __NR_sigreturn		119
#define __NR_getpgid		132
#define __NR_rt_sigreturn	173
#define __NR_rt_sigaction	174
#define __NR_rt_sigprocmask	175
#define __NR_rt_sigpending	176
#define __NR_mount		21
#define __NR_umount		22
#define __NR_umount2		52
/*
 * Not Linux's: Linux starts a program with fork() + execve() (glibc's
 * posix_spawn() too).  Ours is one call, spawn(name, argv), that makes
 * a new process running a built-in program; past Linux's last number.
 */
#define __NR_spawn		500
#define NR_syscalls		501

#endif
