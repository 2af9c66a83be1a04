/*
 * pseudofs.c - files that are really callbacks (tracefs, debugfs, proc,
 * sysfs, devtmpfs).
 *
 * Linux's tracefs has no data on disk: reading /sys/kernel/tracing/trace
 * runs code that formats the ring buffer, writing kprobe_events runs the
 * parser.  We keep the same idea in a list of struct pseudo_file, looked
 * up by full path.  Directories are implied by the paths, so creating
 * "/sys/kernel/tracing/trace" is enough for `ls /sys/kernel` to show
 * "tracing/".
 *
 * A path a caller gives is a path as a process sees it: the mount table
 * (fs/namespace.c) says which filesystem is mounted there, and the path
 * is looked up from that filesystem's root among its files only
 * (struct pseudo_view).  A '*' in a stored path is a dynamic directory,
 * /proc/PID's (pseudofs_create_dynamic()).  Opening what opens itself,
 * and a mounted directory, is fs/pseudofs_open.c's.
 */
#include "kernel.h"
#include "pseudofs.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "mm.h"
#include "mount.h"
#include "ramfs.h"	/* NAME_MAX */
#include "fs.h"
#include "fcntl.h"
#include <asm/irqflags.h>

/* ---- the files ------------------------------------------------------------- */

static struct pseudo_file *files;	/* creation order: new ones at the tail */

/* A directory of objects ("/proc/<*>"): which names it has, what each is. */
struct pseudo_dynamic {
	const char *dir;		/* the pattern, '*' last */
	int (*resolve)(const char *name, void **data);
	int (*list)(struct seq_buf *s);
	struct pseudo_dynamic *next;
};
static struct pseudo_dynamic *dynamics;

#define DYNAMIC_NAMES_MAX	4096	/* bytes of a dynamic directory's names */

/* The entry stored at path (a file's own path, stars and all). */
static struct pseudo_file *find_entry(const char *path)
{
	size_t n = strlen(path);

	for (struct pseudo_file *f = files; f; f = f->next)
		if (f->len == n && memcmp(f->path, path, n) == 0)
			return f;
	return NULL;
}

static struct pseudo_file *find_file(const char *path)
{
	struct pseudo_file *f = find_entry(path);

	return f && !f->is_dir ? f : NULL;
}

/*
 * Where pseudofs_create() puts path: the link at the list's tail, or NULL
 * when the path is taken - stored itself, or a directory some stored path
 * is below.  One walk of the list for all three questions: a tracefs
 * event probe creates a directory of files, and the sweep that probes
 * every instruction creates hundreds of events a batch.  The lengths
 * are compared first: tracefs's paths share long beginnings.
 */
static struct pseudo_file **create_link(const char *path, size_t n)
{
	struct pseudo_file **link;

	for (link = &files; *link; link = &(*link)->next) {
		const struct pseudo_file *f = *link;

		if (f->len < n || (f->len > n && f->path[n] != '/'))
			continue;
		if (memcmp(f->path, path, n) == 0)
			return NULL;
	}
	return link;
}

/* ---- paths as a process sees them ------------------------------------------ */

/*
 * Where a path leads: the file's own path and the root of the filesystem
 * mounted there ("" where no pseudo filesystem is: the files no
 * filesystem owns), and the mount's flags (MS_RDONLY).
 */
struct pseudo_view {
	char path[PSEUDOFS_PATH_MAX];
	const char *root;
	unsigned long flags;
};

static int view_of(const char *path, struct pseudo_view *v)
{
	int ret = mnt_resolve(path, v->path, sizeof(v->path), &v->root, &v->flags);

	if (ret > 0)
		return 0;
	v->root = "";
	v->flags = 0;
	if (ret < 0 || strlcpy(v->path, path, sizeof(v->path)) >= sizeof(v->path))
		return -ENAMETOOLONG;
	return 0;
}

static const struct pseudo_dynamic *find_dynamic(const char *pat, size_t len)
{
	for (struct pseudo_dynamic *d = dynamics; d; d = d->next)
		if (strlen(d->dir) == len && strncmp(d->dir, pat, len) == 0)
			return d;
	return NULL;
}

/*
 * Match the first plen bytes of path against a stored path pat, a '*'
 * in pat matching one name its dynamic directory resolves (into *data).
 * Returns what is left of pat ("" for the whole path, "/x" below it),
 * NULL if path is not there.
 */
