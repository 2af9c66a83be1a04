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
#include "string.h"
#include "errno.h"
#include "spinlock.h"
#include "nokprobe.h"
#include "rtc.h"

#define NSEC_PER_TICK		(NSEC_PER_SEC / HZ)
#define USER_HZ			100	/* Linux's clock_t: the unit of times(2) and of "uptime" */
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
 * ticking (tracefs_init() is called so).  The RTC is read then, once.
 */
static void trace_clock_read_rtc(void);

void trace_clock_init(void)
{
	uint64_t start, end;

	ktime_init();
	if (READ_ONCE(mult) || irqs_disabled()) {
		trace_clock_read_rtc();
		return;		/* done, or no tick would come: trace_clock() uses ktime */
	}
	start = wait_tick_edge();
	for (int i = 1; i < TRACE_CLOCK_CAL_TICKS; i++)
		wait_tick_edge();
	end = wait_tick_edge();
	cal_ns = (uint64_t)jiffies * NSEC_PER_TICK;
	cal_tsc = end;
	set_mult_shift(end - start ? end - start : 1, TRACE_CLOCK_CAL_TICKS * NSEC_PER_TICK);
	trace_clock_read_rtc();
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

/* "local": nanoseconds since boot, from this CPU's TSC. */
static uint64_t trace_clock_local(void)
{
	if (!READ_ONCE(mult))
		return ktime_get();	/* not measured yet */
	return trace_clock_tsc_to_ns(rdtsc());
}

/*
 * The wall clock, for tai: Linux's timekeeper keeps CLOCK_REALTIME as
 * the monotonic clock plus an offset (offs_real), set at boot from the
 * RTC (read_persistent_clock64()), and CLOCK_TAI as realtime plus
 * tai_offset, which starts at 0 and stays so until NTP sets it with
 * adjtimex(ADJ_TAI) - so on Linux without an NTP daemon, tai reads UTC.
 * This kernel has no adjtimex: tai_offset stays 0, as Linux's does.
 *
 * The base is the local clock (the TSC, which QEMU derives from the
 * host's clock), not ktime_get(): a tick that comes late on a busy host
 * is lost to ktime for good.  The RTC counts seconds: the wall clock
 * starts right to within one, and drifts by the error of the TSC rate
 * measured at boot (see above: the ticks it was measured against may
 * have come late) - Linux without NTP drifts too, by its clocksource's
 * error, a far smaller one.
 */
static int64_t offs_real;	/* ns: the wall time at local clock 0 */
static const int64_t tai_offset;	/* s: Linux's tk->tai_offset, until NTP */
static bool wall_clock_read;

static void trace_clock_read_rtc(void)
{
	struct rtc_time tm;

	if (wall_clock_read)
		return;
	wall_clock_read = true;
	if (mach_get_cmos_time(&tm) == 0)	/* else no RTC: the wall clock starts at 1970 */
		offs_real = rtc_tm_to_time64(&tm) * NSEC_PER_SEC - (int64_t)trace_clock_local();
}

/* ---- the other clocks of trace_clock ------------------------------------------- */

static DEFINE_SPINLOCK(trace_clock_lock);
static uint64_t global_prev, counter;

/*
 * "global": local, but never earlier than any stamp any CPU took before
 * (Linux's trace_clock_global()).  Two CPUs' TSCs need not agree on real
 * hardware; one lock and the largest value so far make the order across
 * CPUs the order in time, at the price of a shared cache line per record.
 */
static uint64_t trace_clock_global(void)
{
	unsigned long flags;
	uint64_t now;

	spin_lock_irqsave(&trace_clock_lock, flags);
	now = trace_clock_local();
	if (now < global_prev)
		now = global_prev;
	global_prev = now;
	spin_unlock_irqrestore(&trace_clock_lock, flags);
	return now;
}

/* "counter": 1, 2, 3...: the order of events, no time at all. */
static uint64_t trace_clock_counter(void)
{
	unsigned long flags;
	uint64_t n;

	spin_lock_irqsave(&trace_clock_lock, flags);
	n = ++counter;
	spin_unlock_irqrestore(&trace_clock_lock, flags);
	return n;
}

/* "uptime": the tick count in USER_HZ units (Linux's jiffies_64_to_clock_t()). */
static uint64_t trace_clock_jiffies(void)
{
	return (uint64_t)jiffies * USER_HZ / HZ;
}

/* "mono": the kernel's monotonic clock, ns since boot (ktime_get()). */
static uint64_t trace_clock_mono(void)
{
	return (uint64_t)ktime_get();
}

/* "tai": International Atomic Time in ns since the epoch (Linux's ktime_get_tai_fast_ns()). */
static uint64_t trace_clock_tai(void)
{
	return trace_clock_local() + offs_real + tai_offset * NSEC_PER_SEC;
}

/* "x86-tsc": the time stamp counter itself, in cycles. */
static uint64_t trace_clock_x86_tsc(void)
{
	return rdtsc();
}

/*
 * Linux 6.1's list for x86, in its order.  perf is Linux's
 * trace_clock() (local_clock(): the local one here).  mono is
 * ktime_get(); mono_raw (no NTP slewing) and boot (mono plus time
 * suspended) read the same here: this kernel neither slews nor
 * suspends.  tai needs the wall clock, which this kernel does not keep:
 * it is not in the list (docs/tracing.md).
 */
static const struct {
	const char *name;
	uint64_t (*read)(void);
	bool in_ns;		/* printed as seconds.microseconds, else a bare count */
} trace_clocks[] = {
	[TRACE_CLOCK_LOCAL]    = { "local",    trace_clock_local,   true },
	[TRACE_CLOCK_GLOBAL]   = { "global",   trace_clock_global,  true },
	[TRACE_CLOCK_COUNTER]  = { "counter",  trace_clock_counter, false },
	[TRACE_CLOCK_UPTIME]   = { "uptime",   trace_clock_jiffies, false },
	[TRACE_CLOCK_PERF]     = { "perf",     trace_clock_local,   true },
	[TRACE_CLOCK_MONO]     = { "mono",     trace_clock_mono,    true },
	[TRACE_CLOCK_MONO_RAW] = { "mono_raw", trace_clock_mono,    true },
	[TRACE_CLOCK_BOOT]     = { "boot",     trace_clock_mono,    true },
	[TRACE_CLOCK_TAI]      = { "tai",      trace_clock_tai,     true },
	[TRACE_CLOCK_X86_TSC]  = { "x86-tsc",  trace_clock_x86_tsc, false },
};
_Static_assert(ARRAY_SIZE(trace_clocks) == TRACE_CLOCK_NR, "one entry per clock id");

uint64_t trace_clock_read(int id)
{
	return trace_clocks[id].read();
}

bool trace_clock_in_ns(int id)
{
	return trace_clocks[id].in_ns;
}

/* The stamp of a top-level record: its buffer's clock (trace_clock, default local). */
uint64_t trace_clock(void)
{
	return trace_clock_read(ring_buffer_clock_id(trace_buffer_global()));
}

/* trace_clock's text: every clock, the current one in brackets, Linux's format. */
int trace_clock_show(struct seq_buf *s, void *data)
{
	struct trace_buffer *tb = data ? data : trace_buffer_global();
	int cur = ring_buffer_clock_id(tb);

	for (int i = 0; i < TRACE_CLOCK_NR; i++)
		seq_buf_printf(s, "%s%s%s%s", i ? " " : "", i == cur ? "[" : "",
			       trace_clocks[i].name, i == cur ? "]" : "");
	seq_buf_puts(s, "\n");
	return 0;
}

/* A clock's name, spaces around it allowed; another is EINVAL.  The buffer empties. */
int trace_clock_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_buffer *tb = data ? data : trace_buffer_global();

	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	for (int i = 0; i < TRACE_CLOCK_NR; i++)
		if (strlen(trace_clocks[i].name) == len && !strncmp(trace_clocks[i].name, text, len)) {
			ring_buffer_set_clock(tb, i);
			return 0;
		}
	return -EINVAL;
}

