/*
 * trace_buffer.c - the ring buffers behind /sys/kernel/tracing/trace:
 * one per CPU, as in Linux.
 *
 *   CPU 0 writes  cpu_buffers[0]: [r0 r1 r2 ... r255]  (ring, oldest overwritten)
 *   CPU 1 writes  cpu_buffers[1]: [r0 r1 ...]
 *                       \             /
 *   `trace`, `trace_pipe`: merged, the oldest timestamp first
 *   per_cpu/cpuN/trace:    one CPU's alone
 *
 * The write path takes no lock.  A CPU writes only its own buffer, with
 * interrupts off from reserving a slot to committing it, so nothing else
 * can write there meanwhile: no other CPU (they have their own), no
 * interrupt on this one (masked), no probe hit inside the writer (the
 * writer is NOKPROBE and kprobes counts a nested hit as missed without
 * running its handler).  Two CPUs hitting probes at once never wait for
 * each other, and a record's CPU is the buffer it sits in.
 *
 * Linux goes further: its writers may nest (an interrupt or NMI traces
 * in the middle of another record), so reserving is a local cmpxchg on
 * the tail; the buffer is a list of sub-buffer pages, and a reader swaps
 * a spare "reader page" into the ring so it never reads a page a writer
 * is filling.  Here writers cannot nest and a reader copies one record at
 * a time and checks afterwards that it was not overwritten meanwhile.
 *
 * Each buffer counts records: record n lives in slot n % TRACE_BUF_ENTRIES.
 * The writer owns `reserved` (records begun) and `committed` (records
 * finished); a reader may copy record n when n < committed, and the copy
 * is good if afterwards reserved - n <= TRACE_BUF_ENTRIES (record n +
 * TRACE_BUF_ENTRIES, which takes its slot, has not begun).  x86 makes
 * stores visible in program order and does not reorder loads, so only
 * the compiler needs telling (barrier()), as in Linux's seqcount.  The
 * readers own `head` (the first record not consumed by trace_pipe or
 * cleared by `echo > trace`) and `overrun` (records overwritten before
 * anyone consumed them); trace_read_mutex keeps readers one at a time.
 * Counters are unsigned long: they would wrap after 2^32 records.
 */
#include "kernel.h"
#include "trace.h"
#include <asm/percpu.h>
#include "smp.h"
#include "mutex.h"
#include <asm/irqflags.h>
#include "string.h"
#include "nokprobe.h"

struct trace_cpu_buffer {
	/* The writer's: only this CPU writes them, interrupts off. */
	unsigned long reserved;		/* records begun since boot */
	unsigned long committed;	/* records finished: reserved or reserved - 1 */
	/* The readers', under trace_read_mutex. */
	unsigned long head;		/* first record not consumed or cleared */
	unsigned long overrun;		/* overwritten before being consumed */
	unsigned long read;		/* consumed by trace_pipe */
	struct trace_entry ring[TRACE_BUF_ENTRIES];
};

static struct trace_cpu_buffer cpu_buffers[NR_CPUS];
static DEFINE_MUTEX(trace_read_mutex);

/* ---- writing (any CPU, inside a probe hit) ---------------------------------- */

struct trace_entry *trace_buffer_lock_reserve(unsigned long *flags)
{
	struct trace_cpu_buffer *b;
	struct trace_entry *e;
	unsigned long n;
	int cpu;

	*flags = local_irq_save();	/* from here to the commit we stay on this CPU */
	cpu = smp_processor_id();
	b = &cpu_buffers[cpu];
	n = b->reserved;
	WRITE_ONCE(b->reserved, n + 1);	/* first: a reader of the old record n - ENTRIES */
	barrier();			/* then sees it gone before we touch its slot */
	e = &b->ring[n % TRACE_BUF_ENTRIES];
	e->cpu = cpu;
	e->len = 0;
	return e;
}

void trace_buffer_unlock_commit(unsigned long flags)
{
	struct trace_cpu_buffer *b = &cpu_buffers[smp_processor_id()];

	barrier();			/* the record is complete before it is counted */
	WRITE_ONCE(b->committed, b->reserved);
	local_irq_restore(flags);
}

/* ---- counting ------------------------------------------------------------------ */

/* The oldest record whose slot still holds it. */
static unsigned long oldest_held(struct trace_cpu_buffer *b)
{
	unsigned long reserved = READ_ONCE(b->reserved);
	unsigned long head = READ_ONCE(b->head);

	if (reserved - head > TRACE_BUF_ENTRIES)
		return reserved - TRACE_BUF_ENTRIES;
	return head;
}

/* Linux's ring_buffer_entries_cpu(): records there to be read. */
unsigned long trace_buffer_entries_cpu(int cpu)
{
	struct trace_cpu_buffer *b = &cpu_buffers[cpu];
	unsigned long committed = READ_ONCE(b->committed), first = oldest_held(b);

	return (long)(committed - first) > 0 ? committed - first : 0;
}

/* Linux's ring_buffer_overrun_cpu(): records overwritten unread. */
unsigned long trace_buffer_lost_cpu(int cpu)
{
	struct trace_cpu_buffer *b = &cpu_buffers[cpu];

	return READ_ONCE(b->overrun) + (oldest_held(b) - READ_ONCE(b->head));
}

/* As Linux's header counts "written": still there + lost. */
unsigned long trace_buffer_written_cpu(int cpu)
{
	return trace_buffer_entries_cpu(cpu) + trace_buffer_lost_cpu(cpu);
}

