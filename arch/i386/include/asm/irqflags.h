/*
 * irqflags.h - turning interrupts off and on (EFLAGS.IF).
 * local_irq_save() returns the old flags so that nested sections
 * restore exactly what they found.
 */
#ifndef IRQFLAGS_H
#define IRQFLAGS_H

#include <asm/processor.h>

static inline void local_irq_disable(void) { __asm__ __volatile__("cli" ::: "memory"); }
static inline void local_irq_enable(void)  { __asm__ __volatile__("sti" ::: "memory"); }

static inline unsigned long local_irq_save(void)
{
	unsigned long flags = read_eflags();
	local_irq_disable();
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		local_irq_enable();
}

/*
 * Stop until an interrupt (Linux's native_halt()).  With interrupts off
 * only an NMI or a reset ends it: halt_forever()'s way to stop a CPU.
 */
static inline void native_halt(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}

/*
 * Enable interrupts and halt, as one (Linux's native_safe_halt()): sti
 * takes effect only after the next instruction, so no interrupt can
 * slip in between and be missed by a CPU that then sleeps on - the idle
 * loop's race-free sleep.
 */
static inline void native_safe_halt(void)
{
	__asm__ __volatile__("sti; hlt" ::: "memory");
}

static inline int irqs_disabled(void)
{
	return !(read_eflags() & X86_EFLAGS_IF);
}

#endif
