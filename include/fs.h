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
#define DT_LNK	10

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
	long (*unlocked_ioctl)(struct file *f, unsigned int cmd, unsigned long arg); /* else -ENOTTY */
	unsigned int (*poll)(struct file *f);	/* POLLIN... ready now; else always ready (fs/select.c) */
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

/*
 * Linux's struct fs_struct: where a relative path starts, and the bits
 * a new file's mode loses.  Linux hangs it off the task beside the file
 * table, because clone(CLONE_FS) may share one without the other; here
 * fork() is the only clone, copying both at the same moment, so the
 * table carries it: inherited by fork, kept by execve, as on Linux.
 */
struct fs_struct {
	struct inode *pwd;		/* a ramfs directory, referenced; NULL: "/" */
	/*
	 * Or a tracefs or debugfs directory, which has no inode here: its
	 * absolute path (kmalloc()ed), pwd then NULL.
	 */
	char *pwd_path;
	unsigned int umask;
};

#define INIT_UMASK	0022		/* Linux's init_fs.umask */

struct files_struct {
	struct file *fd[NR_OPEN_DEFAULT];
	unsigned long close_on_exec;	/* bit n: close fd n at execve() */
	struct fs_struct fs;
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

/* fs/namei.c: an absolute path tidied in place, "." and ".." by name (below a pseudo directory). */
void path_normalize(char *path);
/* fs/namei.c: fs's working directory as an absolute path in buf: 0 or -errno. */
long fs_pwd_path(struct fs_struct *fs, char *buf, size_t size);

/* Current's table, made on first use (a kernel thread calling a system call); NULL: no memory. */
struct files_struct *current_files(void);
/* Current's fs_struct; NULL for a kernel thread with no table yet ("/", umask 022). */
struct fs_struct *current_fs(void);
/* Install f at the lowest free descriptor >= start: fd or -EMFILE (fcntl's F_DUPFD). */
int fd_install_from(struct file *f, unsigned int start, unsigned int flags);

/*
 * fs/namei.c: the path a system call names, made absolute in a new
 * PATH_MAX buffer (kfree() it), with every symbolic link on the way
 * followed, the last one too (follow_links()): a relative one starts at dfd's
 * directory, or with AT_FDCWD at the working directory.  NULL and
 * *err: -EFAULT, -ENAMETOOLONG, -ENOENT ("" names nothing), -EBADF,
 * -ENOTDIR (dfd is no directory).
 */
char *getname_at(int dfd, const char __user *filename, long *err);
/* The same for a name already in the kernel (execve's, whose AT_EXECFN is the name as given). */
char *absolute_path_at(int dfd, const char *name, long *err);
/*
 * Is an absolute path's directory one tracefs or debugfs answer for (a
 * mount point or below)?  No file can be created there: -EACCES, as
 * Linux's for a filesystem without create().
 */
bool in_pseudo_dir(const char *path);
/* The ramfs inode at dfd/filename, referenced (iput() it): 0 or -errno. */
int user_path_at(int dfd, const char __user *filename, struct inode **out);

/*
 * getname_at() for a call that does not follow a link at the path's
 * end (lstat, readlink, unlink, rename, mkdir, symlink's new name,
 * O_NOFOLLOW): the links before it are followed.
 */
char *getname_at_nofollow(int dfd, const char __user *filename, long *err);
/*
 * fs/namei_link.c: an absolute path (PATH_MAX bytes) rewritten in place
 * with no symbolic link in it, the last one followed or not: 0, -ELOOP
 * (more than Linux's 40), -ENAMETOOLONG, -ENOMEM.
 */
int follow_links(char *path, bool follow_last);
/* The text of the link at path (the ramfs's; a pseudo filesystem's: /proc/self) in buf: its length or -errno. */
int ramfs_get_link(const char *path, char *buf, size_t size);
int pseudo_get_link(const char *path, char *buf, size_t size);

/* fs/pipe.c: a pipe's two ends, read end first; 0 or -errno. */
int create_pipe_files(struct file **res, int flags);

#endif
