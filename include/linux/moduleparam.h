/* linux/moduleparam.h - module_param() and friends (include/moduleparam.h). */
#ifndef LINUX_MODULEPARAM_H
#define LINUX_MODULEPARAM_H

#include "types.h"
#include "stat.h"
#include "../moduleparam.h"

#endif
