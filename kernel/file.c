/*
 * file.c - a process's files: open, read, write, lseek, close, dup and
 * dup2 (Linux's fs/open.c, fs/read_write.c and fs/file.c).
 *
 *   fd 0, 1, 2  the console until a process changes them: reading it
 *               gives end of file (no input yet), writing prints;
 *   fd 3...     what open() and pipe() return, lowest free first.
 *
 * A path names a ramfs file or directory (fs/ramfs.c), or a pseudo file
 * of tracefs or debugfs (fs/pseudofs.c), whose text open() takes as a
 * snapshot (as Linux's seq_file fills its buffer at the first read).
 * Every user pointer goes through uaccess.h: a bad one is -EFAULT,
 * never an oops.
 *
 * The path of each call has Linux's names, so that Linux's documented
 * probes work here as written (kprobetrace.rst's do_sys_open, the
 * vfs_read and ksys_write of every tracing tutorial):
 *
 *   sys_open  -> do_sys_open -> do_sys_openat2
 *   sys_read  -> ksys_read   -> vfs_read
 *   sys_write -> ksys_write  -> vfs_write
 *
 * They are noinline: a function the compiler folded into its caller
 * has no address of its own to put a probe on.
 */
#include "tty.h"
#include "kernel.h"
#include "process.h"
#include "sched.h"
#include "syscalls.h"
#include "uaccess.h"
#include "pseudofs.h"
#include "fs.h"
#include "fcntl.h"
#include "string.h"
#include "errno.h"

#define FILE_SNAPSHOT_MAX 16384  /* bytes of a pseudo file open() keeps */
#define WRITE_CHUNK      128     /* bytes copied from the user per printk */
#define IO_CHUNK         256     /* bytes of a ramfs read or write per lock */
#define STDIN_FILENO     0
#define STDERR_FILENO    2

/* Linux's struct open_how (include/uapi/linux/openat2.h): what to open and how. */
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

/* ---- struct file and the table ------------------------------------------- */

struct file *alloc_file(const struct file_operations *op, unsigned int flags,
			void *private_data)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->f_op = op;
	f->f_flags = flags;
	f->private_data = private_data;
	atomic_set(&f->f_count, 1);
	return f;
}

void get_file(struct file *f)
{
	atomic_inc(&f->f_count);
}

void fput(struct file *f)
{
	if (!atomic_dec_and_test(&f->f_count))
		return;
	if (f->f_op->release)
		f->f_op->release(f);
	if (f->f_inode)
		iput(f->f_inode);
	kfree(f);
}

/*
 * The console: a terminal (kernel/tty.c) - end of file to read while
 * the kernel's shell has the keys, the keyboard with init=; printk to write.
 */
static long console_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	return tty_read(buf, count);
}

static long console_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	return tty_ioctl(cmd, arg);
}

static unsigned int console_poll_file(struct file *f)
{
	return tty_poll();
}

/* The whole range is checked first, so a bad one prints nothing. */
static long console_write(struct file *f, const char __user *buf, size_t count,
			  loff_t *pos)
{
	char chunk[WRITE_CHUNK];
	size_t done, n;

	if (!access_ok(buf, count))
		return -EFAULT;
	for (done = 0; done < count; done += n) {
		n = count - done < sizeof(chunk) ? count - done : sizeof(chunk);
		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		printk("%.*s", (int)n, chunk);
	}
	return count;
}

static const struct file_operations console_fops = {
	.read = console_read,
	.write = console_write,
	.unlocked_ioctl = console_ioctl,
	.poll = console_poll_file,
};

/* One console file, shared by every table; its first reference is never dropped. */
static struct file console_file = {
	.f_op = &console_fops,
	.f_count = { 1 },
	.f_flags = O_RDWR,
	.f_mode = S_IFCHR | 0620,
};

struct files_struct *dup_fd(struct files_struct *from)
{
	struct files_struct *files = kzalloc(sizeof(*files));
	int fd;

