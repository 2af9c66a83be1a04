/*
 * mount.h - one view of every filesystem by path (fs/namespace.c): the
 * ramfs at "/", with tracefs mounted at /sys/kernel/tracing and debugfs
 * at /sys/kernel/debug (fs/pseudofs.c), as on Linux.  The shell's ls,
 * cat and cd go through it (not Tab: it completes with a spinlock held,
 * and the ramfs takes a mutex); a process's open() makes the same
 * choice (kernel/file.c).
 */
#ifndef MOUNT_H
#define MOUNT_H

#include "seq_buf.h"

/* 1 a file, 2 a directory, 0 nothing there. */
int path_lookup_type(const char *path);
/* A directory's names, one a line, directories with a '/': count or -errno. */
int path_list(const char *path, struct seq_buf *s);
/* A file's text (a ramfs file's bytes): 0 or -errno (-EISDIR, -ENOENT). */
int path_show(const char *path, struct seq_buf *s);

#endif
