/*
 * optprobes.c - the optimizer: which armed probes are jumps, not int3s.
 *
 * Architecture independent, like Linux's half of kernel/kprobes.c that
 * deals with optimized_kprobe.  A probe qualifies when it is armed and
 * has only a pre-handler (a post-handler runs after a single-step, a
 * break-handler needs the int3 path: neither exists for a jump); the
 * arch half (arch/i386/optprobes.c) then decides whether its site is
 * safe, builds the detour buffer and patches the text.  Refusal is never
 * an error: the probe simply stays an int3 (and maybe boosted).
 *
 * Linux optimizes from a delayed work queue, in batches, because it
 * must wait for other CPUs and preempted tasks with synchronize_rcu.
 * On our one CPU we can look at every thread directly (text_quiesce.c),
 * so optimizing is synchronous: register_kprobe() returns with the
 * jump in place.  The only reason to wait is a preempted thread stopped
 * inside the bytes the jump would cover; such probes sit on the
 * optimizing list and are retried at every later kprobes operation.
 *
 * State of a registered probe p (the one in the kprobe table):
 *   not optimized:  an int3, no record
 *   waiting:        an int3, a record on optimizing_list
 *   optimized:      a jmp, KPROBE_FLAG_OPTIMIZED, a record in optimized_table
 * Every change happens under kprobe_mutex (probes/kprobes.c calls the
 * hooks below with it held, and the runtime switch goes through
 * kprobes_for_each(), which takes it).  Hits never look at these tables:
 * the detour knows its record.
 */
#include "kernel.h"
#include "kprobes.h"
#include "hash.h"
#include "kallsyms.h"
#include "errno.h"
#include "irqflags.h"
#include "mm.h"
#include "sched.h"
#include "string.h"

static bool kprobes_allow_optimization = true;
static unsigned int nr_optimized;

/*
 * Optimized probes hashed by address / 32.  A jump covers at most
 * MAX_OPTIMIZED_LENGTH (19) bytes, so the probe covering a byte starts
 * in that byte's 32-byte granule or the one before: two buckets to look
 * in, whatever the number of probes (recover_optprobed_bytes() runs for
 * every instruction the decoder walks at registration).  1,024 buckets
 * (4 KiB): with 64, 10,000 optimized probes made every decoded
 * instruction walk two chains of ~150 and registration 3.4 times dearer
 * per probe than with 1,000 (docs/performance.md, "Registration").
 */
#define OPT_HASH_BITS		10
#define OPT_GRANULE_SHIFT	5
static struct hlist_head optimized_table[1 << OPT_HASH_BITS];
static LIST_HEAD(optimizing_list);

static struct hlist_head *opt_bucket(unsigned long granule)
{
	return &optimized_table[hash_32(granule, OPT_HASH_BITS)];
}

static unsigned long op_start(const struct optimized_kprobe *op)
{
	return (unsigned long)op->kp->addr;
}

static const char *const refusal_names[OPT_NR_REFUSALS] = {
	[OPT_OK] = "optimizable",
	[OPT_SWITCHED_OFF] = "optimization switched off",
	[OPT_HANDLERS] = "has a post- or break-handler",
	[OPT_DISABLED] = "disabled",
	[OPT_NO_SIZE] = "function size unknown",
	[OPT_CROSSES_END] = "jump would cross the function's end",
	[OPT_NOT_RELOCATABLE] = "displaced instruction cannot be relocated",
	[OPT_PROBE_IN_RANGE] = "another probe inside the jump",
	[OPT_JUMP_INTO_RANGE] = "a branch lands inside the jump",
	[OPT_INDIRECT_JUMP] = "function has an indirect jump",
	[OPT_FIXUP_ENTRY] = "function has exception-fixup entries",
	[OPT_UNDECODABLE] = "function does not decode",
	[OPT_THREAD_INSIDE] = "a preempted thread is inside (retried later)",
	[OPT_NO_MEMORY] = "out of memory",
};

const char *optprobe_refusal_name(int why)
{
	if (why < 0)
		why = -why;
	return why < OPT_NR_REFUSALS ? refusal_names[why] : "?";
}

