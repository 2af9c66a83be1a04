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
 *
 * The tick (on CPU 0) writes the three values while any CPU may read
 * them, even inside a probe handler, where waiting on a lock held by the
 * interrupted code would never end.  So readers take no lock: a
 * sequence count, Linux's seqcount_t, is odd while the tick writes; a
 * reader that saw it odd, or saw it change, reads again.
 */
#include "kernel.h"
#include "ktime.h"
#include "timer.h"
#include <asm/processor.h>
#include <asm/processor.h>
#include "nokprobe.h"

#define NSEC_PER_TICK	(NSEC_PER_SEC / HZ)

/* The TSC at the last timer tick, and how far it moved in one tick. */
static uint64_t tick_tsc, tsc_per_tick;
static unsigned long tick_jiffies;
static volatile unsigned int ktime_seq;	/* odd: the tick is writing */

/* From the timer interrupt: one writer only. */
static void ktime_tick(void)
{
	uint64_t now = rdtsc();

	WRITE_ONCE(ktime_seq, ktime_seq + 1);
	barrier();	/* x86 keeps stores in order: the compiler must too */
	if (tick_tsc)
		tsc_per_tick = now - tick_tsc;
	tick_tsc = now;
	tick_jiffies = jiffies;
	barrier();
	WRITE_ONCE(ktime_seq, ktime_seq + 1);
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
	uint64_t base, into, tsc, per_tick;
	unsigned int seq;

	do {
		while ((seq = READ_ONCE(ktime_seq)) & 1)
			cpu_relax();
		barrier();	/* x86 keeps loads in order too */
		base = (uint64_t)tick_jiffies * NSEC_PER_TICK;
		tsc = tick_tsc;
		per_tick = tsc_per_tick;
		barrier();
	} while (READ_ONCE(ktime_seq) != seq);

	if (!per_tick)
		return (uint64_t)jiffies * NSEC_PER_TICK;
	into = (rdtsc() - tsc) * NSEC_PER_TICK / per_tick;
	if (into >= NSEC_PER_TICK)
		into = NSEC_PER_TICK - 1;
	return base + into;
}
/* The tracer reads the clock inside every probe hit. */
NOKPROBE_SYMBOL(ktime_get);
NOKPROBE_SYMBOL(ktime_tick);
