/*
 * string.h - the freestanding string functions from lib/string.c.
 *
 * Kernel build: these are the real memcpy, strlen, ... (GCC itself may
 * emit calls to memcpy/memmove/memset/memcmp, so those names must exist).
 *
 * Host build (HOST_BUILD, unit tests under ASan): the same source must
 * not replace the C library's functions, so every name below is renamed
 * with a 'k' prefix by the preprocessor: lib/string.c then defines
 * kmemcpy, kstrlen, ...  and any code including this header (lib/ code,
 * host tests) calls ours.  Because -Iinclude comes first, a host file's
 * "#include <string.h>" also lands here; libc's own functions stay
 * reachable inside libc (printf etc.) and are simply not visible by name.
 */
#ifndef STRING_H
#define STRING_H

#include <stddef.h>

#ifdef HOST_BUILD
#define memcpy   kmemcpy
#define memmove  kmemmove
#define memset   kmemset
#define memcmp   kmemcmp
#define strlen   kstrlen
#define strnlen  kstrnlen
#define strcmp   kstrcmp
#define strncmp  kstrncmp
#define strchr   kstrchr
#define strrchr  kstrrchr
#define strstr   kstrstr
#define strlcpy  kstrlcpy
#define strlcat  kstrlcat
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
/* BSD-style: copy/append at most size-1 bytes, always NUL-terminate
 * (when size > 0), return the length the result wanted to have. */
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);

#endif
