/*
 * stat.c - what a file is: stat64(2), lstat64(2), fstat64(2),
 * fstatat64(2) in Linux i386's struct stat64 (the layout of
 * arch/x86/include/uapi/asm/stat.h, 96 bytes), statx(2) in Linux's
 * struct statx (include/uapi/linux/stat.h, 256 bytes), and readlink(2)
 * (Linux's fs/stat.c).  glibc 2.36 on i386 asks statx() for every
 * stat(), lstat() and fstat() (fstat is statx(fd, "", AT_EMPTY_PATH)),
 * and falls back to fstatat64() only where statx is -ENOSYS.
 *
 * One struct kstat is filled first (Linux's vfs_getattr()), then copied
 * out in the layout asked for.  Every file has owner 0 (one user,
 * root); the ramfs is device 0:1, tracefs and debugfs 0:2.  lstat64
 * and AT_SYMLINK_NOFOLLOW stat a symbolic link itself (S_IFLNK, 0777,
 * its text's length), readlink() reads its text (fs/namei_link.c).
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "fcntl.h"
#include "ramfs.h"
#include "pseudofs.h"
#include "mount.h"
#include "mm.h"
#include "uaccess.h"
#include "string.h"
#include "div64.h"
#include "hash.h"
#include "ktime.h"
#include "errno.h"

#define STAT_BLKSIZE	4096	/* st_blksize: the best I/O size, a page */
#define STAT64_SIZE	96
#define STATX_SIZE	256
#define RAMFS_DEV_MINOR	1	/* anonymous devices have major 0, as Linux's */
#define PSEUDO_DEV_MINOR 2
#define PSEUDO_DIR_MODE	(S_IFDIR | 0755)
#define PSEUDO_FILE_MODE (S_IFREG | 0644)
#define PROC_FILE_MODE	(S_IFREG | 0444)	/* what an open /proc file's fstat says too */
#define PROC_DIR_MODE	(S_IFDIR | 0555)
#define INO_HASH_BITS	24	/* a pseudo file's inode number: a hash of its path */
#define CONSOLE_MAJOR	5	/* /dev/console is 5:1 on Linux */
#define CONSOLE_MINOR	1

#define STATX_BASIC_STATS 0x000007ffU	/* mode, nlink, uid, gid, times, ino, size, blocks */
#define STATX__RESERVED	0x80000000U

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

struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t __reserved;
};

struct statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t __spare0[1];
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor;
	uint32_t stx_dev_major, stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align, stx_dio_offset_align;
	uint64_t __spare3[12];
};
_Static_assert(sizeof(struct statx) == STATX_SIZE, "Linux's struct statx");

/* What stat reports beyond the inode's own fields: the device, for a console its number. */
struct kstat_dev {
	struct kstat st;
	unsigned int dev_minor;
	unsigned int rdev_major, rdev_minor;
};

static void getattr_ramfs(struct inode *inode, struct kstat_dev *k)
{
	memset(k, 0, sizeof(*k));
	ramfs_getattr(inode, &k->st);
	k->dev_minor = RAMFS_DEV_MINOR;
}

/*
 * Is path in /proc (wherever proc is mounted)?  Its files are read-only
 * to all, its directories r-x, as Linux's proc shows most of them.
 */
static bool in_proc(const char *path)
{
	char canon[PSEUDOFS_PATH_MAX];
	const char *root;
	unsigned long flags;

	return mnt_resolve(path, canon, sizeof(canon), &root, &flags) == 1 &&
	       strcmp(root, PROC_ROOT) == 0;
}

/*
 * A tracefs, debugfs or proc name: size 0 as Linux's, an inode number
 * from its path, the boot's time (Linux makes their inodes then, or
 * when first looked up).
 */
static void getattr_pseudo(const char *path, int type, struct kstat_dev *k)
{
	bool proc = in_proc(path);
	uint32_t h = 0;

	memset(k, 0, sizeof(*k));
	for (const char *p = path; *p; p++)
		h = hash_32(h ^ (unsigned char)*p, INO_HASH_BITS);
	k->st.ino = h + 1;
	k->st.mode = type == 1 ? (proc ? PROC_FILE_MODE : PSEUDO_FILE_MODE) :
				 (proc ? PROC_DIR_MODE : PSEUDO_DIR_MODE);
	k->st.nlink = type == 1 ? 1 : 2;
	k->st.atime = k->st.mtime = k->st.ctime = ktime_get_real() - ktime_get();
	k->dev_minor = PSEUDO_DEV_MINOR;
}

