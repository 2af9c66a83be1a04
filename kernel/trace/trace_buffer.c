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
 * Each buffer counts records: record n lives in slot n % size.
 * The writer owns `reserved` (records begun) and `committed` (records
 * finished); a reader may copy record n when n < committed, and the copy
 * is good if afterwards reserved - n <= size (record n + size, which
 * takes its slot, has not begun).  x86 makes
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
#include "mm.h"
#include "errno.h"

struct trace_cpu_buffer {
	/* The writer's: only this CPU writes them, interrupts off. */
	unsigned long reserved;		/* records begun since boot */
	unsigned long committed;	/* records finished: reserved or reserved - 1 */
	/* The readers', under trace_read_mutex. */
	unsigned long head;		/* first record not consumed or cleared */
	unsigned long overrun;		/* overwritten before being consumed */
	unsigned long read;		/* consumed by trace_pipe */
	unsigned long size;		/* slots in ring (buffer_size_kb) */
	unsigned long dropped;		/* the writer's: refused while full, not overwriting */
	unsigned long raw_overrun;	/* overrun when trace_pipe_raw last took a page */
	struct trace_entry *ring;
};

/*
 * One ring buffer of every CPU (Linux's struct trace_buffer): the top
 * level's, and one per instance (instances/NAME, trace_instances.c).
 * Each CPU's buffer, and the spare one a snapshot swaps in (Linux's
 * max_tr).  The top level's boot buffers are static; buffer_size_kb,
 * snapshot and mkdir allocate others.
 */
struct trace_buffer {
	struct trace_cpu_buffer *cpu_buffers[NR_CPUS];
	struct trace_cpu_buffer *spare_buffers[NR_CPUS];
	bool record_disabled;
	int clock_id;			/* what stamps its records (trace_clock) */
	bool no_overwrite;		/* full: drop the new record, keep the old (options/overwrite 0) */
	unsigned long cpu_disabled;	/* bit n: CPU n records nothing (tracing_cpumask) */
};

static struct trace_entry boot_rings[NR_CPUS][TRACE_BUF_ENTRIES];
static struct trace_cpu_buffer boot_buffers[NR_CPUS];
static struct trace_buffer global_buffer;
static struct trace_cpu_buffer *writing[NR_CPUS];	/* reserved in, committed to */
static struct trace_entry discard_entry[NR_CPUS];	/* where writes go while resizing */
static DEFINE_MUTEX(trace_read_mutex);

static struct trace_cpu_buffer *cpu_buffer_of(struct trace_buffer *tb, int cpu)
{
	if (tb == &global_buffer && !tb->cpu_buffers[cpu]) {	/* first use: the boot buffer */
		boot_buffers[cpu].size = TRACE_BUF_ENTRIES;
		boot_buffers[cpu].ring = boot_rings[cpu];
		tb->cpu_buffers[cpu] = &boot_buffers[cpu];
	}
	return tb->cpu_buffers[cpu];
}

struct trace_buffer *trace_buffer_global(void)
{
	return &global_buffer;
}

int ring_buffer_clock_id(struct trace_buffer *tb)
{
	return READ_ONCE(tb->clock_id);
}

uint64_t ring_buffer_time_stamp(struct trace_buffer *tb)
{
	return trace_clock_read(READ_ONCE(tb->clock_id));
}

void ring_buffer_change_overwrite(struct trace_buffer *tb, bool on)
{
	WRITE_ONCE(tb->no_overwrite, !on);
}

/* Linux's ring_buffer_record_disable_cpu() and _enable_cpu(): tracing_cpumask. */
void ring_buffer_record_disable_cpu(struct trace_buffer *tb, int cpu)
{
	WRITE_ONCE(tb->cpu_disabled, tb->cpu_disabled | (1UL << cpu));
}

void ring_buffer_record_enable_cpu(struct trace_buffer *tb, int cpu)
{
	WRITE_ONCE(tb->cpu_disabled, tb->cpu_disabled & ~(1UL << cpu));
}

