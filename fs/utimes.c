/*
 * utimes.c - utimensat(2): set a file's access and modification times
 * (Linux's fs/utimes.c), what `touch` calls first.  i386 has two
 * forms: utimensat with 32-bit seconds (320) and utimensat_time64 with
 * 64-bit ones (412), for times past 2038.  A time of UTIME_NOW means
 * now, UTIME_OMIT leaves that time alone; no times at all means both
 * now.  The times are kept in nanoseconds since the epoch, the wall
 * clock's (ramfs_now()).
 */
#include "kernel.h"
#include "syscalls.h"
#include "fs.h"
#include "fcntl.h"
#include "ramfs.h"
#include "ktime.h"
#include "uaccess.h"
#include "errno.h"

#define UTIME_NOW	((1L << 30) - 1L)
#define UTIME_OMIT	((1L << 30) - 2L)
#define NR_TIMES	2	/* access, then modification */

struct old_timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

struct __kernel_timespec {
	int64_t tv_sec;
	long long tv_nsec;
};

/* One of the two times: *out NULL to keep it, else pointing at *ns.  0 or -EINVAL. */
static long utime_arg(int64_t sec, long long nsec, int64_t *ns, int64_t **out)
{
	*out = ns;
	if (nsec == UTIME_OMIT)
		*out = NULL;
	else if (nsec == UTIME_NOW)
		*ns = ramfs_now();
	else if (nsec < 0 || nsec >= NSEC_PER_SEC)
		return -EINVAL;
	else
		*ns = sec * NSEC_PER_SEC + nsec;
	return 0;
}

/* Linux's do_utimes(): NULL filename with a dfd is that file (futimens()). */
static long do_utimes(int dfd, const char __user *filename, int64_t *const times[NR_TIMES],
		      int flags)
{
	struct inode *inode;
	struct file *f;
	long ret;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!filename && dfd != AT_FDCWD) {
		if (flags & AT_SYMLINK_NOFOLLOW)
			return -EINVAL;
		f = fget(dfd);
		if (!f)
			return -EBADF;
		if (!f->f_inode)
			return -EPERM;	/* a pipe or the console keeps no times here */
		inode = f->f_inode;
		iget(inode);
	} else {
		ret = user_path_at(dfd, filename, &inode);
		if (ret)
			return ret;
	}
	ramfs_set_times(inode, times[0], times[1]);
	iput(inode);
	return 0;
}

asmlinkage long sys_utimensat(int dfd, const char __user *filename,
			      struct old_timespec32 __user *utimes, int flags)
{
	struct old_timespec32 t[NR_TIMES];
	int64_t ns[NR_TIMES], *times[NR_TIMES] = { &ns[0], &ns[1] };
	long ret = 0;
	int i;

	ns[0] = ns[1] = ramfs_now();
	if (utimes && copy_from_user(t, utimes, sizeof(t)))
		return -EFAULT;
	for (i = 0; utimes && i < NR_TIMES && !ret; i++)
		ret = utime_arg(t[i].tv_sec, t[i].tv_nsec, &ns[i], &times[i]);
	return ret ? ret : do_utimes(dfd, filename, times, flags);
}

asmlinkage long sys_utimensat_time64(int dfd, const char __user *filename,
				     struct __kernel_timespec __user *utimes, int flags)
{
	struct __kernel_timespec t[NR_TIMES];
	int64_t ns[NR_TIMES], *times[NR_TIMES] = { &ns[0], &ns[1] };
	long ret = 0;
	int i;

	ns[0] = ns[1] = ramfs_now();
	if (utimes && copy_from_user(t, utimes, sizeof(t)))
		return -EFAULT;
	for (i = 0; utimes && i < NR_TIMES && !ret; i++)
		ret = utime_arg(t[i].tv_sec, t[i].tv_nsec, &ns[i], &times[i]);
	return ret ? ret : do_utimes(dfd, filename, times, flags);
}
