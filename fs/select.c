/*
 * select.c - poll(fds, nfds, timeout) (168): wait until one of several
 * files is ready (Linux's fs/select.c).  An editing shell polls its
 * terminal before each read, to tell the Esc key from the start of an
 * arrow key's sequence.
 *
 * A file answers through f_op->poll (the console: kernel/tty.c); a
 * file without one is always ready, Linux's DEFAULT_POLLMASK - here
 * that includes pipes, whose read may then still wait.  The wait looks
 * again at every timer tick, as the console's own reader does; a
 * signal ends it with -EINTR.
 */
#include "kernel.h"
#include "fs.h"
#include "syscalls.h"
#include "uaccess.h"
#include "sched.h"
#include "signal.h"
#include "timer.h"
#include "tty.h"
#include "errno.h"

#define DEFAULT_POLLMASK	(POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define POLL_ALWAYS		(0x0008 | 0x0010 | POLLNVAL)	/* POLLERR, POLLHUP: asked or not */
#define MS_PER_TICK		(1000 / HZ)

struct pollfd {
	int fd;
	short events;
	short revents;
};

/* One pass over the table: how many entries have revents now. */
static int poll_once(struct pollfd *fds, unsigned int nfds)
{
	unsigned int i, mask;
	struct file *f;
	int ready = 0;

	for (i = 0; i < nfds; i++) {
		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;
		f = fget(fds[i].fd);
		mask = !f ? POLLNVAL : f->f_op->poll ? f->f_op->poll(f) : DEFAULT_POLLMASK;
		fds[i].revents = mask & (fds[i].events | POLL_ALWAYS);
		if (fds[i].revents)
			ready++;
	}
	return ready;
}

asmlinkage long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs)
{
	struct pollfd fds[NR_OPEN_DEFAULT];
	unsigned long waited = 0;
	int ready;

	if (nfds > NR_OPEN_DEFAULT)
		return -EINVAL;		/* more than RLIMIT_NOFILE, as Linux refuses */
	if (copy_from_user(fds, ufds, nfds * sizeof(fds[0])))
		return -EFAULT;
	while (!(ready = poll_once(fds, nfds))) {
		if (timeout_msecs >= 0 && waited >= (unsigned long)timeout_msecs)
			break;
		if (signal_pending(current))
			return -EINTR;
		msleep(MS_PER_TICK);
		waited += MS_PER_TICK;
	}
	if (copy_to_user(ufds, fds, nfds * sizeof(fds[0])))
		return -EFAULT;
	return ready;
}
