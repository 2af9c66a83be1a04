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
#include <asm/atomic.h>
#include <asm/syscall_names.h>

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
	SYSCALL(__NR_pause, sys_pause),
	SYSCALL(__NR_sigsuspend, sys_sigsuspend),
	SYSCALL(__NR_rt_sigtimedwait, sys_rt_sigtimedwait),
	SYSCALL(__NR_rt_sigsuspend, sys_rt_sigsuspend),
	SYSCALL(__NR_sigaltstack, sys_sigaltstack),
	SYSCALL(__NR_tkill, sys_tkill),
	SYSCALL(__NR_tgkill, sys_tgkill),
	SYSCALL(__NR_vfork, sys_vfork),
	SYSCALL(__NR_chdir, sys_chdir),
	SYSCALL(__NR_fchdir, sys_fchdir),
	SYSCALL(__NR_getcwd, sys_getcwd),
	SYSCALL(__NR_openat, sys_openat),
	SYSCALL(__NR_mkdirat, sys_mkdirat),
	SYSCALL(__NR_unlinkat, sys_unlinkat),
	SYSCALL(__NR_renameat, sys_renameat),
	SYSCALL(__NR_renameat2, sys_renameat2),
	SYSCALL(__NR_rename, sys_rename),
	SYSCALL(__NR_rmdir, sys_rmdir),
	SYSCALL(__NR_access, sys_access),
	SYSCALL(__NR_faccessat, sys_faccessat),
	SYSCALL(__NR_faccessat2, sys_faccessat2),
	SYSCALL(__NR_readlink, sys_readlink),
	SYSCALL(__NR_readlinkat, sys_readlinkat),
	SYSCALL(__NR_umask, sys_umask),
	SYSCALL(__NR_chmod, sys_chmod),
	SYSCALL(__NR_fchmod, sys_fchmod),
	SYSCALL(__NR_fchmodat, sys_fchmodat),
	SYSCALL(__NR_utimensat, sys_utimensat),
	SYSCALL(__NR_utimensat_time64, sys_utimensat_time64),
	SYSCALL(__NR_fstatat64, sys_fstatat64),
	SYSCALL(__NR_statx, sys_statx),
	SYSCALL(__NR_fcntl, sys_fcntl),
	SYSCALL(__NR_fcntl64, sys_fcntl64),
	SYSCALL(__NR_dup3, sys_dup3),
	SYSCALL(__NR_readv, sys_readv),
	SYSCALL(__NR_writev, sys_writev),
	SYSCALL(__NR_pread64, sys_pread64),
	SYSCALL(__NR_pwrite64, sys_pwrite64),
	SYSCALL(__NR_truncate, sys_truncate),
	SYSCALL(__NR_ftruncate, sys_ftruncate),
	SYSCALL(__NR_truncate64, sys_truncate64),
	SYSCALL(__NR_ftruncate64, sys_ftruncate64),
	SYSCALL(__NR_ioctl, sys_ioctl),
	SYSCALL(__NR_getppid, sys_getppid),
	SYSCALL(__NR_gettimeofday, sys_gettimeofday),
	SYSCALL(__NR_uname, sys_newuname),
	SYSCALL(__NR_prctl, sys_prctl),
	SYSCALL(__NR_ugetrlimit, sys_ugetrlimit),
	SYSCALL(__NR_getuid32, sys_getuid),
	SYSCALL(__NR_getgid32, sys_getgid),
	SYSCALL(__NR_geteuid32, sys_geteuid),
	SYSCALL(__NR_getegid32, sys_getegid),
	SYSCALL(__NR_getgroups32, sys_getgroups),
	SYSCALL(__NR_getresuid32, sys_getresuid),
	SYSCALL(__NR_getresgid32, sys_getresgid),
	SYSCALL(__NR_set_thread_area, sys_set_thread_area),
	SYSCALL(__NR_get_thread_area, sys_get_thread_area),
	SYSCALL(__NR_set_tid_address, sys_set_tid_address),
	SYSCALL(__NR_clock_gettime, sys_clock_gettime32),
	SYSCALL(__NR_set_robust_list, sys_set_robust_list),
	SYSCALL(__NR_getrandom, sys_getrandom),
	SYSCALL(__NR_clock_gettime64, sys_clock_gettime),
	SYSCALL(__NR_clock_nanosleep, sys_clock_nanosleep32),
	SYSCALL(__NR_clock_nanosleep_time64, sys_clock_nanosleep),
	SYSCALL(__NR_poll, sys_poll),
	SYSCALL(__NR_mount, sys_mount),
	SYSCALL(__NR_umount, sys_oldumount),
	SYSCALL(__NR_umount2, sys_umount),
	SYSCALL(__NR_symlink, sys_symlink),
	SYSCALL(__NR_symlinkat, sys_symlinkat),
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

/*
 * A call this kernel lacks returns -ENOSYS, as Linux's table answers
 * a number it has no entry for, and the program goes on (glibc copes
 * with -ENOSYS for rseq, for instance).  The log names it, once per
 * number, so what a real program still needs is one `dmesg` away:
 *	busybox: syscall 386 (rseq) not implemented
 * A number past the table's end is told once for them all.
 */
#define BITS_PER_WORD	(8 * sizeof(unsigned long))
static unsigned long enosys_told[(NR_syscalls + BITS_PER_WORD) / BITS_PER_WORD];

/* Set the number's bit; true if this call set it (first time), on any CPU. */
static bool enosys_first_time(unsigned long nr)
{
	volatile unsigned long *word = &enosys_told[nr / BITS_PER_WORD];
	unsigned long bit = 1UL << (nr % BITS_PER_WORD), old;

	do {
		old = *word;
		if (old & bit)
			return false;
	} while (cmpxchg(word, old, old | bit) != old);
	return true;
}

/* Has the log named call nr yet? (the linux_abi suite's question) */
bool syscall_ni_told(unsigned long nr)
{
	nr = nr < NR_syscalls ? nr : NR_syscalls;
	return READ_ONCE(enosys_told[nr / BITS_PER_WORD]) & (1UL << (nr % BITS_PER_WORD));
}

static long sys_ni_syscall(unsigned long nr)
{
	const char *name = nr < NR_LINUX_SYSCALL_NAMES ? linux_syscall_names[nr] : NULL;

	if (enosys_first_time(nr < NR_syscalls ? nr : NR_syscalls))
		printk("%s: syscall %lu (%s) not implemented\n", current->comm, nr,
		       name ? name : "no such call in Linux i386");
	return -ENOSYS;
}

void do_int80_syscall_32(struct pt_regs *regs)
{
	unsigned long nr = regs->ax;

	check_entry_stack(regs);
	this_cpu_inc(syscall_count);
	regs->orig_ax = nr;
	current->signal.in_syscall = true;	/* regs->ax is a result: it may be an -ERESTART* code */
	trace_sys_enter(regs, nr);
	if (nr < NR_syscalls && ia32_sys_call_table[nr])
		regs->ax = syscall_call(ia32_sys_call_table[nr], regs);
	else
		regs->ax = sys_ni_syscall(nr);
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
