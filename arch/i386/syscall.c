/*
 * syscall.c - int $0x80: from a number in %eax to a sys_* function
 * (Linux's arch/x86/entry/common.c and syscall_32.c).
 *
 * The user put the number in %eax and up to six arguments in %ebx,
 * %ecx, %edx, %esi, %edi, %ebp; the entry stub saved them all in
 * pt_regs.  syscall_call() (entry.S) calls the function with them as
 * its C arguments - on the stack, for the sys_* functions are
 * asmlinkage, and in those registers, as Linux i386 did - and we
 * put its result in regs->ax, which iret hands back to ring 3 in %eax.  As
 * in Linux, the number is kept in regs->orig_ax (the error-code slot:
 * int $0x80 pushes none), so a probe or a tracer still sees which call
 * this was after ax has become the result.
 */
#include "kernel.h"
#include "syscalls.h"
#include "trace_syscalls.h"
#include <asm/unistd_32.h>
#include "errno.h"
#include "nokprobe.h"
#include <asm/percpu.h>
#include "sched.h"

typedef asmlinkage long (*sys_call_ptr_t)(unsigned long, unsigned long, unsigned long,
					  unsigned long, unsigned long, unsigned long);

/*
 * asmlinkage passes every argument on the stack and the caller removes
 * them, so calling sys_getpid(void) with six arguments is harmless: it
 * never looks at them.  Linux's i386 table relied on the same.
 */

/* entry.S: fn(bx, cx, dx, si, di, bp) with those registers loaded too;
 * fn and regs themselves arrive in %eax and %edx. */
long syscall_call(sys_call_ptr_t fn, struct pt_regs *regs);
#define SYSCALL(nr, fn)	[nr] = (sys_call_ptr_t)(void (*)(void))(fn)

static const sys_call_ptr_t ia32_sys_call_table[NR_syscalls] = {
	SYSCALL(__NR_exit, sys_exit),
	SYSCALL(__NR_read, sys_read),
	SYSCALL(__NR_write, sys_write),
	SYSCALL(__NR_open, sys_open),
	SYSCALL(__NR_close, sys_close),
	SYSCALL(__NR_waitpid, sys_waitpid),
	SYSCALL(__NR_getpid, sys_getpid),
	SYSCALL(__NR_kill, sys_kill),
	SYSCALL(__NR_nanosleep, sys_nanosleep),
	SYSCALL(__NR_spawn, sys_spawn),
	SYSCALL(__NR_unlink, sys_unlink),
	SYSCALL(__NR_execve, sys_execve),
	SYSCALL(__NR_lseek, sys_lseek),
	SYSCALL(__NR_mkdir, sys_mkdir),
	SYSCALL(__NR_dup, sys_dup),
	SYSCALL(__NR_pipe, sys_pipe),
	SYSCALL(__NR_dup2, sys_dup2),
	SYSCALL(__NR_wait4, sys_wait4),
	SYSCALL(__NR__llseek, sys_llseek),
	SYSCALL(__NR_stat64, sys_stat64),
	SYSCALL(__NR_lstat64, sys_lstat64),
	SYSCALL(__NR_fstat64, sys_fstat64),
	SYSCALL(__NR_getdents64, sys_getdents64),
	SYSCALL(__NR_exit_group, sys_exit_group),
	SYSCALL(__NR_pipe2, sys_pipe2),
	SYSCALL(__NR_fork, sys_fork),
	SYSCALL(__NR_clone, sys_clone),
	SYSCALL(__NR_brk, sys_brk),
	SYSCALL(__NR_getrusage, sys_getrusage),
	SYSCALL(__NR_mmap2, sys_mmap2),
	SYSCALL(__NR_munmap, sys_munmap),
	SYSCALL(__NR_mprotect, sys_mprotect),
	SYSCALL(__NR_setpgid, sys_setpgid),
	SYSCALL(__NR_getpgrp, sys_getpgrp),
	SYSCALL(__NR_sigaction, sys_sigaction),
	SYSCALL(__NR_sigreturn, sys_sigreturn),
	SYSCALL(__NR_getpgid, sys_getpgid),
	SYSCALL(__NR_rt_sigreturn, sys_rt_sigreturn),
	SYSCALL(__NR_rt_sigaction, sys_rt_sigaction),
	SYSCALL(__NR_rt_sigprocmask, sys_rt_sigprocmask),
	SYSCALL(__NR_rt_sigpending, sys_rt_sigpending),
};

/* System calls taken on this CPU (tests look for them on every CPU). */
DEFINE_PER_CPU(unsigned long, syscall_count);

/*
 * From ring 3 the CPU starts the frame at TSS.esp0, so the frame must
 * end exactly at the top of the calling task's kernel stack (pt_regs'
 * end, or a vm86 frame's four words past it: kernel_stack_pointer()).  Anywhere
 * else, the scheduler left another task's stack in this CPU's TSS
 * (load_sp0()): two tasks would be sharing one stack.  Stop at the cause.
 */
static void check_entry_stack(struct pt_regs *regs)
{
	if (kernel_stack_pointer(regs) != task_stack_top(current))
		panic("syscall: pt_regs at %p, but %s[%d]'s kernel stack ends at %#lx: "
		      "TSS.esp0 is stale", regs, current->comm, current->pid,
		      task_stack_top(current));
}

void do_int80_syscall_32(struct pt_regs *regs)
{
	unsigned long nr = regs->ax;

	check_entry_stack(regs);
	this_cpu_inc(syscall_count);
	regs->orig_ax = nr;
	trace_sys_enter(regs, nr);
	if (nr < NR_syscalls && ia32_sys_call_table[nr])
		regs->ax = syscall_call(ia32_sys_call_table[nr], regs);
	else
		regs->ax = -ENOSYS;
	trace_sys_exit(regs, nr);
}
NOKPROBE_SYMBOL(do_int80_syscall_32);

/* The function call nr runs, 0 for none (Linux's arch_syscall_addr()). */
unsigned long arch_syscall_addr(int nr)
{
	if (nr < 0 || nr >= NR_syscalls)
		return 0;
	return (unsigned long)ia32_sys_call_table[nr];
}
