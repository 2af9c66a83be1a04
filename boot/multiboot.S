/*
 * multiboot.S - the first instructions the kernel runs.
 *
 * A Multiboot loader (GRUB, or QEMU's -kernel) scans the first 8 KiB of
 * the image for the header below, loads our ELF segments at 1 MiB and
 * jumps to _start in 32-bit protected mode with paging off, interrupts
 * off, %eax = 0x2BADB002 and %ebx = the physical address of the
 * Multiboot information block.  The loader's GDT is still loaded, but we
 * must not rely on it: gdt_init() replaces it.  All we do here is give C
 * a stack and call kmain(magic, info): with the kernel's -mregparm=3 the
 * two arguments go in %eax (where the magic already is) and %edx.
 */
#include "multiboot.h"

#define MB_FLAGS    (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)
#define MB_CHECKSUM (-(MULTIBOOT_HEADER_MAGIC + MB_FLAGS))
#define BOOT_STACK_SIZE 16384

	.section .multiboot, "a"
	.balign 4
multiboot_header:
	.long MULTIBOOT_HEADER_MAGIC
	.long MB_FLAGS
	.long MB_CHECKSUM

	.section .text.entry, "ax"
	.globl _start
	.type _start, @function
_start:
	cli
	movl $boot_stack_top, %esp
	/*
	 * A zero frame pointer ends every backtrace here: the unwinder
	 * stops when it reaches a saved %ebp of 0.
	 */
	xorl %ebp, %ebp
	pushl $0            /* flags: a known state (IF, DF, TF all clear) */
	popfl
	movl %ebx, %edx     /* struct multiboot_info *; %eax is the magic */
	call kmain
	/* kmain never returns; if it does, stop here forever. */
1:	cli
	hlt
	jmp 1b
	.size _start, . - _start

	.section .bss
	.balign 4096
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.skip BOOT_STACK_SIZE
boot_stack_top:
