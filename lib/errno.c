/*
 * errno.c - turn an error number into its name for messages:
 * errno_name(-EINVAL) is "EINVAL", so a failed call can be reported
 * as "register_kprobe: EINVAL" instead of a bare -22.
 */
#include "errno.h"
#include "vsprintf.h"

#define ERRNO_ENTRY(e) [e] = #e

static const char *const errno_names[] = {
	ERRNO_ENTRY(EPERM),
	ERRNO_ENTRY(ENOENT),
	ERRNO_ENTRY(EINTR),
	ERRNO_ENTRY(EIO),
	ERRNO_ENTRY(E2BIG),
	ERRNO_ENTRY(ENOEXEC),
	ERRNO_ENTRY(EAGAIN),
	ERRNO_ENTRY(ENOMEM),
	ERRNO_ENTRY(EFAULT),
	ERRNO_ENTRY(EBUSY),
	ERRNO_ENTRY(EEXIST),
	ERRNO_ENTRY(ENODEV),
	ERRNO_ENTRY(EISDIR),
	ERRNO_ENTRY(EINVAL),
	ERRNO_ENTRY(ENOSPC),
	ERRNO_ENTRY(ERANGE),
	ERRNO_ENTRY(ENOSYS),
	ERRNO_ENTRY(EILSEQ),
};

/* Accepts err or -err.  Unknown numbers give "errno N" (N as passed),
 * formatted into a static buffer: fine for one message at a time. */
const char *errno_name(int err)
{
	static char unknown[24];
	unsigned int e = err < 0 ? -(unsigned int)err : (unsigned int)err;

	if (e < sizeof(errno_names) / sizeof(errno_names[0]) && errno_names[e])
		return errno_names[e];
	snprintf(unknown, sizeof(unknown), "errno %d", err);
	return unknown;
}
