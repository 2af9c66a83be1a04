/*
 * namespace.c - which filesystem answers a path (Linux's mount table,
 * fs/namespace.c, reduced to what this kernel mounts): a path below a
 * pseudofs file's directory is tracefs's or debugfs's, anything else the
 * ramfs's.  The mount points themselves (/sys/kernel/tracing, ...) are
 * ramfs directories made at boot (init/initramfs.c), so `ls /sys/kernel`
 * finds them as `ls` on Linux does; a directory lists the ramfs's
 * entries first, then the pseudo files and directories below it.
 */
#include "kernel.h"
#include "mount.h"
#include "pseudofs.h"
#include "ramfs.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define LISTING_MAX	8192	/* bytes of a pseudofs directory's names */

int path_lookup_type(const char *path)
{
	struct inode *inode;
	int type = pseudofs_lookup(path);

	if (type == 0 && ramfs_lookup(path, &inode) == 0) {
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

	if (pseudofs_lookup(path) == 1 || ramfs_lookup(path, &dir))
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

	if (pseudofs_lookup(path))
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