unsigned long trace_buffer_read_cpu(int cpu)
{
	return READ_ONCE(cpu_buffers[cpu].read);
}

static unsigned long sum_cpus(unsigned long (*count)(int cpu))
{
	unsigned long sum = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += count(cpu);
	return sum;
}

unsigned long trace_buffer_entries(void) { return sum_cpus(trace_buffer_entries_cpu); }
unsigned long trace_buffer_lost(void)    { return sum_cpus(trace_buffer_lost_cpu); }
unsigned long trace_buffer_written(void) { return sum_cpus(trace_buffer_written_cpu); }

/* `echo > trace`: one CPU's records go, or all; the writers never notice. */
void trace_buffer_reset(int only)
{
	mutex_lock(&trace_read_mutex);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct trace_cpu_buffer *b = &cpu_buffers[cpu];

		if (only != TRACE_ALL_CPUS && only != cpu)
			continue;
		/* A record in flight now is after the clear: it stays. */
		WRITE_ONCE(b->head, READ_ONCE(b->committed));
		WRITE_ONCE(b->overrun, 0);
		WRITE_ONCE(b->read, 0);
	}
	mutex_unlock(&trace_read_mutex);
}

/* ---- reading: one CPU's records, or all merged by time ------------------------ */

/*
 * Copy record n of b into dst.  False if it is not there: not committed
 * yet, or overwritten (before or during the copy).
 */
static bool copy_record(struct trace_cpu_buffer *b, unsigned long n, struct trace_entry *dst)
{
	if ((long)(READ_ONCE(b->committed) - n) <= 0)
		return false;
	barrier();
	memcpy(dst, &b->ring[n % TRACE_BUF_ENTRIES], sizeof(*dst));
	barrier();
	return READ_ONCE(b->reserved) - n <= TRACE_BUF_ENTRIES;
}

/* Where a read stands in each CPU's buffer (Linux's struct trace_iterator). */
struct trace_iter {
	unsigned long next[NR_CPUS];	/* the record to show next */
	unsigned long end[NR_CPUS];	/* committed when the read began */
	bool peeked[NR_CPUS];		/* ent[cpu] holds record next[cpu] */
	struct trace_entry ent[NR_CPUS];
};

static struct trace_iter iter;	/* too big for a stack; trace_read_mutex guards it */

static void iter_start(struct trace_iter *it, int cpu_only)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct trace_cpu_buffer *b = &cpu_buffers[cpu];

		it->next[cpu] = READ_ONCE(b->head);
		it->end[cpu] = cpu_only == TRACE_ALL_CPUS || cpu_only == cpu ?
			       READ_ONCE(b->committed) : it->next[cpu];
		it->peeked[cpu] = false;
	}
}

/* Copy this CPU's next record into it->ent[cpu]; false if none is left. */
static bool iter_peek(struct trace_iter *it, int cpu)
{
	struct trace_cpu_buffer *b = &cpu_buffers[cpu];

	while (!it->peeked[cpu]) {
		unsigned long oldest = oldest_held(b);

		if ((long)(oldest - it->next[cpu]) > 0)
			it->next[cpu] = oldest;		/* overwritten while we read */
		if ((long)(it->end[cpu] - it->next[cpu]) <= 0)
			return false;
		it->peeked[cpu] = copy_record(b, it->next[cpu], &it->ent[cpu]);
	}
	return true;
}

/*
 * The CPU whose next record is the oldest (Linux's __find_next_entry()):
 * each buffer is in time order already, so the smallest of the heads is
 * the oldest record left anywhere.  A tie goes to the lower CPU.
 */
static int iter_next_cpu(struct trace_iter *it)
{
	int best = -1;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (iter_peek(it, cpu) &&
		    (best < 0 || it->ent[cpu].ts < it->ent[best].ts))
			best = cpu;
	return best;
}

/* trace_pipe took record it->next[cpu]: it and any lost before it are gone. */
static void consume(struct trace_iter *it, int cpu)
{
	struct trace_cpu_buffer *b = &cpu_buffers[cpu];
	unsigned long head = READ_ONCE(b->head);

	WRITE_ONCE(b->overrun, b->overrun + (it->next[cpu] - head));
	WRITE_ONCE(b->head, it->next[cpu] + 1);
	WRITE_ONCE(b->read, b->read + 1);
}

static int for_each_record(int cpu_only, bool consuming,
			   int (*fn)(const struct trace_entry *e, void *data), void *data)
{
	int cpu, ret = 0;

	mutex_lock(&trace_read_mutex);
	iter_start(&iter, cpu_only);
	while (!ret && (cpu = iter_next_cpu(&iter)) >= 0) {
		ret = fn(&iter.ent[cpu], data);
		if (ret)
			break;		/* not shown: trace_pipe keeps it */
		if (consuming)
			consume(&iter, cpu);
		iter.peeked[cpu] = false;
		iter.next[cpu]++;
	}
	mutex_unlock(&trace_read_mutex);
	return ret;
}

int trace_buffer_for_each(int cpu, int (*fn)(const struct trace_entry *e, void *data),
			  void *data)
{
	return for_each_record(cpu, false, fn, data);
}

int trace_buffer_consume_each(int cpu, int (*fn)(const struct trace_entry *e, void *data),
			      void *data)
{
	return for_each_record(cpu, true, fn, data);
}

/* A probe in here would fire inside every probe hit. */
NOKPROBE_SYMBOL(trace_buffer_lock_reserve);
NOKPROBE_SYMBOL(trace_buffer_unlock_commit);
