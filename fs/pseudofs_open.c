/*
 * pseudofs_open.c - open(2) of what the pseudofs holds, where it is not
 * a snapshot of a file's text (kernel/file.c makes those for tracefs):
 *
 *   a file that opens itself   a device of /dev, a /proc file: its own
 *                              open() gives the struct file;
 *   a directory                of a mounted /proc, /dev or /sys: its
 *                              names, taken at open, for getdents64;
 *
 * and the whole text of a file however long (Linux's seq_file), which
 * /proc's files keep from open() to close().  docs/procfs.md.
 */
#include "kernel.h"
#include "pseudofs.h"
#include "fs.h"
#include "fcntl.h"
#include "string.h"
#include "mm.h"
#include "errno.h"

/*
 * An open directory of a mounted pseudo filesystem: its names as ls
 * lists them, taken at open (a /proc directory's tasks come and go),
 * handed to getdents64 after "." and ".." (fs/readdir.c).
 */
#define DIR_LISTING_FIRST	4096	/* bytes of names tried first */
#define DIR_LISTING_MAX		(1 << 20)
#define DIR_DOT_ENTRIES		2	/* "." and ".." come first */
#define DIR_MODE		(S_IFDIR | 0555)

/* text and len first, as every pseudo file's: lseek's SEEK_END reads len there. */
struct pseudo_dir {
	char *text;
	size_t len;
};

static long pseudo_dir_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	return -EISDIR;
}

static void pseudo_dir_release(struct file *f)
{
	struct pseudo_dir *d = f->private_data;

	kfree(d->text);
	kfree(d);
}

/* The inode number getdents gives: a hash of the name, never 0. */
static uint64_t pseudo_dir_ino(const char *name, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h ? h : 1;
}

static int pseudo_dir_iterate(struct file *f, struct dir_context *ctx)
{
	struct pseudo_dir *d = f->private_data;
	const char *e = d->text, *nl;
	loff_t i;

	/* Entry 0 is ".", entry 1 "..": the first pos + 1 bytes of "..". */
	while (ctx->pos < DIR_DOT_ENTRIES)
		if (!ctx->actor(ctx, "..", ctx->pos + 1, ctx->pos + 1, ctx->pos + 1, DT_DIR))
			return 0;
	for (i = DIR_DOT_ENTRIES; (nl = strchr(e, '\n')); e = nl + 1, i++) {
		bool dir = nl > e && nl[-1] == '/';
		size_t len = nl - e - dir;

		if (i < ctx->pos)
			continue;
		if (!ctx->actor(ctx, e, len, i + 1, pseudo_dir_ino(e, len), dir ? DT_DIR : DT_REG))
			return 0;
	}
	return 0;
}

static const struct file_operations pseudo_dir_fops = {
	.read = pseudo_dir_read,
	.seekable = true,
	.release = pseudo_dir_release,
	.iterate_shared = pseudo_dir_iterate,
};

/*
 * Text that fill() writes, in a buffer that doubles from first to max
 * until it fits (Linux's seq_file grows its buffer the same way):
 * the buffer (kfree() it) and *len, or NULL and *err.
 */
static char *pseudofs_fill_growing(size_t first, size_t max,
				   int (*fill)(struct seq_buf *, const void *), const void *arg,
				   size_t *len, int *err)
{
	struct seq_buf s;
	char *buf;

	for (size_t size = first; size <= max; size *= 2) {
		buf = kmalloc(size);
		*err = -ENOMEM;
		if (!buf)
			return NULL;
		seq_buf_init(&s, buf, size);
		*err = fill(&s, arg);
		if (*err >= 0 && !seq_buf_has_overflowed(&s)) {
			*len = s.len;
			*err = 0;
			return buf;
		}
		kfree(buf);
		if (*err < 0)
			return NULL;
	}
	*err = -ENOMEM;		/* Linux's seq_file, when its buffer cannot grow */
	return NULL;
}

static int pseudo_dir_fill(struct seq_buf *s, const void *path)
{
	return pseudofs_list(path, s);
}

/* The names now, in a buffer that grows until they fit. */
static char *pseudo_dir_names(const char *path, size_t *len, int *err)
{
	return pseudofs_fill_growing(DIR_LISTING_FIRST, DIR_LISTING_MAX, pseudo_dir_fill, path,
				     len, err);
}

static struct file *pseudofs_open_dir(const char *path, unsigned int flags, int *err)
{
	struct pseudo_dir *d;
	struct file *f = NULL;

	*err = -EISDIR;		/* Linux's may_open(): a directory opens for reading only */
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
		return NULL;
	*err = -ENOMEM;
	d = kzalloc(sizeof(*d));
	if (d && (d->text = pseudo_dir_names(path, &d->len, err)))
		f = alloc_file(&pseudo_dir_fops, flags, d);
	if (!f) {
		if (d && d->text)
			*err = -ENOMEM;
		if (d)
			kfree(d->text);
		kfree(d);
		return NULL;
	}
	f->f_mode = DIR_MODE;
	return f;
}

bool pseudofs_opens(const char *path)
{
	const struct pseudo_file *f;
	void *data;
	int type = pseudofs_find(path, &f, &data);

	return type == 2 || (type == 1 && f->open);
}

struct file *pseudofs_open(const char *path, unsigned int flags, int *err)
{
	const struct pseudo_file *f;
	void *data;
	int type = pseudofs_find(path, &f, &data);

	if (type == 2)
		return pseudofs_open_dir(path, flags, err);
	*err = type < 0 ? type : type == 0 || !f->open ? -ENOENT :
	       (flags & O_DIRECTORY) ? -ENOTDIR : 0;
	return *err ? NULL : f->open(f, data, flags, err);
}

#define SHOW_ALL_FIRST	16384		/* bytes tried first: most files fit */
#define SHOW_ALL_MAX	(8 << 20)	/* the most a file's text may be */

struct show_all_arg {
	const struct pseudo_file *pf;
	void *data;
};

static int pseudo_show_fill(struct seq_buf *s, const void *arg)
{
	const struct show_all_arg *a = arg;

	return a->pf->show ? a->pf->show(s, a->data) : -EPERM;
}

char *pseudofs_show_all(const struct pseudo_file *pf, void *data, size_t *len, int *err)
{
	struct show_all_arg a = { pf, data };

	return pseudofs_fill_growing(SHOW_ALL_FIRST, SHOW_ALL_MAX, pseudo_show_fill, &a, len, err);
}
