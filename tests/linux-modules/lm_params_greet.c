// SPDX-License-Identifier: GPL-2.0
/*
 * lm_params_greet.c - the second object of lm_params.ko.  LM_GREETING
 * comes from this file's own CFLAGS_lm_params_greet.o in the Makefile.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "lm_params.h"

char *lm_greet(const char *name, int count)
{
	size_t one = strlen(LM_GREETING) + strlen(name) + 3;
	char *buf = kmalloc(one * count + 1, GFP_KERNEL);

	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (int i = 0; i < count; i++) {
		strlcat(buf, LM_GREETING " ", one * count + 1);
		strlcat(buf, name, one * count + 1);
		strlcat(buf, "! ", one * count + 1);
	}
	return buf;
}