	if (!files)
		return NULL;
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		files->fd[fd] = from ? from->fd[fd] :
				fd <= STDERR_FILENO ? &console_file : NULL;
		if (files->fd[fd])
			get_file(files->fd[fd]);
	}
	if (from)
		files->close_on_exec = from->close_on_exec;
	files->fs = from ? from->fs : (struct fs_struct){ .umask = INIT_UMASK };
	if (files->fs.pwd)
		iget(files->fs.pwd);	/* the working directory, shared with the parent */
	if (files->fs.pwd_path) {
		files->fs.pwd_path = kmalloc(PATH_MAX);
		if (!files->fs.pwd_path) {
			exit_files_struct(files);
			return NULL;
		}
		strlcpy(files->fs.pwd_path, from->fs.pwd_path, PATH_MAX);
	}
	return files;
}

struct files_struct *current_files(void)
{
	if (!current->files)
		current->files = dup_fd(NULL);
	return current->files;
}

struct fs_struct *current_fs(void)
{
	return current->files ? &current->files->fs : NULL;
}

struct file *fget(unsigned int fd)
{
	struct files_struct *files = current->files;

	if (fd >= NR_OPEN_DEFAULT)
		return NULL;
	if (!files)
		return fd <= STDERR_FILENO ? &console_file : NULL;
	return files->fd[fd];
}

static void close_fd_bit(struct files_struct *files, int fd)
{
	files->close_on_exec &= ~(1UL << fd);
}

int fd_install_new(struct file *f, unsigned int flags)
{
	return fd_install_from(f, 0, flags);
}

int fd_install_from(struct file *f, unsigned int start, unsigned int flags)
{
	struct files_struct *files = current_files();
	unsigned int fd;

	if (!files)
		return -ENOMEM;
	for (fd = start; fd < NR_OPEN_DEFAULT; fd++) {
		if (files->fd[fd])
			continue;
		files->fd[fd] = f;
		close_fd_bit(files, fd);
		if (flags & O_CLOEXEC)
			files->close_on_exec |= 1UL << fd;
		return fd;
	}
	return -EMFILE;
}

void exit_files_struct(struct files_struct *files)
{
	int fd;

	if (!files)
		return;
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (files->fd[fd])
			fput(files->fd[fd]);
	if (files->fs.pwd)
		iput(files->fs.pwd);
	kfree(files->fs.pwd_path);
	kfree(files);
}

void exit_files(struct task_struct *t)
{
	struct files_struct *files = t->files;

	t->files = NULL;
	exit_files_struct(files);
}

void do_close_on_exec(struct files_struct *files)
{
	int fd;

	for (fd = 0; files && fd < NR_OPEN_DEFAULT; fd++) {
		if (!(files->close_on_exec & (1UL << fd)) || !files->fd[fd])
			continue;
		fput(files->fd[fd]);
		files->fd[fd] = NULL;
		close_fd_bit(files, fd);
	}
}

/* ---- what a path opens ------------------------------------------------------ */

/*
 * A pseudo file open: its text at open() for reading, up to
 * FILE_SNAPSHOT_MAX bytes (as Linux's seq_file fills its buffer at the
 * first read); for writing, its path: each write() is one
 * pseudofs_write() of the bytes written, what `echo ... > file` does
 * at the kernel's prompt, so busybox's echo and the kernel's give the
 * same result.  O_TRUNC (a shell's `>`) is the first write's, or the
 * close's if nothing was written (`: > kprobe_events` removes every
 * probe, as on Linux); O_APPEND (`>>`) does not truncate.
 */
struct snapshot {
	char *text;
	size_t len;
	char *path;		/* open for writing, else NULL */
	bool trunc;		/* O_TRUNC not done yet */
};

static long snapshot_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	struct snapshot *s = f->private_data;
	size_t n = *pos < (loff_t)s->len ? s->len - *pos : 0;

	if (n > count)
		n = count;
	if (copy_to_user(buf, s->text + *pos, n))
		return -EFAULT;
	*pos += n;
	return n;
}

