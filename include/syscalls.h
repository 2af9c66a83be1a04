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
 * `p vfs_read`, `p ksys_write`.  vfs_read's pos is a size_t here (no
 * file is larger than a snapshot), Linux's a loff_t.
 */
struct file;
long do_sys_open(int dfd, const char __user *filename, int flags, umode_t mode);
long ksys_read(unsigned int fd, char __user *buf, size_t count);
long ksys_write(unsigned int fd, const char __user *buf, size_t count);
long vfs_read(struct file *file, char __user *buf, size_t count, size_t *pos);

/* From the int $0x80 entry: run the call regs->ax names, result in regs->ax. */
void do_int80_syscall_32(struct pt_regs *regs);
DECLARE_PER_CPU(unsigned long, syscall_count);	/* calls taken on each CPU */

#endif