/* ---- where a function really is ----------------------------------------------- */

/*
 * kallsyms knows symbols, not functions.  Two kinds of symbols need a
 * second look, and one pass over the table at first use finds them:
 *   - outer symbols: an assembly routine with a .size that contains
 *     global labels (fixup_routine and its fx_* labels).  The label is
 *     what kallsyms_lookup() returns, but the routine is the function.
 *   - cold parts: "foo.cold", code gcc split off foo that jumps back
 *     into the middle of foo.
 * Symbols of modules loaded later are not indexed: module code is
 * compiled C, where neither happens except .cold (documented limit).
 */
#define MAX_INDEXED_SYMS	64

struct sym_range {
	unsigned long start, end;
	unsigned long parent;		/* cold parts: where foo starts */
};

static struct sym_range outer_syms[MAX_INDEXED_SYMS], cold_parts[MAX_INDEXED_SYMS];
static int nr_outer, nr_cold;
static bool extent_index_ready, extent_index_full;
static struct { unsigned long start, end; bool recorded; } widest;	/* during the pass */
static const char *cold_names[MAX_INDEXED_SYMS];

#define COLD_SUFFIX	".cold"

static void add_range(struct sym_range *tab, int *nr, unsigned long start,
		      unsigned long end)
{
	if (*nr == MAX_INDEXED_SYMS) {
		extent_index_full = true;
		return;
	}
	tab[*nr].start = start;
	tab[*nr].end = end;
	tab[(*nr)++].parent = 0;
}

/* Symbols come sorted by address; widest is the one reaching furthest so far. */
static int index_symbol(void *data, const char *name, unsigned long addr,
			unsigned long size)
{
	size_t n = strlen(name), k = sizeof(COLD_SUFFIX) - 1;

	if (!kernel_text_address(addr))
		return 0;
	if (n > k && strcmp(name + n - k, COLD_SUFFIX) == 0) {
		if (nr_cold < MAX_INDEXED_SYMS)
			cold_names[nr_cold] = name;
		add_range(cold_parts, &nr_cold, addr, addr + size);
	}
	if (addr > widest.start && addr < widest.end && !widest.recorded) {
		add_range(outer_syms, &nr_outer, widest.start, widest.end);
		widest.recorded = true;
	}
	if (addr >= widest.end || addr + size > widest.end) {
		widest.start = addr;
		widest.end = addr + size;
		widest.recorded = false;
	}
	return 0;
}

static void build_extent_index(void)
{
	char parent[KSYM_NAME_LEN];

	kallsyms_on_each_symbol(index_symbol, NULL);
	for (int i = 0; i < nr_cold; i++) {
		size_t n = strlen(cold_names[i]) - (sizeof(COLD_SUFFIX) - 1);

		if (n >= sizeof(parent)) {
			extent_index_full = true;
			continue;
		}
		memcpy(parent, cold_names[i], n);
		parent[n] = '\0';
		cold_parts[i].parent = kallsyms_lookup_name(parent);
	}
	extent_index_ready = true;
}

int kprobe_function_extent(unsigned long addr, struct func_extent *fx)
{
	unsigned long size, offset, other;

	if (!kallsyms_lookup(addr, &size, &offset) || size == 0)
		return -OPT_NO_SIZE;
	if (!extent_index_ready)
		build_extent_index();
	if (extent_index_full)
		return -OPT_NO_SIZE;	/* we could be missing an outer symbol */
	fx->start = addr - offset;
	fx->end = fx->start + size;
	for (int i = 0; i < nr_outer; i++) {	/* the widest symbol around addr */
		if (outer_syms[i].start <= fx->start && outer_syms[i].end >= fx->end &&
		    outer_syms[i].end - outer_syms[i].start > fx->end - fx->start) {
			fx->start = outer_syms[i].start;
			fx->end = outer_syms[i].end;
		}
	}
	fx->other_start = fx->other_end = 0;
	for (int i = 0; i < nr_cold; i++) {
		if (cold_parts[i].parent == fx->start) {	/* foo, with a foo.cold */
			fx->other_start = cold_parts[i].start;
			fx->other_end = cold_parts[i].end;
		} else if (cold_parts[i].start == fx->start && cold_parts[i].parent &&
			   kallsyms_lookup(cold_parts[i].parent, &size, &offset)) {
			other = cold_parts[i].parent;	/* foo.cold itself */
			fx->other_start = other;
			fx->other_end = other + size;
		}
	}
	return 0;
}

