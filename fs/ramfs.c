/*
 * ramfs.c - the filesystem at "/" (Linux's fs/ramfs/, with the path walk
 * of fs/namei.c folded in): every file is an inode in kernel memory,
 * every directory a list of its children.  There is no disk, so there is
 * nothing to write back and nothing to lose but the memory: Linux's
 * rootfs is this same filesystem, filled from the initramfs at boot.
 *
 * One mutex guards the whole tree.  It is a sleeping lock, taken only
 * from threads (system calls, boot), never from an interrupt.
 */
#include "kernel.h"
#include "ramfs.h"
#include "mutex.h"
#include "ktime.h"
#include "fcntl.h"
#include "mm.h"
#include "string.h"
#include "errno.h"

/* tmpfs's root, Linux's initramfs: anyone may make files there, only their owner remove them. */
#define ROOT_MODE	(S_IFDIR | S_ISVTX | 0777)
/*
 * The size Linux's tmpfs (the initramfs's filesystem) gives a directory:
 * 20 bytes a name, "." and ".." included (BOGO_DIRENT_SIZE): what
 * `ls -l` shows for one.
 */
#define BOGO_DIRENT_SIZE	20
#define STAT_BLOCK_SIZE		512	/* st_blocks' unit */
#define MIN_CAPACITY	64	/* bytes a file's buffer grows from */

static DEFINE_MUTEX(ramfs_lock);
static struct inode *root;
static unsigned long next_ino = 1;
static unsigned long heap_blocks;	/* kmalloc()s the tree holds: inodes, names, bytes */

/* Linux's current_time(): a file's timestamps, the wall clock's (the RTC's date, kernel/time.c). */
int64_t ramfs_now(void)
{
	return ktime_get_real();
}

unsigned long ramfs_heap_blocks(void)
{
	return READ_ONCE(heap_blocks);
}

static struct inode *new_inode(const char *name, size_t len, unsigned int mode)
{
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!inode || !(inode->name = kmalloc(len + 1))) {
		kfree(inode);
		return NULL;
	}
	memcpy(inode->name, name, len);
	inode->name[len] = '\0';
	inode->i_mode = mode;
	inode->i_ino = next_ino++;
	inode->i_count = 1;		/* its name */
	inode->i_atime = inode->i_mtime = inode->i_ctime = ramfs_now();
	heap_blocks += 2;
	INIT_LIST_HEAD(&inode->children);
	INIT_LIST_HEAD(&inode->sibling);
	return inode;
}

void ramfs_init(void)
{
	root = new_inode("", 0, ROOT_MODE);
	if (!root)
		panic("ramfs: no memory for the root directory");
	root->parent = root;
}

static void free_data(struct inode *inode)
{
	if (inode->data && !inode->data_borrowed) {
		kfree(inode->data);
		heap_blocks--;
	}
}

static void __iput(struct inode *inode);
static int reserve(struct inode *inode, size_t size);

/* A child holds its parent (as a Linux dentry does): ".." of a removed directory stays valid. */
static void free_inode(struct inode *inode)
{
	struct inode *parent = inode->parent;

	free_data(inode);
	kfree(inode->name);
	kfree(inode);
	heap_blocks -= 2;
	if (parent && parent != inode)
		__iput(parent);
}

static void __iput(struct inode *inode)
{
	if (--inode->i_count == 0)
		free_inode(inode);
}

/* A directory's entries changed: its mtime and ctime move (lock held). */
static void dir_changed(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = ramfs_now();
}

void iget(struct inode *inode)
{
	mutex_lock(&ramfs_lock);
	inode->i_count++;
	mutex_unlock(&ramfs_lock);
}

void iput(struct inode *inode)
{
	mutex_lock(&ramfs_lock);
	__iput(inode);
	mutex_unlock(&ramfs_lock);
}

/* ---- the path walk (fs/namei.c) ------------------------------------------ */

static struct inode *ramfs_find_child(struct inode *dir, const char *name, size_t len)
{
	struct inode *c;

	list_for_each_entry(c, &dir->children, sibling)
		if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
			return c;
	return NULL;
}

/* The next component of *p: its start and length; *p moves past it. */
static size_t next_component(const char **p, const char **name)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == '/')
		s++;
	*name = s;
	while (s[n] && s[n] != '/')
		n++;
	*p = s + n;
	return n;
}

