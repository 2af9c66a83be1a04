/*
 * stat.c - stat64(2), lstat64(2) and fstat64(2): what a file is, in
 * Linux i386's struct stat64 (Linux's fs/stat.c, the layout of
 * arch/x86/include/uapi/asm/stat.h), 96 bytes.
 *
 * No file here has an owner, a device or a time yet: those fields are
 * 0.  There are no symbolic links, so lstat64 is stat64.
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "ramfs.h"
#include "pseudofs.h"
#include "uaccess.h"
#include "string.h"
#include "errno.h"

#define STAT_BLKSIZE	4096	/* st_blksize: the best I/O size, a page */
#define STAT_BLOCK	512	/* st_blocks counts 512-byte units, as on Linux */
#define STAT64_SIZE	96

struct stat64 {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned long __st_ino;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned long st_uid;
	unsigned long st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	unsigned long st_atime;
	unsigned long st_atime_nsec;
	unsigned long st_mtime;
	unsigned int st_mtime_nsec;
	unsigned long st_ctime;
	unsigned long st_ctime_nsec;
	unsigned long long st_ino;
};
_Static_assert(sizeof(struct stat64) == STAT64_SIZE, "Linux i386's struct stat64");

static void fill_stat(struct stat64 *st, unsigned long ino, unsigned int mode, size_t size)
{
	memset(st, 0, sizeof(*st));
	st->__st_ino = st->st_ino = ino;
	st->st_mode = mode;
	st->st_nlink = S_ISDIR(mode) ? 2 : 1;
	st->st_size = size;
	st->st_blksize = STAT_BLKSIZE;
	st->st_blocks = ALIGN_UP(size, STAT_BLOCK) / STAT_BLOCK;
}

static long put_stat(struct stat64 __user *statbuf, const struct stat64 *st)
{
	return copy_to_user(statbuf, st, sizeof(*st)) ? -EFAULT : 0;
}

asmlinkage long sys_stat64(const char __user *filename, struct stat64 __user *statbuf)
{
	char path[PATH_MAX];
	struct stat64 st;
	struct inode *inode;
	long len = strncpy_from_user(path, filename, sizeof(path)), ret;

	if (len < 0)
		return len;
	if (len == sizeof(path))
		return -ENAMETOOLONG;
	if (pseudofs_lookup(path) == 1) {	/* a tracefs file: size 0, as Linux's */
		fill_stat(&st, 0, S_IFREG | 0644, 0);
		return put_stat(statbuf, &st);
	}
	ret = ramfs_lookup(path, &inode);
	if (ret)
		return ret;
	fill_stat(&st, inode->i_ino, inode->i_mode, ramfs_size(inode));
	iput(inode);
	return put_stat(statbuf, &st);
}

asmlinkage long sys_lstat64(const char __user *filename, struct stat64 __user *statbuf)
{
	return sys_stat64(filename, statbuf);
}

asmlinkage long sys_fstat64(unsigned long fd, struct stat64 __user *statbuf)
{
	struct file *f = fget(fd);
	struct stat64 st;

	if (!f)
		return -EBADF;
	if (f->f_inode)
		fill_stat(&st, f->f_inode->i_ino, f->f_inode->i_mode, ramfs_size(f->f_inode));
	else
		fill_stat(&st, 0, f->f_mode, 0);
	return put_stat(statbuf, &st);
}
