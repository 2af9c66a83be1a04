/*
 * pseudofs.c - files that are really callbacks (tracefs, debugfs).
 *
 * Linux's tracefs has no data on disk: reading /sys/kernel/tracing/trace
 * runs code that formats the ring buffer, writing kprobe_events runs the
 * parser.  We keep the same idea in about 200 lines: a list of
 * struct pseudo_file, looked up by full path.  Directories are implied
 * by the paths, so creating "/sys/kernel/tracing/trace" is enough for
 * `ls /sys/kernel` to show "tracing/".
 */
#include "kernel.h"
#include "pseudofs.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "mm.h"
#include <asm/irqflags.h>

/* ---- the files ------------------------------------------------------------- */

static struct pseudo_file *files;	/* creation order: new ones at the tail */

/* The entry at path: a file, or a stored directory. */
static struct pseudo_file *find_entry(const char *path)
{
	for (struct pseudo_file *f = files; f; f = f->next)
		if (strcmp(f->path, path) == 0)
			return f;
	return NULL;
}

static struct pseudo_file *find_file(const char *path)
{
	struct pseudo_file *f = find_entry(path);

	return f && !f->is_dir ? f : NULL;
}

/*
 * Is `path` a directory, i.e. a proper prefix of some file's path that
 * ends at a '/'?  The root "/" always is.
 */
static bool is_dir(const char *path)
{
	size_t n = strlen(path);

	if (strcmp(path, "/") == 0)
		return true;
	for (struct pseudo_file *f = files; f; f = f->next)
		if (strncmp(f->path, path, n) == 0 &&
		    (f->path[n] == '/' || (f->path[n] == '\0' && f->is_dir)))
			return true;
	return false;
}

int pseudofs_lookup(const char *path)
{
	if (find_file(path))
		return 1;
	return is_dir(path) ? 2 : 0;
}

int pseudofs_create(const char *path,
		    int (*show)(struct seq_buf *s, void *data),
		    int (*write)(const char *text, size_t len, bool trunc, void *data),
		    void *data)
{
	struct pseudo_file *f, **tail;
	size_t n = strlen(path);
	char *copy;

	if (path[0] != '/' || n >= PSEUDOFS_PATH_MAX)
		return -EINVAL;
	if (pseudofs_lookup(path))
		return -EEXIST;
	f = kzalloc(sizeof(*f));
	copy = kmalloc(n + 1);
	if (!f || !copy) {
		kfree(f);
		kfree(copy);
		return -ENOMEM;
	}
	memcpy(copy, path, n + 1);
	f->path = copy;
	f->show = show;
	f->write = write;
	f->data = data;
	for (tail = &files; *tail; tail = &(*tail)->next)
		;
	*tail = f;
	return 0;
}

int pseudofs_create_files(const char *dir, const struct pseudo_file_spec *specs,
			  size_t n)
{
	char path[PSEUDOFS_PATH_MAX];
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     specs[i].name) >= sizeof(path))
			return -EINVAL;
		ret = pseudofs_create(path, specs[i].show, specs[i].write, NULL);
	}
	return ret;
}

int pseudofs_remove(const char *path)
{
	for (struct pseudo_file **pp = &files; *pp; pp = &(*pp)->next) {
		struct pseudo_file *f = *pp;

		if (strcmp(f->path, path) == 0) {
			*pp = f->next;
			kfree((void *)f->path);
			kfree(f);
			return 0;
		}
	}
	return -ENOENT;
}

void *pseudofs_data(const char *path)
{
	struct pseudo_file *f = find_file(path);

	return f ? f->data : NULL;
}

int pseudofs_read(const char *path, struct seq_buf *s)
{
	struct pseudo_file *f = find_file(path);
	int ret;

	if (!f)
		return is_dir(path) ? -EISDIR : -ENOENT;
	if (!f->show)
		return -EPERM;
	ret = f->show(s, f->data);
	seq_buf_flush(s);
	return ret;
}

static char last_error[1536];	/* an error_log entry: two copies of a line */

void pseudofs_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

const char *pseudofs_last_error(void)
{
	return last_error;
}

int pseudofs_write(const char *path, const char *text, size_t len, bool trunc)
{
	struct pseudo_file *f = find_file(path);

	last_error[0] = '\0';
	if (!f)
		return is_dir(path) ? -EISDIR : -ENOENT;
	if (!f->write)
		return -EPERM;
	return f->write(text, len, trunc, f->data);
}

/* ---- mkdir and rmdir ---------------------------------------------------------- */

int pseudofs_create_dir(const char *path, int (*mkdir)(const char *name, void *data),
			int (*rmdir)(const char *name, void *data), void *data)
{
	int ret = pseudofs_create(path, NULL, NULL, data);
	struct pseudo_file *f = ret ? NULL : find_entry(path);

	if (f) {
		f->mkdir = mkdir;
		f->rmdir = rmdir;
		f->is_dir = true;
	}
	return ret;
}

