/*
 * backtrace_asm.S - a frameless function that pushes before its body,
 * for the backtrace suite (tests/kernel/test_backtrace.c): the unwinder
 * must count 16 bytes (two pushes, sub $8) to find its return address.
 *
 * The place inside is a local label, published as an offset: a global
 * label would be a kallsyms symbol of its own, and the unwinder would
 * take it for the start of a function.
 */
#include <asm/calling.h>

#define LEAF_LOCALS	(2 * STACK_WORD)	/* the "sub $8": two words of locals */

	.text
	.globl bt_leaf_pushes
	.type bt_leaf_pushes, @function
bt_leaf_pushes:
	pushl %ebx
	pushl %esi
	subl $LEAF_LOCALS, %esp
1:	movl $1, %eax           /* the unwinder is asked about this instruction */
	addl $LEAF_LOCALS, %esp
	popl %esi
	popl %ebx
	ret
	.size bt_leaf_pushes, . - bt_leaf_pushes

	.section .rodata
	.globl bt_leaf_pushed_offset
bt_leaf_pushed_offset:
	.long 1b - bt_leaf_pushes
