/*
 * irq_vectors.h - the vectors the local APICs deliver (Linux's numbers),
 * above the 8259's 32-47.  The APIC takes a vector's upper four bits as
 * its priority class, so the IPIs sit at the top.  Used by entry.S (the
 * stubs) and C alike.
 */
#ifndef IRQ_VECTORS_H
#define IRQ_VECTORS_H

/* "int $0x80": Linux i386's system call (DPL 3: ring 3 may raise it). */
#define IA32_SYSCALL_VECTOR	0x80
#define LOCAL_TIMER_VECTOR	0xEC
#define CALL_FUNCTION_VECTOR	0xFB
#define RESCHEDULE_VECTOR	0xFD
#define ERROR_APIC_VECTOR	0xFE
#define SPURIOUS_APIC_VECTOR	0xFF	/* low nibble all ones (P6 rule) */

#define APIC_VECTOR_LIST	LOCAL_TIMER_VECTOR, CALL_FUNCTION_VECTOR, \
				RESCHEDULE_VECTOR, ERROR_APIC_VECTOR, \
				SPURIOUS_APIC_VECTOR
#define NR_APIC_VECTORS		5

#endif
