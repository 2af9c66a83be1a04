/*
 * ktime.c - Linux's ktime_get(): nanoseconds since boot.
 *
 * The clock is the tracer's (probes/trace_buffer.c): PIT ticks, with the
 * TSC interpolating between two ticks, so it never goes backwards and
 * needs no calibration of its own.  Its resolution is a microsecond;
 * ktime_t still counts nanoseconds, as Linux's does, so code that
 * subtracts two readings and prints ktime_to_ns() works unchanged.
 */
#include "kernel.h"
#include "ktime.h"
#include "trace.h"

ktime_t ktime_get(void)
{
	return (ktime_t)trace_clock_us() * NSEC_PER_USEC;
}
