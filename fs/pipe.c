/*
 * pipe.c - pipe(2) and pipe2(2): a buffer in the kernel with a read end
 * and a write end, each an open file (Linux's fs/pipe.c).
 *
 *   read   waits while the pipe is empty and a writer exists; empty with
 *          no writer left is end of file: 0.
 *   write  waits while the pipe is full; with no reader left it fails
 *          with -EPIPE (Linux also sends SIGPIPE, whose default action
 *          ends the writer).  A write of PIPE_BUF bytes or fewer goes in
 *          whole, never mixed with another writer's bytes (POSIX).
 *   O_NONBLOCK turns each wait into -EAGAIN.
 *
 * The buffer is one page, a ring: head counts the bytes ever written,
 * tail those ever read, so head - tail is what waits to be read.  A
 * mutex guards it; a waiter marks itself asleep before letting the
 * mutex go, and every change wakes every waiter, who looks again: no
 * wake-up is lost (include/wait.h), and a signal ends the wait: a read
 * or write that has moved nothing yet returns -ERESTARTSYS, which the
 * way out to ring 3 makes -EINTR or a restart (SA_RESTART).  A write
 * with no reader left is -EPIPE and SIGPIPE, as Linux's.
 */
#include "kernel.h"
#include "fs.h"
#include "fcntl.h"
#include "syscalls.h"
#include "sched.h"
#include "wait.h"
#include "mutex.h"
#include "mm.h"
#include "uaccess.h"
#include "string.h"
#include "errno.h"

#define PIPE_SIZE	PAGE_SIZE	/* Linux's is 16 pages */
#define PIPE_BUF	4096		/* writes up to this size are atomic (POSIX) */
#define PIPE_WAITERS	8		/* threads waiting on one pipe at once */

struct pipe_inode_info {
	struct mutex mutex;
	char *buf;
	unsigned long head, tail;
	int readers, writers;		/* open ends */
	struct task_struct *waiters[PIPE_WAITERS];
};

static size_t pipe_used(struct pipe_inode_info *p)
{
	return p->head - p->tail;
}

/* Wake every waiter, who looks at the pipe again.  Mutex held. */
static void pipe_wake(struct pipe_inode_info *p)
{
	int i;

	for (i = 0; i < PIPE_WAITERS; i++)
		if (p->waiters[i])
			wake_up_process(p->waiters[i]);
}

/*
 * Sleep until the next change; the mutex is let go while sleeping and
 * held again on return.  -ERESTARTSYS if a signal is pending.
 */
static int pipe_wait(struct pipe_inode_info *p)
{
	int i, slot = -1;

	for (i = 0; i < PIPE_WAITERS && slot < 0; i++)
		if (!p->waiters[i])
			slot = i;
	if (signal_pending(current))
		return -ERESTARTSYS;
	if (slot >= 0)
		p->waiters[slot] = current;
	prepare_to_wait_killable();
	if (signal_pending(current)) {	/* sent since the look above: it found us awake */
		set_current_state(TASK_RUNNABLE);
		if (slot >= 0)
			p->waiters[slot] = NULL;
		return -ERESTARTSYS;
	}
	mutex_unlock(&p->mutex);
	if (slot >= 0)
		schedule();
	else
		yield();	/* every slot taken: poll instead of sleeping */
	set_current_state(TASK_RUNNABLE);
	mutex_lock(&p->mutex);
	if (slot >= 0)
		p->waiters[slot] = NULL;
	return 0;
}

/* Copy n bytes out of the ring at tail (two pieces where it wraps). */
static int ring_to_user(struct pipe_inode_info *p, char __user *buf, size_t n)
{
	size_t off = p->tail % PIPE_SIZE, first = n < PIPE_SIZE - off ? n : PIPE_SIZE - off;

	if (copy_to_user(buf, p->buf + off, first) ||
	    copy_to_user(buf + first, p->buf, n - first))
		return -EFAULT;
	p->tail += n;
	return 0;
}

static int ring_from_user(struct pipe_inode_info *p, const char __user *buf, size_t n)
{
	size_t off = p->head % PIPE_SIZE, first = n < PIPE_SIZE - off ? n : PIPE_SIZE - off;

	if (copy_from_user(p->buf + off, buf, first) ||
	    copy_from_user(p->buf, buf + first, n - first))
		return -EFAULT;
	p->head += n;
	return 0;
}

