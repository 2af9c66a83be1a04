/*
 * errno.c - an error number in words, for every message that reports
 * one: errno_name(-EINVAL) is "EINVAL", errno_meaning(-EINVAL) is
 * "Invalid argument" (the C library's strerror() text, as the shell
 * prints it).  One table, so a failed insmod, a refused probe and a
 * shell command all say the same thing for the same number.
 */
#include <stdbool.h>
#include <stddef.h>
#include "errno.h"
#include "vsprintf.h"

struct errno_text {
	const char *name;
	const char *meaning;
};

#define ERRNO_ENTRY(e, text) [e] = { #e, text }

static const struct errno_text errno_table[] = {
	ERRNO_ENTRY(EPERM, "Operation not permitted"),
	ERRNO_ENTRY(ENOENT, "No such file or directory"),
	ERRNO_ENTRY(ESRCH, "No such process"),
	ERRNO_ENTRY(EINTR, "Interrupted system call"),
	ERRNO_ENTRY(EIO, "Input/output error"),
	ERRNO_ENTRY(ENXIO, "No such device or address"),
	ERRNO_ENTRY(E2BIG, "Argument list too long"),
	ERRNO_ENTRY(ENOEXEC, "Exec format error"),
	ERRNO_ENTRY(EBADF, "Bad file descriptor"),
	ERRNO_ENTRY(ECHILD, "No child processes"),
	ERRNO_ENTRY(EAGAIN, "Resource temporarily unavailable"),
	ERRNO_ENTRY(ENOMEM, "Cannot allocate memory"),
	ERRNO_ENTRY(EACCES, "Permission denied"),
	ERRNO_ENTRY(EFAULT, "Bad address"),
	ERRNO_ENTRY(EBUSY, "Device or resource busy"),
	ERRNO_ENTRY(EEXIST, "File exists"),
	ERRNO_ENTRY(ENODEV, "No such device"),
	ERRNO_ENTRY(ENOTDIR, "Not a directory"),
	ERRNO_ENTRY(EISDIR, "Is a directory"),
	ERRNO_ENTRY(EINVAL, "Invalid argument"),
	ERRNO_ENTRY(EMFILE, "Too many open files"),
	ERRNO_ENTRY(ENOTTY, "Inappropriate ioctl for device"),
	ERRNO_ENTRY(ENOSPC, "No space left on device"),
	ERRNO_ENTRY(ESPIPE, "Illegal seek"),
	ERRNO_ENTRY(EROFS, "Read-only file system"),
	ERRNO_ENTRY(EPIPE, "Broken pipe"),
	ERRNO_ENTRY(EDOM, "Numerical argument out of domain"),
	ERRNO_ENTRY(ERANGE, "Numerical result out of range"),
	ERRNO_ENTRY(ENAMETOOLONG, "File name too long"),
	ERRNO_ENTRY(ENOSYS, "Function not implemented"),
	ERRNO_ENTRY(ENOTEMPTY, "Directory not empty"),
	ERRNO_ENTRY(ELOOP, "Too many levels of symbolic links"),
	ERRNO_ENTRY(EILSEQ, "Invalid or incomplete multibyte or wide character"),
	ERRNO_ENTRY(EOPNOTSUPP, "Operation not supported"),
	ERRNO_ENTRY(ETIMEDOUT, "Connection timed out"),
};

/* The table's entry for err or -err, or NULL for a number it lacks. */
static const struct errno_text *errno_lookup(int err)
{
	unsigned int e = err < 0 ? -(unsigned int)err : (unsigned int)err;

	if (e < sizeof(errno_table) / sizeof(errno_table[0]) && errno_table[e].name)
		return &errno_table[e];
	return NULL;
}

/*
 * The name or the meaning of err; a number the table lacks is written
 * as `fmt` into buf, a static buffer of the caller: fine for one
 * message at a time.
 */
static const char *errno_text(int err, bool meaning, char *buf, size_t len,
			      const char *fmt)
{
	const struct errno_text *t = errno_lookup(err);

	if (t)
		return meaning ? t->meaning : t->name;
	snprintf(buf, len, fmt, err);
	return buf;
}

/* Unknown numbers give "errno N" (N as passed). */
const char *errno_name(int err)
{
	static char unknown[24];

	return errno_text(err, false, unknown, sizeof(unknown), "errno %d");
}

/* Unknown numbers give "Unknown error N", as the C library says. */
const char *errno_meaning(int err)
{
	static char unknown[32];

	return errno_text(err, true, unknown, sizeof(unknown), "Unknown error %d");
}
