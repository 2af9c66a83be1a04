/*
 * trace_clock.c - the clock every trace record is stamped with.
 *
 * Each CPU writes its own ring buffer (trace_buffer.c) and `trace`
 * merges them by timestamp, so a stamp taken on CPU 0 must be comparable
 * with one taken on CPU 1 a moment later.  Three candidates:
 *
 *   jiffies      the same on every CPU, but 10 ms steps: a whole probe
 *                storm gets one value and the merge could not order it;
 *   ktime_get()  jiffies refined by the TSC, but capped below the next
 *                tick: when the tick comes late (a busy host runs our
 *                CPUs as threads) the stamps of both CPUs stand still at
 *                the cap, and ties lose the order;
 *   the TSC      counts on at the CPU's rate, never stands still.  Under
 *                QEMU every virtual CPU reads one counter (TCG derives it
 *                from the host's clock), so values from two CPUs compare
 *                directly.  On real hardware that holds for an invariant
 *                TSC that firmware started together; Linux checks it at
 *                boot (check_tsc_sync_source()) and otherwise falls back
 *                to its "global" trace clock.
 *
 * We use the TSC (Linux's "x86-tsc" trace clock), turned into
 * nanoseconds since boot with one rate measured here once against the
 * PIT.  One fixed rate keeps the conversion monotonic: a later TSC value
 * never gets an earlier timestamp, on any CPU.  Ticks that came late
 * while we measured (a busy host) make the rate off by a few per cent:
 * the printed seconds drift by as much from the kernel's other clocks,
 * but the order of the records never suffers.
 */
#include "kernel.h"
#include "trace.h"
#include "timer.h"
#include "ktime.h"
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "vsprintf.h"
#include "nokprobe.h"

#define NSEC_PER_TICK		(NSEC_PER_SEC / HZ)
#define TRACE_CLOCK_CAL_TICKS	5	/* 50 ms of PIT against the TSC */
#define MULT_SHIFT_MAX		32

/*
 * ns = cycles * mult >> shift, Linux's clocksource arithmetic: the hit
 * path multiplies and shifts, never divides (a 64-bit division is a
 * libgcc call, and a probe there would be re-entered at every hit).
 * shift is as large as lets mult fit 32 bits, for the finest rate.
 */
static uint64_t cal_tsc, cal_ns;	/* at a tick edge: the TSC and the time since boot */
static uint32_t mult, shift;

/* Spin until jiffies moves on; returns the TSC right after the edge. */
static uint64_t wait_tick_edge(void)
{
	unsigned long j = jiffies;

	while (jiffies == j)
		cpu_relax();
	return rdtsc();
}

static void set_mult_shift(uint64_t cycles, uint64_t ns)
{
	uint64_t m;

	uint32_t sh = MULT_SHIFT_MAX;

	while ((m = (ns << sh) / cycles) > UINT32_MAX && sh > 0)
		sh--;
	shift = sh;
	barrier();	/* a reader that sees mult sees its base and shift too */
	WRITE_ONCE(mult, m > UINT32_MAX ? UINT32_MAX : m ? (uint32_t)m : 1);
}

/*
 * Measure the TSC over TRACE_CLOCK_CAL_TICKS ticks, from one edge to
 * another so no partial tick counts.  From a thread, with the timer
 * ticking (tracefs_init() is called so).
 */
void trace_clock_init(void)
{
	uint64_t start, end;

	ktime_init();
	if (READ_ONCE(mult) || irqs_disabled())
		return;		/* done, or no tick would come: trace_clock() uses ktime */
	start = wait_tick_edge();
	for (int i = 1; i < TRACE_CLOCK_CAL_TICKS; i++)
		wait_tick_edge();
	end = wait_tick_edge();
	cal_ns = (uint64_t)jiffies * NSEC_PER_TICK;
	cal_tsc = end;
	set_mult_shift(end - start ? end - start : 1, TRACE_CLOCK_CAL_TICKS * NSEC_PER_TICK);
}

/* Nanoseconds since boot at TSC value tsc (not before the calibration). */
uint64_t trace_clock_tsc_to_ns(uint64_t tsc)
{
	uint64_t delta = tsc > cal_tsc ? tsc - cal_tsc : 0;
	uint32_t lo = (uint32_t)delta, hi = (uint32_t)(delta >> 32);

	/* Two 32x32-bit products, each fits 64 bits: mul, no libgcc call. */
	return cal_ns + (((uint64_t)lo * mult) >> shift) +
	       (((uint64_t)hi * mult) << (32 - shift));
}

/* The stamp of a record: nanoseconds since boot, from this CPU's TSC. */
uint64_t trace_clock(void)
{
	if (!READ_ONCE(mult))
		return ktime_get();	/* not measured yet */
	return trace_clock_tsc_to_ns(rdtsc());
}

int trace_sprint_ts(char *buf, size_t size, uint64_t ts_ns)
{
	uint64_t us = ts_ns / NSEC_PER_USEC;

	return snprintf(buf, size, "%5lu.%06lu", (unsigned long)(us / USEC_PER_SEC),
			(unsigned long)(us % USEC_PER_SEC));
}

/* Every probe hit reads the clock. */
NOKPROBE_SYMBOL(trace_clock);
NOKPROBE_SYMBOL(trace_clock_tsc_to_ns);
