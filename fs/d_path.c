/*
 * d_path.c - getcwd(2): the working directory's absolute path (Linux's
 * fs/d_path.c).  The ramfs writes it from the directory up through its
 * parents to "/" (ramfs_path()), as Linux's prepend_path() does from a
 * dentry; a directory removed since gives -ENOENT, as on Linux.  A
 * tracefs or debugfs directory is kept by its path (fs_pwd_path()).
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "ramfs.h"
#include "mm.h"
#include "uaccess.h"
#include "string.h"
#include "errno.h"

/* The path's length with its NUL, as Linux returns it; -ERANGE if size has no room. */
asmlinkage long sys_getcwd(char __user *buf, unsigned long size)
{
	struct fs_struct *fs = current_fs();
	char *path = kmalloc(PATH_MAX);
	long ret = -ENOMEM;
	size_t len;

	if (path)
		ret = fs_pwd_path(fs, path, PATH_MAX);
	if (!ret) {
		len = strlen(path) + 1;
		if (len > size)
			ret = -ERANGE;
		else
			ret = copy_to_user(buf, path, len) ? -EFAULT : (long)len;
	}
	kfree(path);
	return ret;
}
