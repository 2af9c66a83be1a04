/*
 * open.c - the calls about a file that are neither its bytes nor its
 * name (Linux's fs/open.c): the working directory (chdir, fchdir),
 * may I (access, faccessat, faccessat2), the mode (chmod, fchmod,
 * fchmodat) and the length (truncate, ftruncate and their 64-bit
 * forms); and umask, which Linux keeps in kernel/sys.c.  open() itself
 * is kernel/file.c's.
 *
 * The working directory is a referenced ramfs inode in the process's
 * struct fs_struct (include/fs.h): a directory renamed under a process
 * stays its working directory, and one removed makes getcwd() -ENOENT,
 * as on Linux.
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "fcntl.h"
#include "ramfs.h"
#include "pseudofs.h"
#include "mm.h"
#include "errno.h"

#define PSEUDO_FILE_MODE	(S_IFREG | 0644)	/* what stat says of a tracefs file */
#define PSEUDO_DIR_MODE		(S_IFDIR | 0755)

/* The working directory becomes dir (its reference moves there), or the pseudo one at path. */
static long set_pwd(struct inode *dir, char *path)
{
	struct files_struct *files = current_files();
	struct fs_struct *fs = files ? &files->fs : NULL;
	struct inode *old;

	if ((dir && !S_ISDIR(dir->i_mode)) || !fs) {
		if (dir)
			iput(dir);
		kfree(path);
		return fs ? -ENOTDIR : -ENOMEM;
	}
	old = fs->pwd;
	kfree(fs->pwd_path);
	fs->pwd = dir;
	fs->pwd_path = path;
	if (old)
		iput(old);
	return 0;
}

/* A ramfs directory, or a tracefs or debugfs one (kept by its path: it has no inode here). */
asmlinkage long sys_chdir(const char __user *filename)
{
	struct inode *dir;
	long ret;
	char *path = getname_at(AT_FDCWD, filename, &ret);

	if (!path)
		return ret;
	ret = ramfs_lookup(path, &dir);
	if (!ret) {
		kfree(path);
		return set_pwd(dir, NULL);
	}
	path_normalize(path);		/* the form pseudofs knows a directory by */
	if (ret == -ENOENT && pseudofs_lookup(path) == 2)
		return set_pwd(NULL, path);
	if (ret == -ENOENT && pseudofs_lookup(path) == 1)
		ret = -ENOTDIR;
	kfree(path);
	return ret;
}

asmlinkage long sys_fchdir(unsigned int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!f->f_inode)
		return -ENOTDIR;	/* a pipe, the console */
	iget(f->f_inode);
	return set_pwd(f->f_inode, NULL);
}

/* The umask's old value; it never fails (Linux's kernel/sys.c). */
asmlinkage long sys_umask(int mask)
{
	struct files_struct *files = current_files();
	unsigned int old;

	if (!files)
		return -ENOMEM;
	old = files->fs.umask;
	files->fs.umask = mask & 0777;
	return old;
}

/*
 * Linux's generic_permission() for root, the one user: reading and
 * writing are always allowed; executing a file needs an x bit (a
 * directory is always searchable).
 */
static long may_access(unsigned int i_mode, int mode)
{
	if ((mode & X_OK) && !S_ISDIR(i_mode) && !(i_mode & S_IXUGO))
		return -EACCES;
	return 0;
}

/* The mode of the file at an absolute path, the ramfs's or a pseudo file's: 0 or -errno. */
static long path_mode(const char *path, unsigned int *i_mode)
{
	struct inode *inode;
	int type = pseudofs_lookup(path);
	long ret;

	if (type == 1) {
		*i_mode = PSEUDO_FILE_MODE;
		return 0;
	}
	ret = ramfs_lookup(path, &inode);
	if (!ret) {
		*i_mode = inode->i_mode;
		iput(inode);
	} else if (type == 2) {		/* a tracefs or debugfs directory */
		*i_mode = PSEUDO_DIR_MODE;
		ret = 0;
	}
	return ret;
}

static long do_faccessat(int dfd, const char __user *filename, int mode, int flags)
{
	unsigned int i_mode = 0;
	char *path;
	long ret;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	path = getname_at(dfd, filename, &ret);
	if (!path)
		return ret;
	ret = path_mode(path, &i_mode);
	kfree(path);
	return ret ? ret : may_access(i_mode, mode);
}

asmlinkage long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags)
{
	return do_faccessat(dfd, filename, mode, flags);
}

asmlinkage long sys_faccessat(int dfd, const char __user *filename, int mode)
{
	return do_faccessat(dfd, filename, mode, 0);
}

asmlinkage long sys_access(const char __user *filename, int mode)
{
	return do_faccessat(AT_FDCWD, filename, mode, 0);
}

asmlinkage long sys_fchmodat(int dfd, const char __user *filename, umode_t mode)
{
	struct inode *inode;
	long ret = user_path_at(dfd, filename, &inode);

	if (ret)
		return ret;
	ramfs_chmod(inode, mode);
	iput(inode);
	return 0;
}

asmlinkage long sys_chmod(const char __user *filename, umode_t mode)
{
	return sys_fchmodat(AT_FDCWD, filename, mode);
}

/* A pipe or the console has no inode here to keep a mode in: -EPERM. */
asmlinkage long sys_fchmod(unsigned int fd, umode_t mode)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!f->f_inode)
		return -EPERM;
	ramfs_chmod(f->f_inode, mode);
	return 0;
}

/* Linux's do_sys_truncate(): a regular file by name. */
static long do_sys_truncate(const char __user *pathname, loff_t length)
{
	struct inode *inode;
	long ret;

	if (length < 0)
		return -EINVAL;
	ret = user_path_at(AT_FDCWD, pathname, &inode);
	if (ret)
		return ret;
	ret = S_ISDIR(inode->i_mode) ? -EISDIR : ramfs_setsize(inode, length);
	iput(inode);
	return ret;
}

/* Linux's do_sys_ftruncate(): a regular file open for writing, else -EINVAL. */
static long do_sys_ftruncate(unsigned int fd, loff_t length)
{
	struct file *f = fget(fd);

	if (length < 0)
		return -EINVAL;
	if (!f)
		return -EBADF;
	if (!f->f_inode || !S_ISREG(f->f_inode->i_mode) ||
	    (f->f_flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL;
	return ramfs_setsize(f->f_inode, length);
}

asmlinkage long sys_truncate(const char __user *path, long length)
{
	return do_sys_truncate(path, length);
}

asmlinkage long sys_ftruncate(unsigned int fd, long length)
{
	return do_sys_ftruncate(fd, length);
}

/* The 64-bit length in two registers, low then high: the stack's order for an asmlinkage loff_t. */
asmlinkage long sys_truncate64(const char __user *path, loff_t length)
{
	return do_sys_truncate(path, length);
}

asmlinkage long sys_ftruncate64(unsigned int fd, loff_t length)
{
	return do_sys_ftruncate(fd, length);
}
