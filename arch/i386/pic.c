/*
 * pic.c - the two 8259A Programmable Interrupt Controllers.
 *
 * A PC has two 8259s.  The master takes IRQ 0-7 directly; the slave's
 * output is wired to the master's IRQ 2, so IRQ 8-15 reach the CPU
 * through the master ("cascade").  Each PIC turns its lines into one
 * vector number: base + line.
 *
 * The BIOS leaves the master at vectors 8-15, on top of the CPU's own
 * exceptions (vector 8 is #DF!), so the first thing we do is reprogram
 * both chips: master at IRQ_BASE_VECTOR (32), slave right after (40).
 *
 * After an interrupt is delivered the PIC keeps its line "in service"
 * (ISR bit set) and holds back that line and every lower-priority one
 * until it receives an End Of Interrupt (EOI).
 */
#include "kernel.h"
#include <asm/io.h>
#include <asm/pic.h>
#include <asm/traps.h>
#include "spinlock.h"

/* I/O ports: command/status and data (mask) register of each chip. */
#define PIC1_CMD   0x20
#define PIC1_DATA  0x21
#define PIC2_CMD   0xA0
#define PIC2_DATA  0xA1

/* Initialization Command Words (8259A datasheet). */
#define ICW1_ICW4  0x01   /* ICW4 will follow */
#define ICW1_INIT  0x10   /* start the initialization sequence */
#define ICW4_8086  0x01   /* 8086/88 mode, not MCS-80/85 */

/* The slave is wired to this master line. */
#define PIC_CASCADE_IRQ   2
#define ICW3_MASTER_HAS_SLAVE  (1 << PIC_CASCADE_IRQ)  /* bit mask on master */
#define ICW3_SLAVE_ID          PIC_CASCADE_IRQ         /* number on slave */

/* Operation Command Words. */
#define OCW2_EOI      0x20   /* non-specific End Of Interrupt */
#define OCW3_READ_ISR 0x0B   /* next read of the command port gives ISR */

#define PIC_LINES        8   /* lines per chip */
#define PIC_SPURIOUS_LINE 7  /* lowest priority line: where spurious IRQs land */
#define PIC_ALL_MASKED   0xFF

static void pic_write(uint16_t port, uint8_t v)
{
	outb(port, v);
	io_wait();   /* old 8259s need time between writes */
}

void pic_init(void)
{
	/* ICW1: both chips start their 4-word init sequence. */
	pic_write(PIC1_CMD, ICW1_INIT | ICW1_ICW4);
	pic_write(PIC2_CMD, ICW1_INIT | ICW1_ICW4);
	/* ICW2: the vector of line 0. */
	pic_write(PIC1_DATA, IRQ_BASE_VECTOR);
	pic_write(PIC2_DATA, IRQ_BASE_VECTOR + PIC_LINES);
	/* ICW3: tell each chip how they are wired to each other. */
	pic_write(PIC1_DATA, ICW3_MASTER_HAS_SLAVE);
	pic_write(PIC2_DATA, ICW3_SLAVE_ID);
	/* ICW4: 8086 mode, normal (not automatic) EOI. */
	pic_write(PIC1_DATA, ICW4_8086);
	pic_write(PIC2_DATA, ICW4_8086);

	/*
	 * Mask every line; drivers unmask theirs (pit_init, keyboard_init).
	 * The cascade line stays open, or no slave IRQ could ever arrive.
	 */
	pic_write(PIC1_DATA, PIC_ALL_MASKED & ~ICW3_MASTER_HAS_SLAVE);
	pic_write(PIC2_DATA, PIC_ALL_MASKED);
}

void pic_eoi(int irq)
{
	/* A slave IRQ is in service on BOTH chips: the slave's own line and
	 * the master's cascade line.  Clear the slave first. */
	if (irq >= PIC_LINES)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

static uint16_t mask_port(int irq)
{
	return irq < PIC_LINES ? PIC1_DATA : PIC2_DATA;
}

/* Linux's name: the read-modify-write of a mask register is one step. */
static DEFINE_SPINLOCK(i8259A_lock);

void pic_unmask(int irq)
{
	unsigned long flags;

	spin_lock_irqsave(&i8259A_lock, flags);
	uint16_t port = mask_port(irq);

	outb(port, inb(port) & ~(1 << (irq % PIC_LINES)));
	spin_unlock_irqrestore(&i8259A_lock, flags);
}

static uint8_t pic_read_isr(uint16_t cmd_port)
{
	outb(cmd_port, OCW3_READ_ISR);
	return inb(cmd_port);
}

/*
 * A spurious interrupt: a line was raised long enough for the PIC to
 * signal the CPU, but dropped again before the CPU's acknowledge cycle.
 * The PIC then has nothing to report and answers with its lowest
 * priority line, 7 - WITHOUT setting that line's in-service bit.  So a
 * real IRQ 7 (or 15) has its ISR bit set and a spurious one does not.
 *
 * A spurious IRQ 7 must not be EOI'd: the EOI would clear some other,
 * genuine in-service line.  A spurious IRQ 15 came through the master's
 * cascade line, which the master DID put in service, so the master (and
 * only the master) gets its EOI here.
 *
 * Returns true when the caller must neither EOI nor run a handler.
 */
bool pic_is_spurious(int irq)
{
	if (irq == PIC_SPURIOUS_LINE)
		return !(pic_read_isr(PIC1_CMD) & (1 << PIC_SPURIOUS_LINE));
	if (irq == PIC_LINES + PIC_SPURIOUS_LINE) {
		if (pic_read_isr(PIC2_CMD) & (1 << PIC_SPURIOUS_LINE))
			return false;
		outb(PIC1_CMD, OCW2_EOI);
		return true;
	}
	return false;
}
