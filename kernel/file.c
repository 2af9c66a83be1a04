/*
 * file.c - open, read, write and close for processes (Linux's
 * fs/open.c and fs/read_write.c, for the files this kernel has).
 *
 *   fd 0        standard input: none yet, read() sees end of file;
 *   fd 1, 2     standard output and error: the console;
 *   fd 3...     a pseudo file (fs/pseudofs.c), opened read-only.
 *
 * A pseudo file's text is produced when it is shown, so open() takes a
 * snapshot of it (as Linux's seq_file fills its buffer at the first
 * read) and read() hands it out in pieces.  Every user pointer goes
 * through uaccess.h: a bad one is -EFAULT, never an oops.
 *
 * The path of each call has Linux's names, so that Linux's documented
 * probes work here as written (kprobetrace.rst's do_sys_open, the
 * vfs_read and ksys_write of every tracing tutorial):
 *
 *   sys_open  -> do_sys_open -> do_sys_openat2
 *   sys_read  -> ksys_read   -> vfs_read
 *   sys_write -> ksys_write
 *
 * They are noinline: a function the compiler folded into its caller
 * has no address of its own to put a probe on.
 */
#include "kernel.h"
#include "process.h"
#include "sched.h"
#include "syscalls.h"
#include "uaccess.h"
#include "pseudofs.h"
#include "string.h"
#include "errno.h"

#define NR_OPEN_DEFAULT  8
#define FIRST_FILE_FD    3       /* after stdin, stdout, stderr */
#define FILE_SNAPSHOT_MAX 16384  /* bytes of a pseudo file open() keeps */
#define WRITE_CHUNK      128     /* bytes copied from the user per printk */
#define O_ACCMODE        3       /* Linux's open flags: O_RDONLY 0, O_WRONLY 1, O_RDWR 2 */
#define O_RDONLY         0
#define AT_FDCWD         -100    /* "relative to the working directory": Linux's value */

/* Linux's struct open_how (include/uapi/linux/openat2.h): what to open and how. */
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

struct file {
	char *text;
	size_t len, pos;
};

struct files_struct {
	struct file *fd[NR_OPEN_DEFAULT];
};

static struct file *fget(int fd)
{
	struct files_struct *files = current->files;

	if (!files || fd < FIRST_FILE_FD || fd >= NR_OPEN_DEFAULT)
		return NULL;
	return files->fd[fd];
}

static void fput_free(struct file *f)
{
	kfree(f->text);
	kfree(f);
}

void exit_files(struct task_struct *t)
{
	struct files_struct *files = t->files;
	int fd;

	if (!files)
		return;
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (files->fd[fd])
			fput_free(files->fd[fd]);
	t->files = NULL;
	kfree(files);
}

static int get_unused_fd(void)
{
	int fd;

	if (!current->files)
		current->files = kzalloc(sizeof(*current->files));
	if (!current->files)
		return -ENOMEM;
	for (fd = FIRST_FILE_FD; fd < NR_OPEN_DEFAULT; fd++)
		if (!current->files->fd[fd])
			return fd;
	return -EMFILE;
}

/* The file's text now, up to FILE_SNAPSHOT_MAX bytes. */
static struct file *snapshot(const char *path, int *err)
{
	struct file *f = kzalloc(sizeof(*f));
	struct seq_buf s;

	*err = -ENOMEM;
	if (!f || !(f->text = kmalloc(FILE_SNAPSHOT_MAX))) {
		kfree(f);
		return NULL;
	}
	seq_buf_init(&s, f->text, FILE_SNAPSHOT_MAX);
	*err = pseudofs_read(path, &s);
	if (*err) {
		fput_free(f);
		return NULL;
	}
	f->len = s.len;
	return f;
}

/* Every path is absolute here: dfd only says "from the working directory". */
static noinline long do_sys_openat2(int dfd, const char __user *filename,
				    struct open_how *how)
{
	char path[PSEUDOFS_PATH_MAX];
	long len;
	struct file *f;
	int fd, err;

	if (dfd != AT_FDCWD)
		return -EBADF;
	len = strncpy_from_user(path, filename, sizeof(path));
	if (len < 0)
		return len;
	if (len == sizeof(path))
		return -ENAMETOOLONG;
	if ((how->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;		/* pseudo files are read-only to processes */
	fd = get_unused_fd();
	if (fd < 0)
		return fd;
	f = snapshot(path, &err);
	if (!f)
		return err;
	current->files->fd[fd] = f;
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

asmlinkage long sys_close(unsigned int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	current->files->fd[fd] = NULL;
	fput_free(f);
	return 0;
}

/* count bytes of the file from *pos to buf, Linux's signature. */
noinline long vfs_read(struct file *file, char __user *buf, size_t count, size_t *pos)
{
	size_t n;

	if (!access_ok(buf, count))
		return -EFAULT;		/* even at the end of the file, as Linux */
	n = file->len - *pos;
	if (n > count)
		n = count;
	if (copy_to_user(buf, file->text + *pos, n))
		return -EFAULT;
	*pos += n;
	return n;
}

noinline long ksys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *f;

	if (fd == 0)
		return 0;		/* no input: end of file */
	f = fget(fd);
	if (!f)
		return -EBADF;
	return vfs_read(f, buf, count, &f->pos);
}

asmlinkage long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	return ksys_read(fd, buf, count);
}

/* The console: the whole range is checked first, so a bad one prints nothing. */
noinline long ksys_write(unsigned int fd, const char __user *buf, size_t count)
{
	char chunk[WRITE_CHUNK];
	size_t done, n;

	if (fd != 1 && fd != 2)
		return -EBADF;	/* opened files are read-only */
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

asmlinkage long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	return ksys_write(fd, buf, count);
}
