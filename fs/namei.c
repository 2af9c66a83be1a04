/*
 * namei.c - from the name a system call is given to a path the
 * filesystems know, and the calls that make and remove names: mkdir,
 * mkdirat, unlink, unlinkat, rmdir, rename, renameat, renameat2,
 * symlink, symlinkat (Linux's fs/namei.c).  The walk itself is the
 * ramfs's (fs/ramfs.c), after the symbolic links on the way are
 * followed (fs/namei_link.c).
 *
 * Linux walks a relative path from the dentry of the working directory
 * (or of the directory a dfd names).  Here every filesystem takes an
 * absolute path, so getname_at() writes that directory's path in front
 * of the name (the ramfs's d_path(), ramfs_path()) and the walk starts
 * at "/": the same file, as long as no one renames a directory on the
 * way between the two steps.
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "fcntl.h"
#include "ramfs.h"
#include "pseudofs.h"
#include "mm.h"
#include "uaccess.h"
#include "string.h"
#include "vsprintf.h"
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

long fs_pwd_path(struct fs_struct *fs, char *buf, size_t size)
{
	long ret;

	if (fs && fs->pwd_path)
		return strlcpy(buf, fs->pwd_path, size) < size ? 0 : -ENAMETOOLONG;
	if (!fs || !fs->pwd)
		return strlcpy(buf, "/", size) < size ? 0 : -ENAMETOOLONG;
	ret = ramfs_path(fs->pwd, buf, size);
	return ret == -ERANGE ? -ENAMETOOLONG : ret;
}

/* Where a relative path at dfd starts: its absolute path in buf, 0 or -errno. */
static long dfd_path(int dfd, char *buf, size_t size)
{
	struct inode *dir;
	struct file *f;
	long ret;

	if (dfd == AT_FDCWD)
		return fs_pwd_path(current_fs(), buf, size);
	f = fget(dfd);
	if (!f)
		return -EBADF;
	dir = f->f_inode;
	if (!dir || !S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	ret = ramfs_path(dir, buf, size);
	return ret == -ERANGE ? -ENAMETOOLONG : ret;
}

/*
 * Tidy an absolute path in place: no "//", "." or "..", each ".."
 * taking the name before it away.  Only for a path below a pseudo
 * directory, which has no parent link to follow: there are no
 * symbolic links, so this is where Linux's walk would end too.
 */
void path_normalize(char *path)
{
	char *out = path, *p = path;
	size_t n;

	while (*p) {
		while (*p == '/')
			p++;
		for (n = 0; p[n] && p[n] != '/'; n++)
			;
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (out > path && *--out != '/')
				;
		} else if (n && !(n == 1 && p[0] == '.')) {
			*out++ = '/';
			memmove(out, p, n);
			out += n;
		}
		p += n;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

char *absolute_path_at(int dfd, const char *name, long *err)
{
	char *path = kmalloc(PATH_MAX);
	size_t len;

	*err = -ENOMEM;
	if (!path)
		return NULL;
	*err = name[0] == '/' ? 0 : name[0] ? dfd_path(dfd, path, PATH_MAX) : -ENOENT;
	if (!*err) {
		len = name[0] == '/' ? 0 : strlen(path);
		if ((size_t)snprintf(path + len, PATH_MAX - len, "%s%s",
				     !len || path[len - 1] == '/' ? "" : "/", name) >= PATH_MAX - len)
			*err = -ENAMETOOLONG;
	}
	if (*err) {
		kfree(path);
		return NULL;
	}
	if (name[0] != '/' && dfd == AT_FDCWD && current_fs() && current_fs()->pwd_path)
		path_normalize(path);	/* from a pseudo directory: ".." by name */
	return path;
}

/* The absolute path, its links followed (the last one if follow): Linux's path walk. */
static char *getname_at_flags(int dfd, const char __user *filename, bool follow, long *err)
{
	char *name = getname(filename, err), *path = name;

	if (name && name[0] != '/') {
		path = absolute_path_at(dfd, name, err);
		kfree(name);
	}
	if (path && (*err = follow_links(path, follow))) {
		kfree(path);
		return NULL;
	}
	return path;
}

char *getname_at(int dfd, const char __user *filename, long *err)
{
	return getname_at_flags(dfd, filename, true, err);
}

char *getname_at_nofollow(int dfd, const char __user *filename, long *err)
{
	return getname_at_flags(dfd, filename, false, err);
}

int user_path_at(int dfd, const char __user *filename, struct inode **out)
{
	long ret;
	char *path = getname_at(dfd, filename, &ret);

	if (!path)
		return ret;
	ret = ramfs_lookup(path, out);
	kfree(path);
	return ret;
}

/* path's directory, in parent (PATH_MAX bytes); false for a name in "/". */
static bool dirname_of(const char *path, char *parent)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return false;
	strlcpy(parent, path, slash - path + 1);
	return true;
}

bool in_pseudo_dir(const char *path)
{
	char parent[PATH_MAX];

	return dirname_of(path, parent) && pseudofs_lookup(parent) == 2;
}

/*
 * Is path's parent a tracefs or debugfs directory (instances/), not a
 * ramfs one?  Then mkdir and rmdir are that filesystem's callbacks.
 */
static bool parent_is_pseudo(const char *path)
{
	char parent[PATH_MAX];
	struct inode *inode;

	if (!dirname_of(path, parent))
		return false;		/* in "/": the ramfs's */
	if (ramfs_lookup(parent, &inode) == 0) {
		iput(inode);
		return false;
	}
	return pseudofs_lookup(parent) == 2;
}

/* The bits of mode the process's umask lets through (Linux's mode & ~current_umask()). */
static umode_t apply_umask(umode_t mode)
{
	struct fs_struct *fs = current_fs();

	return mode & ~(fs ? fs->umask : INIT_UMASK) & 07777;
}

asmlinkage long sys_mkdirat(int dfd, const char __user *pathname, umode_t mode)
{
	long ret;
	char *path = getname_at_nofollow(dfd, pathname, &ret);

	if (!path)
		return ret;
	if (parent_is_pseudo(path))
		ret = pseudofs_mkdir(path);
	else
		ret = ramfs_mkdir(path, apply_umask(mode));
	kfree(path);
	return ret;
}

asmlinkage long sys_mkdir(const char __user *pathname, umode_t mode)
{
	return sys_mkdirat(AT_FDCWD, pathname, mode);
}

/* Linux's do_rmdir() and do_unlinkat(): the name at dfd goes. */
static long do_remove(int dfd, const char __user *pathname, bool dir)
{
	long ret;
	char *path = getname_at_nofollow(dfd, pathname, &ret);

	if (!path)
		return ret;
	if (dir && parent_is_pseudo(path))
		ret = pseudofs_rmdir(path);
	else
		ret = dir ? ramfs_rmdir(path) : ramfs_unlink(path);
	kfree(path);
	return ret;
}

asmlinkage long sys_unlinkat(int dfd, const char __user *pathname, int flag)
{
	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	return do_remove(dfd, pathname, flag & AT_REMOVEDIR);
}

asmlinkage long sys_unlink(const char __user *pathname)
{
	return do_remove(AT_FDCWD, pathname, false);
}

asmlinkage long sys_rmdir(const char __user *pathname)
{
	return do_remove(AT_FDCWD, pathname, true);
}

asmlinkage long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
			      const char __user *newname, unsigned int flags)
{
	char *from, *to = NULL;
	long ret;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		return -EINVAL;
	from = getname_at_nofollow(olddfd, oldname, &ret);	/* a link is renamed, not its target */
	if (from)
		to = getname_at_nofollow(newdfd, newname, &ret);
	if (to)
		ret = ramfs_rename(from, to, flags);
	kfree(from);
	kfree(to);
	return ret;
}

asmlinkage long sys_renameat(int olddfd, const char __user *oldname, int newdfd,
			     const char __user *newname)
{
	return sys_renameat2(olddfd, oldname, newdfd, newname, 0);
}

asmlinkage long sys_rename(const char __user *oldname, const char __user *newname)
{
	return sys_renameat2(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

/*
 * Linux's do_symlinkat(): a link at newname whose text is oldname, kept
 * as given (a relative one is read from the link's directory when
 * followed).  An empty text is -ENOENT, as Linux's.
 */
asmlinkage long sys_symlinkat(const char __user *oldname, int newdfd,
			      const char __user *newname)
{
	long ret;
	char *target = getname(oldname, &ret), *path = NULL;

	if (target && !target[0])
		ret = -ENOENT;
	else if (target)
		path = getname_at_nofollow(newdfd, newname, &ret);
	if (path)
		ret = in_pseudo_dir(path) ? -EACCES : ramfs_symlink(path, target);
	kfree(target);
	kfree(path);
	return ret;
}

asmlinkage long sys_symlink(const char __user *oldname, const char __user *newname)
{
	return sys_symlinkat(oldname, AT_FDCWD, newname);
}
