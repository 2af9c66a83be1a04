/*
 * ramfs.h - the filesystem at "/": directories and regular files that
 * live in kernel memory and nowhere else (Linux's fs/ramfs/), filled at
 * boot from the initramfs (init/initramfs.c).  A file is an inode; a
 * directory is an inode with a list of children.  docs/exec.md.
 *
 * Paths are absolute: a system call makes a relative one absolute
 * first, from the process's working directory or a directory fd
 * (getname_at(), fs/namei.c); ".", ".." and repeated slashes mean what
 * they mean on Linux.
 */
#ifndef RAMFS_H
#define RAMFS_H

#include <stddef.h>
#include <stdbool.h>
#include "kernel.h"
#include "list.h"
#include "cpio.h"	/* S_IFDIR, S_IFREG, S_ISDIR() ...: Linux's mode bits */

#define NAME_MAX	255	/* bytes in one path component, Linux's */
#define PATH_MAX	256	/* bytes in a path, NUL included (Linux's is 4096) */
#define S_IXUGO		0111	/* execute permission for anyone */

typedef long long loff_t;

struct inode {
	unsigned long i_ino;
	unsigned int i_mode;		/* S_IFDIR/S_IFREG | permissions */
	char *name;			/* in its parent; "" for the root */
	struct inode *parent;
	struct list_head children;	/* a directory's entries, in creation order */
	struct list_head sibling;	/* on the parent's children */
	unsigned char *data;		/* a regular file's bytes */
	size_t size, capacity;
	/*
	 * The bytes are the kernel image's (a built-in program): never
	 * freed, and copied to the heap at the first write.
	 */
	bool data_borrowed;
	int i_count;			/* references: its name, open files, an exec */
	bool unlinked;
	/*
	 * Nanoseconds since the epoch, the wall clock's: last read, last
	 * change of the bytes, last change of anything.
	 */
	int64_t i_atime, i_mtime, i_ctime;
};

/* Linux's struct kstat: what stat64(2) and statx(2) both report, read under the lock. */
struct kstat {
	unsigned long ino;
	unsigned int mode;
	unsigned int nlink;		/* a directory: 2 + its subdirectories, as Linux's */
	loff_t size;			/* a directory's: BOGO_DIRENT_SIZE a name, as tmpfs */
	unsigned long long blocks;	/* 512-byte units: whole pages, as tmpfs allocates */
	int64_t atime, mtime, ctime;	/* ns */
};

/*
 * Every call below takes the one ramfs mutex: they may sleep.  The
 * calls returning an inode take a reference; iput() gives it back (an
 * unlinked file's bytes go with its last reference, as on Linux).
 */
void ramfs_init(void);
int ramfs_lookup(const char *path, struct inode **out);	/* -ENOENT, -ENOTDIR */
/* A new regular file, or (with O_TRUNC's effect) the existing one emptied. */
int ramfs_create(const char *path, unsigned int mode, bool excl, struct inode **out);
int ramfs_mkdir(const char *path, unsigned int mode);	/* -EEXIST, -ENOENT, -ENOTDIR */
int ramfs_unlink(const char *path);			/* -EISDIR for a directory */
/* A symbolic link at path whose text is target (Linux's ramfs_symlink()): -EEXIST, -ENOSPC... */
int ramfs_symlink(const char *path, const char *target);
int ramfs_rmdir(const char *path);			/* -ENOTEMPTY, -ENOTDIR, -EBUSY for "/" */
/* Linux's rename(2) with renameat2()'s flags (RENAME_NOREPLACE); 0 or -errno. */
int ramfs_rename(const char *oldpath, const char *newpath, unsigned int flags);
/* The absolute path of a directory, Linux's d_path(); -ENOENT once removed, -ERANGE. */
int ramfs_path(struct inode *dir, char *buf, size_t size);
void ramfs_getattr(struct inode *inode, struct kstat *st);
/* chmod(2): the permission bits only; utimensat(2): ns since the epoch, NULL to keep. */
void ramfs_chmod(struct inode *inode, unsigned int mode);
void ramfs_set_times(struct inode *inode, const int64_t *atime, const int64_t *mtime);
/* truncate(2): the file made size bytes long, zeros past its end; 0 or -errno. */
int ramfs_setsize(struct inode *inode, loff_t size);
/* A timestamp now, ns since the epoch (Linux's current_time()). */
int64_t ramfs_now(void);
void iget(struct inode *inode);
void iput(struct inode *inode);

/* Bytes at pos of a regular file, to or from a kernel buffer; count or -errno. */
long ramfs_read(struct inode *inode, void *buf, size_t count, loff_t pos);
long ramfs_write(struct inode *inode, const void *buf, size_t count, loff_t pos);
void ramfs_truncate(struct inode *inode);
/* Make inode's bytes a range of the kernel image, shared, not copied. */
void ramfs_borrow(struct inode *inode, const void *data, size_t size);
/*
 * Heap blocks the tree holds now.  Files are state, not a leak: a test
 * that counts the heap's blocks around processes that may make files
 * (the ring-3 fuzzer's random open(O_CREAT) and mkdir) leaves these out.
 */
unsigned long ramfs_heap_blocks(void);
/* The inode's size, read under the lock. */
size_t ramfs_size(struct inode *inode);

/* The entry number index of a directory: 0 and its name, or -ENOENT past the end. */
struct ramfs_dirent {
	unsigned long ino;
	unsigned int mode;
	char name[NAME_MAX + 1];
};
int ramfs_readdir(struct inode *dir, unsigned long index, struct ramfs_dirent *out);

/*
 * Run fn on the bytes of a regular file with the filesystem locked: no
 * write can change them meanwhile (exec loads a program this way).
 */
int ramfs_with_data(struct inode *inode,
		    int (*fn)(const unsigned char *data, size_t size, void *arg), void *arg);

#endif