static const char *match_prefix(const char *pat, const char *path, size_t plen, void **data)
{
	const char *star = strchr(pat, '*');
	size_t head = star ? (size_t)(star - pat) : strlen(pat);
	const struct pseudo_dynamic *d;
	char name[NAME_MAX + 1];
	size_t n = 0;

	if (plen <= head)
		return strncmp(pat, path, plen) == 0 ? pat + plen : NULL;
	if (!star || strncmp(pat, path, head) != 0)
		return NULL;
	while (head + n < plen && path[head + n] != '/' && n < NAME_MAX)
		n++;
	d = find_dynamic(pat, head + 1);
	if (n == 0 || !d)
		return NULL;
	memcpy(name, path + head, n);
	name[n] = '\0';
	if (d->resolve(name, data))
		return NULL;
	return match_prefix(star + 1, path + head + n, plen - head - n, data);
}

/*
 * Can stored path pat match the first plen bytes of path?  The bytes up
 * to pat's first '*' must agree.  A cheap first test, byte by byte to the
 * first difference, before match_prefix() and owned_by() look closer:
 * every lookup walks every file, and most differ early.
 */
static bool prefix_may_match(const char *pat, const char *path, size_t plen)
{
	size_t i = 0;

	while (i < plen && pat[i] != '*' && pat[i] == path[i])
		i++;
	return i == plen || pat[i] == '*';
}

/* Does file f belong where the view looks (its filesystem's files only)? */
static bool owned_by(const struct pseudo_file *f, const struct pseudo_view *v)
{
	return strcmp(pseudo_fs_owner(f->path), v->root) == 0;
}

/* The file at the view's path, and the data its show() gets. */
static struct pseudo_file *view_file(const struct pseudo_view *v, void **data)
{
	size_t n = strlen(v->path);

	for (struct pseudo_file *f = files; f; f = f->next) {
		const char *rest;

		*data = f->data;
		if (f->is_dir || !prefix_may_match(f->path, v->path, n) || !owned_by(f, v))
			continue;
		rest = match_prefix(f->path, v->path, n, data);
		if (rest && *rest == '\0')
			return f;
	}
	return NULL;
}

/*
 * Is root, another filesystem's mount point, in the view at or below
 * dir (n bytes)?  /sys/kernel/tracing is a directory of sysfs's, as on
 * Linux, mounted or not.
 */
static bool mount_point_below(const struct pseudo_view *v, const char *root,
			      const char *dir, size_t n)
{
	char parent[PSEUDOFS_PATH_MAX];
	const char *slash = strrchr(root, '/');

	if (strcmp(root, v->root) == 0 || !slash || strncmp(root, dir, n) != 0 ||
	    (root[n] != '/' && root[n] != '\0'))
		return false;
	strlcpy(parent, root, slash - root + 1);
	return strcmp(pseudo_fs_owner(parent), v->root) == 0;
}

/* Is the view's path a directory: its filesystem's root, or above one of its files? */
static bool view_is_dir(const struct pseudo_view *v)
{
	size_t n = strlen(v->path);
	const char *root;
	void *data;

	if (strcmp(v->path, "/") == 0 || strcmp(v->path, v->root) == 0)
		return true;
	for (struct pseudo_file *f = files; f; f = f->next) {
		const char *rest = prefix_may_match(f->path, v->path, n) && owned_by(f, v) ?
				   match_prefix(f->path, v->path, n, &data) : NULL;

		if (rest && (*rest == '/' || (*rest == '\0' && f->is_dir)))
			return true;
	}
	for (int i = 0; (root = pseudo_fs_root(i)); i++)
		if (mount_point_below(v, root, v->path, n))
			return true;
	return false;
}

