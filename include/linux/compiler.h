/*
 * linux/compiler.h - the attributes Linux code writes, for gcc.
 */
#ifndef LINUX_COMPILER_H
#define LINUX_COMPILER_H

#include "../kernel.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __maybe_unused	__attribute__((unused))
#define __always_unused	__attribute__((unused))
#define __must_check	__attribute__((warn_unused_result))
#define __weak		__attribute__((weak))
#define __cold		__attribute__((cold))
#ifndef notrace
#define notrace		__attribute__((no_instrument_function))	/* no fentry call site */
#endif
#define __user		/* points into a process: reach it only through uaccess.h */
#define __iomem
#define __force
#define __read_mostly
#define __ro_after_init

#endif