/* Records of two clocks cannot be merged or compared: the old ones go (the snapshot's too). */
void ring_buffer_set_clock(struct trace_buffer *tb, int id)
{
	WRITE_ONCE(tb->clock_id, id);
	ring_buffer_reset(tb, TRACE_ALL_CPUS);
	ring_buffer_snapshot_reset(tb, TRACE_ALL_CPUS);
}

/* ---- writing (any CPU, inside a probe hit) ---------------------------------- */

struct trace_entry *ring_buffer_lock_reserve(struct trace_buffer *tb, unsigned long *flags)
{
	struct trace_cpu_buffer *b;
	struct trace_entry *e;
	unsigned long n;
	int cpu;

	*flags = local_irq_save();	/* from here to the commit we stay on this CPU */
	cpu = smp_processor_id();
	b = writing[cpu] = READ_ONCE(tb->record_disabled) ||
			   (READ_ONCE(tb->cpu_disabled) & (1UL << cpu)) ? NULL : cpu_buffer_of(tb, cpu);
	if (b && READ_ONCE(tb->no_overwrite) && b->reserved - READ_ONCE(b->head) >= b->size) {
		b->dropped++;			/* Linux's producer/consumer mode: the new one goes */
		b = writing[cpu] = NULL;
	}
	if (!b) {
		e = &discard_entry[cpu];	/* written, never read */
	} else {
		n = b->reserved;
		WRITE_ONCE(b->reserved, n + 1);	/* first: a reader of the old record n - size */
		barrier();			/* then sees it gone before we touch its slot */
		e = &b->ring[n % b->size];
	}
	e->cpu = cpu;
	e->len = 0;
	return e;
}

void ring_buffer_unlock_commit(unsigned long flags)
{
	struct trace_cpu_buffer *b = writing[smp_processor_id()];

	barrier();			/* the record is complete before it is counted */
	if (b)
		WRITE_ONCE(b->committed, b->reserved);
	local_irq_restore(flags);
}

struct trace_entry *trace_buffer_lock_reserve(unsigned long *flags)
{
	return ring_buffer_lock_reserve(&global_buffer, flags);
}

void trace_buffer_unlock_commit(unsigned long flags)
{
	ring_buffer_unlock_commit(flags);
}

/* ---- counting ------------------------------------------------------------------ */

/* The oldest record whose slot still holds it. */
static unsigned long oldest_held(struct trace_cpu_buffer *b)
{
	unsigned long reserved = READ_ONCE(b->reserved);
	unsigned long head = READ_ONCE(b->head);

	if (reserved - head > b->size)
		return reserved - b->size;
	return head;
}

/* Linux's ring_buffer_entries_cpu(): records there to be read. */
unsigned long ring_buffer_entries_cpu(struct trace_buffer *tb, int cpu)
{
	struct trace_cpu_buffer *b = cpu_buffer_of(tb, cpu);
	unsigned long committed = READ_ONCE(b->committed), first = oldest_held(b);

	return (long)(committed - first) > 0 ? committed - first : 0;
}

/* Linux's ring_buffer_overrun_cpu(): records overwritten unread. */
unsigned long ring_buffer_overrun_cpu(struct trace_buffer *tb, int cpu)
{
	struct trace_cpu_buffer *b = cpu_buffer_of(tb, cpu);

	return READ_ONCE(b->overrun) + (oldest_held(b) - READ_ONCE(b->head));
}

unsigned long ring_buffer_read_cpu(struct trace_buffer *tb, int cpu)
{
	return READ_ONCE(cpu_buffer_of(tb, cpu)->read);
}

unsigned long ring_buffer_size(struct trace_buffer *tb, int cpu)
{
	return cpu_buffer_of(tb, cpu)->size;
}

unsigned long trace_buffer_entries_cpu(int cpu) { return ring_buffer_entries_cpu(&global_buffer, cpu); }
unsigned long trace_buffer_lost_cpu(int cpu)    { return ring_buffer_overrun_cpu(&global_buffer, cpu); }
unsigned long trace_buffer_read_cpu(int cpu)    { return ring_buffer_read_cpu(&global_buffer, cpu); }

