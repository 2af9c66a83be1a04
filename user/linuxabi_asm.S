/*
 * linuxabi_asm.S - the instructions user/linuxabi.c needs and C has no
 * words for: load %gs, read through it, and move 16 bytes in and out
 * of an SSE register.
 */
	.text
/* void load_gs(unsigned int selector) */
	.globl load_gs
	.type load_gs, @function
load_gs:
	movl 4(%esp), %eax
	movw %ax, %gs
	ret
	.size load_gs, . - load_gs

/* unsigned int read_gs_word(void): the 32 bits at %gs:0 */
	.globl read_gs_word
	.type read_gs_word, @function
read_gs_word:
	movl %gs:0, %eax
	ret
	.size read_gs_word, . - read_gs_word

/* unsigned int read_gs(void): the selector in %gs */
	.globl read_gs
	.type read_gs, @function
read_gs:
	xorl %eax, %eax
	movw %gs, %ax
	ret
	.size read_gs, . - read_gs

/* void set_xmm0(const void *16 bytes), void get_xmm0(void *16 bytes) */
	.globl set_xmm0
	.type set_xmm0, @function
set_xmm0:
	movl 4(%esp), %eax
	movups (%eax), %xmm0
	ret
	.size set_xmm0, . - set_xmm0

	.globl get_xmm0
	.type get_xmm0, @function
get_xmm0:
	movl 4(%esp), %eax
	movups %xmm0, (%eax)
	ret
	.size get_xmm0, . - get_xmm0