/*
 * Walk path to its last component's directory: *dir, and the last name
 * in *last, *lastlen (0 for "/" itself).  Linux's path_parentat().
 */
static int walk_parent(const char *path, struct inode **dir, const char **last,
		       size_t *lastlen)
{
	struct inode *d = root;
	const char *name, *p = path;
	size_t n;

	if (path[0] == '\0')
		return -ENOENT;		/* Linux: "" names no file */
	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return -ENAMETOOLONG;
	for (n = next_component(&p, &name); n; n = next_component(&p, &name)) {
		const char *rest = p, *peek;

		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		if (next_component(&rest, &peek) == 0)
			break;		/* name is the last component */
		if (n == 1 && name[0] == '.')
			continue;
		if (n == 2 && name[0] == '.' && name[1] == '.') {
			d = d->parent;
			continue;
		}
		d = ramfs_find_child(d, name, n);
		if (!d)
			return -ENOENT;
		if (!S_ISDIR(d->i_mode))
			return -ENOTDIR;
	}
	*dir = d;
	*last = name;
	*lastlen = n;
	return 0;
}

/* The inode at path, no reference taken; lock held. */
static int __lookup(const char *path, struct inode **out)
{
	struct inode *dir;
	const char *last;
	size_t n;
	int ret = walk_parent(path, &dir, &last, &n);

	if (ret)
		return ret;
	if (n == 0 || (n == 1 && last[0] == '.'))
		*out = dir;
	else if (n == 2 && last[0] == '.' && last[1] == '.')
		*out = dir->parent;
	else if (!(*out = ramfs_find_child(dir, last, n)))
		return -ENOENT;
	return 0;
}

int ramfs_lookup(const char *path, struct inode **out)
{
	int ret;

	mutex_lock(&ramfs_lock);
	ret = __lookup(path, out);
	if (!ret)
		(*out)->i_count++;
	mutex_unlock(&ramfs_lock);
	return ret;
}

/* ---- making and removing names -------------------------------------------- */

/* A new entry in path's directory; -EEXIST if the name is taken. Lock held. */
static int add_entry(const char *path, unsigned int mode, struct inode **out)
{
	struct inode *dir, *inode;
	const char *last;
	size_t n;
	int ret = walk_parent(path, &dir, &last, &n);

	if (ret)
		return ret;
	if (n == 0 || (n <= 2 && last[0] == '.' && (n == 1 || last[1] == '.')))
		return -EEXIST;		/* "/", "." and ".." always exist */
	if (ramfs_find_child(dir, last, n)) {
		*out = ramfs_find_child(dir, last, n);
		return -EEXIST;
	}
	inode = new_inode(last, n, mode);
	if (!inode)
		return -ENOMEM;
	inode->parent = dir;
	dir->i_count++;			/* the child's hold on its parent */
	list_add_tail(&inode->sibling, &dir->children);
	dir_changed(dir);
	*out = inode;
	return 0;
}

/* Take inode's name away: open files and a working directory keep their references. */
static void remove_entry(struct inode *inode)
{
	list_del(&inode->sibling);
	INIT_LIST_HEAD(&inode->sibling);
	inode->unlinked = true;
	dir_changed(inode->parent);
	__iput(inode);			/* the name's reference */
}

int ramfs_mkdir(const char *path, unsigned int mode)
{
	struct inode *inode;
	int ret;

	mutex_lock(&ramfs_lock);
	ret = add_entry(path, S_IFDIR | (mode & 07777), &inode);
	mutex_unlock(&ramfs_lock);
	return ret;
}

int ramfs_symlink(const char *path, const char *target)
{
	size_t len = strlen(target);
	struct inode *inode;
	int ret;

	mutex_lock(&ramfs_lock);
	ret = add_entry(path, S_IFLNK | 0777, &inode);	/* a link's mode is always 0777 */
	if (!ret && (ret = reserve(inode, len)))
		remove_entry(inode);
	if (!ret) {
		memcpy(inode->data, target, len);	/* the text, no NUL: its size is its length */
		inode->size = len;
	}
	mutex_unlock(&ramfs_lock);
	return ret;
}

