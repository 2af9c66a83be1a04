/* linux/ptrace.h - struct pt_regs and its accessors (asm/ptrace.h). */
#ifndef LINUX_PTRACE_H
#define LINUX_PTRACE_H

#include <asm/ptrace.h>

#endif
