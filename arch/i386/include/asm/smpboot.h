/*
 * smpboot.h - where the AP trampoline runs, and what smpboot.c and
 * trampoline.S share.  Included by assembly too.
 */
#ifndef SMPBOOT_H
#define SMPBOOT_H

/*
 * A STARTUP IPI names a 4 KiB page below 1 MiB by its number; the AP
 * starts there in real mode.  0x7000 (xv6's choice) lies in the first
 * MiB, which page_alloc never hands out, away from the BIOS data area
 * (page 0), QEMU's Multiboot information (0x9000) and the EBDA (just
 * below 640 KiB); paging maps it (identity), so the copy is written
 * through the same address the AP runs at.
 */
#define TRAMPOLINE_BASE		0x7000
#define TRAMPOLINE_PAGE_SHIFT	12	/* SIPI vector = base >> 12 */
#define TRAMPOLINE_SIZE_MAX	(1 << TRAMPOLINE_PAGE_SHIFT)	/* one page (linker.ld checks) */
#define REAL_MODE_LIMIT		0x100000	/* real mode reaches 1 MiB */

#if TRAMPOLINE_BASE + TRAMPOLINE_SIZE_MAX > REAL_MODE_LIMIT
#error "a STARTUP IPI can only start a CPU below 1 MiB"
#endif

#ifndef __ASSEMBLER__
/* Read by startup_32_smp before it has a stack: set per AP by do_boot_cpu(). */
extern unsigned long initial_stack, initial_page_table;

void start_secondary(void) __attribute__((noreturn));
#endif

#endif
