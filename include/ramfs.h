/*
 * ramfs.h - the filesystem at "/": directories and regular files that
 * live in kernel memory and nowhere else (Linux's fs/ramfs/), filled at
 * boot from the initramfs (init/initramfs.c).  A file is an inode; a
 * directory is an inode with a list of children.  docs/exec.md.
 *
 * Paths are absolute (a process's working directory is always "/", so
 * a relative path is read from there, as Linux would); ".", ".." and
 * repeated slashes mean what they mean on Linux.
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
