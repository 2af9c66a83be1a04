/*
 * probe_sweep.c - probe every instruction of the kernel and prove that
 * nothing it computes changes.
 *
 * The reference is the unprobed kernel: each workload's result (the
 * workloads of workload_results.c cross the scheduler, sleeping,
 * threads, printf and the heap), and the exact set of instructions they
 * execute, single-stepped with TF (exec_trace.c).
 *
 * Then, batch by batch, a probe goes on every instruction boundary the
 * decoder finds in a run of functions, in each of four ways:
 *
 *   int3           register_kprobe(), boosting and optimization off;
 *   boosted        the same, boosting on;
 *   optimized      the same, jump optimization on too;
 *   kprobe_events  "p:sweep/sN func+off" lines written to tracefs.
 *
 * With the batch armed every workload runs again and must return the
 * same result, leave preempt_count 0 and interrupts on, print no BUG or
 * warning; every probe on an instruction the reference executed must
 * have been hit, and every pre-handler must have seen regs->ip just past
 * its probe's int3 (p->addr + 1, as on Linux x86).  A site is either
 * accepted in all four ways or refused in all, for a reason that is
 * counted.  After removal the text must be byte for byte what it was at
 * boot and no memory may be left behind.
 */
#include "probe_sweep.h"
#include "exec_trace.h"
#include "workload_results.h"
#include "kprobes.h"
#include "kallsyms.h"
#include <asm/insn.h>
#include <asm/irqflags.h>
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include "pseudofs.h"
#include "trace.h"
#include "timer.h"
#include "ftrace.h"

#define BATCH_SITES		384	/* probes armed at once */
#define MAX_REPORTED		20	/* mismatches printed in full; the rest counted */
#define EVENT_LINE_MAX		96
/*
 * A trace event's handler records a trace entry, and every probed
 * instruction that recording runs (strlcpy() of the thread's name, the
 * ring's memcpy()) is a reentered hit, stepped without handlers.  On the
 * inner loop of memset() - thousands of hits per page - that is hours of
 * QEMU time.  So a site hit more often than this as an int3 is swept in
 * the three C-API ways only, and counted as hot in the report.
 */
#define EVENTS_HOT_HITS		2000
/*
 * A refused site is a "register_kprobe(...) failed" warning on the
 * console: some 17,000 lines a run, each formatted, sent out of the
 * serial port and scrolled up the VGA screen (thousands of MMIO
 * accesses a line under QEMU).  report() counts the refusals by reason,
 * so while a site registers the console shows errors and worse only.
 */
#define SWEEP_QUIET_LOGLEVEL	MESSAGE_LOGLEVEL_DEFAULT
#define EVENTS_FILE		TRACEFS_DIR "/kprobe_events"
#define EVENTS_GROUP_ENABLE	TRACEFS_DIR "/events/sweep/enable"

extern char _text[], __ktest_text_start[];	/* linker.ld: the kernel, then the tests */

enum sweep_mode { SWEEP_INT3, SWEEP_BOOST, SWEEP_OPT, SWEEP_EVENTS, NR_SWEEP_MODES };

static const char *const mode_name[NR_SWEEP_MODES] = {
	"int3", "boosted", "optimized", "kprobe_events",
};

enum refusal { REFUSED_BLACKLIST, REFUSED_NO_STEP, REFUSED_NO_INT3_STEP, REFUSED_OTHER,
	       NR_REFUSALS };

static const char *const refusal_name[NR_REFUSALS] = {
	"on the kprobes blacklist",
	"cannot be single-stepped (EILSEQ)",
	"stepped with int3, neither falls through nor is emulated (EOPNOTSUPP)",
	"refused for another reason",
};

struct sweep_site {
	unsigned long addr;
	const char *fn;
	unsigned long off;
	bool accepted;			/* by the int3 way; the others must agree */
	bool executed;			/* by the unprobed workloads */
	bool hot;			/* too many int3 hits to trace: no event */
};

struct sweep {
	struct ktest *t;
	unsigned long ref[16];		/* each workload's unprobed result */
	struct heap_stats heap;		/* after the first batch: the baseline */
	unsigned long pages;
	bool have_baseline;

	struct sweep_site site[BATCH_SITES];
	struct kprobe kp[BATCH_SITES];
	unsigned int n;			/* sites in this batch */

