/*
 * namespace.c - which filesystem answers a path: the mount table
 * (Linux's fs/namespace.c), mount(2) and umount2(2).
 *
 * The ramfs is "/" (rootfs); on it, at boot, the pseudo filesystems are
 * mounted where a Linux system's init mounts them: sysfs at /sys, proc
 * at /proc, devtmpfs at /dev, tracefs at /sys/kernel/tracing and
 * debugfs at /sys/kernel/debug.  A path belongs to the mount whose
 * mount point is the longest start of it; below a pseudo filesystem's
 * mount point the rest of the path is looked up from that filesystem's
 * root in the pseudofs (fs/filesystems.c, fs/pseudofs.c), so
 * `mount -t tracefs nodev /mnt` shows /mnt/trace as tracefs's trace.
 * Mount points on the ramfs are its directories (made at boot, or by
 * mkdir), so `ls /` finds them as `ls` on Linux does.
 */
#include "kernel.h"
#include "mount.h"
#include "pseudofs.h"
#include "ramfs.h"
#include "syscalls.h"
#include "uaccess.h"
#include "spinlock.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define LISTING_MAX	8192	/* bytes of a pseudofs directory's names */
#define MNT_STRING_MAX	256	/* bytes of a source or type name (Linux: a page) */
#define ROOT_MODE	0755	/* a mount point made at boot */

/* One mounted filesystem (Linux's struct mount, what a reader needs of it). */
struct vfsmount {
	const struct file_system_type *type;
	const char *devname;		/* the source, as /proc/mounts shows it */
	const char *mountpoint;		/* absolute, no '/' at the end but "/" itself */
	unsigned long flags;		/* MS_RDONLY, MS_NOSUID, ... (MNT_FLAGS) */
	bool expiry_mark;		/* umount2(MNT_EXPIRE) asked once */
	bool boot;			/* one of boot_mounts[]: not kfree()d */
	struct vfsmount *next;		/* mount order, as /proc/mounts lists them */
};

/* The flags a mount keeps (the rest say what to do, not what it is). */
#define MNT_FLAGS	(MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_SYNCHRONOUS | \
			 MS_DIRSYNC | MS_NOATIME | MS_NODIRATIME | MS_RELATIME)
/* systemd's flags for the API filesystems it mounts (Linux's usual init). */
#define API_FS_FLAGS	(MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RELATIME)

/*
 * The boot mounts, in mount order: a static list, true from the first
 * instruction on (kernel code reads tracefs files by path before any
 * process runs).  Each is named by its kind, as systemd mounts them.
 */
/* "/": the ramfs as Linux names it in /proc/mounts; not a kind mount -t knows. */
static const struct file_system_type rootfs_fs_type = { "rootfs", NULL };

static struct vfsmount boot_mounts[] = {
	{ &rootfs_fs_type, "rootfs",   "/",                   0,            false, true, &boot_mounts[1] },
	{ NULL, "sysfs",    SYSFS_ROOT,            API_FS_FLAGS, false, true, &boot_mounts[2] },
	{ NULL, "proc",     PROC_ROOT,             API_FS_FLAGS, false, true, &boot_mounts[3] },
	{ NULL, "devtmpfs", DEVTMPFS_ROOT,         MS_NOSUID | MS_RELATIME, false, true, &boot_mounts[4] },
	{ NULL, "tracefs",  TRACEFS_ROOT,          API_FS_FLAGS, false, true, &boot_mounts[5] },
	{ NULL, "debugfs",  DEBUGFS_ROOT,          API_FS_FLAGS, false, true, NULL },
};
static struct vfsmount *mounts = boot_mounts;
static DEFINE_SPINLOCK(mount_lock);

/* A boot mount's kind is named as its source is: looked up once, on first use. */
static const struct file_system_type *mnt_type(struct vfsmount *m)
{
	if (!m->type)
		m->type = get_fs_type(m->devname);
	return m->type;
}