/* As Linux's header counts "written": still there + lost. */
unsigned long trace_buffer_written_cpu(int cpu)
{
	return trace_buffer_entries_cpu(cpu) + trace_buffer_lost_cpu(cpu);
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

/* A record in flight now is after the clear: it stays. */
static void reset_one(struct trace_cpu_buffer *b)
{
	WRITE_ONCE(b->head, READ_ONCE(b->committed));
	WRITE_ONCE(b->overrun, 0);
	WRITE_ONCE(b->read, 0);
}

/* `echo > trace`: one CPU's records go, or all; the writers never notice. */
void ring_buffer_reset(struct trace_buffer *tb, int only)
{
	mutex_lock(&trace_read_mutex);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (only == TRACE_ALL_CPUS || only == cpu)
			reset_one(cpu_buffer_of(tb, cpu));
	mutex_unlock(&trace_read_mutex);
}

void trace_buffer_reset(int only)
{
	ring_buffer_reset(&global_buffer, only);
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
	memcpy(dst, &b->ring[n % b->size], sizeof(*dst));
	barrier();
	return READ_ONCE(b->reserved) - n <= b->size;
}

/* Where a read stands in each CPU's buffer (Linux's struct trace_iterator). */
struct trace_iter {
	struct trace_cpu_buffer *buf[NR_CPUS];	/* taken at the start: a snapshot may swap */
	unsigned long next[NR_CPUS];	/* the record to show next */
	unsigned long end[NR_CPUS];	/* committed when the read began */
	bool peeked[NR_CPUS];		/* ent[cpu] holds record next[cpu] */
	struct trace_entry ent[NR_CPUS];
};

static struct trace_iter iter;	/* too big for a stack; trace_read_mutex guards it */

static void iter_start(struct trace_iter *it, int cpu_only, struct trace_buffer *tb,
		       struct trace_cpu_buffer **bufs)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct trace_cpu_buffer *b = it->buf[cpu] = bufs[cpu] ? bufs[cpu] :
							    cpu_buffer_of(tb, cpu);

		it->next[cpu] = READ_ONCE(b->head);
		it->end[cpu] = cpu_only == TRACE_ALL_CPUS || cpu_only == cpu ?
			       READ_ONCE(b->committed) : it->next[cpu];
		it->peeked[cpu] = false;
	}
}

/* Copy this CPU's next record into it->ent[cpu]; false if none is left. */
static bool iter_peek(struct trace_iter *it, int cpu)
{
	struct trace_cpu_buffer *b = it->buf[cpu];

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
	struct trace_cpu_buffer *b = it->buf[cpu];
	unsigned long head = READ_ONCE(b->head);

	WRITE_ONCE(b->overrun, b->overrun + (it->next[cpu] - head));
	WRITE_ONCE(b->head, it->next[cpu] + 1);
	WRITE_ONCE(b->read, b->read + 1);
}

