/*
 * syscalls.h - the system calls, each a real function named as in
 * Linux (sys_write, ...), so a kprobe or kretprobe can be put on it by
 * name: `p:sys_write_probe sys_write fd=%bx buf=%cx count=%dx`.  The
 * table that maps numbers to them is arch/i386/syscall.c.  Each is
 * asmlinkage, as Linux i386's were from 2.6.20 to 4.16: the entry code
 * pushes the user's registers as their arguments (syscall_call()).
 */
#ifndef SYSCALLS_H
#define SYSCALLS_H

#include <stddef.h>
#include "linux/compiler.h"
#include "linkage.h"
#include <asm/ptrace.h>
#include <asm/percpu.h>
#include <asm/signal.h>

typedef unsigned short umode_t;	/* a file's mode bits, Linux's type */

struct timespec {
	long tv_sec;
	long tv_nsec;
};

asmlinkage long sys_exit(int error_code);
asmlinkage long sys_read(unsigned int fd, char __user *buf, size_t count);
asmlinkage long sys_write(unsigned int fd, const char __user *buf, size_t count);
asmlinkage long sys_open(const char __user *filename, int flags, int mode);
asmlinkage long sys_close(unsigned int fd);
asmlinkage long sys_waitpid(int pid, int __user *stat_addr, int options);
asmlinkage long sys_getpid(void);
asmlinkage long sys_kill(int pid, int sig);
asmlinkage long sys_nanosleep(const struct timespec __user *rqtp, struct timespec __user *rmtp);
asmlinkage long sys_spawn(const char __user *name, const char __user *const __user *argv);
/* execve and the files of a process (fs/, kernel/file.c, kernel/exit.c; docs/exec.md) */
struct stat64;
asmlinkage long sys_execve(const char __user *filename, const char __user *const __user *argv,
			   const char __user *const __user *envp);
asmlinkage long sys_wait4(int pid, int __user *stat_addr, int options, void __user *ru);
asmlinkage long sys_exit_group(int error_code);
asmlinkage long sys_lseek(unsigned int fd, long offset, unsigned int whence);
asmlinkage long sys_llseek(unsigned int fd, unsigned long offset_high,
			   unsigned long offset_low, long long __user *result,
			   unsigned int whence);
asmlinkage long sys_dup(unsigned int fildes);
asmlinkage long sys_dup2(unsigned int oldfd, unsigned int newfd);
asmlinkage long sys_pipe(int __user *fildes);
asmlinkage long sys_pipe2(int __user *fildes, int flags);
asmlinkage long sys_mkdir(const char __user *pathname, umode_t mode);
asmlinkage long sys_unlink(const char __user *pathname);
asmlinkage long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count);
asmlinkage long sys_stat64(const char __user *filename, struct stat64 __user *statbuf);
asmlinkage long sys_lstat64(const char __user *filename, struct stat64 __user *statbuf);
asmlinkage long sys_fstat64(unsigned long fd, struct stat64 __user *statbuf);
asmlinkage long sys_fork(void);
asmlinkage long sys_clone(unsigned long clone_flags, unsigned long newsp);
asmlinkage unsigned long sys_brk(unsigned long brk);
/* Linux's struct rusage (i386): two timevals, then fourteen longs. */
struct rusage {
	long ru_utime[2], ru_stime[2];	/* struct timeval: sec, usec */
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt;			/* page faults handled without I/O */
	long ru_majflt, ru_nswap, ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
#define RUSAGE_SELF 0
asmlinkage long sys_getrusage(int who, struct rusage __user *ru);
asmlinkage long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot,
			  unsigned long flags, unsigned long fd, unsigned long pgoff);
asmlinkage long sys_munmap(unsigned long addr, unsigned long len);
asmlinkage long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot);
/* Signals (kernel/signal.c, arch/i386/signal.c) and process groups (kernel/sys.c). */
struct sigaction;
struct old_sigaction;
asmlinkage long sys_rt_sigaction(int sig, const struct sigaction __user *act,
				 struct sigaction __user *oact, size_t sigsetsize);
asmlinkage long sys_sigaction(int sig, const struct old_sigaction __user *act,
			      struct old_sigaction __user *oact);
asmlinkage long sys_rt_sigprocmask(int how, const sigset_t __user *nset,
				   sigset_t __user *oset, size_t sigsetsize);
asmlinkage long sys_rt_sigpending(sigset_t __user *uset, size_t sigsetsize);
asmlinkage long sys_sigreturn(void);
asmlinkage long sys_rt_sigreturn(void);
asmlinkage long sys_setpgid(int pid, int pgid);
asmlinkage long sys_getpgid(int pid);
asmlinkage long sys_getpgrp(void);

/*
 * What the calls do, under Linux's names (kernel/file.c), so Linux's
 * documented probes work: `p:myprobe do_sys_open dfd=%ax filename=%dx`,
 * `p vfs_read`, `p ksys_write`, with Linux's signatures.
 */
struct file;
long do_sys_open(int dfd, const char __user *filename, int flags, umode_t mode);
long ksys_read(unsigned int fd, char __user *buf, size_t count);
long ksys_write(unsigned int fd, const char __user *buf, size_t count);
long vfs_read(struct file *file, char __user *buf, size_t count, long long *pos);
long vfs_write(struct file *file, const char __user *buf, size_t count, long long *pos);

/* From the int $0x80 entry: run the call regs->ax names, result in regs->ax. */
void do_int80_syscall_32(struct pt_regs *regs);
/* The function system call nr runs, 0 for none (Linux's arch_syscall_addr()). */
unsigned long arch_syscall_addr(int nr);
DECLARE_PER_CPU(unsigned long, syscall_count);	/* calls taken on each CPU */

#endif
