/*
 * filesystems.c - the kinds of filesystem `mount -t` knows (Linux's
 * fs/filesystems.c: register_filesystem(), get_fs_type() and
 * /proc/filesystems).
 *
 * Linux registers each kind as its code initialises; this kernel has a
 * fixed few, so they are one table.  Every kind but the ramfs keeps its
 * files in the pseudofs (fs/pseudofs.c), under one path of its own, its
 * root: mounting it at a directory shows the files below that root
 * there.  A file belongs to the kind whose root is the longest start of
 * its path, so /sys/kernel/tracing/trace is tracefs's, not sysfs's.
 */
#include "kernel.h"
#include "mount.h"
#include "string.h"
#include "vsprintf.h"

/* In Linux 6.1's registration order (what /proc/filesystems lists). */
static const struct file_system_type filesystems[] = {
	{ "sysfs",    SYSFS_ROOT },
	{ "tmpfs",    NULL },		/* the ramfs under its other name: no swap, no size limit */
	{ "proc",     PROC_ROOT },
	{ "devtmpfs", DEVTMPFS_ROOT },
	{ "debugfs",  DEBUGFS_ROOT },
	{ "tracefs",  TRACEFS_ROOT },
	{ "ramfs",    NULL },
};

const struct file_system_type *get_fs_type(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(filesystems); i++)
		if (strcmp(filesystems[i].name, name) == 0)
			return &filesystems[i];
	return NULL;
}

/* Is root the whole of path, or path's start up to a '/'? */
static bool path_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

const char *pseudo_fs_root(int i)
{
	for (size_t k = 0; k < ARRAY_SIZE(filesystems); k++)
		if (filesystems[k].root && i-- == 0)
			return filesystems[k].root;
	return NULL;
}

const char *pseudo_fs_owner(const char *path)
{
	const char *best = "";

	for (size_t i = 0; i < ARRAY_SIZE(filesystems); i++) {
		const char *root = filesystems[i].root;

		if (root && path_under(path, root) && strlen(root) > strlen(best))
			best = root;
	}
	return best;
}

/* /proc/filesystems: "nodev" before each kind that needs no block device (all of ours). */
int filesystems_proc_show(struct seq_buf *s, void *data)
{
	for (size_t i = 0; i < ARRAY_SIZE(filesystems); i++)
		seq_buf_printf(s, "nodev\t%s\n", filesystems[i].name);
	return 0;
}
