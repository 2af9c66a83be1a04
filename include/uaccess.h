/*
 * uaccess.h - reading and writing a process's memory from the kernel
 * (Linux's <linux/uaccess.h>).
 *
 * A system call's pointer arguments come from ring 3 and may point
 * anywhere.  Two checks make them safe, as in Linux:
 *   1. access_ok(): the whole range lies in user space.  Without it a
 *      process could hand write() a kernel address and read the kernel
 *      back (the kernel, in ring 0, may touch every page).
 *   2. the copy itself goes through the exception fixup table
 *      (safe_copy.S): a page that is not mapped, or read-only, ends the
 *      copy with -EFAULT instead of an oops.
 */
#ifndef UACCESS_H
#define UACCESS_H

#include <stddef.h>
#include <stdbool.h>
#include "linux/compiler.h"
#include "mm.h"

/* Is [addr, addr + size) inside [USER_BASE, TASK_SIZE)?  Cannot overflow. */
static inline bool access_ok(const void __user *addr, unsigned long size)
{
	unsigned long a = (unsigned long)addr;

	return a >= USER_BASE && a <= TASK_SIZE && size <= TASK_SIZE - a;
}

/* safe_copy.S: byte copies whose user-side access has a fixup entry. */
long raw_copy_from_user(void *dst, const void __user *src, size_t n);
long raw_copy_to_user(void __user *dst, const void *src, size_t n);

/*
 * For probe handlers (:ustring): 0 or -EFAULT, never sleeps, never
 * oopses - and refuses a kernel address, so a fetch argument written
 * for a user pointer cannot be pointed at the kernel.  Linux's name.
 */
long copy_from_user_nofault(void *dst, const void __user *src, size_t size);

/* 0, or n when anything failed (Linux returns the bytes not copied). */
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
/*
 * Copy a NUL-terminated string of at most count bytes: its length, or
 * count if no NUL came first (dst is then not terminated), or -EFAULT.
 */
long strncpy_from_user(char *dst, const char __user *src, long count);

#endif