	/* what the closing report prints */
	unsigned long functions, executed_functions, sites, batches;
	unsigned long accepted, executed_sites, refused[NR_REFUSALS];
	unsigned long hits[NR_SWEEP_MODES];
	unsigned long ticks[NR_SWEEP_MODES];
	unsigned long hot;		/* sites not made events: see EVENTS_HOT_HITS */
	unsigned long mismatches;
};

static unsigned long bad_ip;	/* pre-handler calls that saw ip away from the probe */

static int sweep_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (regs->ip != (unsigned long)p->addr + sizeof(kprobe_opcode_t))
		bad_ip++;
	return 0;
}

/* One difference from the unprobed kernel: a failure, printed while few. */
#define mismatch(sw, fmt, ...) do {						\
	if (++(sw)->mismatches <= MAX_REPORTED)					\
		ktest_fail((sw)->t, __FILE__, __LINE__, fmt, ##__VA_ARGS__);	\
	else									\
		(sw)->t->failed = true;						\
} while (0)

/* ---- the unprobed reference -------------------------------------------------------- */

/* One single-stepped pass over every workload (exec_trace.c). */
static int trace_pass(struct sweep *sw)
{
	int ret = exec_trace_begin();

	if (ret)
		return ret;
	for (int i = 0; i < nr_workload_results; i++) {
		unsigned long traced = exec_trace_call(workload_results[i].run);

		if (traced != sw->ref[i])
			ktest_fail(sw->t, __FILE__, __LINE__, "workload %s: %#lx single-stepped, %#lx not",
				   workload_results[i].name, traced, sw->ref[i]);
	}
	exec_trace_end();
	return 0;
}

/*
 * The unprobed results, and what the workloads execute, traced in three
 * memory states: as the heap and page allocator are; with a few pages
 * held one at a time, as slot pages are taken; and with the heap cut
 * into many small live blocks, as a batch of trace events leaves it.
 * Allocator paths that depend on the free lists (splitting a run,
 * merging with a neighbour) then count as varying, not as executed: a
 * probe there is not expected to be hit in every memory state.
 */
#define HELD_PAGES	4
#define HELD_BLOCKS	48	/* kmalloc()ed, every other one freed again */
#define HELD_SIZE(i)	(16u << ((i) % 6))

struct held_memory {
	void *pages[HELD_PAGES];
	void *blocks[HELD_BLOCKS];
};

static void hold_pages(struct held_memory *h)
{
	for (int i = 0; i < HELD_PAGES; i++)
		h->pages[i] = alloc_pages(1);
}

static void hold_fragments(struct held_memory *h)
{
	for (int i = 0; i < HELD_BLOCKS; i++)
		h->blocks[i] = kmalloc(HELD_SIZE(i));
	for (int i = 0; i < HELD_BLOCKS; i += 2) {
		kfree(h->blocks[i]);
		h->blocks[i] = NULL;
	}
}

static void release(struct held_memory *h)
{
	for (int i = 0; i < HELD_PAGES; i++)
		if (h->pages[i])
			free_pages(h->pages[i], 1);
	for (int i = 0; i < HELD_BLOCKS; i++)
		kfree(h->blocks[i]);
	memset(h, 0, sizeof(*h));
}

static int take_reference(struct sweep *sw)
{
	static struct held_memory held;
	static void (*const states[])(struct held_memory *) = {
		NULL, hold_pages, hold_fragments,
	};
	int ret = 0;

	for (int i = 0; i < nr_workload_results; i++)
		sw->ref[i] = workload_results[i].run();
	for (size_t i = 0; i < ARRAY_SIZE(states) && !ret; i++) {
		if (states[i])
			states[i](&held);
		ret = trace_pass(sw);
		release(&held);
	}
	return ret;
}

/* ---- the four ways to probe ------------------------------------------------------- */

static void set_switches(enum sweep_mode mode)
{
	kprobes_set_boosting(mode != SWEEP_INT3);
	kprobes_set_optimization(mode == SWEEP_OPT || mode == SWEEP_EVENTS);
}

static enum refusal classify(int err, unsigned long addr)
{
	if (within_kprobe_blacklist(addr))
		return REFUSED_BLACKLIST;
	if (err == -EOPNOTSUPP && kprobe_step_design == KPROBE_SS_INT3)
		return REFUSED_NO_INT3_STEP;
	return err == -EILSEQ ? REFUSED_NO_STEP : REFUSED_OTHER;
}