/* Is mp the whole of path, or its start up to a '/'? ("/" starts every path.) */
static bool mnt_covers(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return path[0] == '/';
	return strncmp(path, mp, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The mount answering path: the longest mount point, the latest of equals. */
static struct vfsmount *mnt_lookup(const char *path)
{
	struct vfsmount *best = NULL;

	for (struct vfsmount *m = mounts; m; m = m->next)
		if (mnt_covers(m->mountpoint, path) &&
		    (!best || strlen(m->mountpoint) >= strlen(best->mountpoint)))
			best = m;
	return best;
}

int mnt_resolve(const char *path, char *canon, size_t len, const char **root,
		unsigned long *flags)
{
	unsigned long irq;
	struct vfsmount *m;
	const char *rest;
	int ret = 0;
	size_t n;

	spin_lock_irqsave(&mount_lock, irq);
	m = mnt_lookup(path);
	if (m && mnt_type(m) && m->type->root) {
		rest = strcmp(m->mountpoint, "/") == 0 ? path : path + strlen(m->mountpoint);
		ret = (size_t)snprintf(canon, len, "%s%s", m->type->root, rest) >= len ?
		      -ENAMETOOLONG : 1;
		*root = m->type->root;
		*flags = m->flags;
	}
	spin_unlock_irqrestore(&mount_lock, irq);
	/* "/proc/" is "/proc": the file's path has no '/' at the end. */
	for (n = ret > 0 ? strlen(canon) : 0; n > 1 && canon[n - 1] == '/'; n--)
		canon[n - 1] = '\0';
	return ret;
}

/* Is path below a pseudo filesystem's mount point (never the ramfs's)? */
static bool mnt_is_pseudo(const char *path)
{
	char canon[PSEUDOFS_PATH_MAX];
	const char *root;
	unsigned long flags;

	return mnt_resolve(path, canon, sizeof(canon), &root, &flags) != 0;
}

int path_lookup_type(const char *path)
{
	struct inode *inode;
	int type = pseudofs_lookup(path);

	if (type == 0 && !mnt_is_pseudo(path) && ramfs_lookup(path, &inode) == 0) {
		type = S_ISDIR(inode->i_mode) ? 2 : 1;
		iput(inode);
	}
	return type;
}

/* Has the ramfs directory path an entry called name[0..len)? */
static bool ramfs_has(const char *path, const char *name, size_t len)
{
	char child[PATH_MAX];
	struct inode *inode;

	if ((size_t)snprintf(child, sizeof(child), "%s/%.*s", path, (int)len, name) >=
	    sizeof(child) || ramfs_lookup(child, &inode))
		return false;
	iput(inode);
	return true;
}

/* The pseudo entries below path that the ramfs does not have. */
static int list_pseudo(const char *path, struct seq_buf *s)
{
	char *buf = kmalloc(LISTING_MAX);
	struct seq_buf names;
	const char *e, *nl;
	int count = 0;

	if (!buf)
		return -ENOMEM;
	seq_buf_init(&names, buf, LISTING_MAX);
	if (pseudofs_list(path, &names) > 0) {
		for (e = buf; (nl = strchr(e, '\n')); e = nl + 1) {
			size_t len = nl - e - (nl[-1] == '/');

			if (ramfs_has(path, e, len))
				continue;
			seq_buf_printf(s, "%.*s\n", (int)(nl - e), e);
			count++;
		}
	}
	kfree(buf);
	return count;
}

int path_list(const char *path, struct seq_buf *s)
{
	struct ramfs_dirent *de;
	struct inode *dir;
	unsigned long i;
	int count = 0, more;

	if (pseudofs_lookup(path) == 1 || mnt_is_pseudo(path) || ramfs_lookup(path, &dir))
		return pseudofs_list(path, s);
	if (!S_ISDIR(dir->i_mode)) {
		iput(dir);
		seq_buf_printf(s, "%s\n", path);
		seq_buf_flush(s);
		return 1;
	}
	de = kmalloc(sizeof(*de));
	for (i = 2; de && ramfs_readdir(dir, i, de) == 0; i++, count++)
		seq_buf_printf(s, "%s%s\n", de->name, S_ISDIR(de->mode) ? "/" : "");
	kfree(de);
	iput(dir);
	more = list_pseudo(path, s);
	seq_buf_flush(s);
	return more < 0 ? more : count + more;
}

int path_show(const char *path, struct seq_buf *s)
{
	struct inode *inode;
	char chunk[256];
	long n, pos = 0;
	int ret;

	if (pseudofs_lookup(path) || mnt_is_pseudo(path))
		return pseudofs_read(path, s);
	ret = ramfs_lookup(path, &inode);
	if (ret)
		return ret;
	while ((n = ramfs_read(inode, chunk, sizeof(chunk), pos)) > 0) {
		seq_buf_putmem(s, chunk, n);
		seq_buf_flush(s);
		pos += n;
	}
	iput(inode);
	return n < 0 ? n : 0;
}

/* ---- mount(2) and umount2(2) ------------------------------------------------ */

/* "/a/b/" is "/a/b": a mount point is kept without its last '/'. */
static char *mnt_path_dup(const char *path)
{
	size_t n = strlen(path);
	char *p;

	while (n > 1 && path[n - 1] == '/')
		n--;
	p = kmalloc(n + 1);
	if (p) {
		memcpy(p, path, n);
		p[n] = '\0';
	}
	return p;
}

static void mnt_free(struct vfsmount *m)
{
	if (m->boot)
		return;
	kfree((void *)m->devname);
	kfree((void *)m->mountpoint);
	kfree(m);
}

/* MS_REMOUNT: new flags for what is mounted at dir. */
static int do_remount(const char *dir, unsigned long flags)
{
	char *mp = mnt_path_dup(dir);
	unsigned long irq;
	struct vfsmount *m;
	int ret = -EINVAL;

	if (!mp)
		return -ENOMEM;
	spin_lock_irqsave(&mount_lock, irq);
	m = mnt_lookup(mp);
	if (m && strcmp(m->mountpoint, mp) == 0) {
		m->flags = flags & MNT_FLAGS;
		ret = 0;
	}
	spin_unlock_irqrestore(&mount_lock, irq);
	kfree(mp);
	return ret;
}

/* Linux refuses the same single-instance filesystem twice on one mount point. */
static bool mnt_same_on_top(const struct file_system_type *type, const char *mp)
{
	struct vfsmount *m = mnt_lookup(mp);

	return m && type->root && strcmp(m->mountpoint, mp) == 0 && mnt_type(m) == type;
}

/* Add a new mount on top of the table: 0 or -EBUSY. */
static int mnt_add(struct vfsmount *m)
{
	struct vfsmount **tail;
	unsigned long irq;
	int ret = -EBUSY;

	spin_lock_irqsave(&mount_lock, irq);
	if (!mnt_same_on_top(m->type, m->mountpoint)) {
		for (tail = &mounts; *tail; tail = &(*tail)->next)
			;
		*tail = m;
		ret = 0;
	}
	spin_unlock_irqrestore(&mount_lock, irq);
	return ret;
}

int do_mount(const char *dev_name, const char *dir, const char *type, unsigned long flags)
{
	const struct file_system_type *fs;
	struct vfsmount *m;
	int kind, ret;

	if ((flags & MS_MGC_MSK) == 0xC0ED0000UL)	/* MS_MGC_VAL: no flags meant */
		flags &= ~MS_MGC_MSK;
	kind = path_lookup_type(dir);
	if (dir[0] != '/' || kind == 0)
		return -ENOENT;
	if (kind != 2)
		return -ENOTDIR;
	if (flags & MS_REMOUNT)
		return do_remount(dir, flags);
	if (flags & (MS_BIND | MS_MOVE))
		return -EINVAL;		/* one tree per kind here: nothing to bind or move */
	if (!type)
		return -EINVAL;
	fs = get_fs_type(type);
	if (!fs)
		return -ENODEV;
	if (!(flags & (MS_NOATIME | MS_STRICTATIME)))
		flags |= MS_RELATIME;	/* Linux's default since 2.6.30 */
	m = kzalloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->devname = mnt_path_dup(dev_name ? dev_name : "none");
	m->mountpoint = mnt_path_dup(dir);
	if (!m->devname || !m->mountpoint) {
		mnt_free(m);
		return -ENOMEM;
	}
	m->type = fs;
	m->flags = flags & MNT_FLAGS;
	ret = mnt_add(m);
	if (ret)
		mnt_free(m);
	return ret;
}

/* Is some other mount below m's mount point? */
static bool mnt_busy(const struct vfsmount *m)
{
	for (struct vfsmount *c = mounts; c; c = c->next)
		if (c != m && strcmp(c->mountpoint, m->mountpoint) != 0 &&
		    mnt_covers(m->mountpoint, c->mountpoint))
			return true;
	return false;
}

/* Take m, and with detach every mount below it, out of the table. */
static void mnt_unlink(struct vfsmount *m, bool detach)
{
	struct vfsmount **pp = &mounts;

	while (*pp) {
		struct vfsmount *c = *pp;

		if (c == m || (detach && mnt_covers(m->mountpoint, c->mountpoint) &&
			       strcmp(c->mountpoint, m->mountpoint) != 0)) {
			*pp = c->next;
			if (c != m)
				mnt_free(c);
		} else {
			pp = &c->next;
		}
	}
}

static int umount_checked(struct vfsmount *m, int flags)
{
	if (!m)
		return -EINVAL;			/* not a mount point */
	if (strcmp(m->mountpoint, "/") == 0)
		return -EBUSY;			/* the root: everything is below it */
	if (!(flags & MNT_DETACH) && mnt_busy(m))
		return -EBUSY;
	if (flags & MNT_EXPIRE) {
		/* Linux's expiry: the first call marks, a second unmounts. */
		if (!m->expiry_mark) {
			m->expiry_mark = true;
			return -EAGAIN;
		}
	}
	mnt_unlink(m, flags & MNT_DETACH);
	return 0;
}

int path_umount(const char *path, int flags)
{
	char *mp;
	unsigned long irq;
	struct vfsmount *m;
	int ret;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	if ((flags & MNT_EXPIRE) && (flags & (MNT_FORCE | MNT_DETACH)))
		return -EINVAL;
	if (path[0] != '/' || !path_lookup_type(path))
		return -ENOENT;
	mp = mnt_path_dup(path);
	if (!mp)
		return -ENOMEM;
	spin_lock_irqsave(&mount_lock, irq);
	m = mnt_lookup(mp);
	ret = umount_checked(m && strcmp(m->mountpoint, mp) == 0 ? m : NULL, flags);
	spin_unlock_irqrestore(&mount_lock, irq);
	if (ret == 0)
		mnt_free(m);
	kfree(mp);
	return ret;
}

/* A user's string into a kernel buffer of MNT_STRING_MAX (or PATH_MAX); NULL stays NULL. */
static long copy_mount_string(const char __user *src, char *dst, long size, char **out)
{
	long len;

	*out = NULL;
	if (!src)
		return 0;
	len = strncpy_from_user(dst, src, size);
	if (len < 0)
		return len;
	if (len == size)
		return -ENAMETOOLONG;
	*out = dst;
	return 0;
}

/* Linux's mount(2): the options string (data) goes to no filesystem here. */
asmlinkage long sys_mount(char __user *dev_name, char __user *dir_name, char __user *type,
			  unsigned long flags, void __user *data)
{
	char *buf = kmalloc(2 * MNT_STRING_MAX + PATH_MAX);
	char *dev, *dir, *fstype;
	long ret;

	if (!buf)
		return -ENOMEM;
	ret = copy_mount_string(dir_name, buf, PATH_MAX, &dir);
	if (!ret && !dir)
		ret = -EFAULT;
	if (!ret)
		ret = copy_mount_string(dev_name, buf + PATH_MAX, MNT_STRING_MAX, &dev);
	if (!ret)
		ret = copy_mount_string(type, buf + PATH_MAX + MNT_STRING_MAX, MNT_STRING_MAX,
					&fstype);
	if (!ret)
		ret = do_mount(dev, dir, fstype, flags);
	kfree(buf);
	return ret;
}

asmlinkage long sys_umount(char __user *name, int flags)
{
	char *buf = kmalloc(PATH_MAX), *path;
	long ret;

	if (!buf)
		return -ENOMEM;
	ret = copy_mount_string(name, buf, PATH_MAX, &path);
	if (!ret)
		ret = path ? path_umount(path, flags) : -EFAULT;
	kfree(buf);
	return ret;
}

/* i386's first umount(2), number 22: umount2 with no flags. */
asmlinkage long sys_oldumount(char __user *name)
{
	return sys_umount(name, 0);
}

/* ---- /proc/mounts --------------------------------------------------------- */

/* Linux's mangle(): a space, tab, newline or backslash as \ooo, so a line splits on spaces. */
static void mnt_mangle(struct seq_buf *s, const char *str)
{
	for (; *str; str++) {
		if (*str == ' ' || *str == '\t' || *str == '\n' || *str == '\\')
			seq_buf_printf(s, "\\%03o", (unsigned char)*str);
		else
			seq_buf_putc(s, *str);
	}
}

/* The options, in Linux's order (show_sb_opts(), then show_mnt_opts()). */
static void mnt_show_opts(struct seq_buf *s, unsigned long flags)
{
	static const struct { unsigned long flag; const char *name; } opts[] = {
		{ MS_SYNCHRONOUS, ",sync" }, { MS_DIRSYNC, ",dirsync" },
		{ MS_NOSUID, ",nosuid" }, { MS_NODEV, ",nodev" }, { MS_NOEXEC, ",noexec" },
		{ MS_NOATIME, ",noatime" }, { MS_NODIRATIME, ",nodiratime" },
		{ MS_RELATIME, ",relatime" },
	};

	seq_buf_puts(s, flags & MS_RDONLY ? "ro" : "rw");
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (flags & opts[i].flag)
			seq_buf_puts(s, opts[i].name);
}

int mounts_proc_show(struct seq_buf *s, void *data)
{
	unsigned long irq;

	spin_lock_irqsave(&mount_lock, irq);
	for (struct vfsmount *m = mounts; m; m = m->next) {
		mnt_mangle(s, m->devname);
		seq_buf_putc(s, ' ');
		mnt_mangle(s, m->mountpoint);
		seq_buf_printf(s, " %s ", mnt_type(m) ? m->type->name : "?");
		mnt_show_opts(s, m->flags);
		seq_buf_puts(s, " 0 0\n");
	}
	spin_unlock_irqrestore(&mount_lock, irq);
	return 0;
}

/*
 * The boot mounts' directories on the ramfs, as an initramfs's /init
 * makes them (those there already stay: -EEXIST).  The ones below
 * /sys are sysfs's own directories, not the ramfs's.
 */
void mnt_init(void)
{
	for (size_t i = 1; i < ARRAY_SIZE(boot_mounts); i++)
		ramfs_mkdir(boot_mounts[i].mountpoint, ROOT_MODE);
}