static void __truncate(struct inode *inode)
{
	free_data(inode);
	inode->data = NULL;
	inode->data_borrowed = false;
	inode->size = inode->capacity = 0;
	inode->i_mtime = inode->i_ctime = ramfs_now();
}

int ramfs_create(const char *path, unsigned int mode, bool excl, struct inode **out)
{
	struct inode *inode = NULL;
	int ret;

	mutex_lock(&ramfs_lock);
	ret = add_entry(path, S_IFREG | (mode & 07777), &inode);
	if (ret == -EEXIST && inode && !excl) {
		ret = S_ISDIR(inode->i_mode) ? -EISDIR : 0;
		if (!ret)
			__truncate(inode);
	}
	if (!ret) {
		inode->i_count++;
		*out = inode;
	}
	mutex_unlock(&ramfs_lock);
	return ret;
}

int ramfs_unlink(const char *path)
{
	struct inode *inode;
	int ret;

	mutex_lock(&ramfs_lock);
	ret = __lookup(path, &inode);
	if (!ret && S_ISDIR(inode->i_mode))
		ret = -EISDIR;		/* Linux's unlink(2) of a directory */
	if (!ret)
		remove_entry(inode);
	mutex_unlock(&ramfs_lock);
	return ret;
}

/* "", "." or "..": names rmdir and rename refuse. */
static bool is_dot_name(const char *name, size_t n)
{
	return n == 0 || (n <= 2 && name[0] == '.' && (n == 1 || name[1] == '.'));
}

/* Linux's rmdir(2) errors, in its order: the inode to remove, or -errno. Lock held. */
static int rmdir_target(const char *path, struct inode **out)
{
	struct inode *dir;
	const char *last;
	size_t n;
	int ret = walk_parent(path, &dir, &last, &n);

	if (ret)
		return ret;
	if (n == 0)
		return -EBUSY;		/* "/": Linux's LAST_ROOT */
	if (n == 1 && last[0] == '.')
		return -EINVAL;
	if (is_dot_name(last, n))
		return -ENOTEMPTY;	/* "..": its directory holds this one */
	*out = ramfs_find_child(dir, last, n);
	if (!*out)
		return -ENOENT;
	if (!S_ISDIR((*out)->i_mode))
		return -ENOTDIR;
	return list_empty(&(*out)->children) ? 0 : -ENOTEMPTY;
}

int ramfs_rmdir(const char *path)
{
	struct inode *inode;
	int ret;

	mutex_lock(&ramfs_lock);
	ret = rmdir_target(path, &inode);
	if (!ret)
		remove_entry(inode);
	mutex_unlock(&ramfs_lock);
	return ret;
}

/* Is a the directory d or one of its ancestors? */
static bool is_ancestor(struct inode *a, struct inode *d)
{
	for (;; d = d->parent) {
		if (d == a)
			return true;
		if (d == root)
			return false;
	}
}

