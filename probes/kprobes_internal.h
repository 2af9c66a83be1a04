/*
 * kprobes_internal.h - the manager's own seams, between the files of
 * probes/ (Linux keeps most of them static in one kernel/kprobes.c): the
 * optimizer's records, hooks and queues, the instruction-slot cache, the
 * blacklist's setup, 2005's lock and its statistics, the refusal warning.
 *
 * The API a module uses is include/kprobes.h (Linux's
 * include/linux/kprobes.h); the CPU's half is <asm/kprobes.h>.  Besides
 * probes/, only the code that is the manager's other half includes this
 * file (the Makefile gives it -Iprobes): arch/i386/kprobes/ (slots,
 * optimized_kprobe, hit counts), kernel/trace/kprobes_debugfs.c (Linux
 * keeps its debugfs files in kernel/kprobes.c), kernel/module.c's
 * unload (Linux's kprobes_module_callback) and the kprobes test suites.
 * tests/host/check_layout.py keeps these names out of include/kprobes.h.
 */
#ifndef PROBES_KPROBES_INTERNAL_H
#define PROBES_KPROBES_INTERNAL_H

#include "kprobes.h"
#include "hash.h"
#include "rculist.h"
#include "nokprobe.h"

/*
 * The hash table of registered probes (probes/kprobes.c owns it), by
 * address: 64 buckets, as in 2.6.11.  get_kprobe() is the lookup every
 * path calls; __get_kprobe() is its body, for the one hit path that
 * calls no exception handler first and so has nothing else to pay a
 * call for: the ftrace callback (arch/i386/kprobes/ftrace.c).
 */
#define KPROBE_HASH_BITS	6
#define KPROBE_TABLE_SIZE	(1 << KPROBE_HASH_BITS)
extern struct hlist_head kprobe_table[KPROBE_TABLE_SIZE];

static nokprobe_inline unsigned int kprobe_hash(const void *addr)
{
	return hash_32((uint32_t)(unsigned long)addr, KPROBE_HASH_BITS);
}

static nokprobe_inline struct kprobe *__get_kprobe(void *addr)
{
	struct kprobe *p;

	hlist_for_each_entry_rcu(p, &kprobe_table[kprobe_hash(addr)], hlist)
		if (p->addr == addr)
			return p;
	return NULL;
}

/* Build the list from NOKPROBE_SYMBOL entries (init_kprobes calls it). */
int populate_kprobe_blacklist(void);

/* 0 if p's address is offset 0 of a kallsyms symbol, else -EINVAL (jprobes, kretprobes). */
int kprobe_on_func_entry(const struct kprobe *p);

/*
 * One line, as Linux's pr_warn(), when register_kprobe/jprobe/kretprobe
 * (`what`) refuses p: where, the errno by name and meaning, and why
 * (`why`, or kprobe_refusal_reason() when NULL).  Each failure says it once.
 */
void kprobe_warn_refused(const char *what, const struct kprobe *p, int err,
			 const char *why);

/* kprobes.lock=global (kprobe_lock.c): the lock and its boot switch. */
void lock_kprobes(void);
void unlock_kprobes(void);
int kprobe_lock_setup(void);

/* The optimizer's hooks (probes/kprobes.c calls them under kprobe_mutex). */
void optimize_kprobe(struct kprobe *p);		/* p was armed: queue it for the optimizer */
void unoptimize_kprobe(struct kprobe *p);	/* p is being disarmed: int3 again, now */
void unoptimize_kprobes_batch(struct kprobe **kps, int num); /* many: one text_poke_bp window */
void unoptimize_kprobes_at(kprobe_opcode_t *addr); /* a probe comes to addr */
void kprobes_optimize_around(kprobe_opcode_t *addr); /* probes near addr: retry */
/* "  [OPTIMIZED]", "  [WAITING...]", "  [NOT OPTIMIZED: why]" or "" for ap. */
int sprint_optprobe_state(char *buf, size_t len, const struct kprobe *ap);
/* init_kprobes(): start the optimizer thread. */
int init_kprobe_optimizer(void);
bool kprobe_mutex_held(void);	/* by the current thread */

/* Rounds of IPIs the grace periods took (kprobes_sync.c). */
extern unsigned long kprobes_grace_rounds;

