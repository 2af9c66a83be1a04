/*
 * pit.c - the 8253/8254 Programmable Interval Timer: the kernel's tick.
 *
 * The PIT counts down an input clock of 1.193182 MHz (a third of the
 * original PC's 3.579545 MHz NTSC colour-burst crystal).  Channel 0's
 * output is wired to IRQ 0.  In mode 3 ("square wave") it reloads the
 * divisor each time the count runs out, so IRQ 0 fires every
 * divisor / 1193182 seconds, forever, with no further programming.
 *
 * We want HZ = 100 ticks a second: divisor = 1193182 / 100 = 11932
 * (rounded), giving 99.998 Hz - one tick every 10.0002 ms.
 *
 * Each tick: jiffies++, then the registered hooks, then - until the
 * local APIC timers take over (apic.c) - the scheduler, which may switch
 * threads right here inside the interrupt (the PIC has already had its
 * EOI from the trap dispatcher).  The PIT's IRQ 0 reaches CPU 0 only, so
 * jiffies advance once per tick however many CPUs there are.
 */
#include "kernel.h"
#include <asm/io.h>
#include "timer.h"
#include <asm/traps.h>
#include "sched.h"
#include <asm/apic.h>

#define PIT_BASE_HZ    1193182   /* input clock of every channel */
#define PIT_CH0_DATA   0x40      /* channel 0 counter (wired to IRQ 0) */
#define PIT_CMD        0x43      /* mode/command register (write only) */

/* Command byte fields (8254 datasheet, "Control Word Format"). */
#define PIT_SEL_CH0        (0 << 6)   /* program channel 0 */
#define PIT_ACCESS_LOHI    (3 << 4)   /* then write low byte, high byte */
#define PIT_MODE_SQUARE    (3 << 1)   /* mode 3: square-wave generator */
#define PIT_BINARY         0          /* count in binary, not BCD */

#define PIT_DIVISOR   ((PIT_BASE_HZ + HZ / 2) / HZ)   /* 11932 for 100 Hz */

#define TIMER_IRQ      0
#define MAX_TIMER_HOOKS 8

volatile unsigned long jiffies;

static void (*timer_hooks[MAX_TIMER_HOOKS])(void);
static int nr_timer_hooks;

void timer_add_hook(void (*fn)(void))
{
	if (nr_timer_hooks == MAX_TIMER_HOOKS)
		panic("timer_add_hook: more than %d hooks", MAX_TIMER_HOOKS);
	timer_hooks[nr_timer_hooks++] = fn;
}

/* IRQ 0.  Runs with interrupts off (interrupt gate), EOI already sent. */
static void timer_interrupt(struct pt_regs *regs)
{
	jiffies++;
	for (int i = 0; i < nr_timer_hooks; i++)
		timer_hooks[i]();
	/*
	 * Once the local APIC timers run (apic.c), each CPU's own timer
	 * drives its scheduler; the PIT keeps only time itself.
	 */
	if (!lapic_timer_period)
		scheduler_tick();   /* last: it may not return to us for a while */
}

void pit_init(void)
{
	outb(PIT_CMD, PIT_SEL_CH0 | PIT_ACCESS_LOHI | PIT_MODE_SQUARE | PIT_BINARY);
	outb(PIT_CH0_DATA, PIT_DIVISOR & 0xFF);
	outb(PIT_CH0_DATA, PIT_DIVISOR >> 8);

	request_irq(TIMER_IRQ, timer_interrupt);
	printk("pit: channel 0 at %d Hz (divisor %d)\n", HZ, PIT_DIVISOR);
}
