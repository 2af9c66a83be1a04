/*
 * setjmp.S - setjmp()/longjmp(): a way out of a signal handler that
 * never returns to the kernel's frame.  setjmp saves what the i386 C
 * convention says a function keeps (%ebx, %esi, %edi, %ebp), the stack
 * pointer and the return address; longjmp puts them back and returns
 * from setjmp a second time, with val (1 if 0).  The signal mask is
 * not part of it (sigsetjmp's job): a handler left this way leaves its
 * signal blocked, and the program unblocks it itself.
 */
#define JB_BX	0
#define JB_SI	4
#define JB_DI	8
#define JB_BP	12
#define JB_SP	16
#define JB_IP	20

	.text
	.globl setjmp
	.type setjmp, @function
setjmp:
	movl 4(%esp), %eax		/* env */
	movl %ebx, JB_BX(%eax)
	movl %esi, JB_SI(%eax)
	movl %edi, JB_DI(%eax)
	movl %ebp, JB_BP(%eax)
	leal 4(%esp), %ecx		/* the caller's sp once we return */
	movl %ecx, JB_SP(%eax)
	movl (%esp), %ecx		/* our return address */
	movl %ecx, JB_IP(%eax)
	xorl %eax, %eax
	ret
	.size setjmp, . - setjmp

	.globl longjmp
	.type longjmp, @function
longjmp:
	movl 4(%esp), %edx		/* env */
	movl 8(%esp), %eax		/* val */
	testl %eax, %eax
	jnz 1f
	incl %eax
1:	movl JB_BX(%edx), %ebx
	movl JB_SI(%edx), %esi
	movl JB_DI(%edx), %edi
	movl JB_BP(%edx), %ebp
	movl JB_SP(%edx), %esp
	jmp *JB_IP(%edx)
	.size longjmp, . - longjmp
