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

long sys_open(const char __user *filename, int flags, int mode)
{
	char path[PSEUDOFS_PATH_MAX];
	long len = strncpy_from_user(path, filename, sizeof(path));
	struct file *f;
	int fd, err;

	if (len < 0)
		return len;
	if (len == sizeof(path))
		return -ENAMETOOLONG;
	if ((flags & O_ACCMODE) != O_RDONLY)
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

long sys_close(unsigned int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	current->files->fd[fd] = NULL;
	fput_free(f);
	return 0;
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *f;
	size_t n;

	if (fd == 0)
		return 0;		/* no input: end of file */
	f = fget(fd);
	if (!f)
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;		/* even at the end of the file, as Linux */
	n = f->len - f->pos;
	if (n > count)
		n = count;
	if (copy_to_user(buf, f->text + f->pos, n))
		return -EFAULT;
	f->pos += n;
	return n;
}

/* The console: the whole range is checked first, so a bad one prints nothing. */
long sys_write(unsigned int fd, const char __user *buf, size_t count)
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
