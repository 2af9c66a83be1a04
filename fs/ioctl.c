/*
 * ioctl.c - ioctl(fd, cmd, arg) (54): the call for everything a file
 * does besides reading and writing (Linux's fs/ioctl.c).  The file's
 * own operations answer it (f_op->unlocked_ioctl): here only the
 * console has any, the terminal's (kernel/tty.c).  Any other file is
 * "not a typewriter", -ENOTTY, which is how a program - a shell's
 * isatty() - learns that its input is a file or a pipe.
 */
#include "kernel.h"
#include "fs.h"
#include "syscalls.h"
#include "errno.h"

asmlinkage long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!f->f_op->unlocked_ioctl)
		return -ENOTTY;
	return f->f_op->unlocked_ioctl(f, cmd, arg);
}