/* A record's stamp as `trace` prints it: seconds, or a bare count (counter, uptime, x86-tsc). */
int trace_sprint_entry_ts(char *buf, size_t size, const struct trace_entry *e)
{
	if (e->flags & TRACE_FLAG_TS_RAW)
		return snprintf(buf, size, "%12llu", (unsigned long long)e->ts);
	return trace_sprint_ts(buf, size, e->ts);
}

int trace_sprint_ts(char *buf, size_t size, uint64_t ts_ns)
{
	uint64_t us = ts_ns / NSEC_PER_USEC;

	return snprintf(buf, size, "%5lu.%06lu", (unsigned long)(us / USEC_PER_SEC),
			(unsigned long)(us % USEC_PER_SEC));
}

/* Every probe hit reads the clock. */
NOKPROBE_SYMBOL(trace_clock_local);
NOKPROBE_SYMBOL(trace_clock_global);
NOKPROBE_SYMBOL(trace_clock_counter);
NOKPROBE_SYMBOL(trace_clock_jiffies);
NOKPROBE_SYMBOL(trace_clock_mono);
NOKPROBE_SYMBOL(trace_clock_tai);
NOKPROBE_SYMBOL(trace_clock_x86_tsc);
NOKPROBE_SYMBOL(trace_clock_read);
NOKPROBE_SYMBOL(trace_clock);
NOKPROBE_SYMBOL(trace_clock_tsc_to_ns);
