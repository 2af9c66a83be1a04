/*
 * readdir.c - getdents64(2): a directory's entries as Linux hands them
 * to ls and to glibc's readdir() (Linux's fs/readdir.c).
 *
 * Each record is a struct linux_dirent64, its length rounded up to 8
 * bytes so the next one is aligned; the file offset is the index of the
 * next entry, so a second call goes on where the first stopped.
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "uaccess.h"
#include "string.h"
#include "errno.h"


struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;		/* the offset of the next entry */
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Copy one record to the user; its length, 0 if count has no room for it. */
static long put_dirent(char __user *dst, size_t room, const char *name, size_t namelen,
		       uint64_t ino, unsigned int d_type, loff_t next)
{
	struct {
		struct linux_dirent64 d;
		char name[NAME_MAX + 1 + sizeof(uint64_t)];
	} rec;
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + namelen + 1,
				 sizeof(uint64_t));

	if (namelen > NAME_MAX)
		return -EINVAL;
	if (reclen > room)
		return 0;
	memset(&rec, 0, sizeof(rec));
	rec.d.d_ino = ino;
	rec.d.d_off = next;
	rec.d.d_reclen = reclen;
	rec.d.d_type = d_type;
	memcpy(rec.d.d_name, name, namelen);
	return copy_to_user(dst, &rec, reclen) ? -EFAULT : (long)reclen;
}

/* Linux's getdents_callback64: where the records go, and how it went. */
struct getdents_callback64 {
	struct dir_context ctx;
	char __user *dirent;
	size_t count, done;
	long error;		/* -EFAULT, or 0 */
	bool full;		/* a record did not fit */
};

static bool filldir64(struct dir_context *ctx, const char *name, int namelen, loff_t next,
		      uint64_t ino, unsigned int d_type)
{
	struct getdents_callback64 *buf = (struct getdents_callback64 *)ctx;
	long n = put_dirent(buf->dirent + buf->done, buf->count - buf->done, name, namelen,
			    ino, d_type, next);

	if (n <= 0) {
		buf->full = n == 0;
		buf->error = n;
		return false;
	}
	buf->done += n;
	ctx->pos = next;
	return true;
}

/* A directory with its own iterate_shared() (a /proc or /dev one). */
static long getdents_iterate(struct file *f, void __user *dirent, unsigned int count)
{
	struct getdents_callback64 buf = {
		.ctx = { .actor = filldir64, .pos = f->f_pos },
		.dirent = dirent,
		.count = count,
	};
	int ret = f->f_op->iterate_shared(f, &buf.ctx);

	f->f_pos = buf.ctx.pos;
	if (ret < 0)
		return ret;
	if (buf.error < 0)
		return buf.done ? (long)buf.done : buf.error;
	return buf.full && buf.done == 0 ? -EINVAL : (long)buf.done;
}

asmlinkage long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count)
{
	struct file *f = fget(fd);
	struct ramfs_dirent *de;
	size_t done = 0;
	bool full = false;
	long n = 0;

	if (!f)
		return -EBADF;
	if (f->f_op->iterate_shared)
		return getdents_iterate(f, dirent, count);
	if (!f->f_inode || !S_ISDIR(f->f_inode->i_mode))
		return -ENOTDIR;
	de = kmalloc(sizeof(*de));
	if (!de)
		return -ENOMEM;
	while (ramfs_readdir(f->f_inode, f->f_pos, de) == 0) {
		n = put_dirent((char __user *)dirent + done, count - done, de->name,
			       strlen(de->name), de->ino, S_ISDIR(de->mode) ? DT_DIR :
			       S_ISLNK(de->mode) ? DT_LNK : DT_REG,
			       f->f_pos + 1);
		if (n <= 0) {
			full = n == 0;
			break;
		}
		done += n;
		f->f_pos++;
	}
	kfree(de);
	if (n < 0)
		return n;
	/* Not even one record fits: Linux's -EINVAL ("result buffer is too small"). */
	return full && done == 0 ? -EINVAL : (long)done;
}
