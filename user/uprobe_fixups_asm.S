/*
 * uprobe_fixups_asm.S - uf_run(n): one function with an instruction of
 * every class arch_uprobe_post_xol() treats differently, for the uprobes
 * suite (tests/kernel/test_uprobes.c probes each of its instructions,
 * and those of its two helpers, and the results must not change).
 *
 *   jcc rel8, jcc rel32, jmp rel8, jmp rel32, loop    ip moved by the slot's distance
 *   call rel32                                         that, and the pushed return address
 *   call *%reg, call *mem                              the return address only
 *   jmp *%reg, jmp *mem, ret, ret $imm16               nothing: ip is absolute
 *   push, pop, add, mov, cmp, test                     ip moved back to the text
 *   pushf, pushfw                                      that, and TF in the pushed image
 *   popf                                               that, and TF left as popped
 *
 * Every instruction runs for some n in 0..5 (the odd/even and n == 4
 * paths): uf_run(0..5) = 2018, 1022, 2027, 1033, 2045, 1048.  The
 * pushes of EFLAGS add bit 1 (always set) and TF of their images: 2 + 2
 * when the step leaves TF out of them, 0x100 more for each leak.
 *
 * uf_trap_self() single-steps itself: it sets TF with popf, so the CPU
 * raises #DB after the instruction that follows, and the program dies
 * of SIGTRAP there, probes or no probes.
 */
#define EFLAGS_CF	0x0001	/* carry */
#define EFLAGS_FIXED	0x0002	/* bit 1: reads as 1, always */
#define EFLAGS_TF	0x0100	/* trap: #DB after each instruction */

	.text

	.globl uf_run
	.type uf_run, @function
uf_run:
	push %ebp
	mov %esp, %ebp
	push %ebx
	push %esi
	mov 8(%ebp), %esi
	mov %esi, %ecx
	xor %eax, %eax
	test %ecx, %ecx
	jz 2f			/* jcc rel8: n == 0 skips the loop */
1:	add %ecx, %eax
	call uf_add3		/* call rel32 */
	loop 1b			/* loop rel8 */
2:	test $1, %esi
	jnz 3f			/* jcc rel8: odd n */
	jmp 4f			/* jmp rel8: even n */
3:	add $1000, %eax
	{disp32} jmp 5f		/* jmp rel32 */
4:	add $2000, %eax
5:	cmp $2010, %eax
	{disp32} jl 6f		/* jcc rel32: taken but for n == 4 */
	add $5, %eax
6:	pushf			/* pushf: the image holds the program's TF, not the step's */
	pop %edx
	and $(EFLAGS_TF | EFLAGS_FIXED), %edx
	add %edx, %eax		/* + 2 */
	xor %edx, %edx
	pushfw			/* pushfw: the same in a 16-bit image */
	popw %dx
	and $(EFLAGS_TF | EFLAGS_FIXED), %edx
	add %edx, %eax		/* + 2 */
	stc
	pushf			/* an image with CF set */
	clc
	popf			/* popf: CF from the image, TF as popped (clear) */
	adc $0, %eax		/* + 1: CF came back */
	mov $uf_add3, %edx
	call *%edx		/* call through a register */
	call *uf_add3_ptr	/* call through memory */
	push $7
	call uf_addarg		/* returns with ret $4 */
	mov $uf_next, %ebx
	jmp *%ebx		/* jmp through a register */
uf_next:
	jmp *uf_done_ptr	/* jmp through memory */
uf_done:
	pop %esi
	pop %ebx
	pop %ebp
	ret
	.size uf_run, . - uf_run

	.globl uf_add3
	.type uf_add3, @function
uf_add3:
	add $3, %eax
	ret
	.size uf_add3, . - uf_add3

	.globl uf_addarg
	.type uf_addarg, @function
uf_addarg:
	add 4(%esp), %eax
	ret $4			/* ret imm16: drops the argument */
	.size uf_addarg, . - uf_addarg

	.globl uf_trap_self
	.type uf_trap_self, @function
uf_trap_self:
	pushf
	orl $EFLAGS_TF, (%esp)
	popf			/* TF on: #DB after the next instruction */
	mov $1, %eax		/* runs, then #DB: SIGTRAP with ip at the ret */
	ret			/* never reached */
	.size uf_trap_self, . - uf_trap_self

	.section .rodata
	.align 4
uf_add3_ptr:
	.long uf_add3
uf_done_ptr:
	.long uf_done
