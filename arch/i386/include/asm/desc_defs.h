/*
 * desc_defs.h - one 8-byte segment descriptor as its fields (Linux's
 * struct desc_struct): what a TLS entry of the GDT holds, in a task's
 * copy and in the table itself (SDM vol. 3, 3.4.5).
 */
#ifndef ASM_DESC_DEFS_H
#define ASM_DESC_DEFS_H

#include <stdint.h>

struct desc_struct {
	uint16_t limit0;		/* limit 15:0 */
	uint16_t base0;			/* base 15:0 */
	uint16_t base1 : 8,		/* base 23:16 */
		 type : 4,		/* data: bit 1 writable, bit 0 accessed; bit 3 code */
		 s : 1,			/* 1: code or data, not a system segment */
		 dpl : 2,		/* the least privileged ring that may load it */
		 p : 1;			/* present */
	uint16_t limit1 : 4,		/* limit 19:16 */
		 avl : 1,		/* free for software: user_desc's "useable" */
		 l : 1,			/* 64-bit code (never here) */
		 d : 1,			/* 32-bit segment */
		 g : 1,			/* limit counts 4 KiB pages */
		 base2 : 8;		/* base 31:24 */
} __attribute__((packed));

/* An all-zero descriptor: a free TLS entry (Linux's desc_empty()). */
static inline int desc_empty(const void *d)
{
	const uint32_t *w = d;

	return !(w[0] | w[1]);
}

static inline unsigned long get_desc_base(const struct desc_struct *d)
{
	return d->base0 | ((unsigned long)d->base1 << 16) | ((unsigned long)d->base2 << 24);
}

static inline unsigned long get_desc_limit(const struct desc_struct *d)
{
	return d->limit0 | ((unsigned long)d->limit1 << 16);
}

#endif
