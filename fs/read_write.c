/*
 * read_write.c - reads and writes beyond read(2) and write(2) (Linux's
 * fs/read_write.c): readv(2) and writev(2), one call over a list of
 * buffers (glibc's stdio writes a line and its buffer in one writev);
 * pread64(2) and pwrite64(2), at an offset, the file's own position
 * untouched.  Each goes through vfs_read() and vfs_write()
 * (kernel/file.c), so a probe on those sees these calls too.
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "fcntl.h"
#include "mm.h"
#include "uaccess.h"
#include "errno.h"

#define UIO_MAXIOV	1024		/* buffers per call, Linux's */
#define MAX_RW_COUNT	0x7ffff000UL	/* bytes per call, Linux's INT_MAX & PAGE_MASK */

struct iovec {
	void __user *iov_base;
	size_t iov_len;
};

/* Linux's import_iovec(): the user's list in a kernel copy, each buffer checked. */
static struct iovec *import_iovec(const struct iovec __user *vec, unsigned long vlen,
				  long *err)
{
	struct iovec *iov;
	size_t total = 0;
	unsigned long i;

	*err = -EINVAL;
	if (vlen > UIO_MAXIOV)
		return NULL;
	*err = -ENOMEM;
	iov = kmalloc(vlen * sizeof(*iov) + 1);
	if (!iov)
		return NULL;
	*err = copy_from_user(iov, vec, vlen * sizeof(*iov)) ? -EFAULT : 0;
	for (i = 0; i < vlen && !*err; i++) {
		if ((long)iov[i].iov_len < 0)
			*err = -EINVAL;
		else if (!access_ok(iov[i].iov_base, iov[i].iov_len))
			*err = -EFAULT;
		else if ((total += iov[i].iov_len) > MAX_RW_COUNT)
			*err = -EINVAL;	/* Linux trims; nothing here is that big */
	}
	if (!*err)
		return iov;
	kfree(iov);
	return NULL;
}

/* Each buffer in turn; a short transfer ends the call, as Linux's do_loop_readv_writev(). */
static long do_readv_writev(unsigned long fd, const struct iovec __user *vec,
			    unsigned long vlen, bool write)
{
	struct file *f = fget(fd);
	struct iovec *iov;
	long ret = 0, n;
	unsigned long i;

	if (!f)
		return -EBADF;
	iov = import_iovec(vec, vlen, &n);
	if (!iov)
		return n;
	for (i = 0; i < vlen; i++) {
		n = write ? vfs_write(f, iov[i].iov_base, iov[i].iov_len, &f->f_pos) :
			    vfs_read(f, iov[i].iov_base, iov[i].iov_len, &f->f_pos);
		if (n < 0) {
			ret = ret ? ret : n;
			break;
		}
		ret += n;
		if ((size_t)n < iov[i].iov_len)
			break;
	}
	kfree(iov);
	return ret;
}

asmlinkage long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_readv_writev(fd, vec, vlen, false);
}

asmlinkage long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_readv_writev(fd, vec, vlen, true);
}

/* At pos, not the file's position: a pipe or the console has none (-ESPIPE). */
static long do_pread_pwrite(unsigned int fd, char __user *buf, size_t count, loff_t pos,
			    bool write)
{
	struct file *f;

	if (pos < 0)
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	if (!f->f_op->seekable)
		return -ESPIPE;
	return write ? vfs_write(f, buf, count, &pos) : vfs_read(f, buf, count, &pos);
}

/* The 64-bit offset in two registers, low then high (an asmlinkage loff_t's stack order). */
asmlinkage long sys_pread64(unsigned int fd, char __user *buf, size_t count, loff_t pos)
{
	return do_pread_pwrite(fd, buf, count, pos, false);
}

asmlinkage long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, loff_t pos)
{
	return do_pread_pwrite(fd, (char __user *)buf, count, pos, true);
}