/* ---- kprobes on ftrace (probes/kprobes_ftrace.c) -------------------------- */

int kprobes_ftrace_setup(void);	/* the command line's word, from init_kprobes() */
int kretprobe_rethook_setup(void);	/* kprobes.rethook=, from init_kprobes() */
int check_ftrace_location(struct kprobe *p, kprobe_opcode_t *addr);
void arm_kprobe_ftrace(struct kprobe *p);
void disarm_kprobe_ftrace(struct kprobe *p);

/* ---- the blacklist ---------------------------------------------------------- */

/* Remove every range inside [start, end) (a module going away). */
void kprobe_remove_area_blacklist(unsigned long start, unsigned long end);
/* Call fn for every blacklisted range; stop early if fn returns non-zero. */
int kprobe_blacklist_for_each(int (*fn)(void *data, unsigned long start,
					unsigned long end), void *data);

/* ---- executable slots (probes/insn_slot.c): Linux's kprobe_insn_cache ---- */

#define INSN_CACHE_HASH_BITS	5

/*
 * Pages of executable slots of insn_size bytes each.  Two instances:
 * kprobe_insn_slots (MAX_INSN_SIZE: an instruction stepped out of line)
 * and kprobe_optinsn_slots (MAX_OPTINSN_SIZE: an optprobe's detour).
 * A freed slot is int3-filled; a page whose last slot goes is freed.
 */
struct kprobe_insn_page;
struct kprobe_insn_cache {
	size_t insn_size;			/* bytes per slot */
	struct kprobe_insn_page *pages;		/* newest first */
	struct hlist_head page_hash[1 << INSN_CACHE_HASH_BITS];	/* by page address */
	struct insn_slot_stats stats;
};
extern struct kprobe_insn_cache kprobe_insn_slots;
extern struct kprobe_insn_cache kprobe_optinsn_slots;

/* A slot of c, or NULL.  Callers hold kprobe_mutex. */
kprobe_opcode_t *__get_insn_slot(struct kprobe_insn_cache *c);
void __free_insn_slot(struct kprobe_insn_cache *c, kprobe_opcode_t *slot, int dirty);
/* Is addr in one of c's pages?  Lock-free, for unwinders. */
bool __is_insn_slot_addr(struct kprobe_insn_cache *c, unsigned long addr);
void insn_cache_get_stats(const struct kprobe_insn_cache *c, struct insn_slot_stats *st);

static inline kprobe_opcode_t *get_insn_slot(void)
{
	return __get_insn_slot(&kprobe_insn_slots);
}

static inline void free_insn_slot(kprobe_opcode_t *slot, int dirty)
{
	__free_insn_slot(&kprobe_insn_slots, slot, dirty);
}

static inline kprobe_opcode_t *get_optinsn_slot(void)
{
	return __get_insn_slot(&kprobe_optinsn_slots);
}

static inline void free_optinsn_slot(kprobe_opcode_t *slot, int dirty)
{
	__free_insn_slot(&kprobe_optinsn_slots, slot, dirty);
}

/* ---- the 2005 design, kprobes.lock=global (probes/kprobe_lock.c) ------------ */

extern bool kprobes_global_lock;	/* every hit takes kprobe_lock */
extern int kprobe_cpu;			/* its owner, NR_CPUS when free */

/* What each CPU paid for kprobe_lock (the debugfs "lock" file). */
struct kprobe_lock_stats {
	unsigned long taken;		/* hits that took it */
	unsigned long contended;	/* of those, hits that had to wait */
	uint64_t spin_cycles;		/* TSC cycles spent waiting */
};
DECLARE_PER_CPU(struct kprobe_lock_stats, kprobe_lock_stats);
void kprobe_lock_stats_sum(struct kprobe_lock_stats *sum);
void kprobe_lock_stats_reset(void);

/*
 * Hit and miss counts: several CPUs hit one probe at once, so a plain
 * "incl" would lose updates (two CPUs read the same old value).  The
 * counts are unsigned long, as Linux's nmissed, and bumped as the
 * atomic_long_t they are laid out like (include/atomic.h: a locked incl).
 */
