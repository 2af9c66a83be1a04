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
 * Then one call, through ftrace_trace_function, with Linux's
 * (ip, parent_ip, op, fregs): %eax, %edx, %ecx and the regs on the
 * stack (-mregparm=3).  kernel/trace/ftrace.c points it at the one
 * registered ops' own callback (op = that ops) or at the walk over all
 * of them, ftrace_ops_list_func(); Linux patches the call instruction at
 * ftrace_regs_call, we load the pointer: one instruction either way, and
 * no call to rewrite while another CPU runs it.  Interrupts are off from
 * the flags' save to their restore, as in an int3's handlers: a callback
 * owns this CPU's hit state, and kernel/trace/ftrace.c's switch of the
 * pointer knows that no CPU is between reading op and calling func
 * once every CPU has taken an IPI.
 *
 * %eax, %edx and %ecx also carry the traced function's arguments under
 * -mregparm=3: all general registers are restored.  The segment
 * registers are saved into regs, as Linux does, but not loaded back:
 * the kernel's never change, and four segment loads are the dearest
 * instructions here.
 */
#include <asm/calling.h>
#include <asm/segment.h>
#include "nokprobe.h"

#define MCOUNT_INSN_SIZE	5	/* call rel32: e8 + 4 bytes */
#define PT_SLOT_PARENT		PT_SP	/* the word above flags: the caller's return address */
#define PT_SEGS_CS_SKIP		(PT_FLAGS - PT_DS)	/* ds, es, fs, gs, orig_ax, ip, cs */

	.text

	.globl __fentry__
	.type __fentry__, @function
__fentry__:
	ret
	.size __fentry__, . - __fentry__

	.globl ftrace_regs_caller
	.type ftrace_regs_caller, @function
ftrace_regs_caller:
	pushl $__KERNEL_CS		/* S-4: regs->cs */
	pushl STACK_WORD(%esp)		/* S-8: regs->ip, the return address into the function */
	pushfl				/* the flags, before cli changes them... */
	popl 2*STACK_WORD(%esp)		/* ...into regs->flags, over that address (S): pop's */
					/* operand is addressed after %esp went back up */
	cli
	pushl $0			/* regs->orig_ax */
	pushl %gs
	pushl %fs
	pushl %es
	pushl %ds
	PUSH_GENERAL_REGS

	movl PT_IP(%esp), %eax
	subl $MCOUNT_INSN_SIZE, %eax	/* ip: the call site, the function's first byte */
	movl PT_SLOT_PARENT(%esp), %edx	/* parent_ip: where the function will return to */
	movl function_trace_op, %ecx	/* op: the one ops, or anything for the list walk */
	pushl %esp			/* fregs: the regs */
	call *ftrace_trace_function
	addl $STACK_WORD, %esp

	pushl PT_FLAGS(%esp)		/* the flags first: nothing below changes them */
	popfl
	movl PT_IP(%esp), %eax		/* regs->ip, maybe changed by a handler... */
	movl %eax, PT_FLAGS(%esp)	/* ...is where ret goes, from S */
	POP_GENERAL_REGS
	leal PT_SEGS_CS_SKIP(%esp), %esp	/* segments, orig_ax, ip, cs; lea keeps the flags */
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