/* Split "/a/b/name" into the parent's entry ("/a/b", if stored) and "name". */
static int parent_of(const char *path, struct pseudo_file **parent, const char **name)
{
	char dir[PSEUDOFS_PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (!slash || n >= sizeof(dir) || slash[1] == '\0')
		return -ENOENT;
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (!is_dir(n ? dir : "/"))
		return find_file(dir) ? -ENOTDIR : -ENOENT;
	*parent = find_entry(dir);
	*name = slash + 1;
	return 0;
}

int pseudofs_mkdir(const char *path)
{
	struct pseudo_file *parent;
	const char *name;
	int ret = parent_of(path, &parent, &name);

	if (ret)
		return ret;
	if (pseudofs_lookup(path))
		return -EEXIST;
	if (!parent || !parent->is_dir || !parent->mkdir)
		return -EPERM;
	if (strlen(path) + sizeof("/") >= PSEUDOFS_PATH_MAX)
		return -ENAMETOOLONG;
	return parent->mkdir(name, parent->data);
}

int pseudofs_rmdir(const char *path)
{
	struct pseudo_file *parent;
	const char *name;
	int ret = parent_of(path, &parent, &name);

	if (ret)
		return ret;
	if (find_file(path))
		return -ENOTDIR;
	if (!is_dir(path))
		return -ENOENT;
	if (!parent || !parent->is_dir || !parent->rmdir)
		return -EPERM;
	return parent->rmdir(name, parent->data);
}

void pseudofs_remove_tree(const char *dir)
{
	size_t n = strlen(dir);
	struct pseudo_file **pp = &files;

	while (*pp) {
		struct pseudo_file *f = *pp;

		if (strncmp(f->path, dir, n) == 0 && f->path[n] == '/') {
			*pp = f->next;
			kfree((void *)f->path);
			kfree(f);
		} else {
			pp = &f->next;
		}
	}
}

/* ---- ls ------------------------------------------------------------------ */

/* One name in a directory, as ls prints it. */
struct dir_entry {
	const char *name;	/* inside some file's path: not NUL-terminated */
	size_t len;
	bool is_dir;
};

/* Byte order, as ls in the C locale sorts ("README" before "available_events"). */
static int entry_cmp(const struct dir_entry *a, const struct dir_entry *b)
{
	int c = strncmp(a->name, b->name, a->len < b->len ? a->len : b->len);

	return c ? c : (int)a->len - (int)b->len;
}

/* Each child of dir (dirlen bytes, '/' last) once, into ents (NULL: count only). */
static int collect_children(const char *dir, size_t dirlen, struct dir_entry *ents)
{
	int count = 0;

	for (struct pseudo_file *f = files; f; f = f->next) {
		const char *child = f->path + dirlen;
		const char *slash;
		struct dir_entry d;
		int i;

		if (strncmp(f->path, dir, dirlen) != 0)
			continue;
		slash = strchr(child, '/');
		d = (struct dir_entry){ child, slash ? (size_t)(slash - child) : strlen(child),
					slash || f->is_dir };
		for (i = 0; ents && i < count && entry_cmp(&ents[i], &d) != 0; i++)
			;
		if (ents && i < count)
			continue;		/* a second file in the same subdirectory */
		if (!ents) {
			count++;		/* an upper bound: duplicates counted too */
			continue;
		}
		/* insertion: ents[] stays sorted */
		for (i = count; i > 0 && entry_cmp(&ents[i - 1], &d) > 0; i--)
			ents[i] = ents[i - 1];
		ents[i] = d;
		count++;
	}
	return count;
}

int pseudofs_list(const char *path, struct seq_buf *s)
{
	char dir[PSEUDOFS_PATH_MAX + 1];
	struct dir_entry *ents;
	size_t dirlen;
	int count;

	if (find_file(path)) {
		seq_buf_printf(s, "%s\n", path);
		seq_buf_flush(s);
		return 1;
	}
	if (!is_dir(path))
		return -ENOENT;
	/* "/a/b" lists the files whose path starts with "/a/b/". */
	dirlen = strlcpy(dir, path, sizeof(dir));
	if (dirlen == 0 || dir[dirlen - 1] != '/')
		dir[dirlen++] = '/';
	dir[dirlen] = '\0';
	count = collect_children(dir, dirlen, NULL);
	ents = kmalloc((count ? count : 1) * sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	count = collect_children(dir, dirlen, ents);
	for (int i = 0; i < count; i++)
		seq_buf_printf(s, "%.*s%s\n", (int)ents[i].len, ents[i].name,
			       ents[i].is_dir ? "/" : "");
	kfree(ents);
	seq_buf_flush(s);
	return count;
}
