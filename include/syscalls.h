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
asmlinkage long sys_vfork(void);
asmlinkage long sys_clone(unsigned long clone_flags, unsigned long newsp,
			  int __user *parent_tidptr, unsigned long tls,
			  int __user *child_tidptr);
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
/* Files and directories (fs/namei.c, fs/open.c, fs/stat.c, fs/fcntl.c, ...; docs/files.md). */
struct stat64;
struct statx;
struct iovec;
struct old_timespec32;
struct __kernel_timespec;
asmlinkage long sys_chdir(const char __user *filename);
asmlinkage long sys_fchdir(unsigned int fd);
asmlinkage long sys_getcwd(char __user *buf, unsigned long size);
asmlinkage long sys_openat(int dfd, const char __user *filename, int flags, int mode);
asmlinkage long sys_mkdirat(int dfd, const char __user *pathname, umode_t mode);
asmlinkage long sys_unlinkat(int dfd, const char __user *pathname, int flag);
asmlinkage long sys_renameat(int olddfd, const char __user *oldname, int newdfd,
			     const char __user *newname);
asmlinkage long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
			      const char __user *newname, unsigned int flags);
asmlinkage long sys_rename(const char __user *oldname, const char __user *newname);
asmlinkage long sys_rmdir(const char __user *pathname);
asmlinkage long sys_access(const char __user *filename, int mode);
asmlinkage long sys_faccessat(int dfd, const char __user *filename, int mode);
asmlinkage long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags);
asmlinkage long sys_readlink(const char __user *path, char __user *buf, int bufsiz);
asmlinkage long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf,
			       int bufsiz);
asmlinkage long sys_umask(int mask);
asmlinkage long sys_chmod(const char __user *filename, umode_t mode);
asmlinkage long sys_fchmod(unsigned int fd, umode_t mode);
asmlinkage long sys_fchmodat(int dfd, const char __user *filename, umode_t mode);
asmlinkage long sys_utimensat(int dfd, const char __user *filename,
			      struct old_timespec32 __user *utimes, int flags);
asmlinkage long sys_utimensat_time64(int dfd, const char __user *filename,
				     struct __kernel_timespec __user *utimes, int flags);
asmlinkage long sys_fstatat64(int dfd, const char __user *filename,
			      struct stat64 __user *statbuf, int flag);
asmlinkage long sys_statx(int dfd, const char __user *filename, unsigned int flags,
			  unsigned int mask, struct statx __user *buffer);
asmlinkage long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg);
asmlinkage long sys_fcntl64(unsigned int fd, unsigned int cmd, unsigned long arg);
asmlinkage long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
asmlinkage long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen);
asmlinkage long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen);
asmlinkage long sys_pread64(unsigned int fd, char __user *buf, size_t count, long long pos);
asmlinkage long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count,
			     long long pos);
asmlinkage long sys_truncate(const char __user *path, long length);
asmlinkage long sys_ftruncate(unsigned int fd, long length);
asmlinkage long sys_truncate64(const char __user *path, long long length);
asmlinkage long sys_ftruncate64(unsigned int fd, long long length);

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
/* Has the log said "syscall NR (name) not implemented" yet?  It does once per number. */
bool syscall_ni_told(unsigned long nr);

/* The calls a C library's startup and a shell make (kernel/sys.c, arch/i386/tls.c, kernel/time.c, fs/ioctl.c). */
struct user_desc;
struct new_utsname;
struct rlimit;
struct timeval;
struct timezone;
struct old_timespec32;
struct __kernel_timespec;
asmlinkage long sys_set_thread_area(struct user_desc __user *u_info);
asmlinkage long sys_get_thread_area(struct user_desc __user *u_info);
asmlinkage long sys_getuid(void);
asmlinkage long sys_geteuid(void);
asmlinkage long sys_getgid(void);
asmlinkage long sys_getegid(void);
asmlinkage long sys_getresuid(unsigned int __user *ruid, unsigned int __user *euid,
			      unsigned int __user *suid);
asmlinkage long sys_getresgid(unsigned int __user *rgid, unsigned int __user *egid,
			      unsigned int __user *sgid);
asmlinkage long sys_getgroups(int gidsetsize, unsigned int __user *grouplist);
asmlinkage long sys_getppid(void);
asmlinkage long sys_newuname(struct new_utsname __user *name);
asmlinkage long sys_set_tid_address(int __user *tidptr);
asmlinkage long sys_set_robust_list(void __user *head, size_t len);
asmlinkage long sys_ugetrlimit(unsigned int resource, struct rlimit __user *rlim);
asmlinkage long sys_prctl(int option, unsigned long arg2);
asmlinkage long sys_gettimeofday(struct timeval __user *tv, struct timezone __user *tz);
asmlinkage long sys_clock_gettime32(int which_clock, struct old_timespec32 __user *tp);
asmlinkage long sys_clock_gettime(int which_clock, struct __kernel_timespec __user *tp);
asmlinkage long sys_clock_nanosleep32(int which_clock, int flags,
				      const struct old_timespec32 __user *rqtp,
				      struct old_timespec32 __user *rmtp);
asmlinkage long sys_clock_nanosleep(int which_clock, int flags,
				    const struct __kernel_timespec __user *rqtp,
				    struct __kernel_timespec __user *rmtp);
asmlinkage long sys_getrandom(char __user *buf, size_t count, unsigned int flags);
asmlinkage long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg);
struct pollfd;
asmlinkage long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs);

/* kernel/signal.c: waiting for signals, per-thread kill, the alternate stack */
asmlinkage long sys_pause(void);
asmlinkage long sys_rt_sigsuspend(const sigset_t __user *unewset, size_t sigsetsize);
asmlinkage long sys_sigsuspend(int unused1, int unused2, unsigned long mask);
asmlinkage long sys_rt_sigtimedwait(const sigset_t __user *uthese, struct siginfo __user *uinfo,
				    const struct timespec __user *uts, size_t sigsetsize);
asmlinkage long sys_tkill(int pid, int sig);
asmlinkage long sys_tgkill(int tgid, int pid, int sig);
asmlinkage long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss);

/* fs/namespace.c: mount(2), umount2(2) and i386's first umount(2). */
asmlinkage long sys_mount(char __user *dev_name, char __user *dir_name, char __user *type,
			  unsigned long flags, void __user *data);
asmlinkage long sys_umount(char __user *name, int flags);
asmlinkage long sys_oldumount(char __user *name);
asmlinkage long sys_symlink(const char __user *oldname, const char __user *newname);
asmlinkage long sys_symlinkat(const char __user *oldname, int newdfd,
			      const char __user *newname);

#endif
