/*
 * trace_syscalls.h - the syscalls/ events (kernel/trace/trace_syscalls.c,
 * Linux's kernel/trace/trace_syscalls.c): the system call dispatcher
 * reports each call, before and after it runs.
 */
#ifndef TRACE_SYSCALLS_H
#define TRACE_SYSCALLS_H

struct pt_regs;

/* int $0x80 with call nr: its arguments are in regs (Linux's trace_sys_enter). */
void trace_sys_enter(struct pt_regs *regs, unsigned long nr);
/* ... and it returned regs->ax (Linux's trace_sys_exit). */
void trace_sys_exit(struct pt_regs *regs, unsigned long nr);
/*
 * The name of system call nr, "sys_read", or NULL (Linux's
 * get_syscall_name()): its function's, from the table, as Linux finds
 * its metadata.  The hist key modifier .syscall prints it.
 */
const char *get_syscall_name(int nr);
/* events/syscalls/sys_enter_NAME and sys_exit_NAME for each call. */
int trace_syscalls_init(void);

#endif
