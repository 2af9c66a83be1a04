/*
 * traps_asm.S - tiny routines that raise one exception each, on purpose.
 *
 * Each returns 0 if the instruction did NOT fault (a test failure) and
 * -1 if it did: the faulting instruction has an exception-table entry
 * whose fixup returns -1.  The C tests watch the die chain (trap_watch.h)
 * for the vector, error code and CR2 the CPU reported.
 */
#include <asm/extable.h>
#include <asm/segment.h>
#include <asm/processor.h>
#include "traps_asm.h"

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
	movl %eax, %ecx			/* addr */
1:	movl (%ecx), %eax
	_ASM_EXTABLE(1b, 9f)
FAULT_END raise_page_fault_read

/*
 * #PF on a write: int raise_page_fault_write(void *addr).  It writes
 * back the byte already there, so even if the page were wrongly
 * writable nothing would change - the test still fails.
 */
FAULT_FN raise_page_fault_write
	movl %eax, %ecx			/* addr */
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

/*
 * The frame tests' routines: one exception each, raised with a standard
 * frame (so a backtrace from the trap frame finds the caller) and every
 * general register holding its KNOWN_* value (traps_asm.h).  The stack
 * and frame pointers the exception must report are saved first.  The
 * faulting instruction is label 1 and has a fixup, which returns -1.
 */

/*
 * name: a word holding the address of the next label 1, the ip the
 * frame must report.  A word, not a label in the code: kallsyms would
 * name the faulting instruction after such a label, not its function.
 */
.macro FRAME_IP name
	.pushsection .rodata
	.balign 4
	.globl \name
\name:
	.long 1f
	.popsection
.endm
.macro KNOWN_REGS_START name
	FAULT_FN \name
	pushl %ebp
	movl %esp, %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, known_regs_sp
	movl %ebp, known_regs_bp
	movl $KNOWN_EAX, %eax
	movl $KNOWN_EBX, %ebx
	movl $KNOWN_ECX, %ecx
	movl $KNOWN_EDX, %edx
	movl $KNOWN_ESI, %esi
	movl $KNOWN_EDI, %edi
.endm

.macro KNOWN_REGS_END name
	_ASM_EXTABLE(1b, 9f)
	xorl %eax, %eax         /* reached only if nothing faulted */
	jmp 8f
9:	movl $-1, %eax          /* the fixup */
8:	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size \name, . - \name
.endm

/* #BP is a trap: the frame's ip is the instruction after the int3. */
KNOWN_REGS_START raise_breakpoint_known_regs
	FRAME_IP breakpoint_known_regs_ip
	int3
1:	nop
KNOWN_REGS_END raise_breakpoint_known_regs

/* #GP, a fault: ip is the mov itself, the error code its selector. */
KNOWN_REGS_START raise_general_protection_known_regs
	FRAME_IP general_protection_known_regs_ip
1:	movw bad_selector, %fs
KNOWN_REGS_END raise_general_protection_known_regs

/*
 * #PF on a write to read-only text.  orb $0 rewrites the byte it reads,
 * so even a wrongly writable page would keep its code.
 */
KNOWN_REGS_START raise_page_fault_known_regs
	FRAME_IP page_fault_known_regs_ip
1:	orb $0, known_regs_pf_target
KNOWN_REGS_END raise_page_fault_known_regs

	.globl known_regs_pf_target
	.type known_regs_pf_target, @function
known_regs_pf_target:
	ret
	.size known_regs_pf_target, . - known_regs_pf_target

	.section .rodata
bad_selector:
	.word BAD_SELECTOR

	.data
	.balign 4
	.globl known_regs_sp, known_regs_bp
known_regs_sp:
	.long 0
known_regs_bp:
	.long 0
