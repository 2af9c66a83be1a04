/* errno.h - Linux's error numbers; kernel functions return them negated. */
#ifndef ERRNO_H
#define ERRNO_H

#define EPERM    1
#define ENOENT   2
#define ESRCH    3
#define EINTR    4
#define EIO      5
#define ENXIO    6
#define E2BIG    7
#define ENOEXEC  8
#define EBADF    9
#define ECHILD  10
#define EAGAIN  11
#define ENOMEM  12
#define EACCES  13
#define EFAULT  14
#define EBUSY   16
#define EEXIST  17
#define ENODEV  19
#define ENOTDIR 20
#define EISDIR  21
#define EINVAL  22
#define EMFILE  24
#define ENOTTY  25
#define ENOSPC  28
#define ESPIPE  29
#define EROFS   30
#define EPIPE   32
#define EDOM    33
#define ERANGE  34
#define ENAMETOOLONG 36
#define ENOSYS  38
#define ENOTEMPTY 39
#define ELOOP   40	/* too many symbolic links in one walk */
#define EILSEQ  84
#define EOPNOTSUPP 95
#define ETIMEDOUT 110

/*
 * Never seen by a program (Linux's include/linux/errno.h): a slow system
 * call interrupted by a signal returns one, and the way out to ring 3
 * (arch_do_signal_or_restart()) turns it into -EINTR or a restart of
 * the call, as the signal's handler and SA_RESTART say.
 */
#define ERESTARTSYS		512	/* restart if the handler has SA_RESTART, or none ran */
#define ERESTARTNOINTR		513	/* always restart */
#define ERESTARTNOHAND		514	/* restart only if no handler ran (pause, sigsuspend) */
#define ERESTART_RESTARTBLOCK	516	/* restart through restart_syscall() */

#ifndef __ASSEMBLER__
/* An errno value (positive or negative) by name ("EINVAL") and in
 * words ("Invalid argument"); lib/errno.c holds the one table. */
const char *errno_name(int err);
const char *errno_meaning(int err);
#endif

#endif
