/*
 * mount.h - one view of every filesystem by path (fs/namespace.c): the
 * ramfs at "/", and mounted on it, as on Linux, proc at /proc, sysfs at
 * /sys, devtmpfs at /dev, tracefs at /sys/kernel/tracing and debugfs at
 * /sys/kernel/debug (their files are the pseudofs's, fs/pseudofs.c).
 * mount(2) and umount2(2) change the table; /proc/mounts shows it.
 * The shell's ls, cat and cd go through it (not Tab: it completes with
 * a spinlock held, and the ramfs takes a mutex); a process's open()
 * makes the same choice (kernel/file.c).  docs/procfs.md.
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

/* ---- kinds of filesystem (fs/filesystems.c) -------------------------------- */

/* Where each pseudo filesystem's files live in the pseudofs: its root. */
#define SYSFS_ROOT	"/sys"
#define PROC_ROOT	"/proc"
#define DEVTMPFS_ROOT	"/dev"
#define DEBUGFS_ROOT	"/sys/kernel/debug"
#define TRACEFS_ROOT	"/sys/kernel/tracing"

struct file_system_type {
	const char *name;	/* mount -t NAME */
	const char *root;	/* its files' root in the pseudofs; NULL: the ramfs */
};

/* The kind called name, NULL if none (mount's -ENODEV). */
const struct file_system_type *get_fs_type(const char *name);
/* The i-th pseudo filesystem's root, NULL past the last. */
const char *pseudo_fs_root(int i);
/* The root of the pseudo filesystem a pseudofs path belongs to, "" if none. */
const char *pseudo_fs_owner(const char *path);
/* /proc/filesystems. */
int filesystems_proc_show(struct seq_buf *s, void *data);

/* ---- the mount table (fs/namespace.c) ---------------------------------------- */

/* mount(2)'s flags, Linux's values (include/uapi/linux/mount.h). */
#define MS_RDONLY	0x1
#define MS_NOSUID	0x2
#define MS_NODEV	0x4
#define MS_NOEXEC	0x8
#define MS_SYNCHRONOUS	0x10
#define MS_REMOUNT	0x20
#define MS_MANDLOCK	0x40
#define MS_DIRSYNC	0x80
#define MS_NOATIME	0x400
#define MS_NODIRATIME	0x800
#define MS_BIND		0x1000
#define MS_MOVE		0x2000
#define MS_REC		0x4000
#define MS_SILENT	0x8000
#define MS_RELATIME	0x200000
#define MS_STRICTATIME	0x1000000
#define MS_MGC_MSK	0xffff0000UL	/* old callers' magic 0xC0ED in the top half: ignored */

/* umount2(2)'s flags. */
#define MNT_FORCE	0x1
#define MNT_DETACH	0x2
#define MNT_EXPIRE	0x4
#define UMOUNT_NOFOLLOW	0x8

/*
 * Mount a filesystem of kind type at dir (a directory), dev_name its
 * source as /proc/mounts shows it (NULL: "none"): 0, -ENODEV (no such
 * kind), -ENOENT or -ENOTDIR (no directory there), -EBUSY (the same
 * kind is mounted there already), -EINVAL (a bind or move mount).
 */
int do_mount(const char *dev_name, const char *dir, const char *type, unsigned long flags);
/* Unmount what is mounted at path: 0, -EINVAL (no mount point), -EBUSY (mounts below). */
int path_umount(const char *path, int flags);
/* The mounts Linux's init makes at boot (kmain). */
void mnt_init(void);

/*
 * Which filesystem answers path: 1 for a pseudo filesystem's mount,
 * with the file's pseudofs path in canon, its filesystem's root and the
 * mount's flags; 0 for the ramfs's; -ENAMETOOLONG.
 */
int mnt_resolve(const char *path, char *canon, size_t len, const char **root,
		unsigned long *flags);
/* /proc/mounts: one line a mount, as Linux's fs/proc_namespace.c prints them. */
int mounts_proc_show(struct seq_buf *s, void *data);

#endif
