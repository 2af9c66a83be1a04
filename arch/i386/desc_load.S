/*
 * desc_load.S - load the GDT, IDT and task register.
 *
 * Loading a new GDT does not change the segment registers: each one
 * caches the descriptor it was loaded with.  So after lgdt we reload
 * every data segment register, and %cs with a far jump (the only way
 * to change %cs besides a far call, far ret or iret).
 *
 * Arguments arrive in %eax, %edx, %ecx (the kernel's -mregparm=3).
 */
	.text

/* void gdt_load(struct desc_ptr *p, unsigned code_sel, unsigned data_sel) */
	.globl gdt_load
	.type gdt_load, @function
gdt_load:
	lgdt (%eax)
	movw %cx, %ds           /* data_sel */
	movw %cx, %es
	movw %cx, %fs
	movw %cx, %gs
	movw %cx, %ss
	/* Far return: pop our return address and the new %cs together. */
	popl %ecx               /* return address */
	pushl %edx              /* code_sel: the new %cs */
	pushl %ecx
	lret
	.size gdt_load, . - gdt_load

/* void idt_load(struct desc_ptr *p) */
	.globl idt_load
	.type idt_load, @function
idt_load:
	lidt (%eax)
	ret
	.size idt_load, . - idt_load

/* void tss_load(unsigned sel): point the task register at our TSS. */
	.globl tss_load
	.type tss_load, @function
tss_load:
	ltr %ax
	ret
	.size tss_load, . - tss_load
