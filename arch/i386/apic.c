/*
 * apic.c - the local APIC: enable it, send IPIs, run its timer.
 *
 * WHY THE LOCAL APIC.  The 8259 PIC has one output wire and it goes to
 * one CPU (CPU 0).  Every other CPU still needs a timer of its own, to
 * preempt what runs there, and a way to be told things by the other
 * CPUs: "run this function", "reschedule", "stop".  Each CPU's local
 * APIC gives it both: a timer that interrupts only that CPU, and the
 * interrupt command register (ICR), through which any CPU sends an
 * inter-processor interrupt (IPI) to any other by APIC id.  The same
 * ICR sends the INIT and STARTUP messages that wake a sleeping CPU
 * (smpboot.c).
 *
 * The registers are a 4 KiB page of memory at 0xFEE00000 (the MADT or
 * MP table says where).  Every CPU maps the same physical address but
 * reaches its own APIC there: the access never leaves the CPU.
 *
 * The legacy devices (PIT, serial, keyboard) stay on the 8259, and so
 * on CPU 0 alone: the APIC's LINT0 pin, where the 8259's output arrives
 * in "virtual wire" mode, is programmed ExtINT on CPU 0 and masked on
 * the others (setup_local_lint()).
 */
#include "kernel.h"
#include <asm/apic.h>
#include "mm.h"
#include "smp.h"
#include "sched.h"
#include "timer.h"
#include <asm/traps.h>
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "errno.h"
#include "nokprobe.h"

#define LAPIC_MMIO_SIZE		PAGE_SIZE
#define ICR_IDLE_SPINS		1000000	/* a busy ICR clears in a few cycles */
#define CALIBRATE_TICKS		4	/* PIT ticks to count APIC ticks over */
#define APIC_COUNT_MAX		0xFFFFFFFFu

unsigned long mp_lapic_addr = APIC_DEFAULT_PHYS_BASE;
bool lapic_present;			/* the MADT or MP table listed CPUs */
unsigned long lapic_timer_period;	/* APIC timer counts per PIT tick */
static volatile uint32_t *lapic;	/* the mapped register page */

DEFINE_PER_CPU(unsigned long, apic_timer_irqs);

uint32_t lapic_read(uint32_t reg)
{
	return lapic[reg / sizeof(*lapic)];
}

void lapic_write(uint32_t reg, uint32_t v)
{
	lapic[reg / sizeof(*lapic)] = v;
}

void lapic_map(void)
{
	lapic = ioremap_nocache(mp_lapic_addr, LAPIC_MMIO_SIZE);
}

int read_apic_id(void)
{
	return lapic_read(APIC_ID) >> APIC_ID_SHIFT;
}

/* Tell the APIC the interrupt it delivered is handled (any value: 0). */
void lapic_eoi(void)
{
	lapic_write(APIC_EOI, 0);
}

/*
 * The two local interrupt pins.  The PC wires the 8259's output to
 * every CPU's LINT0 and the board's NMI line to every CPU's LINT1; as
 * Linux does, only CPU 0 listens to them, so a device interrupt or a
 * chipset NMI is handled once, not once per CPU.  On CPU 0, LINT0 is
 * ExtINT - "virtual wire" mode: the CPU asks the 8259 for the vector,
 * as if the pin went straight to its INTR - and LINT1 an NMI.
 *
 * Both are written, never trusted to the firmware: the MP spec only
 * says what virtual wire looks like, not that the BIOS leaves it set.
 * SeaBIOS (QEMU) does; Bochs's BIOS leaves CPU 0's LINT0 masked, and
 * with it the timer and the serial port.  Linux's setup_local_APIC()
 * writes them the same way.  NMIs sent as IPIs (nmi_backtrace.c) do
 * not go through LINT1 and reach any CPU.
 */
void setup_local_lint(void)
{
	bool bsp = smp_processor_id() == 0;

	lapic_write(APIC_LVT0, APIC_DM_EXTINT | (bsp ? 0 : APIC_LVT_MASKED));
	lapic_write(APIC_LVT1, APIC_DM_NMI_LVT | (bsp ? 0 : APIC_LVT_MASKED));
}

/*
 * Enable this CPU's APIC.  The SPIV register's enable bit is the
 * software switch; its vector is what the APIC delivers when an
 * interrupt vanishes before the CPU acknowledges it.  Task priority 0
 * accepts every vector.
 */
void setup_local_APIC(void)
{
	lapic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	lapic_write(APIC_TASKPRI, 0);
	setup_local_lint();
	lapic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	/* The ESR latches errors; it is cleared by writing it (twice: SDM). */
	lapic_write(APIC_ESR, 0);
	lapic_write(APIC_ESR, 0);
	lapic_eoi();	/* nothing may be left in service from the firmware */
}

