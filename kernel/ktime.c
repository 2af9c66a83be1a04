/*
 * ktime.c - Linux's ktime_get(): nanoseconds since boot, from the PIT
 * and the TSC.
 *
 * The PIT ticks HZ times a second: jiffies alone would give 10 ms steps.
 * The TSC counts CPU cycles; at each tick we note its value and how far
 * it moved during the last tick, so between two ticks the TSC says how
 * far into the current one we are.  The result is capped below one tick,
 * so time never runs ahead of the next tick's value and never goes
 * backwards.  Until two ticks have been seen, it is jiffies alone.
 * The tracer's timestamps (kernel/trace/trace_buffer.c) are this clock too.
 */
#include "kernel.h"
#include "ktime.h"
#include "timer.h"
#include "processor.h"
#include "irqflags.h"
#include "nokprobe.h"

#define NSEC_PER_TICK	(NSEC_PER_SEC / HZ)

/* The TSC at the last timer tick, and how far it moved in one tick. */
static uint64_t tick_tsc, tsc_per_tick;
static unsigned long tick_jiffies;

static void ktime_tick(void)
{
	uint64_t now = rdtsc();

	if (tick_tsc)
		tsc_per_tick = now - tick_tsc;
	tick_tsc = now;
	tick_jiffies = jiffies;
}

void ktime_init(void)
{
	static bool done;

	if (!done) {
		done = true;
		timer_add_hook(ktime_tick);
	}
}

ktime_t ktime_get(void)
{
	unsigned long flags = local_irq_save();
	uint64_t base = (uint64_t)tick_jiffies * NSEC_PER_TICK;
	uint64_t into = 0;

	if (tsc_per_tick) {
		into = (rdtsc() - tick_tsc) * NSEC_PER_TICK / tsc_per_tick;
		if (into >= NSEC_PER_TICK)
			into = NSEC_PER_TICK - 1;
	} else {
		base = (uint64_t)jiffies * NSEC_PER_TICK;
	}
	local_irq_restore(flags);
	return base + into;
}
/* The tracer reads the clock inside every probe hit. */
NOKPROBE_SYMBOL(ktime_get);
NOKPROBE_SYMBOL(ktime_tick);
