/* lm_params.h - what lm_params_main.c and lm_params_greet.c share. */
#ifndef LM_PARAMS_H
#define LM_PARAMS_H

#include <linux/types.h>

/* Builds "<greeting> <name>!" count times over, in kmalloc'ed memory. */
char *lm_greet(const char *name, int count);

#endif