/* ---- lookups --------------------------------------------------------------------- */

struct optimized_kprobe *get_optimized_kprobe(unsigned long addr)
{
	unsigned long first = (addr - (MAX_OPTIMIZED_LENGTH - 1)) >> OPT_GRANULE_SHIFT;
	struct optimized_kprobe *op;

	for (unsigned long g = first; g <= addr >> OPT_GRANULE_SHIFT; g++)
		hlist_for_each_entry(op, opt_bucket(g), hlist)
			if (addr >= op_start(op) && addr < op_start(op) + op->optinsn.size)
				return op;
	return NULL;
}

void recover_optprobed_bytes(kprobe_opcode_t *buf, kprobe_opcode_t *addr, size_t len)
{
	unsigned long a = (unsigned long)addr;
	unsigned long first = (a - (MAX_OPTIMIZED_LENGTH - 1)) >> OPT_GRANULE_SHIFT;
	struct optimized_kprobe *op;

	if (!nr_optimized)
		return;
	for (unsigned long g = first; g <= (a + len - 1) >> OPT_GRANULE_SHIFT; g++) {
		hlist_for_each_entry(op, opt_bucket(g), hlist) {
			unsigned long s = op_start(op), e = s + op->optinsn.size;
			unsigned long lo = s > a ? s : a, hi = e < a + len ? e : a + len;

			if (lo < hi)
				memcpy(buf + (lo - a), op->optinsn.copy + (lo - s), hi - lo);
		}
	}
}

static struct optimized_kprobe *find_waiting(struct kprobe *p)
{
	struct optimized_kprobe *op;

	list_for_each_entry(op, &optimizing_list, list)
		if (op->kp == p)
			return op;
	return NULL;
}

unsigned int kprobes_nr_optimized(void)
{
	return nr_optimized;
}

/* ---- optimize / unoptimize ---------------------------------------------------- */

/* The manager's part of the answer: p's handlers and state. */
static int kprobe_optready(const struct kprobe *p)
{
	if (!kprobes_allow_optimization)
		return OPT_SWITCHED_OFF;
	if (p->post_handler || p->break_handler)
		return OPT_HANDLERS;
	if (kprobe_disabled(p) || kprobes_all_disarmed)
		return OPT_DISABLED;
	return OPT_OK;
}

void optimize_kprobe(struct kprobe *p)
{
	struct optimized_kprobe *op;
	int ret;

	if (!p || kprobe_optimized(p) || kprobe_optready(p) != OPT_OK)
		return;
	op = find_waiting(p);
	if (op) {
		list_del(&op->list);
	} else {
		op = kzalloc(sizeof(*op));
		if (!op)
			return;
		op->kp = p;
		INIT_HLIST_NODE(&op->hlist);
	}
	INIT_LIST_HEAD(&op->list);
	ret = arch_prepare_optimized_kprobe(op);
	if (ret == 0)
		ret = arch_optimize_kprobe(op);
	if (ret == -OPT_THREAD_INSIDE) {
		list_add_tail(&op->list, &optimizing_list);	/* try again later */
		return;
	}
	if (ret) {
		kfree(op);			/* refused: stays an int3 */
		return;
	}
	hlist_add_head(&op->hlist, opt_bucket(op_start(op) >> OPT_GRANULE_SHIFT));
	p->flags |= KPROBE_FLAG_OPTIMIZED;
	nr_optimized++;
}

