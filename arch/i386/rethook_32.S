/*
 * rethook_32.S - where a rethooked function returns to (Linux's
 * arch_rethook_trampoline, arch/x86/kernel/rethook.c).
 *
 * rethook_hook() replaced the function's return address with
 * arch_rethook_trampoline.  The function's "ret" pops it and jumps
 * here, %eax:%edx holding the return value and %esp one word above the
 * slot the address came from (call that S).  The body is
 * RETURN_TRAMPOLINE (asm/calling.h), as kretprobe_trampoline.S's:
 * a frame record over the slot for unwinders, a struct pt_regs below it,
 * the C half, rethook_trampoline_handler(regs, slot) (regparm(3): in
 * %eax and %edx; the slot is rethook's "frame"), gives back the real
 * address, written into the slot for ret.  Linux's x86 trampoline calls
 * arch_rethook_trampoline_callback(regs), which finds the frame; here
 * the macro hands it over, one call fewer on every return.
 *
 *     S-4    arch_rethook_trampoline  \ a frame record, as "push %ebp"
 *     S-8    caller's %ebp            /  makes
 *     S-12   flags  \
 *            ...     | struct pt_regs, up to flags
 *            bx     /  <- %esp
 */
#include "nokprobe.h"
#include <asm/calling.h>

	.text
	RETURN_TRAMPOLINE arch_rethook_trampoline, rethook_trampoline_handler
	NOKPROBE_ASM(arch_rethook_trampoline)
