/*
 * trace_buffer.c - the ring buffer behind /sys/kernel/tracing/trace.
 *
 * A fixed array of TRACE_BUF_ENTRIES records.  Every probe hit takes the
 * next slot; when the array is full the oldest record is overwritten, as
 * Linux's ring buffer does in its default "overwrite" mode, and the
 * header of `trace` says how many were lost:
 *
 *   # entries-in-buffer/entries-written: 256/300   #P:1
 *
 * Records are numbered by `written` (never reset except by `echo >
 * trace`): record number n lives in slot n % TRACE_BUF_ENTRIES, and the
 * numbers still held are [written - entries, written).  Writers run in
 * probe handlers, on any CPU, and hold trace_buffer_lock (interrupts
 * off) from reserving a slot until the record is complete; the reader
 * copies each record out under the same lock, so a record is never seen
 * half-written.  Linux's ring buffer has one buffer per CPU and no lock
 * on the write path; one buffer and one lock keep this one short.
 */
#include "kernel.h"
#include "trace.h"
#include "spinlock.h"
#include "string.h"
#include "vsprintf.h"
#include "nokprobe.h"
#include "ktime.h"

static struct trace_entry ring[TRACE_BUF_ENTRIES];
static unsigned long written;	/* records ever reserved since the last reset */
static DEFINE_SPINLOCK(trace_buffer_lock);

/* ---- the clock -------------------------------------------------------------- */

/* Linux's trace clock is its local_clock(); ours is ktime_get() (kernel/ktime.c). */
void trace_clock_init(void)
{
	ktime_init();
}

uint64_t trace_clock_us(void)
{
	return ktime_get() / NSEC_PER_USEC;
}

int trace_sprint_ts(char *buf, size_t size, uint64_t ts_us)
{
	return snprintf(buf, size, "%5lu.%06lu", (unsigned long)(ts_us / USEC_PER_SEC),
			(unsigned long)(ts_us % USEC_PER_SEC));
}

/* ---- writing ---------------------------------------------------------------- */

struct trace_entry *trace_buffer_lock_reserve(unsigned long *flags)
{
	struct trace_entry *e;

	spin_lock_irqsave(&trace_buffer_lock, *flags);
	e = &ring[written % TRACE_BUF_ENTRIES];
	written++;
	e->len = 0;
	return e;
}

void trace_buffer_unlock_commit(unsigned long flags)
{
	spin_unlock_irqrestore(&trace_buffer_lock, flags);
}

void trace_buffer_reset(void)
{
	unsigned long flags;

	spin_lock_irqsave(&trace_buffer_lock, flags);
	written = 0;
	spin_unlock_irqrestore(&trace_buffer_lock, flags);
}

unsigned long trace_buffer_written(void)
{
	return written;
}

unsigned long trace_buffer_entries(void)
{
	unsigned long w = READ_ONCE(written);

	return w < TRACE_BUF_ENTRIES ? w : TRACE_BUF_ENTRIES;
}

unsigned long trace_buffer_lost(void)
{
	unsigned long w = READ_ONCE(written);

	return w - (w < TRACE_BUF_ENTRIES ? w : TRACE_BUF_ENTRIES);
}

/* ---- reading ---------------------------------------------------------------- */

int trace_buffer_for_each(int (*fn)(const struct trace_entry *e, void *data),
			  void *data)
{
	static struct trace_entry copy;	/* too big for a thread's stack */
	unsigned long end = READ_ONCE(written);
	unsigned long n = end > TRACE_BUF_ENTRIES ? end - TRACE_BUF_ENTRIES : 0;
	int ret = 0;

	for (; n < end && !ret; n++) {
		unsigned long flags;
		bool gone;

		spin_lock_irqsave(&trace_buffer_lock, flags);
		/* Overwritten while we printed the earlier ones? Skip it. */
		gone = written < n + 1 || written - n > TRACE_BUF_ENTRIES;
		if (!gone)
			memcpy(&copy, &ring[n % TRACE_BUF_ENTRIES], sizeof(copy));
		spin_unlock_irqrestore(&trace_buffer_lock, flags);
		if (!gone)
			ret = fn(&copy, data);
	}
	return ret;
}

/* A probe in here would fire inside every probe hit. */
NOKPROBE_SYMBOL(trace_buffer_lock_reserve);
NOKPROBE_SYMBOL(trace_buffer_unlock_commit);
NOKPROBE_SYMBOL(trace_clock_us);
