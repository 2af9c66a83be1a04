/*
 * kretprobe_trampoline.S - where a kretprobed function returns to.
 *
 * pre_handler_kretprobe() replaced the function's return address with
 * kretprobe_trampoline.  The function's "ret" pops it and jumps here,
 * %eax holding the return value and %esp one word above the slot the
 * address came from (call that S).  We build a struct pt_regs, let C find
 * the instance for this slot and run the handler, then return to the
 * real caller with every register as the function left it (or as the
 * handler changed it: a handler may rewrite regs->ax).
 *
 * The stack while trampoline_handler runs, highest address first:
 *
 *     S      ...                 the caller's stack, untouched
 *     S-4    kretprobe_trampoline   \ a frame record, as "push %ebp" makes:
 *     S-8    caller's %ebp          / %ebp points here, and the unwinder
 *                                     asks kretprobe_find_ret_addr() about
 *                                     the trampoline it finds in the slot
 *     S-12   flags  \
 *            cs      |  struct pt_regs, up to flags (its sp and ss words
 *            ip      |  are the frame record above)
 *            ...     |
 *            bx     /   <- %esp, the pt_regs pointer
 *
 * The slot is written again rather than trusted to still hold the
 * trampoline's address: after ret, an interrupt may have used it.
 */
#include "nokprobe.h"
#include <asm/calling.h>

	.text
	RETURN_TRAMPOLINE kretprobe_trampoline, trampoline_handler
	NOKPROBE_ASM(kretprobe_trampoline)
