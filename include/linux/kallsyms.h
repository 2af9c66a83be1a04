/*
 * linux/kallsyms.h - symbol lookups (include/kallsyms.h).  KSYM_NAME_LEN
 * is 128 here (Linux has 512 since 6.1): our longest name fits.
 */
#ifndef LINUX_KALLSYMS_H
#define LINUX_KALLSYMS_H

#include "../kallsyms.h"

#endif
