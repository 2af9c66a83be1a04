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
#include <asm/signal.h>
#include <asm/sigframe.h>
#include "siginfo.h"

struct timespec {
	long tv_sec;
	long tv_nsec;
};

#define STDIN_FILENO	0
#define STDOUT_FILENO	1
#define O_RDONLY	0

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
/* A handler's way out that never returns (user/lib/setjmp.S). */
typedef unsigned long jmp_buf[6];
int setjmp(jmp_buf env) __attribute__((returns_twice));
void longjmp(jmp_buf env, int val) __attribute__((noreturn));

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int puts(const char *s);
long msleep(unsigned long ms);
long sleep(unsigned long seconds);

#endif
