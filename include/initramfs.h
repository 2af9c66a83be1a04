/*
 * initramfs.h - fill the root filesystem at boot (init/initramfs.c).
 */
#ifndef INITRAMFS_H
#define INITRAMFS_H

#include <stddef.h>

/* What one unpacking made. */
struct initramfs_stats {
	int files, dirs, skipped;	/* skipped: device nodes, fifos, sockets */
	int symlinks;
	int links;			/* files that are another name of a file before them */
};

/*
 * Unpack a newc cpio archive into the ramfs.  The whole archive is
 * read once before anything is made: a broken or truncated one is
 * refused (-EINVAL, *why says why) and the filesystem is unchanged.
 */
int unpack_to_rootfs(const unsigned char *buf, size_t len,
		     struct initramfs_stats *st, const char **why);

/* Boot: the root directory, the built-in programs in /bin, every cpio boot module. */
void populate_rootfs(void);

#endif
