/*
 * apic.h - the local APIC: each CPU's own interrupt controller.
 *
 * The 8259 PIC (pic.c) has one output wire, to one CPU.  With several
 * CPUs each one needs its own controller that can take interrupts meant
 * for it alone: its timer, and messages from the other CPUs
 * (inter-processor interrupts, IPIs).  That is the local APIC, one per
 * CPU, reached through a page of memory-mapped registers at the same
 * physical address on every CPU - each CPU sees its own (SDM vol. 3,
 * chapter 10).
 *
 * Register offsets and bits below are the SDM's (table 10-1).
 */
#ifndef APIC_H
#define APIC_H

#include "kernel.h"
#include <asm/percpu.h>
#include <asm/ptrace.h>
#include <asm/irq_vectors.h>

#define APIC_DEFAULT_PHYS_BASE	0xFEE00000ul	/* where firmware leaves it */

/* Registers: byte offsets into the APIC page; each is 32 bits, 16-aligned. */
#define APIC_ID		0x020	/* bits 31..24: this CPU's APIC id */
#define APIC_LVR	0x030	/* version; bits 23..16: LVT entries - 1 */
#define APIC_TASKPRI	0x080	/* task priority: 0 accepts every vector */
#define APIC_EOI	0x0B0	/* write 0: end of interrupt */
#define APIC_SPIV	0x0F0	/* spurious vector and the software enable bit */
#define APIC_ESR	0x280	/* error status */
#define APIC_ICR	0x300	/* interrupt command, low half: starts the send */
#define APIC_ICR2	0x310	/* interrupt command, high half: destination */
#define APIC_LVTT	0x320	/* local vector table: the timer */
#define APIC_LVT0	0x350	/* LINT0 pin */
#define APIC_LVT1	0x360	/* LINT1 pin (wired to NMI on a PC) */
#define APIC_LVTERR	0x370	/* errors */
#define APIC_TMICT	0x380	/* timer initial count */
#define APIC_TMCCT	0x390	/* timer current count */
#define APIC_TDCR	0x3E0	/* timer divide configuration */

#define APIC_ID_SHIFT		24
#define APIC_SPIV_APIC_ENABLED	(1u << 8)	/* software enable */

/* Local vector table entries (timer, LINT0/1, error). */
#define APIC_LVT_MASKED		(1u << 16)
#define APIC_LVT_TIMER_PERIODIC	(1u << 17)
#define APIC_DM_NMI_LVT		(4u << 8)	/* LINT1: deliver as NMI */
#define APIC_DM_EXTINT		(7u << 8)	/* LINT0: ask the 8259 for the vector */
#define APIC_LVT_DM_MASK	(7u << 8)	/* the delivery mode field */
#define APIC_TDR_DIV_16		0x3		/* timer input = bus clock / 16 */

/* Interrupt command register (ICR) low half. */
#define APIC_DM_FIXED		(0u << 8)	/* deliver the vector field */
#define APIC_DM_NMI		(4u << 8)	/* deliver an NMI (vector ignored) */
#define APIC_DM_INIT		(5u << 8)	/* INIT: reset the target CPU */
#define APIC_DM_STARTUP		(6u << 8)	/* STARTUP IPI: run at vector*4K */
#define APIC_ICR_BUSY		(1u << 12)	/* delivery status: still sending */
#define APIC_INT_ASSERT		(1u << 14)	/* level: assert */
#define APIC_INT_LEVELTRIG	(1u << 15)	/* trigger: level (INIT de-assert) */
#define APIC_DEST_SELF		(1u << 18)	/* shorthand: this CPU */
#define APIC_DEST_ALLBUT	(3u << 18)	/* shorthand: every CPU but this */
#define APIC_ICR2_DEST_SHIFT	24		/* ICR2 bits 31..24: target id */

/* Where the registers are (from the MADT or MP table), and mapped. */
extern unsigned long mp_lapic_addr;
extern bool lapic_present;

void lapic_map(void);			/* map the register page uncached */
void setup_local_APIC(void);		/* enable this CPU's APIC */
void setup_local_lint(void);		/* program LINT0/LINT1 (8259, NMI) */
uint32_t lapic_read(uint32_t reg);
void lapic_write(uint32_t reg, uint32_t v);
int read_apic_id(void);
void lapic_eoi(void);

/* Send an IPI: ICR low half `cmd` to the CPU with APIC id `apicid`. */
void apic_icr_write(uint32_t cmd, int apicid);
int apic_wait_icr_idle(void);		/* 0, or -ETIMEDOUT */

/* The timer: calibrated once on CPU 0, then started on every CPU. */
void calibrate_APIC_clock(void);
void setup_APIC_timer(void);
extern unsigned long lapic_timer_period;	/* APIC counts per tick */
DECLARE_PER_CPU(unsigned long, apic_timer_irqs);

/* The APIC vectors, from do_trap(). */
void smp_apic_interrupt(struct pt_regs *regs, unsigned long vector);
bool is_apic_vector(unsigned long vector);

#endif