static bool register_site(struct sweep *sw, unsigned int i, enum sweep_mode mode)
{
	struct sweep_site *s = &sw->site[i];
	int loglevel = console_loglevel;
	char line[EVENT_LINE_MAX];
	int ret;

	if (mode == SWEEP_EVENTS) {
		if (s->hot)
			return s->accepted;	/* not an event: see EVENTS_HOT_HITS */
		snprintf(line, sizeof(line), "p:sweep/s%u %s+%#lx", i, s->fn, s->off);
		console_loglevel = SWEEP_QUIET_LOGLEVEL;
		ret = pseudofs_write(EVENTS_FILE, line, strlen(line), false);
		console_loglevel = loglevel;
		return ret == 0;
	}
	memset(&sw->kp[i], 0, sizeof(sw->kp[i]));
	sw->kp[i].addr = (kprobe_opcode_t *)s->addr;
	sw->kp[i].pre_handler = sweep_pre;
	console_loglevel = SWEEP_QUIET_LOGLEVEL;
	ret = register_kprobe(&sw->kp[i]);
	console_loglevel = loglevel;
	if (mode == SWEEP_INT3) {
		s->accepted = ret == 0;
		if (ret) {
			enum refusal why = classify(ret, s->addr);

			sw->refused[why]++;
			if (why == REFUSED_OTHER)
				ktest_info(sw->t, "%s+%#lx refused: %d", s->fn, s->off, ret);
		}
	}
	return ret == 0;
}

static void arm_batch(struct sweep *sw, enum sweep_mode mode)
{
	unsigned int events = 0;

	for (unsigned int i = 0; i < sw->n; i++) {
		bool ok = register_site(sw, i, mode);

		if (ok != sw->site[i].accepted)
			mismatch(sw, "%s+%#lx: %s as %s, %s as int3", sw->site[i].fn, sw->site[i].off,
				 ok ? "accepted" : "refused", mode_name[mode],
				 sw->site[i].accepted ? "accepted" : "refused");
		events += ok && !sw->site[i].hot;
	}
	/* The group's directory exists once it has an event. */
	if (mode == SWEEP_EVENTS && events &&
	    pseudofs_write(EVENTS_GROUP_ENABLE, "1", 1, true) != 0)
		mismatch(sw, "could not enable the sweep events");
	wait_for_kprobe_optimizer();	/* the jumps are in before the workloads run */
}

/* How often the probe on site i was hit; ~0ul for a hot site that is no event. */
static unsigned long site_hits(struct sweep *sw, unsigned int i, enum sweep_mode mode)
{
	struct kprobe *p;

	if (mode != SWEEP_EVENTS)
		return sw->kp[i].nhit;
	if (sw->site[i].hot)
		return ~0ul;
	p = get_kprobe((void *)sw->site[i].addr);
	return p ? p->nhit : 0;
}

static void disarm_batch(struct sweep *sw, enum sweep_mode mode)
{
	if (mode == SWEEP_EVENTS) {
		pseudofs_write(EVENTS_GROUP_ENABLE, "0", 1, true);	/* ENOENT if none */
		if (pseudofs_write(EVENTS_FILE, "", 0, true) != 0)
			mismatch(sw, "could not remove the sweep events");
	} else {
		for (unsigned int i = 0; i < sw->n; i++)
			if (sw->site[i].accepted)
				unregister_kprobe(&sw->kp[i]);
	}
	synchronize_kprobe_text();	/* slots and detours a thread may still be in */
}

/* ---- one batch, one way ----------------------------------------------------------- */

static const char *first_warning(const char *log)
{
	static const char *const marks[] = { "BUG", "WARNING", "Oops", "kprobes:" };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (strstr(log, marks[i]))
			return strstr(log, marks[i]);
	return NULL;
}

static void run_workloads(struct sweep *sw, enum sweep_mode mode)
{
	const struct sweep_site *first = &sw->site[0];

	for (int i = 0; i < nr_workload_results; i++) {
		const struct workload_result *wl = &workload_results[i];
		const char *warning;
		unsigned long got;

		ktest_capture_start();
		got = wl->run();
		ktest_capture_stop();
		if (got != sw->ref[i])
			mismatch(sw, "%s, batch from %s+%#lx: %s returned %#lx, unprobed %#lx",
				 mode_name[mode], first->fn, first->off, wl->name, got, sw->ref[i]);
		if (preempt_count() != 0 || irqs_disabled())
			mismatch(sw, "%s, batch from %s+%#lx: after %s preempt_count %d, irqs %s",
				 mode_name[mode], first->fn, first->off, wl->name, preempt_count(),
				 irqs_disabled() ? "off" : "on");
		warning = first_warning(ktest_captured());
		if (warning)
			mismatch(sw, "%s, batch from %s+%#lx: %s printed: %.80s", mode_name[mode],
				 first->fn, first->off, wl->name, warning);
	}
}