static int for_each_record(struct trace_buffer *tb, struct trace_cpu_buffer **bufs,
			   int cpu_only, bool consuming,
			   int (*fn)(const struct trace_entry *e, void *data), void *data)
{
	int cpu, ret = 0;

	mutex_lock(&trace_read_mutex);
	iter_start(&iter, cpu_only, tb, bufs);
	while (!ret && (cpu = iter_next_cpu(&iter)) >= 0) {
		if (!trace_clock_in_ns(tb->clock_id))
			iter.ent[cpu].flags |= TRACE_FLAG_TS_RAW;	/* the printer's cue */
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

int ring_buffer_for_each(struct trace_buffer *tb, int cpu, bool consuming,
			 int (*fn)(const struct trace_entry *e, void *data), void *data)
{
	return for_each_record(tb, tb->cpu_buffers, cpu, consuming, fn, data);
}

int trace_buffer_for_each(int cpu, int (*fn)(const struct trace_entry *e, void *data),
			  void *data)
{
	return ring_buffer_for_each(&global_buffer, cpu, false, fn, data);
}

int trace_buffer_consume_each(int cpu, int (*fn)(const struct trace_entry *e, void *data),
			      void *data)
{
	return ring_buffer_for_each(&global_buffer, cpu, true, fn, data);
}

/* ---- whole pages: trace_pipe_raw and snapshot_raw (ring_buffer_page.c) ---------- */

/* CPU cpu's main buffer, or its snapshot buffer (NULL while there is none). */
static struct trace_cpu_buffer *raw_buffer(struct trace_buffer *tb, int cpu, bool snapshot)
{
	return snapshot ? tb->spare_buffers[cpu] : cpu_buffer_of(tb, cpu);
}

/*
 * Take CPU cpu's records out of its buffer (or its snapshot's) one at a
 * time, oldest first, as trace_pipe does: fn returns non-zero for a
 * record it cannot take, which stays.  -ENODEV if there is no snapshot.
 */
int ring_buffer_consume_cpu(struct trace_buffer *tb, int cpu, bool snapshot,
			    int (*fn)(const struct trace_entry *e, void *data), void *data)
{
	if (!raw_buffer(tb, cpu, snapshot))
		return -ENODEV;
	return for_each_record(tb, snapshot ? tb->spare_buffers : tb->cpu_buffers,
			       cpu, true, fn, data);
}

/*
 * Records overwritten unread since the last call (Linux's
 * cpu_buffer->lost_events, which ring_buffer_read_page() reports in the
 * page's commit field).  A clear starts the count again.
 */
unsigned long ring_buffer_lost_events(struct trace_buffer *tb, int cpu, bool snapshot)
{
	struct trace_cpu_buffer *b = raw_buffer(tb, cpu, snapshot);
	unsigned long now, lost;

	if (!b)
		return 0;
	mutex_lock(&trace_read_mutex);
	now = READ_ONCE(b->overrun) + (oldest_held(b) - READ_ONCE(b->head));
	lost = now >= b->raw_overrun ? now - b->raw_overrun : now;
	b->raw_overrun = now;
	mutex_unlock(&trace_read_mutex);
	return lost;
}

/*
 * Is CPU cpu's buffer (or snapshot) at least full percent full, and not
 * empty (Linux's full_hit(), which counts pages where this counts slots)?
 */
bool ring_buffer_full_hit(struct trace_buffer *tb, int cpu, bool snapshot, unsigned int full)
{
	struct trace_cpu_buffer *b = raw_buffer(tb, cpu, snapshot);
	long held;

	if (!b)
		return false;
	held = (long)(READ_ONCE(b->committed) - oldest_held(b));
	return held > 0 && (unsigned long)held * 100 >= (unsigned long)full * b->size;
}

/* ---- buffer_size_kb ------------------------------------------------------------ */

static void sync_writers(void *unused)
{
}

/*
 * Stop every writer (Linux's ring_buffer_record_disable() and a
 * synchronize): a writer runs with interrupts off, so once every CPU
 * has taken an interrupt after record_disabled was set, none is
 * inside a buffer and any new one writes to discard_entry.
 */
static void writers_stop(struct trace_buffer *tb)
{
	WRITE_ONCE(tb->record_disabled, true);
	on_each_cpu(sync_writers, NULL, 1);
}

static void writers_start(struct trace_buffer *tb)
{
	WRITE_ONCE(tb->record_disabled, false);
}

static struct trace_cpu_buffer *buffer_alloc(unsigned long size)
{
	struct trace_cpu_buffer *b = kzalloc(sizeof(*b));

	if (b && !(b->ring = kmalloc(size * sizeof(*b->ring)))) {
		kfree(b);
		return NULL;
	}
	if (b)
		b->size = size;
	return b;
}

static void buffer_free(struct trace_cpu_buffer *b)
{
	if (b && b >= boot_buffers && b < boot_buffers + NR_CPUS)
		return;
	if (b) {
		kfree(b->ring);
		kfree(b);
	}
}

unsigned long trace_buffer_size(int cpu)
{
	return ring_buffer_size(&global_buffer, cpu);
}

/*
 * One CPU's buffer, or every CPU's (TRACE_ALL_CPUS), and the snapshot's,
 * gets entries slots, emptied - or nothing changes (-ENOMEM).  Linux
 * keeps the records a resize can keep; here they go, as with
 * `echo > trace`.
 */
int ring_buffer_resize(struct trace_buffer *tb, int only, unsigned long entries)
{
	struct trace_cpu_buffer **spare_buffers = tb->spare_buffers;
	struct trace_cpu_buffer *fresh[NR_CPUS] = { 0 }, *spare[NR_CPUS] = { 0 };
	int cpu, ret = 0;

	mutex_lock(&trace_read_mutex);
	writers_stop(tb);
	for (cpu = 0; cpu < NR_CPUS && !ret; cpu++) {
		if (only != TRACE_ALL_CPUS && only != cpu)
			continue;
		fresh[cpu] = buffer_alloc(entries);
		if (spare_buffers[cpu] && fresh[cpu])
			spare[cpu] = buffer_alloc(entries);
		if (!fresh[cpu] || (spare_buffers[cpu] && !spare[cpu]))
			ret = -ENOMEM;
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct trace_cpu_buffer *old, *old_spare;

		if (only != TRACE_ALL_CPUS && only != cpu)
			continue;
		old = ret ? fresh[cpu] : cpu_buffer_of(tb, cpu);
		old_spare = ret ? spare[cpu] : spare_buffers[cpu];
		if (!ret) {
			tb->cpu_buffers[cpu] = fresh[cpu];
			spare_buffers[cpu] = spare[cpu];
		}
		buffer_free(old);
		buffer_free(old_spare);
	}
	writers_start(tb);
	mutex_unlock(&trace_read_mutex);
	return ret;
}

int trace_buffer_resize(int only, unsigned long entries)
{
	return ring_buffer_resize(&global_buffer, only, entries);
}

/*
 * An instance's buffers (mkdir instances/NAME): entries slots on every
 * CPU that runs (one on the others, which never write), or NULL.  Freed
 * by ring_buffer_free() once no writer can be in them (the instance's
 * events are off and synchronize_kprobes() ran).
 */
struct trace_buffer *ring_buffer_alloc(unsigned long entries)
{
	struct trace_buffer *tb = kzalloc(sizeof(*tb));
	int cpu;

	for (cpu = 0; tb && cpu < NR_CPUS; cpu++)
		if (!(tb->cpu_buffers[cpu] = buffer_alloc(cpu_online(cpu) ? entries : 1)))
			break;
	if (tb && cpu < NR_CPUS) {
		ring_buffer_free(tb);
		return NULL;
	}
	return tb;
}

void ring_buffer_free(struct trace_buffer *tb)
{
	if (!tb || tb == &global_buffer)
		return;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		buffer_free(tb->cpu_buffers[cpu]);
		buffer_free(tb->spare_buffers[cpu]);
	}
	kfree(tb);
}

/* ---- snapshot (the top level's, and an instance's) ------------------------------------ */

bool ring_buffer_snapshot_allocated(struct trace_buffer *tb)
{
	return tb->spare_buffers[0] != NULL;
}

/* `echo 1 > snapshot` and a snapshot trigger: the spare buffers, once. */
int ring_buffer_snapshot_alloc(struct trace_buffer *tb)
{
	int cpu, ret = 0;

	mutex_lock(&trace_read_mutex);
	for (cpu = 0; cpu < NR_CPUS && !ret; cpu++)
		if (!tb->spare_buffers[cpu] &&
		    !(tb->spare_buffers[cpu] = buffer_alloc(cpu_buffer_of(tb, cpu)->size)))
			ret = -ENOMEM;
	mutex_unlock(&trace_read_mutex);
	if (ret)
		ring_buffer_snapshot_free(tb);
	return ret;
}

/* `echo 0 > snapshot`: the spare buffers go. */
void ring_buffer_snapshot_free(struct trace_buffer *tb)
{
	mutex_lock(&trace_read_mutex);
	writers_stop(tb);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		buffer_free(tb->spare_buffers[cpu]);
		tb->spare_buffers[cpu] = NULL;
	}
	writers_start(tb);
	mutex_unlock(&trace_read_mutex);
}

