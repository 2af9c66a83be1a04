/*
 * kallsyms.h - the kernel's own symbol table, produced at build time by
 * a two-pass link (scripts/kallsyms.py) as Linux's kallsyms does.
 */
#ifndef KALLSYMS_H
#define KALLSYMS_H

#include <stddef.h>

#define KSYM_NAME_LEN 128	/* a symbol name, or "[optprobe detour for fib+0x1d]", with NUL */

/* Address of a symbol, 0 if unknown. */
unsigned long kallsyms_lookup_name(const char *name);

/*
 * Name of the symbol containing addr; *size and *offset describe it.
 * Returns NULL if addr is not inside any known symbol.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/*
 * Format "name+0xoff/0xsize" (or "0x..." when unknown) into buf: printk's
 * %pS.  Code kprobes made has no symbol; it is named after its probe:
 * "[kprobe slot for fib+0x1d]+0x2/0x10", "[optprobe detour for fib]+0x25/0x3c".
 */
int sprint_symbol(char *buf, size_t len, unsigned long addr);
/* Only the name, "fib": printk's %ps. */
int sprint_symbol_no_offset(char *buf, size_t len, unsigned long addr);
/*
 * For a return address (printk's %pB): the call before addr names the
 * caller, even when the call was the caller's last instruction.
 */
int sprint_backtrace(char *buf, size_t len, unsigned long addr);

/* Call fn for each symbol; stop early if fn returns non-zero. */
int kallsyms_on_each_symbol(int (*fn)(void *data, const char *name,
				      unsigned long addr, unsigned long size),
			    void *data);

/* ---- backtraces (arch/i386/unwind_frame.c) ---------------------------------- */

struct pt_regs;

enum stack_entry_kind {
	STACK_RETURN,	/* a return address from the %ebp chain */
	STACK_TRAP_IP,	/* the exact ip of an interrupted function (a pt_regs) */
	STACK_GUESS,	/* a return address found by scanning: printed with "?" */
	STACK_USER_IP,	/* the ip a process was at in ring 3 (a pt_regs): the walk ends */
};

struct stack_entry {
	unsigned long addr;
	enum stack_entry_kind kind;
	unsigned long regs;	/* STACK_TRAP_IP, STACK_USER_IP: the struct pt_regs it came from */
};

/*
 * Walk the stack from a trap frame (regs, may be NULL) or from the %ebp
 * record at bp: up to max entries, innermost first; returns the count.
 */
int unwind_stack(struct pt_regs *regs, unsigned long bp, struct stack_entry *out, int max);
/* The same, only the addresses. */
int save_stack_trace_bp(unsigned long bp, unsigned long *out, int max);
/* unwind_stack() printed through printk, one " [<addr>] symbol" line each. */
void show_backtrace(struct pt_regs *regs, unsigned long bp);
/*
 * The struct pt_regs an %ebp record leads to, if its return address is
 * in the assembly that built one (the trap entry, an optprobe detour).
 */
struct pt_regs *frame_pt_regs(unsigned long bp, unsigned long ret);

#endif
