/*
 * ftrace_32.S - where a traced function's first instruction goes.
 *
 * gcc -pg -mfentry starts every kernel function with "call __fentry__",
 * before even "push %ebp".  ftrace_init() turns each of those 5-byte
 * calls into a 5-byte nop; the function tracer (kernel/trace/ftrace.c)
 * turns the ones it wants into "call ftrace_regs_caller".  Until
 * ftrace_init() runs, __fentry__ is a bare ret: the early boot pays one
 * call per function and nothing else.
 *
 * ftrace_regs_caller builds a struct pt_regs as an int3 on the
 * function's first byte would (Linux's arch/x86/kernel/ftrace_32.S):
 * at the call, the stack is
 *
 *     S+4   the traced function's return address (into its caller)
 *     S     the return address into the traced function (site + 5)
 *
 * i386 keeps no sp in a frame from ring 0: the interrupted stack pointer
 * is &regs->sp (ptrace.h).  So regs->flags must lie where the return
 * address into the function lay (S), and regs->sp - the word above - is
 * the caller's return address, exactly what a kprobe at the function's
 * first byte sees.  The return address moves to regs->ip; on the way out
 * it moves back, so a handler that changed regs->ip sends the CPU there.
 *
 * The C side is called with (ip, parent_ip, regs) in %eax, %edx, %ecx:
 * regparm(3), declared so in include/ftrace.h whatever the kernel's own
 * calling convention.  %eax, %edx and %ecx also carry the traced
 * function's arguments under -mregparm=3: all three are restored.
 */
#include <asm/calling.h>
#include <asm/segment.h>
#include "nokprobe.h"

#define MCOUNT_INSN_SIZE	5	/* call rel32: e8 + 4 bytes */
#define PT_SLOT_PARENT		PT_SP	/* the word above flags: the caller's return address */

	.text

	.globl __fentry__
	.type __fentry__, @function
__fentry__:
	ret
	.size __fentry__, . - __fentry__

	.globl ftrace_regs_caller
	.type ftrace_regs_caller, @function
ftrace_regs_caller:
	pushfl				/* S-4, regs->cs's slot for now: the flags, before anything changes them */
	pushl STACK_WORD(%esp)		/* S-8, regs->ip: the return address into the function */
	pushl $0			/* regs->orig_ax */
	pushl %gs
	pushl %fs
	pushl %es
	pushl %ds
	PUSH_GENERAL_REGS
	movl PT_CS(%esp), %eax		/* the flags pushed first... */
	movl %eax, PT_FLAGS(%esp)	/* ...into regs->flags, over the return address (S) */
	movl $__KERNEL_CS, PT_CS(%esp)

	movl PT_IP(%esp), %eax
	subl $MCOUNT_INSN_SIZE, %eax	/* arg 1: the call site, the function's first byte */
	movl PT_SLOT_PARENT(%esp), %edx	/* arg 2: where the function will return to */
	movl %esp, %ecx			/* arg 3: the regs */
	call arch_ftrace_ops_list_func

	pushl PT_FLAGS(%esp)		/* the flags first: nothing below changes them */
	popfl
	movl PT_IP(%esp), %eax		/* regs->ip, maybe changed by a handler... */
	movl %eax, PT_FLAGS(%esp)	/* ...is where ret goes, from S */
	POP_GENERAL_REGS
	popl %ds
	popl %es
	popl %fs
	popl %gs
	leal 3*STACK_WORD(%esp), %esp	/* orig_ax, ip, cs; lea keeps the flags */
	ret				/* to regs->ip, %esp = S+4 as after the call's own ret */
	.size ftrace_regs_caller, . - ftrace_regs_caller
	NOKPROBE_ASM(ftrace_regs_caller)
	NOKPROBE_ASM(__fentry__)

/*
 * function_graph's return hook: the graph tracer replaced a traced
 * function's return address with return_to_handler, so its "ret" comes
 * here, %eax:%edx holding the return value.  ftrace_return_to_handler()
 * (regparm(3), no arguments) records the return and gives back the real
 * address, taken from the task's ret_stack.
 */
	.globl return_to_handler
	.type return_to_handler, @function
return_to_handler:
	pushl %eax
	pushl %edx
	call ftrace_return_to_handler
	movl %eax, %ecx			/* the real return address */
	popl %edx
	popl %eax
	jmp *%ecx
	.size return_to_handler, . - return_to_handler
	NOKPROBE_ASM(return_to_handler)
