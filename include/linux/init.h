/* linux/init.h - __init, __exit, module_init() and module_exit(). */
#ifndef LINUX_INIT_H
#define LINUX_INIT_H

#include "../module.h"

#define __initdata
#define __exitdata

#endif
