/*
 * linux/uaccess.h - copy_from_kernel_nofault(): read memory that may
 * not be there (arch/i386/include/asm/extable.h).  There is no user space to copy from.
 */
#ifndef LINUX_UACCESS_H
#define LINUX_UACCESS_H

#include <asm/extable.h>

#endif