/* `echo 2 > snapshot`: the snapshot's records go, one CPU's or all (TRACE_ALL_CPUS). */
void ring_buffer_snapshot_reset(struct trace_buffer *tb, int only)
{
	mutex_lock(&trace_read_mutex);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (tb->spare_buffers[cpu] && (only == TRACE_ALL_CPUS || only == cpu))
			reset_one(tb->spare_buffers[cpu]);
	mutex_unlock(&trace_read_mutex);
}

/*
 * Take a snapshot: the main buffers become the snapshot and the old
 * snapshot buffers, emptied, take the new records (Linux's
 * update_max_tr() swaps the same way; per_cpu/cpuN/snapshot swaps one
 * CPU's, as update_max_tr_single()).  Any context, a probe hit
 * included: it takes no lock.  A writer already inside a buffer on
 * another CPU finishes its record there (writing[] keeps it); a reader
 * took its buffers when it began.
 */
void ring_buffer_snapshot_swap(struct trace_buffer *tb, int only)
{
	unsigned long flags = local_irq_save();

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct trace_cpu_buffer *b = tb->spare_buffers[cpu];

		if (!b || (only != TRACE_ALL_CPUS && only != cpu))
			continue;
		b->head = READ_ONCE(b->committed);
		b->overrun = b->read = 0;
		tb->spare_buffers[cpu] = cpu_buffer_of(tb, cpu);
		WRITE_ONCE(tb->cpu_buffers[cpu], b);
	}
	local_irq_restore(flags);
}