static long pipe_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	long ret = 0;
	size_t n;

	if (count == 0)
		return 0;
	mutex_lock(&p->mutex);
	while (pipe_used(p) == 0 && p->writers > 0) {
		ret = (f->f_flags & O_NONBLOCK) ? -EAGAIN : pipe_wait(p);
		if (ret)
			break;
	}
	if (!ret && pipe_used(p) > 0) {
		n = pipe_used(p) < count ? pipe_used(p) : count;
		ret = ring_to_user(p, buf, n);
		if (!ret)
			ret = n;
		pipe_wake(p);		/* room for a writer */
	}
	mutex_unlock(&p->mutex);
	return ret;
}

/* Room for the next piece: all of a small write at once, any room for a big one. */
static bool pipe_has_room(struct pipe_inode_info *p, size_t count, size_t done)
{
	size_t room = PIPE_SIZE - pipe_used(p);

	return count <= PIPE_BUF ? room >= count - done : room > 0;
}

/*
 * Linux's send_sig(SIGPIPE, current, 0): a write no one will ever read
 * ends the writer by default - "yes | head" stops once head has gone -
 * and a program that ignores or handles SIGPIPE sees -EPIPE instead.
 */
static void pipe_send_sigpipe(void)
{
	struct kernel_siginfo info = { .signo = SIGPIPE, .code = SI_USER, .pid = current->pid };

	send_sig_info(SIGPIPE, &info, current);
}

static long pipe_write(struct file *f, const char __user *buf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	size_t done = 0, n;
	long err = 0;

	mutex_lock(&p->mutex);
	while (done < count && !err) {
		if (p->readers == 0) {
			err = -EPIPE;
			pipe_send_sigpipe();
		} else if (!pipe_has_room(p, count, done)) {
			err = (f->f_flags & O_NONBLOCK) ? -EAGAIN : pipe_wait(p);
		} else {
			n = PIPE_SIZE - pipe_used(p);
			if (n > count - done)
				n = count - done;
			err = ring_from_user(p, buf + done, n);
			if (!err)
				done += n;
			pipe_wake(p);	/* bytes for a reader */
		}
	}
	mutex_unlock(&p->mutex);
	return done ? (long)done : err;
}

static void pipe_release(struct file *f)
{
	struct pipe_inode_info *p = f->private_data;
	bool last;

	mutex_lock(&p->mutex);
	if ((f->f_flags & O_ACCMODE) == O_RDONLY)
		p->readers--;
	else
		p->writers--;
	last = p->readers == 0 && p->writers == 0;
	pipe_wake(p);		/* a reader sees EOF, a writer EPIPE */
	mutex_unlock(&p->mutex);
	if (last) {
		free_pages(p->buf, 1);
		kfree(p);
	}
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
};

int create_pipe_files(struct file **res, int flags)
{
	struct pipe_inode_info *p = kzalloc(sizeof(*p));
	int i;

	if (!p || !(p->buf = alloc_pages(1))) {
		kfree(p);
		return -ENOMEM;
	}
	mutex_init(&p->mutex);
	p->readers = p->writers = 1;
	res[0] = alloc_file(&pipe_fops, O_RDONLY | (flags & O_NONBLOCK), p);
	res[1] = alloc_file(&pipe_fops, O_WRONLY | (flags & O_NONBLOCK), p);
	if (!res[0] || !res[1]) {
		kfree(res[0]);
		kfree(res[1]);
		free_pages(p->buf, 1);
		kfree(p);
		return -ENOMEM;
	}
	for (i = 0; i < 2; i++)
		res[i]->f_mode = S_IFIFO | 0600;
	return 0;
}

/* Linux's do_pipe2(): both files, two descriptors, and only then the user's copy. */
asmlinkage long sys_pipe2(int __user *fildes, int flags)
{
	struct file *files[2];
	int fd[2], ret;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	ret = create_pipe_files(files, flags);
	if (ret)
		return ret;
	fd[0] = fd_install_new(files[0], flags);
	fd[1] = fd[0] < 0 ? -EMFILE : fd_install_new(files[1], flags);
	if (fd[1] < 0) {
		if (fd[0] >= 0)
			sys_close(fd[0]);	/* drops files[0] */
		else
			fput(files[0]);
		fput(files[1]);
		return -EMFILE;
	}
	if (copy_to_user(fildes, fd, sizeof(fd))) {
		sys_close(fd[0]);
		sys_close(fd[1]);
		return -EFAULT;
	}
	return 0;
}

asmlinkage long sys_pipe(int __user *fildes)
{
	return sys_pipe2(fildes, 0);
}
