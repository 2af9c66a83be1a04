/*
 * syscall_names.h - Linux i386's name for each system call number
 * (arch/i386/syscall_names.c, generated from Linux's asm/unistd_32.h),
 * so the log can name a call this kernel lacks.
 */
#ifndef ASM_SYSCALL_NAMES_H
#define ASM_SYSCALL_NAMES_H

#define NR_LINUX_SYSCALL_NAMES	451	/* Linux 6.1's last, set_mempolicy_home_node, is 450 */
extern const char *const linux_syscall_names[NR_LINUX_SYSCALL_NAMES];

#endif