static inline void kprobe_count_inc(unsigned long *count)
{
	atomic_long_inc((atomic_long_t *)count);
}

/* ---- the jump optimizer's records (probes/optprobes.c) ----------------------- */

/*
 * Where a probe the optimizer is working on stands (probes/optprobes.c).
 * The debugfs list shows [WAITING] or [OPTIMIZED]; a refused probe has
 * no record, only p->opt_refusal: [NOT OPTIMIZED: why].
 */
enum optprobe_state {
	OPTPROBE_QUEUED,	/* on optimizing_list: an int3 until the optimizer comes */
	OPTPROBE_OPTIMIZED,	/* a jmp in the text */
	OPTPROBE_UNOPTIMIZING,	/* still a jmp, on unoptimizing_list (switch off) */
};

struct optimized_kprobe {
	struct hlist_node hlist;	/* optimized_table, by granule, while a jmp */
	struct hlist_node addr_node;	/* the optimizer's records, by address */
	struct list_head list;		/* optimizing_list or unoptimizing_list */
	struct kprobe *kp;		/* the probe in the kprobe table; NULL once dead */
	kprobe_opcode_t *addr;		/* kp->addr, kept for a late entry into the detour */
	enum optprobe_state state;
	int why;			/* QUEUED: 0, or OPT_THREAD_INSIDE after a busy try */
	struct arch_optimized_insn optinsn;
};

/*
 * Why a probe is not optimized (optprobe_why_not(); the arch analysis
 * returns the negated value).  Never an error to the user: the probe
 * simply stays an int3.
 */
enum optprobe_refusal {
	OPT_OK = 0,
	OPT_SWITCHED_OFF,	/* kprobes_set_optimization(false) */
	OPT_HANDLERS,		/* a post- or break-handler needs the int3 path */
	OPT_DISABLED,		/* not armed */
	OPT_NO_SIZE,		/* kallsyms does not know the function's extent */
	OPT_CROSSES_END,	/* the jump would reach past the function's end */
	OPT_NOT_RELOCATABLE,	/* a displaced instruction cannot run elsewhere */
	OPT_PROBE_IN_RANGE,	/* another probe sits on a displaced byte */
	OPT_JUMP_INTO_RANGE,	/* a branch in the function lands behind the jump */
	OPT_INDIRECT_JUMP,	/* jmp *x: a jump table could land anywhere */
	OPT_FIXUP_ENTRY,	/* fixup code jumps into the function */
	OPT_UNDECODABLE,	/* the function does not decode (data, foreign int3) */
	OPT_THREAD_INSIDE,	/* a preempted thread stopped behind the jump: later */
	OPT_NO_MEMORY,
	OPT_NR_REFUSALS,
};
const char *optprobe_refusal_name(int why);
/* Would p be optimized now?  OPT_OK, or why not.  Changes nothing. */
int optprobe_why_not(struct kprobe *p);

/*
 * The function around addr as the safety analysis must see it.  Not
 * simply the kallsyms symbol: in assembly, global labels inside a
 * routine are symbols of their own, and gcc moves cold paths into a
 * separate "foo.cold" symbol that jumps back into foo.  So [start, end)
 * is the outermost symbol containing addr, and [other_start, other_end)
 * is the other half of a split function (0, 0 if none).
 */
struct func_extent {
	unsigned long start, end;
	unsigned long other_start, other_end;
};
int kprobe_function_extent(unsigned long addr, struct func_extent *fx); /* 0 or -OPT_NO_SIZE */

/* The optimized probe whose jump covers addr, or NULL. */
struct optimized_kprobe *get_optimized_kprobe(unsigned long addr);
/* Put back, in buf (a copy of len bytes from addr), the bytes jumps displaced. */
void recover_optprobed_bytes(kprobe_opcode_t *buf, kprobe_opcode_t *addr, size_t len);
/* Linux's OPTIMIZE_DELAY: jiffies between the first kick and the batch. */
#define OPTIMIZE_DELAY		5
/* A kick's OPTIMIZE_DELAY is running: no batch before *deadline (jiffies). */
bool kprobe_optimizer_delay_pending(unsigned long *deadline);
extern unsigned long kprobes_grace_periods;	/* how many (the bench prints them) */

#endif
