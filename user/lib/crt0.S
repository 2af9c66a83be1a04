/*
 * crt0.S - where every user program starts (the ELF entry point).
 *
 * exec left the stack as Linux's does: %esp points at argc, then the
 * argv pointers, a NULL, the environment's pointers, a NULL, and the
 * auxiliary vector (kernel/exec.c, create_elf_tables()).
 * We call main(argc, argv) and hand its result to exit(): a program
 * that returns from main ends like one that calls exit().
 */
	.text
	.globl _start
	.type _start, @function
_start:
	xorl %ebp, %ebp		/* the outermost frame: backtraces stop here */
	movl (%esp), %eax	/* argc */
	leal 4(%esp), %ecx	/* argv */
	pushl %ecx
	pushl %eax
	call main
	pushl %eax
	call exit
	hlt			/* not reached: exit() does not return (and hlt is a #GP in ring 3) */
	.size _start, . - _start
