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
/* Start a built-in program (argv NULL-terminated); its pid or -errno. */
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

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int puts(const char *s);
long msleep(unsigned long ms);
long sleep(unsigned long seconds);

#endif
