/*
 * string.c - memory and string helpers for a kernel without libc.
 *
 * Plain byte loops: easy to read and to trust.  GCC calls memcpy,
 * memset, memmove and memcmp on its own (struct copies, zeroing), so
 * these must exist under exactly those names in the kernel; on the host
 * include/string.h renames them all to kmemcpy, ... (see there).
 */
#include "string.h"

/*
 * Without -ffreestanding, GCC at -O2 recognises a byte-copy loop and
 * replaces it with a call to memcpy - inside memcpy itself that would
 * recurse forever.  The kernel build passes -ffreestanding; this
 * attribute keeps these functions safe even if that flag goes away.
 * (clang does not know the attribute; it only builds the host tests.)
 */
#if defined(__GNUC__) && !defined(__clang__)
#define no_libcall __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define no_libcall
#endif

no_libcall void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

/* Like memcpy, but the two areas may overlap. */
no_libcall void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s) {
		/* Copying forwards never overwrites a source byte still to be read. */
		while (n--)
			*d++ = *s++;
	} else {
		/* dst is above src: go backwards for the same reason. */
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

no_libcall void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

/* Bytes compare as unsigned char, as the C standard requires. */
int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

/* Length of s, but never look at more than max bytes. */
size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return *p - *q;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
		if (!*p)
			break;
	}
	return 0;
}

/* First c in s; searching for '\0' finds the terminator. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

/* Last c in s; searching for '\0' finds the terminator. */
char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n == 0 ? (char *)hay : NULL;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t used = strnlen(dst, size);

	/* If dst is not terminated within size, used == size and the
	 * strlcpy below, given size 0, writes nothing at all. */
	return used + strlcpy(dst + used, src, size - used);
}
