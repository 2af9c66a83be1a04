/*
 * linux/slab.h - kmalloc(size, flags) and friends.
 *
 * The kernel's heap (include/mm.h) never sleeps and never fails for a
 * reason a flag could change, so GFP_KERNEL and GFP_ATOMIC behave alike;
 * __GFP_ZERO (and kzalloc) zero the memory, as in Linux.  The kernel's
 * own kmalloc takes a size only: these macros add the flags argument
 * Linux code passes.  (The parenthesised (kmalloc) calls the function,
 * not the macro.)
 */
#ifndef LINUX_SLAB_H
#define LINUX_SLAB_H

#include "types.h"
#include "../mm.h"

#define __GFP_ZERO	0x100u
#define GFP_ATOMIC	0x001u
#define GFP_KERNEL	0x002u
#define GFP_NOWAIT	GFP_ATOMIC

static inline void *kmalloc_gfp(size_t size, gfp_t flags)
{
	return (flags & __GFP_ZERO) ? (kzalloc)(size) : (kmalloc)(size);
}

static inline void *kmalloc_array_gfp(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kmalloc_gfp(n * size, flags);
}

#define kmalloc(size, flags)		kmalloc_gfp(size, flags)
#define kzalloc(size, flags)		kmalloc_gfp(size, (flags) | __GFP_ZERO)
#define kmalloc_array(n, size, flags)	kmalloc_array_gfp(n, size, flags)
#define kcalloc(n, size, flags)		kmalloc_array_gfp(n, size, (flags) | __GFP_ZERO)

#endif
