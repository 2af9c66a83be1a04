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
#include "processor.h"
#include "irqflags.h"
#include "vsprintf.h"
#include "nokprobe.h"

#define NSEC_PER_TICK		(NSEC_PER_SEC / HZ)
#define TRACE_CLOCK_CAL_TICKS	5	/* 50 ms of PIT against the TSC */

/* At a tick edge: the TSC and the time since boot; cycles per cal period. */
static uint64_t cal_tsc, cal_ns, cal_cycles;
static const uint64_t cal_period_ns = TRACE_CLOCK_CAL_TICKS * NSEC_PER_TICK;

/* Spin until jiffies moves on; returns the TSC right after the edge. */
static uint64_t wait_tick_edge(void)
{
	unsigned long j = jiffies;

	while (jiffies == j)
		cpu_relax();
	return rdtsc();
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
	if (cal_cycles || irqs_disabled())
		return;		/* done, or no tick would come: trace_clock() uses ktime */
	start = wait_tick_edge();
	for (int i = 1; i < TRACE_CLOCK_CAL_TICKS; i++)
		wait_tick_edge();
	end = wait_tick_edge();
	cal_ns = (uint64_t)jiffies * NSEC_PER_TICK;
	cal_tsc = end;
	barrier();	/* a reader that sees the rate sees its base too */
	WRITE_ONCE(cal_cycles, end - start ? end - start : 1);
}

/* Nanoseconds since boot at TSC value tsc (not before the calibration). */
uint64_t trace_clock_tsc_to_ns(uint64_t tsc)
{
	uint64_t delta = tsc > cal_tsc ? tsc - cal_tsc : 0;

	/* Whole periods and the rest: no 64-bit overflow for centuries. */
	return cal_ns + delta / cal_cycles * cal_period_ns +
	       delta % cal_cycles * cal_period_ns / cal_cycles;
}

/* The stamp of a record: nanoseconds since boot, from this CPU's TSC. */
uint64_t trace_clock(void)
{
	if (!READ_ONCE(cal_cycles))
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
