/*
 * devtmpfs.h - /dev's device nodes (drivers/char/mem.c, drivers/tty/):
 * pseudofs files below DEVTMPFS_ROOT (include/mount.h) that open
 * themselves, so open(2) gets the device's own struct file.
 */
#ifndef DEVTMPFS_H
#define DEVTMPFS_H

struct file;
struct pseudo_file;

/* DEVTMPFS_ROOT "/" name, opened by open() (data: open's): 0 or -errno. */
int devtmpfs_create_opener(const char *name,
			   struct file *(*open)(const struct pseudo_file *pf, void *data,
						unsigned int flags, int *err),
			   void *data);
/* null, zero, full, random, urandom (Linux's chr_dev_init()). */
void chr_dev_init(void);
/* console and tty. */
void tty_init(void);

#endif
