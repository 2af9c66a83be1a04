/*
 * linux/err.h - an errno inside a pointer: the top 4095 addresses are
 * never valid, so ERR_PTR(-ENOENT) cannot be mistaken for an object.
 */
#ifndef LINUX_ERR_H
#define LINUX_ERR_H

#include <stdbool.h>
#include "../errno.h"

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE(ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR_VALUE(ptr); }

#endif