void unoptimize_kprobe(struct kprobe *p)
{
	struct optimized_kprobe *op;

	if (!p)
		return;
	if (!kprobe_optimized(p)) {
		op = find_waiting(p);
		if (op) {
			list_del(&op->list);
			kfree(op);
		}
		return;
	}
	op = get_optimized_kprobe((unsigned long)p->addr);
	if (!op || op->kp != p)
		panic("optprobes: %p is marked optimized but has no record", p->addr);
	arch_unoptimize_kprobe(op);		/* the text is an int3 probe again */
	hlist_del(&op->hlist);
	p->flags &= ~KPROBE_FLAG_OPTIMIZED;
	nr_optimized--;
	op->kp = NULL;				/* a thread still in the detour skips handlers */
	arch_remove_optimized_kprobe(op);	/* buffer and op: when no thread is inside */
}

/* No jump may cover addr, where a probe is about to go (or to join one). */
void unoptimize_kprobes_at(kprobe_opcode_t *addr)
{
	struct optimized_kprobe *op = get_optimized_kprobe((unsigned long)addr);

	if (op)
		unoptimize_kprobe(op->kp);
}

/*
 * After a probe at addr came or went: try every probe whose jump could
 * cover addr (it may have been unoptimized for addr, or refused because
 * of a probe there), the one at addr itself, and the waiting ones.
 */
void kprobes_optimize_around(kprobe_opcode_t *addr)
{
	struct optimized_kprobe *op, *tmp;

	kprobes_collect_garbage();
	if (!kprobes_allow_optimization)
		return;
	list_for_each_entry_safe(op, tmp, &optimizing_list, list)
		optimize_kprobe(op->kp);
	for (size_t back = MAX_OPTIMIZED_LENGTH - 1; back > 0; back--)
		optimize_kprobe(get_kprobe(addr - back));
	optimize_kprobe(get_kprobe(addr));
}

/* ---- asking, and the runtime switch --------------------------------------------- */

int optprobe_why_not(struct kprobe *p)
{
	struct optimized_kprobe op = { .kp = NULL };
	struct kprobe *ap;
	int why;

	preempt_disable();
	ap = get_kprobe(p->addr);
	if (!ap)
		why = OPT_DISABLED;
	else if (kprobe_optimized(ap))
		why = OPT_OK;
	else if ((why = kprobe_optready(ap)) == OPT_OK) {
		op.kp = ap;
		why = -arch_check_optimized_kprobe(&op);
		if (why == OPT_OK && find_waiting(ap))
			why = OPT_THREAD_INSIDE;
	}
	preempt_enable();
	return why;
}

bool kprobes_get_optimization(void)
{
	return READ_ONCE(kprobes_allow_optimization);
}

/* kprobes_for_each() hands us user probes; the table holds p or its aggregate. */
static int optimize_one(struct kprobe *p, void *unused)
{
	optimize_kprobe(get_kprobe(p->addr));
	return 0;
}

static int unoptimize_one(struct kprobe *p, void *unused)
{
	unoptimize_kprobe(get_kprobe(p->addr));
	return 0;
}

/* How often kprobes_set_optimization(true) lets other threads run and retries. */
#define OPT_WAIT_YIELDS		100

/*
 * Probes left waiting because a preempted thread sat behind their jump.
 * That thread is runnable: yield until it has moved on, then retry.
 * Preemption off is what kprobe_mutex amounts to on one CPU, and all the
 * optimizer's lists need.
 */
static void optimize_waiting_kprobes(void)
{
	struct optimized_kprobe *op, *tmp;

	for (int i = 0; i < OPT_WAIT_YIELDS && !list_empty(&optimizing_list); i++) {
		if (preempt_count() || irqs_disabled())
			return;
		yield();
		preempt_disable();
		list_for_each_entry_safe(op, tmp, &optimizing_list, list)
			optimize_kprobe(op->kp);
		preempt_enable();
	}
}

int kprobes_set_optimization(bool on)
{
	if (kprobe_running())
		return -EBUSY;
	WRITE_ONCE(kprobes_allow_optimization, on);
	kprobes_for_each(on ? optimize_one : unoptimize_one, NULL);
	if (on)
		optimize_waiting_kprobes();
	else
		synchronize_kprobe_text();
	return 0;
}