int pseudofs_lookup(const char *path)
{
	struct pseudo_view v;
	void *data;

	if (view_of(path, &v))
		return 0;
	if (view_file(&v, &data))
		return 1;
	return view_is_dir(&v) ? 2 : 0;
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
	tail = create_link(path, n);
	if (!tail)
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
	f->len = n;
	f->show = show;
	f->write = write;
	f->data = data;
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
	size_t n = strlen(path);

	for (struct pseudo_file **pp = &files; *pp; pp = &(*pp)->next) {
		struct pseudo_file *f = *pp;

		if (f->len == n && memcmp(f->path, path, n) == 0) {
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
	struct pseudo_view v;
	struct pseudo_file *f;
	void *data;
	int ret;

	if (view_of(path, &v))
		return -ENAMETOOLONG;
	f = view_file(&v, &data);
	if (!f)
		return view_is_dir(&v) ? -EISDIR : -ENOENT;
	if (!f->show)
		return -EPERM;
	ret = f->show(s, data);
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
	struct pseudo_view v;
	struct pseudo_file *f;
	void *data;

	last_error[0] = '\0';
	if (view_of(path, &v))
		return -ENAMETOOLONG;
	f = view_file(&v, &data);
	if (!f)
		return view_is_dir(&v) ? -EISDIR : -ENOENT;
	if (v.flags & MS_RDONLY)
		return -EROFS;		/* mounted read-only, as Linux's mnt_want_write() */
	if (!f->write)
		return -EPERM;
	return f->write(text, len, trunc, data);
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

/* Split "/a/b/name" (its own path) into the parent's entry ("/a/b", if stored) and "name". */
static int parent_of(struct pseudo_view *v, struct pseudo_file **parent, const char **name)
{
	struct pseudo_view dir = *v;
	const char *slash = strrchr(v->path, '/');
	size_t n = slash ? (size_t)(slash - v->path) : 0;
	void *data;

	if (!slash || slash[1] == '\0')
		return -ENOENT;
	dir.path[n ? n : 1] = '\0';
	if (!view_is_dir(&dir))
		return view_file(&dir, &data) ? -ENOTDIR : -ENOENT;
	*parent = find_entry(dir.path);
	*name = slash + 1;
	return 0;
}

int pseudofs_mkdir(const char *path)
{
	struct pseudo_file *parent;
	struct pseudo_view v;
	const char *name;
	int ret = view_of(path, &v);

	if (!ret)
		ret = parent_of(&v, &parent, &name);
	if (ret)
		return ret;
	if (pseudofs_lookup(path))
		return -EEXIST;
	if (!parent || !parent->is_dir || !parent->mkdir)
		return -EPERM;
	if (v.flags & MS_RDONLY)
		return -EROFS;
	if (strlen(v.path) + sizeof("/") >= PSEUDOFS_PATH_MAX)
		return -ENAMETOOLONG;
	return parent->mkdir(name, parent->data);
}

int pseudofs_rmdir(const char *path)
{
	struct pseudo_file *parent;
	struct pseudo_view v;
	const char *name;
	void *data;
	int ret = view_of(path, &v);

	if (!ret)
		ret = parent_of(&v, &parent, &name);
	if (ret)
		return ret;
	if (view_file(&v, &data))
		return -ENOTDIR;
	if (!view_is_dir(&v))
		return -ENOENT;
	if (!parent || !parent->is_dir || !parent->rmdir)
		return -EPERM;
	if (v.flags & MS_RDONLY)
		return -EROFS;
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

/* A directory's names, sorted, each once. */
struct dir_listing {
	struct dir_entry *ents;
	int count, max;
};

static void listing_add_entry(struct dir_listing *l, const char *name, size_t len, bool dir)
{
	struct dir_entry d = { name, len, dir };
	int i;

	for (i = 0; i < l->count; i++)
		if (entry_cmp(&l->ents[i], &d) == 0)
			return;		/* a second file in the same subdirectory */
	if (l->count == l->max)
		return;
	/* insertion: ents[] stays sorted */
	for (i = l->count; i > 0 && entry_cmp(&l->ents[i - 1], &d) > 0; i--)
		l->ents[i] = l->ents[i - 1];
	l->ents[i] = d;
	l->count++;
}

/* The child of dir (n bytes, no '/' last) that path's rest leads to. */
static void add_child(struct dir_listing *l, const char *rest, bool is_dir)
{
	const char *child = rest + 1, *slash = strchr(child, '/');

	if (*child == '*' || *child == '\0')
		return;		/* a dynamic directory's names come from its list() */
	listing_add_entry(l, child, slash ? (size_t)(slash - child) : strlen(child), slash || is_dir);
}

/* The names of the dynamic directories in dir, into names (one a line). */
static void add_dynamic(struct dir_listing *l, const struct pseudo_view *v, size_t n,
			struct seq_buf *names)
{
	for (struct pseudo_dynamic *d = dynamics; d; d = d->next) {
		size_t start = names->len;
		const char *e, *nl;

		if (strlen(d->dir) != n + 2 || strncmp(d->dir, v->path, n) != 0 ||
		    strcmp(pseudo_fs_owner(d->dir), v->root) != 0)
			continue;
		d->list(names);
		for (e = names->buffer + start; (nl = strchr(e, '\n')); e = nl + 1)
			listing_add_entry(l, e, nl - e, true);
	}
}

static void collect_children(struct dir_listing *l, const struct pseudo_view *v,
			     struct seq_buf *names)
{
	size_t n = strcmp(v->path, "/") == 0 ? 0 : strlen(v->path);
	const char *root;
	void *data;

	for (struct pseudo_file *f = files; f; f = f->next) {
		const char *rest = prefix_may_match(f->path, v->path, n) && owned_by(f, v) ?
				   match_prefix(f->path, v->path, n, &data) : NULL;

		if (rest && *rest == '/')
			add_child(l, rest, f->is_dir);
	}
	for (int i = 0; (root = pseudo_fs_root(i)); i++)
		if (mount_point_below(v, root, v->path, n) && root[n] == '/')
			add_child(l, root + n, true);
	add_dynamic(l, v, n, names);
}

/* An upper bound of a listing's names: every file, mount point and dynamic name. */
static int listing_max(void)
{
	int max = DYNAMIC_NAMES_MAX / 2;

	for (struct pseudo_file *f = files; f; f = f->next)
		max++;
	for (int i = 0; pseudo_fs_root(i); i++)
		max++;
	return max;
}

int pseudofs_list(const char *path, struct seq_buf *s)
{
	struct dir_listing l = { 0 };
	struct seq_buf names;
	struct pseudo_view v;
	char *buf;
	void *data;

	if (view_of(path, &v))
		return -ENOENT;
	if (view_file(&v, &data)) {
		seq_buf_printf(s, "%s\n", path);
		seq_buf_flush(s);
		return 1;
	}
	if (!view_is_dir(&v))
		return -ENOENT;
	l.max = listing_max();
	l.ents = kmalloc(l.max * sizeof(*l.ents));
	buf = kmalloc(DYNAMIC_NAMES_MAX);
	if (!l.ents || !buf) {
		kfree(l.ents);
		kfree(buf);
		return -ENOMEM;
	}
	seq_buf_init(&names, buf, DYNAMIC_NAMES_MAX);
	collect_children(&l, &v, &names);
	for (int i = 0; i < l.count; i++)
		seq_buf_printf(s, "%.*s%s\n", (int)l.ents[i].len, l.ents[i].name,
			       l.ents[i].is_dir ? "/" : "");
	kfree(l.ents);
	kfree(buf);
	seq_buf_flush(s);
	return l.count;
}

/* ---- dynamic directories and files that open themselves ------------------------ */

int pseudofs_create_dynamic(const char *dir,
			    int (*resolve)(const char *name, void **data),
			    int (*list)(struct seq_buf *s))
{
	struct pseudo_dynamic *d;
	size_t n = strlen(dir);

	if (n < 2 || dir[n - 1] != '*' || dir[n - 2] != '/' || strchr(dir, '*') != dir + n - 1)
		return -EINVAL;
	if (find_dynamic(dir, n))
		return -EEXIST;
	d = kzalloc(sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->dir = dir;
	d->resolve = resolve;
	d->list = list;
	d->next = dynamics;
	dynamics = d;
	return 0;
}

int pseudofs_create_opener(const char *path,
			   int (*show)(struct seq_buf *s, void *data),
			   struct file *(*open)(const struct pseudo_file *pf, void *data,
						unsigned int flags, int *err),
			   void *data)
{
	int ret = pseudofs_create(path, show, NULL, data);
	struct pseudo_file *f = ret ? NULL : find_entry(path);

	if (f)
		f->open = open;
	return ret;
}

/* A directory of a mounted pseudo filesystem (/proc, /dev, /sys...), not a ramfs one. */
static bool view_is_mounted_dir(const struct pseudo_view *v)
{
	return v->root[0] && view_is_dir(v);
}

int pseudofs_find(const char *path, const struct pseudo_file **f, void **data)
{
	struct pseudo_view v;
	int ret = view_of(path, &v);

	if (ret)
		return ret;
	*f = view_file(&v, data);
	if (*f)
		return 1;
	return view_is_mounted_dir(&v) ? 2 : 0;
}