static void check_hits(struct sweep *sw, enum sweep_mode mode)
{
	for (unsigned int i = 0; i < sw->n; i++) {
		const struct sweep_site *s = &sw->site[i];
		unsigned long hits;

		if (!s->accepted)
			continue;
		hits = site_hits(sw, i, mode);
		if (hits == ~0ul)
			continue;		/* hot: swept without an event */
		sw->hits[mode] += hits;
		if (mode == SWEEP_INT3) {
			sw->executed_sites += s->executed;
			sw->site[i].hot = hits > EVENTS_HOT_HITS;
			sw->hot += sw->site[i].hot;
		}
		if (s->executed && hits == 0)
			mismatch(sw, "%s+%#lx: executed unprobed, never hit as %s", s->fn, s->off,
				 mode_name[mode]);
	}
}

static void check_clean(struct sweep *sw, enum sweep_mode mode)
{
	struct heap_stats now;

	if (ktest_text_checksum() != ktest_boot_text_checksum)
		mismatch(sw, "%s: .text differs from boot after removing the batch from %s",
			 mode_name[mode], sw->site[0].fn);
	if (kprobes_nr_registered() != 0)
		mismatch(sw, "%s: %u probes still registered", mode_name[mode],
			 kprobes_nr_registered());
	heap_get_stats(&now);
	if (sw->have_baseline && (now.live_allocs != sw->heap.live_allocs ||
				  pages_free() != sw->pages))
		mismatch(sw, "%s, batch from %s: %ld allocations, %ld pages not given back",
			 mode_name[mode], sw->site[0].fn,
			 (long)(now.live_allocs - sw->heap.live_allocs),
			 (long)(sw->pages - pages_free()));
}

static void run_batch(struct sweep *sw)
{
	for (int mode = 0; mode < NR_SWEEP_MODES; mode++) {
		unsigned long start = jiffies;

		bad_ip = 0;
		set_switches(mode);
		arm_batch(sw, mode);
		run_workloads(sw, mode);
		check_hits(sw, mode);
		if (bad_ip)
			mismatch(sw, "%s: %lu pre-handler calls saw regs->ip not just past the probe",
				 mode_name[mode], bad_ip);
		disarm_batch(sw, mode);
		check_clean(sw, mode);
		sw->ticks[mode] += jiffies - start;
	}
	set_switches(SWEEP_EVENTS);		/* both on: the defaults */
	/*
	 * Caches that grow once (slot pages, the trace buffer) are full
	 * after the first batch; from then on nothing may be left behind.
	 */
	if (!sw->have_baseline) {
		heap_get_stats(&sw->heap);
		sw->pages = pages_free();
		sw->have_baseline = true;
	}
	sw->batches++;
	sw->n = 0;
}

/* ---- which sites -------------------------------------------------------------------- */

static bool executed_any(unsigned long start, unsigned long size)
{
	for (unsigned long a = start; a < start + size; a++)
		if (exec_trace_executed(a))
			return true;
	return false;
}

/*
 * Functions that wait for another CPU: how often their loops run depends
 * on how fast that CPU answers (a vCPU the host has descheduled answers
 * late), so a reference pass may spin where a probed run does not.  Their
 * sites are probed like any others, but not required to be hit.
 */
static const char *const waits_for_another_cpu[] = {
	"csd_lock_wait",	/* arch/i386/smp.c: a TLB shootdown's IPI, taken or not yet */
};

static bool timing_dependent(const char *fn)
{
	for (size_t i = 0; i < ARRAY_SIZE(waits_for_another_cpu); i++)
		if (!strcmp(fn, waits_for_another_cpu[i]))
			return true;
	return false;
}

static void add_site(struct sweep *sw, const char *fn, unsigned long start, unsigned long ip)
{
	struct sweep_site *s = &sw->site[sw->n++];

	s->addr = ip;
	s->fn = fn;
	s->off = ip - start;
	s->executed = exec_trace_executed(ip) && !timing_dependent(fn);
	s->hot = false;
	sw->sites++;
	if (sw->n == BATCH_SITES)
		run_batch(sw);
}

struct sweep_walk {
	struct sweep *sw;
	unsigned int sample_every;
	unsigned long index;
	bool entries_only;	/* probe_sweep_entries(): each function's call site only */
};