/* The snapshot's records of one CPU (per_cpu/cpuN/snapshot) or of all, merged. */
int ring_buffer_snapshot_for_each(struct trace_buffer *tb, int cpu,
				  int (*fn)(const struct trace_entry *e, void *data), void *data)
{
	if (!ring_buffer_snapshot_allocated(tb))
		return 0;
	return for_each_record(tb, tb->spare_buffers, cpu, false, fn, data);
}

unsigned long ring_buffer_snapshot_entries(struct trace_buffer *tb, int only)
{
	unsigned long sum = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct trace_cpu_buffer *b = tb->spare_buffers[cpu];

		if (b && (only == TRACE_ALL_CPUS || only == cpu))
			sum += READ_ONCE(b->committed) - oldest_held(b);
	}
	return sum;
}

/* The top level's, all CPUs'. */
bool trace_snapshot_allocated(void) { return ring_buffer_snapshot_allocated(&global_buffer); }
int trace_snapshot_alloc(void)      { return ring_buffer_snapshot_alloc(&global_buffer); }
void trace_snapshot_free(void)      { ring_buffer_snapshot_free(&global_buffer); }
void trace_snapshot_reset(void)     { ring_buffer_snapshot_reset(&global_buffer, TRACE_ALL_CPUS); }
void trace_snapshot_swap(void)      { ring_buffer_snapshot_swap(&global_buffer, TRACE_ALL_CPUS); }
unsigned long trace_snapshot_entries(void)
{
	return ring_buffer_snapshot_entries(&global_buffer, TRACE_ALL_CPUS);
}

int trace_snapshot_for_each(int (*fn)(const struct trace_entry *e, void *data), void *data)
{
	return ring_buffer_snapshot_for_each(&global_buffer, TRACE_ALL_CPUS, fn, data);
}

/* A probe in here would fire inside every probe hit. */
NOKPROBE_SYMBOL(cpu_buffer_of);
NOKPROBE_SYMBOL(ring_buffer_clock_id);
NOKPROBE_SYMBOL(ring_buffer_time_stamp);
NOKPROBE_SYMBOL(ring_buffer_lock_reserve);
NOKPROBE_SYMBOL(ring_buffer_unlock_commit);
NOKPROBE_SYMBOL(trace_buffer_lock_reserve);
NOKPROBE_SYMBOL(trace_buffer_unlock_commit);
