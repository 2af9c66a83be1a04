/*
 * usercopy.c - copy_from_user() and friends: access_ok(), then a copy
 * that cannot oops (include/uaccess.h tells why both are needed).
 */
#include "kernel.h"
#include "uaccess.h"
#include "errno.h"
#include "nokprobe.h"

long copy_from_user_nofault(void *dst, const void __user *src, size_t size)
{
	if (!access_ok(src, size))
		return -EFAULT;
	return raw_copy_from_user(dst, src, size);
}
NOKPROBE_SYMBOL(copy_from_user_nofault);

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (!access_ok(from, n) || raw_copy_from_user(to, from, n))
		return n;
	return 0;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n) || raw_copy_to_user(to, from, n))
		return n;
	return 0;
}

/*
 * Byte by byte: the string's end is not known in advance, and each
 * byte is checked against user space before it is read, so a string
 * that runs off its last page (or into the kernel) is -EFAULT where it
 * stops being the process's.
 */
long strncpy_from_user(char *dst, const char __user *src, long count)
{
	long i;

	for (i = 0; i < count; i++) {
		if (copy_from_user(&dst[i], src + i, 1))
			return -EFAULT;
		if (dst[i] == '\0')
			return i;
	}
	return count;
}