/* One write(), one pseudofs_write(): its error is write()'s, as Linux's for a bad probe line. */
static long pseudo_write(struct file *f, const char __user *buf, size_t count, loff_t *pos)
{
	struct snapshot *s = f->private_data;
	char *text;
	long ret;

	if (count > PSEUDOFS_WRITE_MAX)
		return -EINVAL;		/* longer than one command takes */
	text = kmalloc(count + 1);
	if (!text)
		return -ENOMEM;
	ret = copy_from_user(text, buf, count) ? -EFAULT :
	      pseudofs_write(s->path, text, count, s->trunc);
	kfree(text);
	if (ret)
		return ret;
	s->trunc = false;
	*pos += count;
	return count;
}

static void snapshot_release(struct file *f)
{
	struct snapshot *s = f->private_data;

	if (s->trunc)
		pseudofs_write(s->path, "", 0, true);
	kfree(s->path);
	kfree(s->text);
	kfree(s);
}

static const struct file_operations snapshot_fops = {
	.read = snapshot_read,
	.write = pseudo_write,
	.seekable = true,
	.release = snapshot_release,
};

static int take_snapshot(const char *path, struct snapshot *s)
{
	struct seq_buf sb;
	int err;

	s->text = kmalloc(FILE_SNAPSHOT_MAX);
	if (!s->text)
		return -ENOMEM;
	seq_buf_init(&sb, s->text, FILE_SNAPSHOT_MAX);
	err = pseudofs_read(path, &sb);
	s->len = sb.len;
	return err;
}

static struct file *open_pseudo(const char *path, unsigned int flags, int *err)
{
	struct snapshot *s = kzalloc(sizeof(*s));
	unsigned int acc = flags & O_ACCMODE;
	struct file *f = NULL;

	*err = -ENOMEM;
	if (s)
		*err = acc == O_WRONLY ? 0 : take_snapshot(path, s);
	if (!*err && acc != O_RDONLY) {
		s->path = kmalloc(strlen(path) + 1);
		*err = s->path ? 0 : -ENOMEM;
		if (s->path)
			strlcpy(s->path, path, strlen(path) + 1);
		s->trunc = flags & O_TRUNC;
	}
	if (!*err && !(f = alloc_file(&snapshot_fops, flags, s)))
		*err = -ENOMEM;
	if (f) {
		f->f_mode = S_IFREG | 0644;
		return f;
	}
	if (s) {
		kfree(s->path);
		kfree(s->text);
	}
	kfree(s);
	return NULL;
}

static size_t chunk_len(size_t left)
{
	return left < IO_CHUNK ? left : IO_CHUNK;
}

