/*
 * tty_io.c - /dev/console and /dev/tty (Linux's drivers/tty/tty_io.c):
 * the console a process starts with as fd 0, 1 and 2, opened by name.
 *
 * A process here has one terminal, the console, and it is every
 * process's controlling terminal, so /dev/tty (Linux: "my controlling
 * terminal") is the console too.  Opening either gives the very struct
 * file a new process's descriptors 0-2 share (kernel/file.c's console
 * file), so reading and writing it is exactly reading fd 0 and writing
 * fd 1: `echo hi > /dev/console`, `exec 2>/dev/tty`.
 */
#include "kernel.h"
#include "fs.h"
#include "printk.h"
#include "errno.h"
#include "devtmpfs.h"

#define CONSOLE_FD	0	/* a new process's fd 0, 1 and 2 are one file: the console */


/* The console's struct file, with a reference for the caller: fd 0 of a fresh table. */
static struct file *tty_open(const struct pseudo_file *pf, void *data, unsigned int flags,
			     int *err)
{
	struct files_struct *fresh = dup_fd(NULL);
	struct file *f;

	*err = -ENOMEM;
	if (!fresh)
		return NULL;
	f = fresh->fd[CONSOLE_FD];
	get_file(f);
	exit_files_struct(fresh);
	return f;
}

void tty_init(void)
{
	if (devtmpfs_create_opener("console", tty_open, NULL) ||
	    devtmpfs_create_opener("tty", tty_open, NULL))
		printk("tty: cannot make /dev/console and /dev/tty\n");
}
