/*
 * pseudofs.h - a tiny in-memory pseudo filesystem, like Linux's tracefs
 * and debugfs: every "file" is a pair of callbacks, and the text you read
 * is produced at the moment you read it.
 *
 *   cat /sys/kernel/tracing/kprobe_events    -> the file's show() callback
 *   echo 'p fib' >> .../kprobe_events        -> its write() callback
 *
 * Directories are mostly not stored: a directory exists while some
 * file's path lies below it (ls derives them from the paths).  The one
 * kind that is stored is a directory in which mkdir and rmdir work
 * (tracefs' instances/): it exists empty, and its callbacks make and
 * unmake what a new directory in it holds.
 */
#ifndef PSEUDOFS_H
#define PSEUDOFS_H

#include <stddef.h>
#include <stdbool.h>
#include "kernel.h"
#include "seq_buf.h"	/* where show() callbacks print */

/*
 * One file.  show() prints the contents; write() gets the text of one
 * `echo` (with its trailing newline) and returns 0 or a negative errno.
 * `trunc` is true for `>` (the file was opened with O_TRUNC), false for
 * `>>`: kprobe_events and trace treat `>` as "clear first", as Linux does.
 * Either callback may be NULL (a read-only or write-only file).
 */
struct pseudo_file {
	const char *path;	/* absolute, e.g. "/sys/kernel/tracing/trace" */
	int (*show)(struct seq_buf *s, void *data);
	int (*write)(const char *text, size_t len, bool trunc, void *data);
	void *data;
	struct pseudo_file *next;	/* internal: the list of every file */
	size_t len;			/* internal: strlen(path), compared first */
	/* A directory (pseudofs_create_dir()), not a file: mkdir(2) and
	 * rmdir(2) of a name in it call these (Linux's inode mkdir, rmdir). */
	int (*mkdir)(const char *name, void *data);
	int (*rmdir)(const char *name, void *data);
	bool is_dir;
	/* A file that opens itself (pseudofs_create_opener()): a device of
	 * /dev, a /proc file of any size.  data is the file's, or the name
	 * a '*' of its path matched, resolved (pseudofs_create_dynamic()). */
	struct file *(*open)(const struct pseudo_file *pf, void *data,
			     unsigned int flags, int *err);
};

/*
 * Bytes in a path, NUL included.  The longest path the kernel makes is an
 * instance's event format file,
 * /sys/kernel/tracing/instances/NAME/events/GROUP/EVENT/format with
 * 63-character names (Linux's MAX_EVENT_NAME_LEN): 235 characters.
 * kernel/trace/trace_events.c checks at build time that it fits.
 */
#define PSEUDOFS_PATH_MAX 256
#define PSEUDOFS_WRITE_MAX 4096	/* one echo's text at most, like a page */

/* Add a file (the path is copied).  -EEXIST if it is there, -ENOMEM. */
int pseudofs_create(const char *path,
		    int (*show)(struct seq_buf *s, void *data),
		    int (*write)(const char *text, size_t len, bool trunc, void *data),
		    void *data);
/* One entry of a table of files created together in one directory. */
struct pseudo_file_spec {
	const char *name;	/* relative to the directory */
	int (*show)(struct seq_buf *s, void *data);
	int (*write)(const char *text, size_t len, bool trunc, void *data);
};
/* Create dir/name for each entry, in order; stops at the first error. */
int pseudofs_create_files(const char *dir, const struct pseudo_file_spec *specs,
			  size_t n);
/* Remove a file (its data is the caller's to free).  -ENOENT if none. */
int pseudofs_remove(const char *path);
/* The data pointer a file was created with, NULL if there is no file. */
void *pseudofs_data(const char *path);

/* Read/write a file as cat/echo do: -ENOENT (no such file), -EISDIR
 * (a directory), -EPERM (no callback), else the callback's result. */
int pseudofs_read(const char *path, struct seq_buf *s);
int pseudofs_write(const char *path, const char *text, size_t len, bool trunc);

/*
 * List a directory as ls does: one name a line, directories with a
 * trailing '/', sorted as ls sorts in the C locale (byte order).  A file path lists just that file.
 * Returns the number of names, or -ENOENT.
 */
int pseudofs_list(const char *path, struct seq_buf *s);

/*
 * A write callback may explain a refusal in words; the shell prints it
 * under "write error: ...".  pseudofs_write() clears it first.
 */
void pseudofs_error(const char *fmt, ...) __printf(1, 2);
const char *pseudofs_last_error(void);	/* "" when none */

/*
 * A directory that exists empty, in which `mkdir NAME` and `rmdir NAME`
 * call mkdir(name, data) and rmdir(name, data) (Linux's
 * tracefs_create_instance_dir()).  The callbacks create or remove what
 * the new directory holds, and return 0 or a negative errno.
 */
int pseudofs_create_dir(const char *path, int (*mkdir)(const char *name, void *data),
			int (*rmdir)(const char *name, void *data), void *data);
/*
 * mkdir(2) and rmdir(2), with Linux's errors: -EEXIST (there is one),
 * -ENOENT (no parent; no such directory), -ENOTDIR (a file),
 * -EPERM (the parent directory takes no mkdir or rmdir).
 */
int pseudofs_mkdir(const char *path);
int pseudofs_rmdir(const char *path);
/* Remove every file below dir (their data is the caller's to free). */
void pseudofs_remove_tree(const char *dir);

/* Is there a file or directory at path? (1 file, 2 directory, 0 none) */
int pseudofs_lookup(const char *path);

/*
 * The paths the functions above take are paths as a process sees them:
 * a path below a mount point of tracefs, debugfs, proc, sysfs or
 * devtmpfs is turned into the file's own path (its filesystem's root,
 * include/mount.h, and the rest), and only that filesystem's files are
 * found there.  Files no filesystem owns (a test's /test/...) are found
 * at their own path.  pseudofs_create() and pseudofs_data() take a
 * file's own path.
 */

/*
 * A directory of objects, Linux's /proc/PID: a '*' in a file's path
 * (pseudofs_create("/proc/<*>/stat", ...), written with a plain star)
 * matches each name resolve() accepts, and the file's show() gets the
 * data resolve() gave instead of its own; list() prints the names there
 * are now, one a line (what ls shows).  dir is the pattern: "/proc/<*>".
 */
int pseudofs_create_dynamic(const char *dir,
			    int (*resolve)(const char *name, void **data),
			    int (*list)(struct seq_buf *s));

/* A file that opens itself: open(2) gets open()'s struct file. */
struct file;
int pseudofs_create_opener(const char *path,
			   int (*show)(struct seq_buf *s, void *data),
			   struct file *(*open)(const struct pseudo_file *pf, void *data,
						unsigned int flags, int *err),
			   void *data);
/*
 * What is at path: 1 a file (*f, and the data its callbacks get), 2 a
 * directory of a mounted pseudo filesystem, 0 neither, or -errno.
 */
int pseudofs_find(const char *path, const struct pseudo_file **f, void **data);
/* fs/pseudofs_open.c: does path open itself (a device, a /proc file, a
 * /proc or /dev directory)?  kernel/file.c asks before open. */
bool pseudofs_opens(const char *path);
/* open(2) of such a path: its struct file, or NULL and *err. */
struct file *pseudofs_open(const char *path, unsigned int flags, int *err);
/*
 * A file's whole text now, however long (Linux's seq_file): a buffer
 * that grows until show() fits, as open() of a /proc file keeps it.
 * NULL and *err on failure; *len its length.  kfree() it.
 */
char *pseudofs_show_all(const struct pseudo_file *pf, void *data, size_t *len, int *err);

#endif