/* A ramfs file's bytes, moved through a kernel buffer IO_CHUNK at a time. */
static long ramfs_file_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	char chunk[IO_CHUNK];
	size_t done = 0;
	long n;

	if (S_ISDIR(f->f_inode->i_mode))
		return -EISDIR;
	while (done < count) {
		n = ramfs_read(f->f_inode, chunk, chunk_len(count - done), *pos);
		if (n <= 0)
			break;
		if (copy_to_user(buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
		*pos += n;
	}
	return done;
}

static long ramfs_file_write(struct file *f, const char __user *buf, size_t count,
			     loff_t *pos)
{
	char chunk[IO_CHUNK];
	size_t done = 0;
	long n;

	if (f->f_flags & O_APPEND)
		*pos = ramfs_size(f->f_inode);
	while (done < count) {
		n = chunk_len(count - done);
		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		n = ramfs_write(f->f_inode, chunk, n, *pos);
		if (n < 0)
			return done ? (long)done : n;
		done += n;
		*pos += n;
	}
	return done;
}

static const struct file_operations ramfs_fops = {
	.read = ramfs_file_read,
	.write = ramfs_file_write,
	.seekable = true,
};

/* Linux's may_open() for what exists: 0, or the errno (the reference is dropped). */
static int may_open(struct inode *inode, unsigned int flags)
{
	int err = 0;

	if ((flags & O_CREAT) && (flags & O_EXCL))
		err = -EEXIST;
	else if (S_ISDIR(inode->i_mode) && (flags & O_ACCMODE) != O_RDONLY)
		err = -EISDIR;
	else if (!S_ISDIR(inode->i_mode) && (flags & O_DIRECTORY))
		err = -ENOTDIR;
	if (err)
		iput(inode);
	return err;
}

/* Open (or with O_CREAT make) a ramfs file or directory; the inode's reference goes to the file. */
static struct file *open_ramfs(const char *path, unsigned int flags, umode_t mode, int *err)
{
	bool writing = (flags & O_ACCMODE) != O_RDONLY;
	struct inode *inode;
	struct file *f;

	struct fs_struct *fs = current_fs();

	*err = ramfs_lookup(path, &inode);
	if (*err == -ENOENT && (flags & O_CREAT) && in_pseudo_dir(path))
		*err = -EACCES;
	else if (*err == -ENOENT && (flags & O_CREAT))
		*err = ramfs_create(path, mode & ~(fs ? fs->umask : INIT_UMASK),
				    flags & O_EXCL, &inode);
	else if (!*err)
		*err = may_open(inode, flags);
	if (*err)
		return NULL;
	if (writing && (flags & O_TRUNC))
		ramfs_truncate(inode);
	f = alloc_file(&ramfs_fops, flags, NULL);
	if (!f) {
		iput(inode);
		*err = -ENOMEM;
		return NULL;
	}
	f->f_inode = inode;
	f->f_mode = inode->i_mode;
	return f;
}

/* A relative path starts at dfd's directory, or the working directory (getname_at()). */
static noinline long do_sys_openat2(int dfd, const char __user *filename,
				    struct open_how *how)
{
	/* Linux's open_last_lookups(): O_NOFOLLOW, and O_CREAT|O_EXCL, take the link itself. */
	bool nofollow = (how->flags & O_NOFOLLOW) ||
			(how->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	long ret;
	char *path = nofollow ? getname_at_nofollow(dfd, filename, &ret) :
				getname_at(dfd, filename, &ret);
	char link[2];
	struct file *f;
	int fd, err;

	if (!path)
		return ret;
	if ((how->flags & O_NOFOLLOW) && (ramfs_get_link(path, link, sizeof(link)) > 0 ||
					  pseudo_get_link(path, link, sizeof(link)) > 0)) {
		kfree(path);
		return -ELOOP;		/* open(O_NOFOLLOW) of a symbolic link */
	}
	/* A pseudo file is tracefs's or debugfs's, mounted over the ramfs. */
	if (pseudofs_opens(path))	/* a device, a /proc file: fs/pseudofs.c */
		f = pseudofs_open(path, how->flags, &err);
	else if (pseudofs_lookup(path) == 1)
		f = open_pseudo(path, how->flags, &err);
	else
		f = open_ramfs(path, how->flags, how->mode, &err);
	kfree(path);
	if (!f)
		return err;
	fd = fd_install_new(f, how->flags);
	if (fd < 0)
		fput(f);
	return fd;
}

/*
 * Linux's do_sys_open(), which open() and openat() share: an ordinary
 * kernel function, its four arguments in ax, dx, cx and on the stack
 * (-mregparm=3), where kprobetrace.rst's i386 example reads them:
 * p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack).
 * noinline: it stays a function of its own, to be probed.
 */
noinline long do_sys_open(int dfd, const char __user *filename, int flags, umode_t mode)
{
	struct open_how how = { .flags = (unsigned int)flags, .mode = mode };

	return do_sys_openat2(dfd, filename, &how);
}

asmlinkage long sys_open(const char __user *filename, int flags, int mode)
{
	return do_sys_open(AT_FDCWD, filename, flags, mode);
}

asmlinkage long sys_openat(int dfd, const char __user *filename, int flags, int mode)
{
	return do_sys_open(dfd, filename, flags, mode);
}

asmlinkage long sys_close(unsigned int fd)
{
	struct file *f = fget(fd);
	struct files_struct *files = current_files();

	if (!f || !files)
		return -EBADF;
	files->fd[fd] = NULL;
	close_fd_bit(files, fd);
	fput(f);
	return 0;
}

/* ---- read and write --------------------------------------------------------- */

/* count bytes of the file from *pos to buf, Linux's signature. */
noinline long vfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
{
	if ((file->f_flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;		/* even at the end of the file, as Linux */
	return file->f_op->read ? file->f_op->read(file, buf, count, pos) : -EINVAL;
}

noinline long ksys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	return vfs_read(f, buf, count, &f->f_pos);
}

asmlinkage long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	return ksys_read(fd, buf, count);
}

noinline long vfs_write(struct file *file, const char __user *buf, size_t count,
			loff_t *pos)
{
	if ((file->f_flags & O_ACCMODE) == O_RDONLY || !file->f_op->write)
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;
	return file->f_op->write(file, buf, count, pos);
}

noinline long ksys_write(unsigned int fd, const char __user *buf, size_t count)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	return vfs_write(f, buf, count, &f->f_pos);
}

asmlinkage long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	return ksys_write(fd, buf, count);
}

