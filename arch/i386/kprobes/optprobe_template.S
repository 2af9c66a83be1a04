/*
 * optprobe_template.S - the start of every optprobe's detour buffer.
 *
 * An optimized probe is a "jmp rel32" at the probed address into a
 * buffer of its own (arch/i386/kprobes/opt.c builds it):
 *
 *     [ this template ][ copies of the displaced instructions ][ jmp back ]
 *
 * The template does, without a trap, what the int3 path does with one:
 * it builds exactly the frame the CPU and the entry stub would have
 * built for an int3 at the probed address, calls optimized_callback()
 * with it, and returns with iret.  Handlers therefore see the same
 * struct pt_regs either way:
 *
 *     the jmp arrives with %esp = S, the stack of the probed code
 *     pushfl            flags    at S-4   (the CPU pushes these three for
 *     pushl $__KERNEL_CS  cs     at S-8    a ring-0 trap: no sp/ss)
 *     pushl $addr+1     ip       at S-12  (just past the probe, as an int3 shows it)
 *     pushl $0          orig_ax  at S-16  (the int3 stub's dummy error code)
 *     gs fs es ds ax bp di si dx cx bx    (trap_common's order)
 *
 * so &regs->sp == S == kernel_stack_pointer(regs), as for an int3.
 *
 * cli comes right after pushfl: from there on the handlers run with
 * interrupts off, as after an int3 (an interrupt gate).  The data
 * segment registers are saved for pt_regs but neither reloaded nor
 * restored: a detour is jumped to from kernel text only, never from
 * ring 3, and kernel code always runs with __KERNEL_DS (the trap entry
 * loads it on every way in from user mode), so they cannot differ.
 * optimized_callback(op, regs) takes its two arguments in %eax and
 * %edx, as every C function of the kernel does (-mregparm=3): two
 * moves, no pushes to drop after the call.
 *
 * regs->ip is what a handler sees after an int3 at the probe, from the
 * first push on: the callback need not set it.  It returns what the
 * pre-handler returned: zero, the usual case, runs the copied
 * instructions after this template - the template writes their address
 * into regs->ip; non-zero means the pre-handler chose where to go and
 * left it in regs->ip.  iret then
 * reloads ip, cs and flags in one go, so the probed code's IF comes back
 * exactly as the copies start: not a single instruction of ours runs
 * with interrupts on after the handlers.
 *
 * The template itself never runs: it lives in .rodata and is copied.
 * Four fields are filled in per copy; their offsets are the labels below.
 */
#include <asm/segment.h>
#include <asm/calling.h>

	.section .rodata
	.globl optprobe_template_entry
optprobe_template_entry:
	pushfl
	cli
	pushl $__KERNEL_CS
	.globl optprobe_template_ip
optprobe_template_ip:
	.byte 0x68                      /* pushl $imm32 (gas would shorten a $0) */
	.long 0                         /* regs->ip: the probe's address + 1, filled in */
	pushl $0                        /* regs->orig_ax */
	cld                             /* C code needs DF clear; pushfl kept it */
	pushl %gs
	pushl %fs
	pushl %es
	pushl %ds
	PUSH_GENERAL_REGS
	movl %esp, %edx                 /* arg 2: struct pt_regs * */
	.globl optprobe_template_op
optprobe_template_op:
	.byte 0xb8                      /* movl $imm32, %eax */
	.long 0                         /* arg 1: struct optimized_kprobe *, filled in */
	.globl optprobe_template_call
optprobe_template_call:
	.byte 0xe8                      /* call optimized_callback: rel32 filled in */
	.long 0
	testl %eax, %eax                /* non-zero: a pre-handler moved regs->ip */
	jnz 1f
	movl $0, PT_IP(%esp)            /* regs->ip: the copies (imm32 always: C7 /0) */
	.globl optprobe_template_copies
optprobe_template_copies:              /* just after the imm32, filled in */
1:	POP_GENERAL_REGS
	addl $PT_SEGS_AND_ORIG_AX, %esp /* ds es fs gs (never changed), orig_ax */
	iret                            /* ip, cs, flags: into the copies */
	.globl optprobe_template_end
optprobe_template_end:
