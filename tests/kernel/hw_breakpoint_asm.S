/*
 * hw_breakpoint_asm.S - accesses of a known width at a known address,
 * each followed by a label: a data breakpoint is a trap, so the ip its
 * #DB reports is that label (the instruction after the access).
 * The address is the first argument (%eax), the value the second (%edx).
 */
	.text

.macro ACCESS_FN name, insn
	.globl \name, \name\()_after
	.type \name, @function
\name:
	movl %eax, %ecx
	movl %edx, %eax
	\insn
\name\()_after:
	ret
	.size \name, . - \name
.endm

ACCESS_FN hwbp_write8,  "movb %al, (%ecx)"
ACCESS_FN hwbp_write16, "movw %ax, (%ecx)"
ACCESS_FN hwbp_write32, "movl %eax, (%ecx)"
ACCESS_FN hwbp_read32,  "movl (%ecx), %eax"

/*
 * The instruction a kprobe and a watchpoint share: the kprobe's
 * single-step of this mov writes hwbp_shared_var, so TF and the data
 * breakpoint end the one step together.
 */
	.data
	.balign 4
	.globl hwbp_shared_var
hwbp_shared_var:
	.long 0

	.text
	.globl hwbp_store_shared
	.type hwbp_store_shared, @function
hwbp_store_shared:				/* the value is in %eax */
	.globl hwbp_store_shared_insn
hwbp_store_shared_insn:
	movl %eax, hwbp_shared_var
	ret
	.size hwbp_store_shared, . - hwbp_store_shared
