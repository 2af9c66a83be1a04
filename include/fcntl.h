/*
 * fcntl.h - Linux's open() flags and lseek() origins, as i386 numbers
 * them (include/uapi/asm-generic/fcntl.h, octal as there).  Shared by
 * the kernel and user/lib.
 */
#ifndef FCNTL_H
#define FCNTL_H

#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_EXCL		00000200
#define O_TRUNC		00001000
#define O_APPEND	00002000
#define O_NONBLOCK	00004000
#define O_DIRECTORY	00200000
#define O_CLOEXEC	02000000
#define O_NOCTTY	00000400	/* accepted: the console is no process's controlling tty */
#define O_LARGEFILE	00100000	/* 64-bit offsets: always here; glibc sets it on i386 */
#define O_NOFOLLOW	00400000	/* a symbolic link at the end is -ELOOP */

#define AT_FDCWD	-100	/* "relative to the working directory" */
/* The *at() calls' flags (include/uapi/linux/fcntl.h). */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200	/* unlinkat(): rmdir() */
#define AT_EACCESS		0x200	/* faccessat(): the effective ids (one user here) */
#define AT_SYMLINK_FOLLOW	0x400
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000	/* "": the file dfd itself */
#define AT_STATX_SYNC_TYPE	0x6000	/* statx()'s sync mode: nothing to sync here */

/* renameat2()'s flags (include/uapi/linux/fs.h). */
#define RENAME_NOREPLACE	(1 << 0)
#define RENAME_EXCHANGE		(1 << 1)
#define RENAME_WHITEOUT		(1 << 2)

/* fcntl()'s commands (include/uapi/asm-generic/fcntl.h, linux/fcntl.h). */
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC	1	/* F_GETFD/F_SETFD's one flag */

/* access()'s modes (include/uapi/linux/fcntl.h's F_OK, unistd.h's R_OK ...). */
#define F_OK		0
#define X_OK		1
#define W_OK		2
#define R_OK		4

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

#endif
