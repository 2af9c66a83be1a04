/*
 * tls.h - a task's thread-local storage segments, GDT entries 6..8
 * (arch/i386/tls.c; Linux's load_TLS() and the halves of copy_thread()
 * and flush_thread() that touch them).
 */
#ifndef ASM_TLS_H
#define ASM_TLS_H

#include <stdbool.h>

struct task_struct;

/* Write t's three TLS descriptors into CPU cpu's GDT (at every switch to t). */
void load_TLS(const struct task_struct *t, int cpu);
/* A new task starts with its creator's TLS entries (fork: Linux's dup_task_struct()). */
void tls_copy_thread(struct task_struct *p, const struct task_struct *parent);
/* execve: the new program starts with none (Linux's flush_thread()). */
void tls_flush_thread(struct task_struct *t);
/* Is sel (RPL forced to 3) one of current's TLS entries, in use? sigreturn may restore it. */
bool tls_selector_usable(unsigned short sel);

#endif
