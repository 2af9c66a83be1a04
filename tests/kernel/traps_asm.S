/*
 * traps_asm.S - tiny routines that raise one exception each, on purpose.
 *
 * Each returns 0 if the instruction did NOT fault (a test failure) and
 * -1 if it did: the faulting instruction has an exception-table entry
 * whose fixup returns -1.  The C tests watch the die chain (trap_watch.h)
 * for the vector, error code and CR2 the CPU reported.
 */
#include "extable.h"
#include "segment.h"
#include "processor.h"

/* The first selector past the end of our GDT: loading it must #GP. */
#define BAD_SELECTOR (GDT_ENTRIES * 8)

	.text

.macro FAULT_FN name
	.globl \name
	.type \name, @function
\name:
.endm

.macro FAULT_END name
	xorl %eax, %eax         /* reached only if nothing faulted */
	ret
9:	movl $-1, %eax          /* the fixup: we faulted as intended */
	ret
	.size \name, . - \name
.endm

/* #DE: divide by zero. */
FAULT_FN raise_divide_error
	movl $1, %eax
	xorl %edx, %edx
	xorl %ecx, %ecx
1:	divl %ecx
	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_divide_error

/* #UD: ud2 is the instruction Intel reserves for "invalid opcode". */
FAULT_FN raise_invalid_opcode
1:	ud2
	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_invalid_opcode

/*
 * #BP: int3 is a TRAP, so the CPU reports the address after it; the
 * table entry is keyed on that address (label 1).
 */
FAULT_FN raise_breakpoint
	int3
1:	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_breakpoint

/* #GP: a selector beyond the GDT limit; error code = that selector. */
FAULT_FN raise_general_protection
	movl $BAD_SELECTOR, %eax
1:	movw %ax, %fs
	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_general_protection

/* #PF on a read: int raise_page_fault_read(const void *addr) */
FAULT_FN raise_page_fault_read
	movl 4(%esp), %ecx
1:	movl (%ecx), %eax
	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_page_fault_read

/*
 * #PF on a write: int raise_page_fault_write(void *addr).  It writes
 * back the byte already there, so even if the page were wrongly
 * writable nothing would change - the test still fails.
 */
FAULT_FN raise_page_fault_write
	movl 4(%esp), %ecx
	movb (%ecx), %dl
1:	movb %dl, (%ecx)
	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_page_fault_write

/*
 * #DB by single-step: set TF with popf.  The instruction after popf
 * runs, then the CPU raises #DB with regs->ip at the following one.
 * The test's die notifier clears TF in the saved flags and claims it.
 * Returns the address where the #DB is expected.
 */
	.globl raise_single_step
	.type raise_single_step, @function
raise_single_step:
	pushfl
	orl $X86_EFLAGS_TF, (%esp)
	popfl
	nop                     /* runs with TF set ... */
	.globl single_step_expected_ip
single_step_expected_ip:        /* ... and #DB reports this address */
	movl $single_step_expected_ip, %eax
	ret
	.size raise_single_step, . - raise_single_step

/* int3 claimed by the test's notifier (no fixup): returns normally. */
	.globl raise_claimed_breakpoint
	.type raise_claimed_breakpoint, @function
raise_claimed_breakpoint:
	int3
	.globl claimed_breakpoint_next_ip
claimed_breakpoint_next_ip:
	ret
	.size raise_claimed_breakpoint, . - raise_claimed_breakpoint