/* ---- lseek, dup, dup2 -------------------------------------------------------- */

static loff_t vfs_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t base;

	if (!f->f_op->seekable)
		return -ESPIPE;
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = f->f_pos; break;
	case SEEK_END:
		base = f->f_inode ? (loff_t)ramfs_size(f->f_inode) :
		       (loff_t)((struct snapshot *)f->private_data)->len;
		break;
	default: return -EINVAL;
	}
	if (base + offset < 0)
		return -EINVAL;
	f->f_pos = base + offset;
	return f->f_pos;
}

/* 32-bit offsets: a result past 2 GiB would not fit (-EOVERFLOW on Linux; no file is that big). */
asmlinkage long sys_lseek(unsigned int fd, long offset, unsigned int whence)
{
	struct file *f = fget(fd);

	return f ? (long)vfs_llseek(f, offset, whence) : -EBADF;
}

/* The 64-bit lseek of 32-bit Linux: the offset in two halves, the result through a pointer. */
asmlinkage long sys_llseek(unsigned int fd, unsigned long offset_high,
			   unsigned long offset_low, loff_t __user *result,
			   unsigned int whence)
{
	struct file *f = fget(fd);
	loff_t pos;

	if (!f)
		return -EBADF;
	pos = vfs_llseek(f, (loff_t)((unsigned long long)offset_high << 32 | offset_low),
			 whence);
	if (pos < 0)
		return pos;
	return copy_to_user(result, &pos, sizeof(pos)) ? -EFAULT : 0;
}

asmlinkage long sys_dup(unsigned int fildes)
{
	struct file *f = fget(fildes);
	int fd;

	if (!f)
		return -EBADF;
	get_file(f);
	fd = fd_install_new(f, 0);
	if (fd < 0)
		fput(f);
	return fd;
}

/* newfd becomes f's; what newfd had is closed first (Linux's do_dup2()). */
static long do_dup2(struct file *f, unsigned int newfd, unsigned int flags)
{
	struct files_struct *files = current_files();
	struct file *old;

	if (!files)
		return -ENOMEM;
	get_file(f);
	old = files->fd[newfd];
	files->fd[newfd] = f;
	close_fd_bit(files, newfd);
	if (flags & O_CLOEXEC)
		files->close_on_exec |= 1UL << newfd;
	if (old)
		fput(old);
	return newfd;
}

asmlinkage long sys_dup2(unsigned int oldfd, unsigned int newfd)
{
	struct file *f = fget(oldfd);

	if (!f || newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	if (oldfd == newfd)
		return newfd;
	return do_dup2(f, newfd, 0);
}

/* dup2 with O_CLOEXEC, and oldfd == newfd is -EINVAL, not a no-op (Linux's ksys_dup3()). */
asmlinkage long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
	struct file *f;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	f = fget(oldfd);
	return f ? do_dup2(f, newfd, flags) : -EBADF;
}