/* An absolute path's file (Linux's vfs_statx() after the walk): 0 or -errno. */
static int getattr_path(const char *path, struct kstat_dev *k)
{
	struct inode *inode;
	char link[PSEUDOFS_PATH_MAX];
	int type, ret;

	if ((ret = pseudo_get_link(path, link, sizeof(link))) > 0) {
		getattr_pseudo(path, 2, k);	/* /proc/self: a link, size 0 as Linux's */
		k->st.mode = S_IFLNK | 0777;
		k->st.nlink = 1;
		return 0;
	}
	type = pseudofs_lookup(path);
	if (type == 1) {		/* tracefs and debugfs files are mounted over the ramfs */
		getattr_pseudo(path, type, k);
		return 0;
	}
	ret = ramfs_lookup(path, &inode);
	if (ret && type == 2) {		/* a pseudo directory the ramfs has no name for */
		getattr_pseudo(path, type, k);
		return 0;
	}
	if (ret)
		return ret;
	getattr_ramfs(inode, k);
	iput(inode);
	return 0;
}

/* An open file: its inode's, or what the file says it is (a pipe, the console). */
static void getattr_file(struct file *f, struct kstat_dev *k)
{
	if (f->f_inode) {
		getattr_ramfs(f->f_inode, k);
		return;
	}
	memset(k, 0, sizeof(*k));
	k->st.mode = f->f_mode;
	k->st.nlink = 1;
	if ((f->f_mode & S_IFMT) == S_IFCHR) {
		k->rdev_major = CONSOLE_MAJOR;
		k->rdev_minor = CONSOLE_MINOR;
	}
}

/* The working directory itself (AT_FDCWD, "", AT_EMPTY_PATH). */
static int getattr_cwd(struct kstat_dev *k)
{
	struct fs_struct *fs = current_fs();

	if (fs && fs->pwd) {
		getattr_ramfs(fs->pwd, k);
		return 0;
	}
	return getattr_path(fs && fs->pwd_path ? fs->pwd_path : "/", k);
}

/* Is the user's string ""?  (AT_EMPTY_PATH: then the file is dfd itself.) */
static int empty_path(const char __user *filename)
{
	char c;

	if (copy_from_user(&c, filename, 1))
		return -EFAULT;
	return c == '\0';
}

/* Linux's vfs_statx(): the file at dfd/filename, or dfd itself for "" with AT_EMPTY_PATH. */
static int vfs_statx(int dfd, const char __user *filename, int flags, struct kstat_dev *k)
{
	int empty = empty_path(filename);
	struct file *f;
	char *path;
	long ret;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if (empty < 0)
		return empty;
	if (empty && (flags & AT_EMPTY_PATH) && dfd != AT_FDCWD) {
		f = fget(dfd);
		if (!f)
			return -EBADF;
		getattr_file(f, k);
		return 0;
	}
	if (empty && (flags & AT_EMPTY_PATH))
		return getattr_cwd(k);
	path = flags & AT_SYMLINK_NOFOLLOW ? getname_at_nofollow(dfd, filename, &ret) :
					     getname_at(dfd, filename, &ret);
	if (!path)
		return ret;
	ret = getattr_path(path, k);
	kfree(path);
	return ret;
}

/* ---- stat64 -------------------------------------------------------------- */

static unsigned long ns_to_sec(int64_t ns, uint32_t *nsec)
{
	return div_u64_rem(ns < 0 ? 0 : ns, NSEC_PER_SEC, nsec);
}

static long cp_new_stat64(const struct kstat_dev *k, struct stat64 __user *statbuf)
{
	struct stat64 st;
	uint32_t ns;

	memset(&st, 0, sizeof(st));
	st.st_dev = k->dev_minor;		/* major 0: Linux's huge_encode_dev(0:minor) */
	st.st_rdev = k->rdev_major << 8 | k->rdev_minor;
	st.__st_ino = st.st_ino = k->st.ino;
	st.st_mode = k->st.mode;
	st.st_nlink = k->st.nlink;
	st.st_size = k->st.size;
	st.st_blksize = STAT_BLKSIZE;
	st.st_blocks = k->st.blocks;
	st.st_atime = ns_to_sec(k->st.atime, &ns);
	st.st_atime_nsec = ns;
	st.st_mtime = ns_to_sec(k->st.mtime, &ns);
	st.st_mtime_nsec = ns;
	st.st_ctime = ns_to_sec(k->st.ctime, &ns);
	st.st_ctime_nsec = ns;
	return copy_to_user(statbuf, &st, sizeof(st)) ? -EFAULT : 0;
}

