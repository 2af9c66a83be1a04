/*
 * generic.c - a /proc file is text made at open() (Linux's
 * fs/proc/generic.c and fs/seq_file.c, in one idea).
 *
 * Linux's seq_file makes a file's text a page at a time as it is read;
 * here open() makes all of it at once, in a buffer that grows until the
 * text fits (pseudofs_show_all()): /proc/kallsyms is some hundred KiB,
 * more than tracefs's snapshot keeps.  Every read(2) then hands out the
 * next part, so `cat` sees one consistent text even while it changes.
 */
#include "kernel.h"
#include "proc_fs.h"
#include "pseudofs.h"
#include "mount.h"
#include "fs.h"
#include "fcntl.h"
#include "uaccess.h"
#include "vsprintf.h"
#include "mm.h"
#include "errno.h"

#define PROC_FILE_MODE	(S_IFREG | 0444)	/* what fstat says: everyone reads */

/*
 * The text of one open file.  text and len come first and in this
 * order: lseek's SEEK_END (kernel/file.c) reads a pseudo file's length
 * there, as it reads a tracefs snapshot's.
 */
struct proc_text {
	char *text;
	size_t len;
};

static long proc_text_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	struct proc_text *t = f->private_data;
	size_t n = *pos < (loff_t)t->len ? t->len - *pos : 0;

	if (n > count)
		n = count;
	if (copy_to_user(buf, t->text + *pos, n))
		return -EFAULT;
	*pos += n;
	return n;
}

static void proc_text_release(struct file *f)
{
	struct proc_text *t = f->private_data;

	kfree(t->text);
	kfree(t);
}

static const struct file_operations proc_text_fops = {
	.read = proc_text_read,
	.seekable = true,
	.release = proc_text_release,
};

/* open(2) of a /proc file: its text now.  Nothing here is writable (-EACCES). */
static struct file *proc_open_text(const struct pseudo_file *pf, void *data,
				   unsigned int flags, int *err)
{
	struct proc_text *t;
	struct file *f;

	*err = -EACCES;
	if ((flags & O_ACCMODE) != O_RDONLY)
		return NULL;
	*err = -ENOMEM;
	t = kzalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->text = pseudofs_show_all(pf, data, &t->len, err);
	f = t->text ? alloc_file(&proc_text_fops, flags, t) : NULL;
	if (!f) {
		if (t->text)
			*err = -ENOMEM;
		kfree(t->text);
		kfree(t);
		return NULL;
	}
	f->f_mode = PROC_FILE_MODE;
	return f;
}

/* A /proc path: PROC_ROOT "/" name; -EINVAL if it does not fit. */
int proc_path(char *buf, size_t len, const char *name)
{
	return (size_t)snprintf(buf, len, "%s/%s", PROC_ROOT, name) >= len ? -EINVAL : 0;
}

int proc_create_at(const char *path, int (*show)(struct seq_buf *s, void *data))
{
	return pseudofs_create_opener(path, show, proc_open_text, NULL);
}

int proc_create_single(const char *name, int (*show)(struct seq_buf *s, void *data))
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = proc_path(path, sizeof(path), name);

	return ret ? ret : proc_create_at(path, show);
}
