/*
 * namei_link.c - symbolic links in a path walk (Linux's fs/namei.c:
 * walk_component(), pick_link(), get_link(); fs/proc/self.c).
 *
 * A symbolic link is a file whose bytes are a path.  Linux's walk meets
 * one at some component and goes on from the link's text instead:
 * relative to the link's directory, or from "/" when the text is
 * absolute.  Every filesystem here takes an absolute path, so the walk
 * is done on the text: follow_links() rewrites a path, component by
 * component, into one with no link in it, which the ramfs and the
 * pseudo filesystems then walk as before.
 *
 * The prefix already rewritten names directories that exist and hold
 * no link, so a ".." there is simply its parent, as Linux's walk takes
 * ".." of the directory it stands in (after a link, the target's
 * parent - not the link's).  Where the rewrite cannot go on (a name
 * that does not exist, a file in the middle of the path) the rest is
 * kept as it is, and the filesystem's own walk gives Linux's error.
 *
 * The last component is followed or not as the call asks (Linux's
 * LOOKUP_FOLLOW): stat, open and exec follow it; lstat, readlink,
 * unlink, rename, mkdir and O_NOFOLLOW do not.  A path ending in "/"
 * always follows.  More than MAXSYMLINKS links in one walk is -ELOOP.
 */
#include "kernel.h"
#include "fs.h"
#include "ramfs.h"
#include "pseudofs.h"
#include "mount.h"
#include "proc_fs.h"
#include "sched.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define MAXSYMLINKS	40	/* Linux's: links followed in one walk */

/*
 * A pseudo filesystem's links, wherever proc is mounted: /proc/self is
 * the reader's pid (Linux's proc_self_get_link()), /proc/PID/exe the
 * process's program (proc_exe_link()).  The text in buf (size bytes):
 * its length; -ENOENT for a link with nothing to name now (a kernel
 * thread's exe); -EINVAL for a path that is no such link.
 */
int pseudo_get_link(const char *path, char *buf, size_t size)
{
	char canon[PSEUDOFS_PATH_MAX], *end;
	const char *root;
	unsigned long flags, pid;

	if (mnt_resolve(path, canon, sizeof(canon), &root, &flags) != 1)
		return -EINVAL;
	if (strcmp(canon, PROC_ROOT "/self") == 0)
		return snprintf(buf, size, "%d", current->pid);
	if (strncmp(canon, PROC_ROOT "/", sizeof(PROC_ROOT)) != 0)
		return -EINVAL;
	pid = simple_strtoul(canon + sizeof(PROC_ROOT), &end, 10);
	if (end == canon + sizeof(PROC_ROOT) || strcmp(end, "/exe") != 0)
		return -EINVAL;
	return proc_pid_exe_link(pid, buf, size);
}

/* The text of the ramfs link at path: its length, -EINVAL (not a link), -ENOENT... */
int ramfs_get_link(const char *path, char *buf, size_t size)
{
	struct inode *inode;
	long ret = ramfs_lookup(path, &inode);

	if (ret)
		return ret;
	ret = -EINVAL;
	if (S_ISLNK(inode->i_mode))
		ret = ramfs_read(inode, buf, size - 1, 0);
	iput(inode);
	if (ret >= 0)
		buf[ret] = '\0';
	return ret;
}

/*
 * What the rewrite found at a name: nothing it can walk through (no
 * such name, or a file), a ramfs directory, a link (its text in buf), or
 * a directory of a mounted pseudo filesystem.
 */
enum link_kind { LINK_NONE, LINK_DIR, LINK_SYMLINK, LINK_PSEUDO_DIR };

/*
 * Below a pseudo filesystem's directory only its own links are asked
 * for (in_pseudo): the ramfs has nothing there, and its files' own walk
 * says what is missing.
 */
static enum link_kind link_kind_of(const char *path, bool in_pseudo, char *buf, size_t size)
{
	struct inode *inode;
	bool dir;

	if (pseudo_get_link(path, buf, size) > 0)
		return LINK_SYMLINK;
	if (in_pseudo)
		return LINK_PSEUDO_DIR;
	if (ramfs_get_link(path, buf, size) > 0)
		return LINK_SYMLINK;
	if (ramfs_lookup(path, &inode) == 0) {
		dir = S_ISDIR(inode->i_mode);
		iput(inode);
		return dir ? LINK_DIR : LINK_NONE;
	}
	return pseudofs_lookup(path) == 2 ? LINK_PSEUDO_DIR : LINK_NONE;
}

/* Take ".." of an absolute, tidy path in place: "/a/b" -> "/a", "/" stays. */
static void drop_last(char *out)
{
	char *slash = strrchr(out, '/');

	if (slash)
		*slash = '\0';
}

