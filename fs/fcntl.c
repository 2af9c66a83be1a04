/*
 * fcntl.c - fcntl(2) and fcntl64(2) (Linux's fs/fcntl.c): a descriptor
 * copied at or above a number (how a shell saves fd 1 at 10 or more
 * before a redirection), its close-on-exec flag, and the file's status
 * flags.  The two calls differ on Linux only for the record locks'
 * struct flock (F_GETLK64 ...), which this kernel does not have:
 * those commands are -EINVAL, as an unknown one is on Linux.
 *
 * FD_CLOEXEC belongs to the descriptor (files->close_on_exec), the
 * status flags to the file, shared by every dup of it.  Of the status
 * flags only O_APPEND and O_NONBLOCK can change after open(), as
 * Linux's SETFL_MASK (O_DIRECT and O_NOATIME mean nothing here).
 */
#include "kernel.h"
#include "syscalls.h"
#include "sched.h"
#include "fs.h"
#include "fcntl.h"
#include "errno.h"

#define SETFL_MASK	(O_APPEND | O_NONBLOCK)
/* What open() acted on and forgot: F_GETFL does not show them (Linux's do_dentry_open()). */
#define OPEN_ONLY_FLAGS	(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC)

/* F_DUPFD: the lowest free descriptor >= from (Linux's f_dupfd()). */
static long f_dupfd(unsigned int from, struct file *f, unsigned int flags)
{
	long fd;

	if (from >= NR_OPEN_DEFAULT)
		return -EINVAL;		/* past RLIMIT_NOFILE, as Linux */
	get_file(f);
	fd = fd_install_from(f, from, flags);
	if (fd < 0)
		fput(f);
	return fd;
}

static long set_close_on_exec(unsigned int fd, bool on)
{
	struct files_struct *files = current_files();

	if (!files)
		return -ENOMEM;
	if (on)
		files->close_on_exec |= 1UL << fd;
	else
		files->close_on_exec &= ~(1UL << fd);
	return 0;
}

static long get_close_on_exec(unsigned int fd)
{
	struct files_struct *files = current_files();

	return files && (files->close_on_exec & (1UL << fd)) ? FD_CLOEXEC : 0;
}

static long do_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg, struct file *f)
{
	switch (cmd) {
	case F_DUPFD:
		return f_dupfd(arg, f, 0);
	case F_DUPFD_CLOEXEC:
		return f_dupfd(arg, f, O_CLOEXEC);
	case F_GETFD:
		return get_close_on_exec(fd);
	case F_SETFD:
		return set_close_on_exec(fd, arg & FD_CLOEXEC);
	case F_GETFL:
		return f->f_flags & ~OPEN_ONLY_FLAGS;
	case F_SETFL:
		f->f_flags = (f->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
		return 0;
	default:
		return -EINVAL;
	}
}

asmlinkage long sys_fcntl64(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct file *f = fget(fd);

	return f ? do_fcntl(fd, cmd, arg, f) : -EBADF;
}

asmlinkage long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	return sys_fcntl64(fd, cmd, arg);
}
