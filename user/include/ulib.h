/*
 * ulib.h - the user programs' tiny C library: system call wrappers
 * (user/lib/syscall.S, each returning the kernel's result: a negative
 * errno on failure) and a few helpers (user/lib/ulib.c).  The string
 * and formatting functions are the kernel's own lib/string.c and
 * lib/vsprintf.c, built a second time for ring 3.
 */
#ifndef ULIB_H
#define ULIB_H

#include <stddef.h>
#include <stdarg.h>
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "fcntl.h"
#include <asm/signal.h>
#include <asm/sigframe.h>
#include "siginfo.h"

struct timespec {
	long tv_sec;
	long tv_nsec;
};

#define STDIN_FILENO	0
#define STDOUT_FILENO	1
#define STDERR_FILENO	2

/* Linux's wait status (include/process.h has the kernel's copy). */
#define WIFSIGNALED(st)	(((st) & 0x7f) != 0)
#define WTERMSIG(st)	((st) & 0x7f)
#define WEXITSTATUS(st)	(((st) >> 8) & 0xff)

void exit(int code) __attribute__((noreturn));
long read(int fd, void *buf, size_t count);
long write(int fd, const void *buf, size_t count);
long open(const char *path, int flags, ...);
long close(int fd);
long waitpid(int pid, int *status, int options);
long getpid(void);
long kill(int pid, int sig);
long nanosleep(const struct timespec *req, struct timespec *rem);
/*
 * Start a program: fork() + execve() (user/lib/spawn.c).  name without
 * a slash is /bin/NAME; argv is NULL-terminated.  The child's pid, or
 * execve()'s -errno (nothing runs then).
 */
long spawn(const char *name, const char *const argv[]);
/* docs/exec.md: Linux's calls, Linux's numbers. */
long execve(const char *path, const char *const argv[], const char *const envp[]);
long wait4(int pid, int *status, int options, void *rusage);
void exit_group(int code) __attribute__((noreturn));
long lseek(int fd, long offset, int whence);
long dup(int fd);
long dup2(int oldfd, int newfd);
long pipe(int fds[2]);
long pipe2(int fds[2], int flags);
long mkdir(const char *path, int mode);
long unlink(const char *path);
long getdents64(int fd, void *dirp, unsigned int count);
struct stat64;
long stat64(const char *path, struct stat64 *st);
long fstat64(int fd, struct stat64 *st);
#define WNOHANG		1
#define WIFEXITED(st)	(((st) & 0x7f) == 0)

/* Linux's fork(): the child's pid in the parent, 0 in the child, or -errno. */
long fork(void);
/* vfork(): fork, and the parent waits until the child has exec'd or exited. */
long vfork(void);
/*
 * The raw clone system call in Linux i386's order, not the C library's
 * clone(fn, stack, ...): with flags only the exit signal (SIGCHLD) and
 * no stack, it is fork().  kernel/fork.c says which flags it takes.
 */
#define SIGCHLD 17
long clone(unsigned long flags, void *stack, int *parent_tid, unsigned long tls,
	   int *child_tid);
/* The raw brk(2): the heap's new end, or the old one if refused; brk(0) asks. */
unsigned long brk(unsigned long end);
/* The C library's sbrk(): grow the heap by incr bytes; its old end, or (void *)-1. */
void *sbrk(long incr);

