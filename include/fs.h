/*
 * fs.h - an open file and a process's table of them (Linux's struct
 * file, struct file_operations and struct files_struct, from
 * include/linux/fs.h and include/linux/fdtable.h).  docs/exec.md.
 *
 * A file descriptor is an index into current->files->fd[]; the entry is
 * a struct file, which may be shared: dup(), dup2() and a child's copy
 * of its parent's table all point at the same one (f_count), with one
 * offset between them, as on Linux.  What a read or write does depends
 * on what the file is (f_op): the console, a ramfs file or directory,
 * a pseudo file's snapshot, one end of a pipe.
 */
#ifndef FS_H
#define FS_H

#include <stddef.h>
#include "kernel.h"
#include "linux/compiler.h"
#include <asm/atomic.h>
#include "ramfs.h"

struct file;
struct task_struct;

/* d_type of a directory entry: Linux's values (include/linux/fs_types.h). */
#define DT_CHR	2
#define DT_DIR	4
#define DT_REG	8

/*
 * Linux's struct dir_context: a directory that is no ramfs directory
 * (a /proc or /dev one) hands its entries to actor(), from pos on,
 * moving pos past each one taken; actor() returns false when the
 * caller's buffer is full.  getdents64 is the actor (fs/readdir.c).
 */
struct dir_context;
typedef bool (*filldir_t)(struct dir_context *ctx, const char *name, int namelen,
			  loff_t next, uint64_t ino, unsigned int d_type);
struct dir_context {
	filldir_t actor;
	loff_t pos;
};

struct file_operations {
	long (*read)(struct file *f, char __user *buf, size_t count, loff_t *pos);
	long (*write)(struct file *f, const char __user *buf, size_t count, loff_t *pos);
	bool seekable;			/* else lseek is -ESPIPE (pipes, the console) */
	void (*release)(struct file *f);	/* the last reference went */
	/* A directory not the ramfs's: its entries from ctx->pos (0 or -errno). */
	int (*iterate_shared)(struct file *f, struct dir_context *ctx);
};

struct file {
	const struct file_operations *f_op;
	atomic_t f_count;
	unsigned int f_flags;		/* open()'s flags: O_APPEND, O_NONBLOCK ... */
	loff_t f_pos;
	struct inode *f_inode;		/* a ramfs file or directory, else NULL */
	void *private_data;		/* the pipe, the snapshot */
	unsigned int f_mode;		/* what fstat reports: S_IFCHR, S_IFIFO ... */
};

#define NR_OPEN_DEFAULT	32	/* descriptors per process: Linux's BITS_PER_LONG */

struct files_struct {
	struct file *fd[NR_OPEN_DEFAULT];
	unsigned long close_on_exec;	/* bit n: close fd n at execve() */
};

/* A new file with one reference, or NULL. */
struct file *alloc_file(const struct file_operations *op, unsigned int flags,
			void *private_data);
void get_file(struct file *f);
void fput(struct file *f);
/* Current's file at fd, no reference taken (a process has one thread); NULL: -EBADF. */
struct file *fget(unsigned int fd);
/* Put f at current's lowest free descriptor (the reference moves there): fd or -EMFILE. */
int fd_install_new(struct file *f, unsigned int flags);

/*
 * A child's table: a copy of `from`, every file's count raised (fork's
 * dup_fd()); from NULL gives the console as fd 0, 1 and 2.
 */
struct files_struct *dup_fd(struct files_struct *from);
/* Drop every file of a table and free it (a table no task holds). */
void exit_files_struct(struct files_struct *files);
/* execve(): close every descriptor opened with O_CLOEXEC. */
void do_close_on_exec(struct files_struct *files);

/* fs/pipe.c: a pipe's two ends, read end first; 0 or -errno. */
int create_pipe_files(struct file **res, int flags);

#endif
