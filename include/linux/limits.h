/* linux/limits.h - Linux's limits (POSIX NAME_MAX, PATH_MAX) and C's. */
#ifndef LINUX_LIMITS_H
#define LINUX_LIMITS_H

#include <stdint.h>

#define NAME_MAX	255	/* bytes in a file name, NUL not included */
#define PATH_MAX	4096	/* bytes in a path, NUL included */

#define INT_MAX		INT32_MAX
#define INT_MIN		INT32_MIN
#define UINT_MAX	UINT32_MAX
#define LONG_MAX	INT32_MAX
#define LONG_MIN	INT32_MIN
#define ULONG_MAX	UINT32_MAX
#define U8_MAX		UINT8_MAX
#define U16_MAX		UINT16_MAX
#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX
#define S32_MAX		INT32_MAX
#define S32_MIN		INT32_MIN
#define S64_MAX		INT64_MAX
#define S64_MIN		INT64_MIN

#endif