/* kallsyms_on_each_symbol(): every instruction boundary of one chosen function. */
static int sweep_function(void *data, const char *name, unsigned long start,
			  unsigned long size)
{
	struct sweep_walk *w = data;
	struct sweep *sw = w->sw;
	bool executed;
	struct insn insn;

	if (start < (unsigned long)_text || start >= (unsigned long)__ktest_text_start || !size)
		return 0;
	if (w->entries_only) {
		if (ftrace_location(start) != start)
			return 0;
		sw->functions++;
		sw->executed_functions += exec_trace_executed(start);
		add_site(sw, name, start, start);
		return 0;
	}
	executed = executed_any(start, size);
	if (!executed && w->index++ % w->sample_every != 0)
		return 0;
	sw->functions++;
	sw->executed_functions += executed;
	for (unsigned long ip = start; ip < start + size; ip += insn.length) {
		if (insn_decode(&insn, (const void *)ip, INSN_MAX_LEN) <= 0) {
			mismatch(sw, "%s+%#lx: the decoder cannot read it", name, ip - start);
			break;
		}
		add_site(sw, name, start, ip);
	}
	return 0;
}

static void report(struct sweep *sw)
{
	struct ktest *t = sw->t;
	unsigned long refused = 0;

	for (int r = 0; r < NR_REFUSALS; r++)
		refused += sw->refused[r];
	ktest_info(t, "stepped with %s; %lu functions (%lu executed by the workloads), %lu sites in %lu batches",
		   kprobe_step_design_name(kprobe_step_design), sw->functions,
		   sw->executed_functions, sw->sites, sw->batches);
	ktest_info(t, "%lu accepted (%lu executed by the workloads), %lu refused",
		   sw->sites - refused, sw->executed_sites, refused);
	for (int r = 0; r < NR_REFUSALS; r++)
		ktest_info(t, "  %6lu %s", sw->refused[r], refusal_name[r]);
	ktest_info(t, "%lu hot sites (over %d hits as int3) swept without a trace event",
		   sw->hot, EVENTS_HOT_HITS);
	for (int m = 0; m < NR_SWEEP_MODES; m++)
		ktest_info(t, "as %-13s %9lu hits, %5lu ticks", mode_name[m], sw->hits[m],
			   sw->ticks[m]);
	ktest_info(t, "mismatches: %lu", sw->mismatches);
}

/*
 * The reference and the probed runs must execute the same code.  Probes
 * keep every thread on CPU 0 (sched_single_cpu_begin(), kernel/sched.c),
 * so the reference runs that way too: with threads on other CPUs, a
 * spinlock's wait loop would run in one and not in the other.
 */
static void sweep_on_one_cpu(struct ktest *t, unsigned int sample_every, bool entries_only);

void probe_sweep(struct ktest *t, unsigned int sample_every)
{
	sched_single_cpu_begin();
	sweep_on_one_cpu(t, sample_every, false);
	sched_single_cpu_end();
}

void probe_sweep_entries(struct ktest *t)
{
	sched_single_cpu_begin();
	sweep_on_one_cpu(t, 1, true);
	sched_single_cpu_end();
}

static void sweep_on_one_cpu(struct ktest *t, unsigned int sample_every, bool entries_only)
{
	struct sweep *sw = kzalloc(sizeof(*sw));
	struct sweep_walk walk = { .sw = sw, .sample_every = sample_every,
				   .entries_only = entries_only };

	KTEST_ASSERT_TRUE(t, sw != NULL);
	KTEST_ASSERT_TRUE(t, nr_workload_results <= (int)ARRAY_SIZE(sw->ref));
	sw->t = t;
	tracefs_init();			/* the shell makes it; a test boot has no shell */
	if (take_reference(sw) != 0) {
		ktest_fail(t, __FILE__, __LINE__, "no memory for the execution map");
		kfree(sw);
		return;
	}
	ktest_info(t, "unprobed, the workloads execute %lu distinct instructions (%lu more "
		   "only in some memory states)", exec_trace_count(), exec_trace_varying());
	kallsyms_on_each_symbol(sweep_function, &walk);
	if (sw->n)
		run_batch(sw);
	report(sw);
	KTEST_EXPECT_EQ(t, sw->mismatches, 0);
	KTEST_EXPECT_TRUE(t, sw->hits[SWEEP_INT3] > 0);
	exec_trace_free();
	kfree(sw);
}
