/*
 * pgfault.h - the #PF handler's x86 half (arch/i386/fault.c).
 */
#ifndef ASM_PGFAULT_H
#define ASM_PGFAULT_H

#include <stdbool.h>
#include "mm_types.h"

struct pt_regs;

/*
 * A #PF at address (CR2, read first thing) with regs->orig_ax the
 * error code: true if it was a user address of the current process
 * that handle_mm_fault() made good - the instruction is retried; false
 * for everything else (SIGSEGV from ring 3, a fixup or an oops).
 */
bool do_user_addr_fault(struct pt_regs *regs, unsigned long address);
/* /sys/kernel/debug/page_fault/narrate's switch. */
extern bool page_fault_narrate_enabled;
/* Faults that ended as what, since boot. */
unsigned long page_fault_count(enum fault_result what);
/* /sys/kernel/debug/page_fault/{narrate,stats}. */
int page_fault_debugfs_init(void);

#endif
