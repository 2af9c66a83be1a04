/*
 * extable.h - the exception-fixup table (Linux's __ex_table).
 *
 * Code that may fault on purpose records a pair (insn, fixup) in the
 * __ex_table section.  When an exception hits at `insn`, the dispatcher
 * resumes at `fixup` instead of oopsing.  For a fault the CPU reports the
 * faulting instruction; for a trap (int3, into) it reports the NEXT
 * instruction - the table is keyed on whatever regs->ip is.
 */
#ifndef EXTABLE_H
#define EXTABLE_H

#ifdef __ASSEMBLER__
#define _ASM_EXTABLE(from, to)        \
	.pushsection "__ex_table", "a"; \
	.balign 4;                      \
	.long (from), (to);             \
	.popsection
#else
#include <stddef.h>
#include <asm/ptrace.h>

struct exception_table_entry {
	unsigned long insn;
	unsigned long fixup;
};

const struct exception_table_entry *search_exception_tables(unsigned long ip);

/* Try to resume at a fixup; returns 1 if one was found. */
int fixup_exception(struct pt_regs *regs, unsigned long vector);

/*
 * Safe reads: copy `size` bytes, returning 0 or -EFAULT if any byte
 * could not be read.  Never oopses.  Probe handlers use these.
 */
long copy_from_kernel_nofault(void *dst, const void *src, size_t size);
long copy_to_kernel_nofault(void *dst, const void *src, size_t size);
#endif /* __ASSEMBLER__ */

#endif
