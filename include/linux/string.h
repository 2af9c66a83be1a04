/* linux/string.h - the string functions (include/string.h) and snprintf. */
#ifndef LINUX_STRING_H
#define LINUX_STRING_H

#include "../string.h"
#include "../vsprintf.h"

#endif
