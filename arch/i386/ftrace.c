/*
 * ftrace.c - the x86 facts of the function tracer (Linux's
 * arch/x86/kernel/ftrace.c): what a call site holds.
 *
 * A site is 5 bytes at a function's first byte.  gcc wrote
 * "call __fentry__" (e8 + rel32); ftrace_init() writes the 5-byte nop
 * Intel recommends, "nopl 0x0(%eax,%eax,1)" (0f 1f 44 00 00), one
 * instruction, so a CPU never executes half of it; enabling writes
 * "call ftrace_regs_caller".  Both changes go through text_poke_bp():
 * other CPUs may be running the function at that moment.  The trampoline
 * (ftrace_32.S) reaches C through ftrace_trace_function, with Linux's
 * ftrace_func_t arguments.
 */
#include "kernel.h"
#include "string.h"
#include "ftrace.h"

/* SDM vol. 2, NOP: the recommended 5-byte form. */
static const unsigned char x86_nop5[MCOUNT_INSN_SIZE] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

const unsigned char *ftrace_nop_replace(void)
{
	return x86_nop5;
}

/* rel32 counts from the end of the call: addr - (ip + 5). */
void ftrace_call_replace(unsigned char *insn, unsigned long ip, unsigned long addr)
{
	long rel = (long)(addr - (ip + MCOUNT_INSN_SIZE));

	insn[0] = CALL_INSN_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

bool ftrace_site_is_fentry_call(unsigned long ip)
{
	unsigned char want[MCOUNT_INSN_SIZE];

	ftrace_call_replace(want, ip, (unsigned long)__fentry__);
	return memcmp((const void *)ip, want, MCOUNT_INSN_SIZE) == 0;
}
