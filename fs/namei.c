/*
 * namei.c - the system calls that make and remove names: mkdir(2) and
 * unlink(2) (Linux's fs/namei.c).  The walk itself is the ramfs's
 * (fs/ramfs.c); here the path comes from the user.
 */
#include "kernel.h"
#include "syscalls.h"
#include "ramfs.h"
#include "mm.h"
#include "uaccess.h"
#include "errno.h"

/* Linux's getname(): the user's path in a kernel buffer, or -errno. */
static char *getname(const char __user *filename, long *err)
{
	char *path = kmalloc(PATH_MAX);
	long len;

	*err = -ENOMEM;
	if (!path)
		return NULL;
	len = strncpy_from_user(path, filename, PATH_MAX);
	*err = len < 0 ? len : len == PATH_MAX ? -ENAMETOOLONG : 0;
	if (*err) {
		kfree(path);
		return NULL;
	}
	return path;
}

asmlinkage long sys_mkdir(const char __user *pathname, umode_t mode)
{
	long ret;
	char *path = getname(pathname, &ret);

	if (!path)
		return ret;
	ret = ramfs_mkdir(path, mode);
	kfree(path);
	return ret;
}

asmlinkage long sys_unlink(const char __user *pathname)
{
	long ret;
	char *path = getname(pathname, &ret);

	if (!path)
		return ret;
	ret = ramfs_unlink(path);
	kfree(path);
	return ret;
}
