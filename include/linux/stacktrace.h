/* linux/stacktrace.h - stack_trace_save() and friends (include/stacktrace.h). */
#ifndef LINUX_STACKTRACE_H
#define LINUX_STACKTRACE_H

#include "../stacktrace.h"

#endif
