/*
 * mm_poke_asm.S - code for the "mm" suite to patch with text_poke().
 * Written in assembly so the test knows the exact bytes:
 *   b8 imm32    movl $imm32, %eax
 *   c3          ret
 */
#define POKE_PAGE_SIZE  4096
#define OPCODE_MOV_EAX  1          /* imm32 follows one opcode byte */

	.section .text.mm_poke, "ax", @progbits
/*
 * Page align the section, so that offsets in it are offsets in a page:
 * that is how mm_poke_cross below lands on a page boundary.
 */
	.balign POKE_PAGE_SIZE, 0xcc

/* int mm_poke_target(void): returns 1 until a test patches the immediate. */
	.globl mm_poke_target
	.type mm_poke_target, @function
mm_poke_target:
	movl $1, %eax
	ret
	.size mm_poke_target, . - mm_poke_target

/*
 * int mm_poke_cross(void): its immediate straddles a page boundary, so
 * patching it makes text_poke() map two pages.  The filler before it is
 * int3 (0xcc), so a stray jump into it traps at once.
 */
	.org POKE_PAGE_SIZE - OPCODE_MOV_EAX - 2, 0xcc
	.globl mm_poke_cross
	.type mm_poke_cross, @function
mm_poke_cross:
	movl $0x11223344, %eax     /* imm bytes 44 33 | 22 11: next page */
	ret
	.size mm_poke_cross, . - mm_poke_cross