/* May old's name become new's (NULL: free)?  Linux's checks in do_renameat2() and vfs_rename(). */
static int rename_check(struct inode *old, struct inode *new, struct inode *newdir,
			unsigned int flags)
{
	if (new && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (S_ISDIR(old->i_mode) && is_ancestor(old, newdir))
		return -EINVAL;		/* a directory into itself */
	if (!new)
		return 0;
	if (S_ISDIR(old->i_mode) && !S_ISDIR(new->i_mode))
		return -ENOTDIR;
	if (!S_ISDIR(old->i_mode) && S_ISDIR(new->i_mode))
		return -EISDIR;
	return list_empty(&new->children) ? 0 : -ENOTEMPTY;
}

/* old gets the name newname in newdir (lock held); what had that name is gone. */
static int move_entry(struct inode *old, struct inode *new, struct inode *newdir,
		      const char *newname, size_t n)
{
	char *name = kmalloc(n + 1);

	if (!name)
		return -ENOMEM;
	memcpy(name, newname, n);
	name[n] = '\0';
	if (new)
		remove_entry(new);
	list_del(&old->sibling);
	dir_changed(old->parent);
	kfree(old->name);
	old->name = name;
	newdir->i_count++;
	__iput(old->parent);		/* the parent's hold moves with the name */
	old->parent = newdir;
	list_add_tail(&old->sibling, &newdir->children);
	dir_changed(newdir);
	old->i_ctime = ramfs_now();
	return 0;
}

int ramfs_rename(const char *oldpath, const char *newpath, unsigned int flags)
{
	struct inode *odir, *ndir, *old, *new;
	const char *olast, *nlast;
	size_t on, nn;
	int ret;

	/* Linux's ramfs takes RENAME_EXCHANGE too; this one does not swap. */
	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	mutex_lock(&ramfs_lock);
	ret = walk_parent(oldpath, &odir, &olast, &on);
	if (!ret)
		ret = walk_parent(newpath, &ndir, &nlast, &nn);
	if (!ret && (is_dot_name(olast, on) || is_dot_name(nlast, nn)))
		ret = -EBUSY;		/* Linux: only a last component that is a name */
	if (!ret && !(old = ramfs_find_child(odir, olast, on)))
		ret = -ENOENT;
	if (!ret) {
		new = ramfs_find_child(ndir, nlast, nn);
		if (new != old)		/* the same file: nothing to do, as Linux */
			ret = rename_check(old, new, ndir, flags);
		if (!ret && new != old)
			ret = move_entry(old, new, ndir, nlast, nn);
	}
	mutex_unlock(&ramfs_lock);
	return ret;
}

int ramfs_path(struct inode *dir, char *buf, size_t size)
{
	struct inode *i;
	size_t len = 0, n;
	int ret = 0;

	mutex_lock(&ramfs_lock);
	for (i = dir; i != root && !ret; i = i->parent) {
		len += strlen(i->name) + 1;
		ret = i->unlinked ? -ENOENT : 0;
	}
	if (!ret && (len ? len : 1) + 1 > size)
		ret = -ERANGE;
	if (!ret) {
		buf[len ? len : 1] = '\0';
		buf[0] = '/';
		for (i = dir; i != root; i = i->parent) {
			n = strlen(i->name);
			len -= n;
			memcpy(buf + len, i->name, n);
			buf[--len] = '/';
		}
	}
	mutex_unlock(&ramfs_lock);
	return ret;
}

/* ---- attributes -------------------------------------------------------- */

void ramfs_getattr(struct inode *inode, struct kstat *st)
{
	struct inode *c;

	mutex_lock(&ramfs_lock);
	st->ino = inode->i_ino;
	st->mode = inode->i_mode;
	st->nlink = 1;
	st->size = inode->size;
	st->blocks = S_ISREG(inode->i_mode) ?
		     ALIGN_UP(inode->size, PAGE_SIZE) / STAT_BLOCK_SIZE : 0;
	if (S_ISDIR(inode->i_mode)) {
		st->nlink = inode->unlinked ? 0 : 2;	/* ".", and its name in the parent */
		st->size = 2 * BOGO_DIRENT_SIZE;
		list_for_each_entry(c, &inode->children, sibling) {
			st->nlink += S_ISDIR(c->i_mode);	/* each one's ".." */
			st->size += BOGO_DIRENT_SIZE;
		}
	} else if (inode->unlinked) {
		st->nlink = 0;
	}
	st->atime = inode->i_atime;
	st->mtime = inode->i_mtime;
	st->ctime = inode->i_ctime;
	mutex_unlock(&ramfs_lock);
}

void ramfs_chmod(struct inode *inode, unsigned int mode)
{
	mutex_lock(&ramfs_lock);
	inode->i_mode = (inode->i_mode & S_IFMT) | (mode & 07777);
	inode->i_ctime = ramfs_now();
	mutex_unlock(&ramfs_lock);
}

void ramfs_set_times(struct inode *inode, const int64_t *atime, const int64_t *mtime)
{
	mutex_lock(&ramfs_lock);
	if (atime)
		inode->i_atime = *atime;
	if (mtime)
		inode->i_mtime = *mtime;
	inode->i_ctime = ramfs_now();
	mutex_unlock(&ramfs_lock);
}

/* ---- a file's bytes ------------------------------------------------------ */

long ramfs_read(struct inode *inode, void *buf, size_t count, loff_t pos)
{
	long n = 0;

	mutex_lock(&ramfs_lock);
	if (S_ISDIR(inode->i_mode))
		n = -EISDIR;
	else if (pos < (loff_t)inode->size) {
		n = inode->size - pos < count ? inode->size - pos : count;
		memcpy(buf, inode->data + pos, n);
	}
	mutex_unlock(&ramfs_lock);
	return n;
}

/* Room for size bytes in a heap buffer of the file's own (lock held). */
static int reserve(struct inode *inode, size_t size)
{
	size_t cap = inode->capacity ? inode->capacity : MIN_CAPACITY;
	unsigned char *data;

	if (size <= inode->capacity && !inode->data_borrowed)
		return 0;
	while (cap < size)
		cap *= 2;
	data = kzalloc(cap);
	if (!data)
		return -ENOSPC;		/* Linux's ramfs: out of pages */
	memcpy(data, inode->data, inode->size);
	free_data(inode);
	heap_blocks++;
	inode->data = data;
	inode->data_borrowed = false;
	inode->capacity = cap;
	return 0;
}

long ramfs_write(struct inode *inode, const void *buf, size_t count, loff_t pos)
{
	long ret = -EISDIR;

	mutex_lock(&ramfs_lock);
	if (!S_ISDIR(inode->i_mode))
		ret = (pos < 0 || pos + count < (size_t)pos) ? -EINVAL : reserve(inode, pos + count);
	if (!ret) {
		if ((size_t)pos > inode->size)	/* a hole reads as zeros */
			memset(inode->data + inode->size, 0, pos - inode->size);
		memcpy(inode->data + pos, buf, count);
		if (pos + count > inode->size)
			inode->size = pos + count;
		inode->i_mtime = inode->i_ctime = ramfs_now();
		ret = count;
	}
	mutex_unlock(&ramfs_lock);
	return ret;
}

void ramfs_truncate(struct inode *inode)
{
	mutex_lock(&ramfs_lock);
	__truncate(inode);
	mutex_unlock(&ramfs_lock);
}

int ramfs_setsize(struct inode *inode, loff_t size)
{
	int ret = -EISDIR;

	mutex_lock(&ramfs_lock);
	if (!S_ISDIR(inode->i_mode))
		ret = size < 0 || size != (loff_t)(size_t)size ? -EINVAL :
		      (size_t)size > inode->size ? reserve(inode, size) : 0;
	if (!ret) {
		if ((size_t)size > inode->size)	/* the new bytes read as zeros */
			memset(inode->data + inode->size, 0, size - inode->size);
		inode->size = size;
		inode->i_mtime = inode->i_ctime = ramfs_now();
	}
	mutex_unlock(&ramfs_lock);
	return ret;
}

void ramfs_borrow(struct inode *inode, const void *data, size_t size)
{
	mutex_lock(&ramfs_lock);
	__truncate(inode);
	inode->data = (unsigned char *)data;
	inode->size = inode->capacity = size;
	inode->data_borrowed = true;
	mutex_unlock(&ramfs_lock);
}

size_t ramfs_size(struct inode *inode)
{
	size_t n;

	mutex_lock(&ramfs_lock);
	n = inode->size;
	mutex_unlock(&ramfs_lock);
	return n;
}

int ramfs_with_data(struct inode *inode,
		    int (*fn)(const unsigned char *data, size_t size, void *arg), void *arg)
{
	int ret;

	mutex_lock(&ramfs_lock);
	ret = fn(inode->data, inode->size, arg);
	mutex_unlock(&ramfs_lock);
	return ret;
}

/* ---- directories ------------------------------------------------------- */

/* Entries 0 and 1 are "." and "..", as getdents64 shows them on Linux. */
int ramfs_readdir(struct inode *dir, unsigned long index, struct ramfs_dirent *out)
{
	struct inode *c, *found = NULL;
	unsigned long i = 2;

	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	mutex_lock(&ramfs_lock);
	if (index < 2) {
		found = index == 0 ? dir : dir->parent;
	} else {
		list_for_each_entry(c, &dir->children, sibling)
			if (i++ == index) {
				found = c;
				break;
			}
	}
	if (found) {
		out->ino = found->i_ino;
		out->mode = found->i_mode;
		strlcpy(out->name, index == 0 ? "." : index == 1 ? ".." : found->name,
			sizeof(out->name));
	}
	mutex_unlock(&ramfs_lock);
	return found ? 0 : -ENOENT;
}
