/*
 * linkage.h - asmlinkage: a C function that takes its arguments on the
 * stack (Linux's <linux/linkage.h> and arch/x86/include/asm/linkage.h).
 *
 * The kernel is built with -mregparm=3, as Linux's i386 is: a function's
 * first three arguments arrive in %eax, %edx, %ecx.  Assembly that calls
 * C loads them there (entry.S: the pt_regs pointer in %eax).  Where the
 * arguments are on the stack instead - the system calls, whose arguments
 * syscall_call() pushes, as Linux i386's entry code did from 2.6.20 to
 * 4.16 - the C function is marked asmlinkage, regparm(0): every argument
 * on the stack, the plain i386 convention.  The same goes for an
 * assembly routine C calls that reads its arguments from the stack.
 */
#ifndef LINKAGE_H
#define LINKAGE_H

#define asmlinkage __attribute__((regparm(0)))

#endif
