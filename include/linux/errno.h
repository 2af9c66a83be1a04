/* linux/errno.h - the errno values (include/errno.h), Linux's numbers. */
#ifndef LINUX_ERRNO_H
#define LINUX_ERRNO_H

#include "../errno.h"

#endif