/* The state of one rewrite: out is done, rest is still to walk. */
struct link_walk {
	char out[PATH_MAX];
	char rest[PATH_MAX];
	char link[PATH_MAX];
	int links;
	size_t pseudo_at;	/* out's length where a pseudo directory began; 0: none */
};

/* rest becomes the link's text and what followed the link's name: 0 or -errno. */
static int step_into_link(struct link_walk *w, const char *after)
{
	char *tmp = w->link + strlen(w->link);

	if (++w->links > MAXSYMLINKS)
		return -ELOOP;
	if (strlen(w->link) + 1 + strlen(after) + 1 > PATH_MAX)
		return -ENAMETOOLONG;
	*tmp = '/';
	strlcpy(tmp + 1, after, PATH_MAX - (tmp + 1 - w->link));
	if (w->link[0] == '/') {
		w->out[0] = '\0';		/* an absolute link starts again at "/" */
		w->pseudo_at = 0;
	}
	strlcpy(w->rest, w->link, sizeof(w->rest));
	return 0;
}

/* The next name of *p (its length; *name its start); *p moves past it. */
static size_t next_name(const char **p, const char **name)
{
	size_t n = 0;

	while (**p == '/')
		(*p)++;
	*name = *p;
	while ((*p)[n] && (*p)[n] != '/')
		n++;
	*p += n;
	return n;
}

/* Nothing but slashes left: the name before them was the last. */
static bool only_slashes(const char *p)
{
	while (*p == '/')
		p++;
	return !*p;
}

/* ".." of out, leaving a pseudo directory when it goes above it. */
/* "/NAME" after the walk's path so far; -ENAMETOOLONG past PATH_MAX. */
static int walk_append(struct link_walk *w, const char *name, size_t n)
{
	size_t len = strlen(w->out);

	if (len + 1 + n + 1 > PATH_MAX)
		return -ENAMETOOLONG;
	w->out[len] = '/';
	memcpy(w->out + len + 1, name, n);
	w->out[len + 1 + n] = '\0';
	return 0;
}

static void walk_dotdot(struct link_walk *w)
{
	drop_last(w->out);
	if (w->pseudo_at && strlen(w->out) <= w->pseudo_at)
		w->pseudo_at = 0;
}

/* Walk w->rest into w->out; 0 or -errno. */
static int walk_links(struct link_walk *w, bool follow_last)
{
	const char *p = w->rest, *name;
	enum link_kind kind;
	size_t n, len;
	bool last;
	int ret;

	while ((n = next_name(&p, &name))) {
		bool dots = n <= 2 && name[0] == '.' && (n == 1 || name[1] == '.');

		if (dots && only_slashes(p)) {
			/* A last "." or "..": kept, for rmdir's -EINVAL and rename's -EBUSY. */
			return walk_append(w, name, n);
		}
		if (n == 1 && name[0] == '.')
			continue;
		if (n == 2 && name[0] == '.' && name[1] == '.') {
			walk_dotdot(w);
			continue;
		}
		len = strlen(w->out);	/* the path before this name */
		ret = walk_append(w, name, n);
		if (ret)
			return ret;
		kind = link_kind_of(w->out, w->pseudo_at, w->link, sizeof(w->link));
		last = only_slashes(p);
		if (kind == LINK_SYMLINK && (!last || follow_last || *p == '/')) {
			w->out[len] = '\0';	/* the link's directory: where relative text starts */
			ret = step_into_link(w, p);
			if (ret)
				return ret;
			p = w->rest;
			continue;
		}
		if (kind == LINK_PSEUDO_DIR && !w->pseudo_at)
			w->pseudo_at = len ? len : 1;
		if (!last && kind == LINK_NONE) {
			/* Not found, or a file: the filesystem's walk says which error. */
			if (strlen(w->out) + strlen(p) + 1 > PATH_MAX)
				return -ENAMETOOLONG;
			strlcpy(w->out + strlen(w->out), p, PATH_MAX - strlen(w->out));
			return 0;
		}
	}
	return 0;
}

int follow_links(char *path, bool follow_last)
{
	struct link_walk *w = kmalloc(sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	w->out[0] = '\0';
	w->links = 0;
	w->pseudo_at = 0;
	strlcpy(w->rest, path, sizeof(w->rest));
	ret = walk_links(w, follow_last);
	if (!ret && !w->out[0])
		strlcpy(w->out, "/", sizeof(w->out));
	if (!ret)
		strlcpy(path, w->out, PATH_MAX);
	kfree(w);
	return ret;
}
