/*
 * linux/module.h - module_init/exit, MODULE_*() tags, THIS_MODULE,
 * EXPORT_SYMBOL and module parameters (include/module.h).
 */
#ifndef LINUX_MODULE_H
#define LINUX_MODULE_H

#include "kernel.h"
#include "init.h"
#include "moduleparam.h"
#include "export.h"
#include "../module.h"

/* Linux keeps GPL-only exports apart; here every export is open to all. */
#define EXPORT_SYMBOL_GPL(sym)	EXPORT_SYMBOL(sym)

#endif