/* Linux's struct rusage (i386); only ru_minflt is kept (page faults handled). */
struct rusage {
	long ru_utime[2], ru_stime[2];
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap, ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
#define RUSAGE_SELF 0
long getrusage(int who, struct rusage *ru);
/* This process's page faults so far (getrusage's ru_minflt). */
long minor_faults(void);

/* Anonymous memory (Linux's mmap2 with pgoff 0, munmap, mprotect). */
#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define MAP_FAILED	((void *)-1)
/* The raw system call: the address, or -errno cast to a pointer. */
long mmap2(void *addr, size_t len, int prot, int flags, int fd, long pgoff);
/* The C library's mmap(): MAP_FAILED on any error. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long offset);
long munmap(void *addr, size_t len);
long mprotect(void *addr, size_t len, int prot);

/* Signals (user/lib/signal.c, sigrestore.S; docs/signals.md). */
long rt_sigaction(int sig, const struct sigaction *act, struct sigaction *oact, size_t size);
long rt_sigprocmask(int how, const sigset_t *set, sigset_t *old, size_t size);
long rt_sigpending(sigset_t *set, size_t size);
long old_sigaction(int sig, const struct old_sigaction *act, struct old_sigaction *oact);
long setpgid(int pid, int pgid);
long getpgid(int pid);
long getpgrp(void);
/* With SA_RESTORER and the library's restorer unless the caller gave one. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *oact);
__sighandler_t signal(int sig, __sighandler_t handler);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigemptyset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);
int raise(int sig);
/* Waiting for signals, signals to one thread, the alternate stack (docs/signals.md). */
long pause(void);
long rt_sigsuspend(const sigset_t *mask, size_t size);
long old_sigsuspend(int unused1, int unused2, unsigned long mask);
long rt_sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout,
		     size_t size);
long sigaltstack(const stack_t *ss, stack_t *oss);
long tkill(int tid, int sig);
long tgkill(int tgid, int tid, int sig);
int sigsuspend(const sigset_t *mask);
int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout);
/* A handler's way out that never returns (user/lib/setjmp.S). */
typedef unsigned long jmp_buf[6];
int setjmp(jmp_buf env) __attribute__((returns_twice));
void longjmp(jmp_buf env, int val) __attribute__((noreturn));

/* Files and directories (docs/files.md): Linux's calls, the raw results. */
struct statx;
struct iovec {
	void *iov_base;
	size_t iov_len;
};
long chdir(const char *path);
long fchdir(int fd);
long getcwd(char *buf, size_t size);	/* the length with the NUL, or -errno */
long openat(int dfd, const char *path, int flags, ...);
long mkdirat(int dfd, const char *path, int mode);
long unlinkat(int dfd, const char *path, int flags);
long renameat(int olddfd, const char *oldpath, int newdfd, const char *newpath);
long renameat2(int olddfd, const char *oldpath, int newdfd, const char *newpath,
	       unsigned int flags);
long rename(const char *oldpath, const char *newpath);
long rmdir(const char *path);
long access(const char *path, int mode);
long faccessat(int dfd, const char *path, int mode);
long readlink(const char *path, char *buf, int size);
long readlinkat(int dfd, const char *path, char *buf, int size);
long umask(int mask);
long chmod(const char *path, int mode);
long fchmod(int fd, int mode);
long utimensat(int dfd, const char *path, const struct timespec times[2], int flags);
long fstatat64(int dfd, const char *path, struct stat64 *st, int flags);
long statx(int dfd, const char *path, int flags, unsigned int mask, struct statx *buf);
long fcntl64(int fd, int cmd, ...);
long dup3(int oldfd, int newfd, int flags);
long readv(int fd, const struct iovec *iov, int iovcnt);
long writev(int fd, const struct iovec *iov, int iovcnt);
long pread64(int fd, void *buf, size_t count, long long pos);
long pwrite64(int fd, const void *buf, size_t count, long long pos);
long truncate64(const char *path, long long length);
long ftruncate64(int fd, long long length);
long lstat64(const char *path, struct stat64 *st);
long symlink(const char *target, const char *path);
long symlinkat(const char *target, int dfd, const char *path);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int puts(const char *s);
long msleep(unsigned long ms);
long sleep(unsigned long seconds);

/* Any system call by its number (Linux's syscall(2)): the kernel's result, -errno on failure. */
long syscall(long nr, ...);
/* docs/procfs.md: mount(2), umount2(2) and i386's umount(2), Linux's numbers. */
long mount(const char *source, const char *target, const char *type, unsigned long flags,
	   const void *data);
long umount2(const char *target, int flags);
long umount(const char *target);

#endif