/* Wait until the previous IPI has left: only one send is in flight. */
int apic_wait_icr_idle(void)
{
	for (long i = 0; i < ICR_IDLE_SPINS; i++) {
		if (!(lapic_read(APIC_ICR) & APIC_ICR_BUSY))
			return 0;
		cpu_relax();
	}
	return -ETIMEDOUT;
}

/*
 * Writing the ICR's low half sends the IPI, so the destination (high
 * half) goes first, and nothing on this CPU may send in between:
 * interrupts are off around the pair.
 */
void apic_icr_write(uint32_t cmd, int apicid)
{
	unsigned long flags = local_irq_save();

	if (apic_wait_icr_idle())
		printk("apic: ICR still busy; sending anyway\n");
	lapic_write(APIC_ICR2, (uint32_t)apicid << APIC_ICR2_DEST_SHIFT);
	lapic_write(APIC_ICR, cmd);
	local_irq_restore(flags);
}

/* ---- the timer ------------------------------------------------------------ */

static void wait_for_tick(void)
{
	unsigned long j = jiffies;

	while (jiffies == j)
		cpu_relax();
}

/*
 * The APIC timer counts the bus clock, whose rate no register tells.
 * So we count how far it runs down during a few PIT ticks (which we do
 * know: HZ a second) and keep "counts per tick".  CPU 0 does this once
 * with interrupts on; every CPU's timer shares the bus clock.
 */
void calibrate_APIC_clock(void)
{
	uint32_t start;

	lapic_write(APIC_TDCR, APIC_TDR_DIV_16);
	lapic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	wait_for_tick();			/* start on a tick's edge */
	lapic_write(APIC_TMICT, APIC_COUNT_MAX);
	start = lapic_read(APIC_TMCCT);
	for (int i = 0; i < CALIBRATE_TICKS; i++)
		wait_for_tick();
	lapic_timer_period = (start - lapic_read(APIC_TMCCT)) / CALIBRATE_TICKS;
	lapic_write(APIC_TMICT, 0);		/* stop it */
	printk("apic: timer %lu counts per tick (%lu kHz bus clock / 16)\n",
	       lapic_timer_period, lapic_timer_period * HZ / 1000);
}

/* Periodic mode: the APIC reloads the count itself, HZ times a second. */
void setup_APIC_timer(void)
{
	if (!lapic_timer_period)
		return;
	lapic_write(APIC_TDCR, APIC_TDR_DIV_16);
	lapic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	lapic_write(APIC_TMICT, lapic_timer_period);
}

/*
 * Each CPU's tick.  jiffies and the per-tick hooks stay with the PIT on
 * CPU 0 (time must advance once, not once per CPU); here each CPU counts
 * its own ticks and runs its scheduler tick.
 */
static void local_apic_timer_interrupt(void)
{
	this_cpu_inc(apic_timer_irqs);
	scheduler_tick();	/* each CPU preempts the threads it runs */
}

bool is_apic_vector(unsigned long vector)
{
	return vector == LOCAL_TIMER_VECTOR || vector == CALL_FUNCTION_VECTOR ||
	       vector == RESCHEDULE_VECTOR || vector == ERROR_APIC_VECTOR ||
	       vector == SPURIOUS_APIC_VECTOR;
}

/*
 * From do_trap() for an APIC vector.  EOI first, as for the PIC: the
 * timer's handler may switch threads and not come back for a while.
 * A spurious interrupt was never put in service and gets no EOI.
 */
void smp_apic_interrupt(struct pt_regs *regs, unsigned long vector)
{
	(void)regs;
	if (vector == SPURIOUS_APIC_VECTOR)
		return;
	lapic_eoi();
	switch (vector) {
	case LOCAL_TIMER_VECTOR:
		local_apic_timer_interrupt();
		break;
	case CALL_FUNCTION_VECTOR:
		generic_smp_call_function_interrupt();
		break;
	case RESCHEDULE_VECTOR:
		smp_reschedule_interrupt();
		break;
	case ERROR_APIC_VECTOR:
		lapic_write(APIC_ESR, 0);
		printk("apic: CPU %d error, ESR %08x\n", smp_processor_id(),
		       lapic_read(APIC_ESR));
		break;
	}
}

NOKPROBE_SYMBOL(lapic_read);
NOKPROBE_SYMBOL(lapic_write);
NOKPROBE_SYMBOL(lapic_eoi);
NOKPROBE_SYMBOL(read_apic_id);
NOKPROBE_SYMBOL(apic_wait_icr_idle);
NOKPROBE_SYMBOL(apic_icr_write);
NOKPROBE_SYMBOL(local_apic_timer_interrupt);
NOKPROBE_SYMBOL(is_apic_vector);
NOKPROBE_SYMBOL(smp_apic_interrupt);
