/*
 * optprobes_asm.S - routines whose shape decides whether a probe on
 * them may become a jump (tests/kernel/test_optprobes.c).
 *
 * Every routine has a .size, and the probe targets inside are global
 * labels: the optimizer must see the routine, not the label, as the
 * function (kprobe_function_extent()).
 *
 * They read their arguments from the stack, where opt_mix_clean()
 * pushes opt_mix's: C declares them asmlinkage (test_optprobes.c).
 */
#include <asm/calling.h>

#define LABEL(name)	.globl name; name:
#define FUNC(name)	.globl name; .type name, @function; name:
#define END(name)	.size name, . - name

	.text

/*
 * unsigned long opt_mix(unsigned long x): a straight line of
 * relocatable instructions of many kinds - every one may be displaced
 * by a jump and run from a detour buffer.  The result depends on all of
 * them, flags included.
 */
FUNC(opt_mix)
LABEL(om_push_ebp)
	pushl %ebp
LABEL(om_mov_esp)
	movl %esp, %ebp
LABEL(om_push_ebx)
	pushl %ebx
LABEL(om_load_arg)
	movl 8(%ebp), %eax              /* x */
LABEL(om_lea_sib)
	leal 0x10(%eax,%eax,2), %ecx    /* 3x + 16 */
LABEL(om_imul)
	imull $7, %ecx, %edx            /* 21x + 112 */
LABEL(om_xor)
	xorl %eax, %edx
LABEL(om_shl)
	shll $3, %edx
LABEL(om_bswap)
	bswap %edx
LABEL(om_mov_imm32)
	movl $0x01020304, %ebx
LABEL(om_add_reg)
	addl %ebx, %edx
LABEL(om_cmp)
	cmpl %ecx, %edx
LABEL(om_setb)
	setb %bl                        /* flags from the compare */
LABEL(om_movzbl)
	movzbl %bl, %ebx
LABEL(om_pushf)
	pushfl                          /* the arithmetic flags, seen as data */
LABEL(om_pop_flags)
	popl %ecx
LABEL(om_and_flags)
	andl $0x8d5, %ecx               /* CF PF AF ZF SF OF only */
LABEL(om_std)
	std
LABEL(om_cld)
	cld
LABEL(om_xchg)
	xchgl %ecx, %ebx
LABEL(om_lock_add)
	lock addl %ebx, -4(%ebp)        /* the saved %ebx... */
LABEL(om_lock_sub)
	lock subl %ebx, -4(%ebp)        /* ...and back */
LABEL(om_push16)
	pushw $0x1234
LABEL(om_pop16)
	popw %ax
LABEL(om_shl16)
	shll $16, %eax
LABEL(om_or)
	orl %edx, %eax
LABEL(om_add_flags)
	addl %ecx, %eax
LABEL(om_seg_ss)
	.byte 0x36                      /* ss: override on a stack read */
	movl (%esp), %ebx               /* the caller's %ebx, restored below */
LABEL(om_pop_ebx)
	popl %ebx
LABEL(om_leave)
	leave
LABEL(om_ret)
	ret
END(opt_mix)

/* Every general register and the arithmetic flags set to fixed values. */
.macro KNOWN_REGISTERS
	xorl %eax, %eax                 /* flags: ZF PF, nothing else */
	movl $0x11111111, %eax
	movl $0x22222222, %ebx
	movl $0x33333333, %ecx
	movl $0x44444444, %edx
	movl $0x55555555, %esi
	movl $0x66666666, %edi
	movl $0x77777777, %ebp
.endm

/*
 * unsigned long opt_mix_clean(unsigned long x): opt_mix(x) entered with
 * every register and the arithmetic flags set to known values, so that
 * what a probe's handler sees in pt_regs is the same from run to run.
 */
FUNC(opt_mix_clean)
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl 20(%esp)                  /* x */
	KNOWN_REGISTERS
	call opt_mix
	addl $STACK_WORD, %esp          /* drop x */
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
END(opt_mix_clean)

/*
 * unsigned long opt_call_clean(unsigned long (*fn)(void)): fn() entered
 * with every register and the arithmetic flags set to known values, as
 * opt_mix_clean does for opt_mix: the workload runs of the optprobes
 * suite compare every register a handler sees.
 */
FUNC(opt_call_clean)
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	KNOWN_REGISTERS
	call *20(%esp)                  /* fn */
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
END(opt_call_clean)

/* unsigned long opt_jump_into(unsigned long x): a branch lands inside the jump. */
FUNC(opt_jump_into)
	movl 4(%esp), %eax
	testl %eax, %eax
	jz 1f
LABEL(oj_site)                          /* 3 bytes; the jump would cover 1: too */
	addl $1, %eax
1:	addl $2, %eax
	addl $4, %eax
	ret
END(opt_jump_into)

/* unsigned long opt_jump_table(unsigned long x): x & 1 picks a case via a table. */
FUNC(opt_jump_table)
LABEL(ot_site)
	movl 4(%esp), %eax
	movl %eax, %ecx
	andl $1, %ecx
	jmp *opt_table(,%ecx,4)
opt_case0:
	addl $100, %eax
	ret
opt_case1:
	addl $200, %eax
	ret
END(opt_jump_table)

/* unsigned long opt_short(unsigned long x): two bytes, no room for a jump. */
FUNC(opt_short)
LABEL(os_site)
	incl %eax                       /* (returns garbage + 1: never called) */
	ret
END(opt_short)

/*
 * unsigned long opt_calls(unsigned long x): starts with a call, which
 * cannot run from elsewhere (it would push the buffer's address).
 */
FUNC(opt_calls)
LABEL(oc_site)
	call opt_calls_helper
	addl 4(%esp), %eax
	ret
END(opt_calls)

FUNC(opt_calls_helper)
	movl $1000, %eax
	ret
END(opt_calls_helper)

/*
 * unsigned long opt_rep(unsigned long n): rep movsb, never boosted (the
 * probe fires once per iteration, boosted it would fire once).
 */
FUNC(opt_rep)
	pushl %esi
	pushl %edi
	movl 12(%esp), %ecx
	leal opt_rep_src, %esi
	leal opt_rep_dst, %edi
LABEL(or_site)
	rep movsb
	movl %ecx, %eax
	popl %edi
	popl %esi
	ret
END(opt_rep)

	.section .rodata
	.balign 4
opt_table:
	.long opt_case0, opt_case1
opt_rep_src:
	.ascii "0123456789abcdef"

	.data
opt_rep_dst:
	.space 16

/*
 * void opt_spin(volatile int *stop): spin until *stop; the test looks
 * for a thread preempted between opt_spin_loop and opt_spin_end.
 */
	.text
FUNC(opt_spin)
	movl 4(%esp), %edx
LABEL(opt_spin_loop)
	movl (%edx), %eax
	testl %eax, %eax
	jz opt_spin_loop
LABEL(opt_spin_end)
	ret
END(opt_spin)
