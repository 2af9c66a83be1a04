/* linux/export.h - EXPORT_SYMBOL() (include/export.h). */
#ifndef LINUX_EXPORT_H
#define LINUX_EXPORT_H

#include "../export.h"

#endif
