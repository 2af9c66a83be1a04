/*
 * trampoline.S - an application processor's first instructions.
 *
 * A STARTUP IPI with vector V starts the target CPU in REAL MODE at
 * CS:IP = (V << 8):0000, that is at physical address V * 4096: it can
 * only start in the first MiB, on a page boundary, with 16-bit code.
 * The kernel lives at 1 MiB and is 32-bit code, so smpboot.c copies the
 * bytes between trampoline_start and trampoline_end to TRAMPOLINE_BASE
 * (below 1 MiB) and sends V = TRAMPOLINE_BASE >> 12.  The copy takes
 * the CPU from real mode to protected mode and jumps into the kernel
 * proper (startup_32_smp, below), which turns paging on and gives the
 * CPU its own stack.
 *
 *   physical memory                        the AP
 *   +-------------------------------+
 *   | TRAMPOLINE_BASE (copy)        |  <-- SIPI: real mode, CS = base >> 4, IP = 0
 *   |   16-bit: cli, DS = CS        |
 *   |   lgdt tr_gdt  (flat 4 GiB)   |
 *   |   CR0.PE = 1                  |
 *   |   ljmpl $__KERNEL_CS, tr_32 --+--> now 32-bit protected mode, paging off
 *   |   32-bit: DS..SS = data seg   |
 *   |   jmp startup_32_smp ---------+--+
 *   +-------------------------------+  |
 *   | 1 MiB: the kernel             |  |
 *   |   startup_32_smp: <-----------+--+  CR3 = kernel page directory,
 *   |     CR0.PG|WP, %esp = the     |     paging on (RAM is identity-
 *   |     stack smpboot.c made,     |     mapped, so the next address
 *   |     call start_secondary() ---+-->  means the same thing), C code
 *   +-------------------------------+
 *
 * Everything in the copy is addressed relative to where it will run:
 * in real mode as an offset from CS (TR_OFF), in protected mode as a
 * physical address (TR_PHYS).  The template itself never runs; it lives
 * in .rodata, away from the kernel text that kprobes may patch.
 */
#include <asm/segment.h>
#include <asm/processor.h>
#include <asm/smpboot.h>
#include "nokprobe.h"

/* One 8-byte descriptor: base 0, limit 4 GiB in pages, 32-bit. */
.macro FLAT_SEGMENT access
	.word SEG_LIMIT_4G & 0xFFFF			/* limit 15..0 */
	.word 0						/* base 15..0 */
	.byte 0						/* base 23..16 */
	.byte \access
	.byte ((SEG_GRAN_4K | SEG_SIZE_32) << 4) | (SEG_LIMIT_4G >> 16)
	.byte 0						/* base 31..24 */
.endm

#define TR_OFF(sym)	((sym) - trampoline_start)
#define TR_PHYS(sym)	(TRAMPOLINE_BASE + TR_OFF(sym))

	.section .rodata.trampoline, "a"
	.code16
	.balign 16
	.globl trampoline_start
trampoline_start:
	/*
	 * Real mode, 16-bit, interrupts may be on.  Nothing here can take
	 * an interrupt (there is no real-mode IDT we could trust), so cli
	 * first.  The data segment must equal the code segment so that
	 * TR_OFF() addresses our own bytes.
	 */
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	/*
	 * Load a tiny GDT with the kernel's flat code and data segments at
	 * the kernel's selectors.  lgdtl: the 32-bit operand form, so the
	 * base is taken as a full 32-bit physical address.
	 */
	lgdtl TR_OFF(tr_gdt_desc)
	/* Protection on.  We are still running 16-bit code until %cs changes. */
	movl %cr0, %eax
	orl $X86_CR0_PE, %eax
	movl %eax, %cr0
	/*
	 * A far jump reloads %cs from the new GDT: 32-bit code from here.
	 * It also flushes the prefetched real-mode instructions.
	 */
	ljmpl $__KERNEL_CS, $TR_PHYS(tr_32)

	.code32
tr_32:
	movw $__KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movw %ax, %fs
	movw %ax, %gs
	/* The kernel is linked at its physical address: jump straight in. */
	movl $startup_32_smp, %eax
	jmp *%eax

	/*
	 * The GDT: null, then flat code and data where segment.h puts them
	 * (base 0, 4 GiB; the same descriptors gdt.c builds in C).
	 */
	.balign 8
tr_gdt:
	.quad 0						/* GDT_ENTRY_NULL */
	FLAT_SEGMENT (SEG_PRESENT | SEG_DPL0 | SEG_CODE_DATA | SEG_CODE_READ)
	FLAT_SEGMENT (SEG_PRESENT | SEG_DPL0 | SEG_CODE_DATA | SEG_DATA_WRITE)
tr_gdt_end:
tr_gdt_desc:
	.word tr_gdt_end - tr_gdt - 1			/* limit */
	.long TR_PHYS(tr_gdt)				/* base: where the copy is */
	.globl trampoline_end
trampoline_end:

/*
 * Protected mode, paging off, running in the kernel image.  smpboot.c
 * left the stack top in initial_stack and the page directory in
 * initial_page_table before it sent the STARTUP IPI.
 */
	.text
	.globl startup_32_smp
	.type startup_32_smp, @function
startup_32_smp:
	movl initial_page_table, %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(X86_CR0_PG | X86_CR0_WP | X86_CR0_AM), %eax	/* as paging_init()'s */
	movl %eax, %cr0
	/* Paging is on; RAM is identity-mapped, so nothing moved. */
	movl initial_stack, %esp
	xorl %ebp, %ebp			/* backtraces stop here */
	pushl $0
	popfl				/* IF, DF, TF, NT all clear */
	call start_secondary
	/* start_secondary() never returns. */
1:	cli
	hlt
	jmp 1b
	.size startup_32_smp, . - startup_32_smp
	NOKPROBE_ASM(startup_32_smp)