asmlinkage long sys_fstatat64(int dfd, const char __user *filename,
			      struct stat64 __user *statbuf, int flag)
{
	struct kstat_dev k;
	long ret = vfs_statx(dfd, filename, flag, &k);

	return ret ? ret : cp_new_stat64(&k, statbuf);
}

asmlinkage long sys_stat64(const char __user *filename, struct stat64 __user *statbuf)
{
	return sys_fstatat64(AT_FDCWD, filename, statbuf, 0);
}

asmlinkage long sys_lstat64(const char __user *filename, struct stat64 __user *statbuf)
{
	return sys_fstatat64(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

asmlinkage long sys_fstat64(unsigned long fd, struct stat64 __user *statbuf)
{
	struct file *f = fget(fd);
	struct kstat_dev k;

	if (!f)
		return -EBADF;
	getattr_file(f, &k);
	return cp_new_stat64(&k, statbuf);
}

/* ---- statx ---------------------------------------------------------------- */

static struct statx_timestamp statx_time(int64_t ns)
{
	struct statx_timestamp t = { 0 };

	t.tv_sec = ns_to_sec(ns, &t.tv_nsec);
	return t;
}

static long cp_statx(const struct kstat_dev *k, struct statx __user *buffer)
{
	struct statx tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.stx_mask = STATX_BASIC_STATS;	/* no birth time, as Linux's ramfs */
	tmp.stx_blksize = STAT_BLKSIZE;
	tmp.stx_nlink = k->st.nlink;
	tmp.stx_mode = k->st.mode;
	tmp.stx_ino = k->st.ino;
	tmp.stx_size = k->st.size;
	tmp.stx_blocks = k->st.blocks;
	tmp.stx_atime = statx_time(k->st.atime);
	tmp.stx_ctime = statx_time(k->st.ctime);
	tmp.stx_mtime = statx_time(k->st.mtime);
	tmp.stx_rdev_major = k->rdev_major;
	tmp.stx_rdev_minor = k->rdev_minor;
	tmp.stx_dev_minor = k->dev_minor;
	return copy_to_user(buffer, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

asmlinkage long sys_statx(int dfd, const char __user *filename, unsigned int flags,
			  unsigned int mask, struct statx __user *buffer)
{
	struct kstat_dev k;
	long ret;

	if (mask & STATX__RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;		/* FORCE_SYNC and DONT_SYNC at once */
	ret = vfs_statx(dfd, filename, flags, &k);
	return ret ? ret : cp_statx(&k, buffer);
}

/* ---- readlink --------------------------------------------------------------- */

/*
 * Linux's do_readlinkat(): a link's text, no NUL, cut to bufsiz; any
 * other file is -EINVAL.  The last name is not followed: the link itself.
 */
asmlinkage long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf,
			       int bufsiz)
{
	char *path, *text;
	long ret;

	if (bufsiz <= 0)
		return -EINVAL;
	path = getname_at_nofollow(dfd, pathname, &ret);
	if (!path)
		return ret;
	text = kmalloc(PATH_MAX);
	ret = -ENOMEM;
	if (text) {
		ret = pseudo_get_link(path, text, PATH_MAX);
		if (ret == -EINVAL)
			ret = ramfs_get_link(path, text, PATH_MAX);
		if (ret == -ENOENT && pseudo_get_link(path, text, PATH_MAX) == -EINVAL) {
			struct kstat_dev k;	/* no ramfs name: a pseudo file that is no link? */

			ret = getattr_path(path, &k) ? -ENOENT : -EINVAL;
		}
	}
	if (ret >= 0) {
		ret = ret < bufsiz ? ret : bufsiz;
		if (copy_to_user(buf, text, ret))
			ret = -EFAULT;
	}
	kfree(text);
	kfree(path);
	return ret;
}

asmlinkage long sys_readlink(const char __user *path, char __user *buf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, path, buf, bufsiz);
}
