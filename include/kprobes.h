/*
 * kprobes.h - kernel probes: run your handlers when the CPU reaches an
 * instruction, without recompiling anything.  Linux's names throughout.
 *
 * How it works (docs/kprobes.md walks one hit step by step):
 *
 *   register_kprobe(p)   decode the instruction at p->addr, copy it into
 *                        an out-of-line slot, save its first byte and
 *                        write int3 (0xCC) over it with text_poke().
 *   the CPU runs int3 -> exc_int3 -> do_int3 -> kprobe_int3_handler -> kprobe_handler:
 *                        pre_handler(p, regs), then single-step the copy
 *                        in the slot with EFLAGS.TF set.
 *   the step ends    -> #DB -> do_debug -> kprobe_debug_handler -> post_kprobe_handler:
 *                        resume_execution() fixes ip/stack as if the
 *                        instruction had run in place, post_handler().
 *   (The entries reach kprobe_handler and post_kprobe_handler through the
 *   layers of the hit, kprobe_hit_ops in <asm/kprobes.h>: Linux's alone
 *   unless narration, kprobes.lock=global or kprobes.stepmode=inline adds one.)
 *
 * The manager (probes/kprobes.c) knows probes: the hash table, aggregate
 * probes, enable/disable, the blacklist.  The arch half
 * (arch/i386/kprobes/core.c) knows the CPU: int3, TF, EFLAGS, the stack.
 *
 * This file is the API every architecture shares (Linux's
 * include/linux/kprobes.h).  What depends on the instruction set - the
 * opcode type, the breakpoint byte, struct arch_specific_insn, the
 * EFLAGS a hit saves, jumps and detours - is in <asm/kprobes.h>,
 * arch/i386/include/asm/kprobes.h, included below as Linux includes it.
 */
#ifndef KPROBES_H
#define KPROBES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "list.h"
#include <asm/ptrace.h>
#include <asm/percpu.h>
#include "smp.h"
#include <asm/atomic.h>
#include <asm/kprobes.h>	/* kprobe_opcode_t, struct arch_specific_insn... */

/* ---- struct kprobe --------------------------------------------------------- */

struct kprobe;

/* Return non-zero if you changed regs->ip: the single-step is then skipped. */
typedef int (*kprobe_pre_handler_t)(struct kprobe *, struct pt_regs *);
/* Runs after the instruction; regs->ip is already the next instruction. */
typedef void (*kprobe_post_handler_t)(struct kprobe *, struct pt_regs *,
				      unsigned long flags);
/* A fault in a handler or in the stepped copy.  Return 1 if you fixed it. */
typedef int (*kprobe_fault_handler_t)(struct kprobe *, struct pt_regs *,
				      int trapnr);
/* An int3 that is not a probe while this probe is active (jprobes). */
typedef int (*kprobe_break_handler_t)(struct kprobe *, struct pt_regs *);

struct kprobe {
	struct hlist_node hlist;	/* internal: kprobe_table bucket */
	/*
	 * internal: for a probe on an address shared with others, its link
	 * in the aggregate probe's member list; for the aggregate itself,
	 * the head of that list.
	 */
	struct list_head list;

	unsigned long nmissed;		/* hits whose handlers were skipped (reentry) */
	unsigned long nhit;		/* hits whose handlers ran */

	/* Where: either addr, or symbol_name + offset (resolved with kallsyms). */
	kprobe_opcode_t *addr;
	const char *symbol_name;
	unsigned int offset;

	/* Any of these may be NULL. */
	kprobe_pre_handler_t pre_handler;
	kprobe_post_handler_t post_handler;
	kprobe_fault_handler_t fault_handler;
	kprobe_break_handler_t break_handler;

	kprobe_opcode_t opcode;		/* internal: the original first byte */
	struct arch_specific_insn ainsn;/* internal */
	uint32_t flags;			/* KPROBE_FLAG_* */
	/*
	 * internal: why the jump optimizer left this probe an int3 (enum
	 * optprobe_refusal), 0 if it has not refused it.  Kept here, not in
	 * a record of the optimizer's, so that a refused probe holds no
	 * memory (arch/i386/kprobes/opt.c).
	 */
	uint8_t opt_refusal;
};

#define KPROBE_FLAG_GONE	1	/* the probed code went away */
#define KPROBE_FLAG_DISABLED	2	/* registered but not armed */
#define KPROBE_FLAG_OPTIMIZED	4	/* a jmp to a detour, not an int3 (optprobes) */
#define KPROBE_FLAG_FTRACE	8	/* on a call site: an ftrace callback, no int3 */

static inline bool kprobe_ftrace(const struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_FTRACE;
}

/* ---- kprobes on ftrace (probes/kprobes_ftrace.c, arch/i386/kprobes/ftrace.c) -- */
struct ftrace_ops;
struct rethook;
struct ftrace_regs;
extern bool kprobes_on_ftrace;	/* kprobes.ftrace=0 / debugfs kprobes/ftrace: off */
extern bool kretprobe_on_rethook;	/* kprobes.rethook=0 / debugfs kprobes/rethook: off */
int arch_prepare_kprobe_ftrace(struct kprobe *p);
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs);
/* The same while narration is on: kprobe_ftrace_narrate() swaps them. */
void kprobe_ftrace_told_handler(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *ops, struct ftrace_regs *fregs);
void kprobe_ftrace_narrate(bool on);

static inline bool kprobe_gone(const struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_GONE;
}

static inline bool kprobe_disabled(const struct kprobe *p)
{
	return p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE);
}

/* ---- the API ------------------------------------------------------------- */

/*
 * All return 0 or a negative errno, and change nothing on error:
 *   -ENOENT  symbol_name is not a symbol kallsyms knows (as Linux)
 *   -EINVAL  no/invalid address, symbol and addr disagree,
 *            not kernel text, blacklisted
 *   -EILSEQ  not on an instruction boundary, or an instruction that cannot
 *            be single-stepped out of line (hlt, mov ss, ud2, int n...)
 *   -EEXIST  this struct kprobe is already registered
 *   -ENOMEM  no memory for a slot or an aggregate probe
 *   -EBUSY   called from inside a probe handler
 *   -ENODEV  init_kprobes() has not run yet
 * Never call (un)register from a handler.
 */
int register_kprobe(struct kprobe *p);
void unregister_kprobe(struct kprobe *p);
/* All or nothing: on failure the ones already registered are undone. */
int register_kprobes(struct kprobe **kps, int num);
void unregister_kprobes(struct kprobe **kps, int num);
int disable_kprobe(struct kprobe *p);
int enable_kprobe(struct kprobe *p);

/*
 * The global switch behind /sys/kernel/debug/kprobes/enabled: take every
 * int3 out of the text (or put the enabled ones back) without changing
 * any probe's own enabled/disabled state.
 */
void arm_all_kprobes(void);
void disarm_all_kprobes(void);
extern bool kprobes_all_disarmed;	/* true after disarm_all_kprobes() */

/* The probe armed at addr (an aggregate if several share it), or NULL. */
struct kprobe *get_kprobe(void *addr);

void kprobes_inc_nmissed_count(struct kprobe *p);

/* Register the die notifier, take the boot .text checksum.  From kmain. */
int init_kprobes(void);

/* ---- the blacklist -------------------------------------------------------- */

/* Is addr inside a function marked NOKPROBE_SYMBOL (or the entry stubs)? */
bool within_kprobe_blacklist(unsigned long addr);
/* Add [start, end) to the blacklist (init_kprobes and the arch code use it). */
int kprobe_add_area_blacklist(unsigned long start, unsigned long end);
/* Add the function starting at entry (a NOKPROBE_SYMBOL() entry). */
int kprobe_add_ksym_blacklist(unsigned long entry);

/* ---- inspection (for people and tests) ------------------------------------- */

/* One line in Linux's debugfs "list" format: "addr  k  sym+0xoff  [DISABLED]". */
int sprint_kprobe(char *buf, size_t len, const struct kprobe *p);
int kprobes_list_print(const char *who);	/* every registered probe; -EBUSY: kprobe_mutex held */
/*
 * Calls p did not handle: hits stepped without handlers (p->nmissed)
 * and, for a kretprobe, calls its full instance pool let go unprobed.
 */
unsigned long kprobe_missed(const struct kprobe *p);
/* A profile line (/sys/kernel/debug/kprobes/profile): the list line, then "hit N  missed N". */
int sprint_kprobe_profile(char *buf, size_t len, const struct kprobe *p);
/*
 * Code kprobes made, named after its probe for backtraces (kallsyms has
 * no symbol for it): "[kprobe slot for fib+0x1d]", "[optprobe detour for
 * fib]".  Fills name, *start and *size; 0 if addr is in no slot or detour.
 */
int kprobe_text_name(unsigned long addr, char *name, size_t len,
		     unsigned long *start, unsigned long *size);
unsigned int kprobes_nr_registered(void); /* user probes (not aggregates) */
/* fn(p, data) on every user probe until non-zero (returned); no (un)register in fn. */
int kprobes_for_each(int (*fn)(struct kprobe *p, void *data), void *data);
/* The same for probes whose code went away: registered, not armed, [GONE]. */
int kprobes_for_each_gone(int (*fn)(struct kprobe *p, void *data), void *data);
/* p's code is going away (module unload): disarm now, keep p listed [GONE]. */
void kill_kprobe(struct kprobe *p);

/* ---- executable slots (probes/insn_slot.c) ---------------------------------- */

struct insn_slot_stats {
	unsigned long pages;		/* pages currently holding slots */
	unsigned long slots_in_use;
	unsigned long total_allocs;
	unsigned long total_frees;
};
/* The out-of-line step slots' counts (meminfo). */
void insn_slot_get_stats(struct insn_slot_stats *st);

/* ---- the per-CPU hit state ------------------------------------------------- */

/* Where kprobe_handler is in a hit; Linux's kprobe_status values. */
enum {
	KPROBE_HIT_ACTIVE = 1,	/* pre-handler running */
	KPROBE_HIT_SS,		/* stepping the copied instruction */
	KPROBE_REENTER,		/* stepping a probe hit inside another hit */
	KPROBE_HIT_SSDONE,	/* post-handler running */
};

/*
 * One hit in progress per CPU, as in Linux: a hit runs with interrupts
 * off from the int3 to the #DB, on one CPU, so its state belongs to that
 * CPU and another CPU's hit never sees it (docs/kprobes-smp.md).  The
 * 2005 kernel had one global copy and had to serialise every hit under
 * kprobe_lock to keep it consistent.
 */
DECLARE_PER_CPU(struct kprobe *, current_kprobe);
DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * The probe whose hit is in progress on this CPU, NULL when none.
 *
 * Out of line and on the blacklist (probes/kprobes.c), so that the load
 * of current_kprobe is never itself a probed instruction.  A stepped
 * copy runs while its own probe is current_kprobe: inlined into
 * register_kprobe(), a probe on that "mov current_kprobe, %eax" would
 * read a hit in progress where the unprobed code reads NULL, and refuse
 * with -EBUSY.  The code that sets current_kprobe - the hit
 * (arch/i386/kprobes/), the 2005 lock's layer, the kretprobe return
 * handlers - reads it with this_cpu_read(), without a call.
 */
struct kprobe *kprobe_running(void);

static inline struct kprobe_ctlblk *get_kprobe_ctlblk(void)
{
	return this_cpu_ptr(&kprobe_ctlblk);
}

/*
 * This CPU's hit status alone, for the paths that need nothing else of
 * kprobe_ctlblk (the optimized callback, the return handler): one
 * %fs-relative access, where get_kprobe_ctlblk() first reads the CPU's
 * per-CPU offset to form the pointer.
 */
static inline unsigned long kprobe_status(void)
{
	return this_cpu_read(kprobe_ctlblk.kprobe_status);
}

static inline void set_kprobe_status(unsigned long status)
{
	this_cpu_write(kprobe_ctlblk.kprobe_status, status);
}


/* The outermost hit on this CPU ends. */
static inline void reset_current_kprobe(void)
{
	this_cpu_write(current_kprobe, NULL);
}


/*
 * Does a hit of p compute its instruction on regs (emulate.c) instead of
 * stepping it?  Emulation is a switch (the debugfs emulate file), but
 * cli, sti and pause are emulated even with it off.  Read by every hit.
 */
static inline bool kprobe_emulates(const struct kprobe *p)
{
	return p->ainsn.emulate_op &&
	       (READ_ONCE(kprobes_emulation_enabled) || p->ainsn.emulate_always);
}

/* ---- the seam: manager -> arch --------------------------------------------- */

int arch_prepare_kprobe(struct kprobe *p);	/* decode + copy to a slot */
void arch_arm_kprobe(struct kprobe *p);		/* write int3 */
void arch_disarm_kprobe(struct kprobe *p);	/* restore the original byte */
void arch_remove_kprobe(struct kprobe *p);	/* free the slot */
int arch_init_kprobes(void);			/* the arch's boot-time setup */
int arch_populate_kprobe_blacklist(void);	/* the entry stubs */

/* ============================================================================
 * jprobes and kretprobes.  Both are a struct kprobe at a
 * function's first instruction whose handlers are ours.
 *   probes/jprobes.c, probes/kretprobes.c           the manager part
 *   arch/i386/kprobes/jprobes.c, retprobe.c                   the stack work
 *   arch/i386/kprobes/jprobe_return.S, kretprobe_trampoline.S the assembly
 * docs/jprobes.md and docs/kretprobes.md draw the stack at every step.
 * ========================================================================== */

struct task_struct;

/* ---- jprobes ----------------------------------------------------------------- */

/*
 * A jprobe runs `entry`, a function with the probed function's prototype,
 * with the probed function's own arguments, just before the function
 * itself.  entry must end with jprobe_return(), never with return.  It
 * runs with interrupts off and must not sleep.  One jprobe per address
 * (-EEXIST for a second); ordinary kprobes may share it (their
 * pre-handlers run first).
 */
struct jprobe {
	struct kprobe kp;
	void *entry;			/* the handler */
	unsigned long nbad_return;	/* times entry returned without jprobe_return() */
};

/* -EINVAL unless at a function's first byte (offset 0 of a symbol). */
int register_jprobe(struct jprobe *jp);
void unregister_jprobe(struct jprobe *jp);
int register_jprobes(struct jprobe **jps, int num);
void unregister_jprobes(struct jprobe **jps, int num);

/* Back to the probed function, registers and stack as they were. */
void jprobe_return(void) __attribute__((noreturn));

/* The arch half: kprobe handlers of every jprobe (arch/i386/kprobes/jprobes.c). */
int setjmp_pre_handler(struct kprobe *p, struct pt_regs *regs);
int longjmp_break_handler(struct kprobe *p, struct pt_regs *regs);

/* ---- kretprobes -------------------------------------------------------------- */

struct kretprobe_instance;
typedef int (*kretprobe_handler_t)(struct kretprobe_instance *, struct pt_regs *);

/*
 * A kretprobe runs handler when the probed function returns; regs->ax
 * (regs_return_value()) is the return value and regs->ip the caller's
 * return address.  entry_handler, if set, runs at the call; a non-zero
 * return skips the return probe for that call.  Each call in progress
 * holds one instance; maxactive of them are preallocated (0: the
 * default) and a call that finds none left is counted in nmissed.
 */
struct kretprobe_holder;

struct kretprobe {
	struct kprobe kp;
	kretprobe_handler_t handler;
	kretprobe_handler_t entry_handler;
	int maxactive;
	int nmissed;			/* calls not probed: no free instance (int, as Linux's) */
	size_t data_size;		/* bytes of ri->data for the handlers */
	struct kretprobe_holder *rph;	/* internal: the instance pool (probes/kretprobes.c) */
	struct rethook *rh;		/* internal: the return's, through rethook (probes/kretprobe_rethook.c) */
};

/* kretprobes return through rethook (probes/kretprobe_rethook.c). */
int kretprobe_rethook_init(struct kretprobe *rp);
void kretprobe_rethook_free(struct kretprobe *rp);
int pre_handler_kretprobe_rethook(struct kprobe *p, struct pt_regs *regs);

/*
 * Linux's default: max(10, 2 * num_possible_cpus()) - enough for a call
 * in progress on every CPU and one preempted on each.  We have no CPU
 * hotplug: the possible CPUs are the ones the kernel started.
 */
#define KRETPROBE_MIN_MAXACTIVE		10
#define KRETPROBE_DEFAULT_MAXACTIVE \
	(2 * (int)num_online_cpus() > KRETPROBE_MIN_MAXACTIVE ? \
	 2 * (int)num_online_cpus() : KRETPROBE_MIN_MAXACTIVE)

/*
 * One call in progress.  It outlives an unregistered kretprobe (its
 * holder's rp is then NULL) until its function returns: the real return
 * address lives here and nowhere else.
 */
struct kretprobe_instance {
	struct kretprobe_instance *next; /* in the free pool or on its thread's list: one at a time */
	struct kretprobe_holder *rph;	/* the pool it belongs to, for life */
	kprobe_opcode_t *ret_addr;	/* the caller's real return address */
	unsigned long *stack;		/* the stack slot it was taken from */
	char data[];			/* data_size bytes, for entry_handler */
};

/* The kretprobe an instance serves, or NULL once it is unregistered (Linux's name). */
struct kretprobe *get_kretprobe(struct kretprobe_instance *ri);

/* -EINVAL unless at a function's first byte; -ENOMEM for the instances. */
int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
int register_kretprobes(struct kretprobe **rps, int num);
void unregister_kretprobes(struct kretprobe **rps, int num);

/* The kprobe pre-handler of every kretprobe (probes/kretprobes.c). */
int pre_handler_kretprobe(struct kprobe *p, struct pt_regs *regs);
/* Called by the trampoline: run the handlers, return the real address. */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs, unsigned long *slot);
/* Calls not yet returned (all kretprobes, orphans included): meminfo. */
unsigned int kretprobe_outstanding(void);
/* An exiting thread's calls in progress: give their instances back. */
void kprobe_flush_task(struct task_struct *tk);

/* The arch half (arch/i386/kprobes/retprobe.c): hijack the return address. */
void arch_prepare_kretprobe(struct kretprobe_instance *ri, struct pt_regs *regs);

/*
 * For unwinders: addr was read from the return-address slot `slot`; if
 * it is the trampoline, the real return address it stands for, else
 * addr itself.  save_stack_trace_bp() calls it for every frame.
 */
unsigned long kretprobe_find_ret_addr(unsigned long addr, unsigned long *slot);

/* ---- why a registration failed ---------------------------------------------- */

/*
 * The reason, in words, that a probe at addr (0: its symbol is unknown)
 * was refused with err: tracefs' error_log and the warning below.
 */
const char *kprobe_refusal_reason(int err, unsigned long addr);

/* Is p a kretprobe's kprobe, whichever way it returns (2005's trampoline or rethook)? */
static inline bool kprobe_is_kretprobe(const struct kprobe *p)
{
	return p->pre_handler == pre_handler_kretprobe ||
	       p->pre_handler == pre_handler_kretprobe_rethook;
}

/* 'k', 'j' or 'r': the letter kprobes_list_print() shows, as Linux's debugfs. */
static inline char kprobe_type_char(const struct kprobe *p)
{
	if (p->pre_handler == setjmp_pre_handler)
		return 'j';
	if (kprobe_is_kretprobe(p))
		return 'r';
	return 'k';
}

/* ============================================================================
 * Fast probes: boosting and jump optimization.  docs/optprobes.md.
 *   arch/i386/kprobes/boost.c      boosting: the slot ends in a jmp back
 *   probes/optprobes.c             the optimizer: queues, thread, batches, switch
 *   probes/func_extent.c           where a function really is (outer symbols, .cold)
 *   arch/i386/kprobes/opt_check.c     the safety analysis: may this probe be a jump?
 *   arch/i386/kprobes/opt.c          detour buffers, patching, the hit
 *   arch/i386/kprobes/optprobe_template.S  the detour: build pt_regs, call, iret
 *   arch/i386/kprobes/text_quiesce.c       may a thread still be running that code?
 * ========================================================================== */

/* ---- the runtime switches -------------------------------------------------- */

/*
 * Linux's debug.kprobes_optimization.  On queues every probe that
 * qualifies for the optimizer thread and returns at once; off turns
 * every jump back into an int3 and returns when that is done.
 * Registration never fails because a probe cannot be optimized: it
 * stays an int3.  Returns 0, or -EBUSY from inside a probe handler.
 */
int kprobes_set_optimization(bool on);
bool kprobes_get_optimization(void);

/*
 * Linux's wait_for_kprobe_optimizer(): return when the optimizer has
 * nothing left to do - every queued probe optimized or refused, every
 * jump the switch turned off an int3 again.  It does the work itself,
 * batch by batch, rather than sleep until the thread has.  A probe whose
 * site a preempted thread keeps busy is retried while the others run;
 * -EBUSY if some are still waiting after OPTIMIZER_WAIT_ROUNDS tries (or
 * at once, from a context that cannot let other threads run).
 */
int wait_for_kprobe_optimizer(void);

/* Boosting on/off (on by default); the bench compares with the classic path. */
int kprobes_set_boosting(bool on);
bool kprobes_get_boosting(void);
/*
 * Emulate branches, calls, returns, pushes, pops and nops in the int3
 * handler (on by default); off, hits step them.  arch/i386/kprobes/emulate.c.
 */
int kprobes_set_emulation(bool on);
bool kprobes_get_emulation(void);

/*
 * The three ways a hit can avoid the single-step (a jump, a boosted
 * slot, emulation), as the switches stand.  The user's switches: tests
 * and the bench turn them all off to run the classic int3 + #DB path,
 * and put them back afterwards; narration and the step mode leave them.
 */
struct kprobes_fast_paths {
	bool optimize, boost, emulate;
};
void kprobes_fast_paths_off(struct kprobes_fast_paths *saved);
void kprobes_fast_paths_restore(const struct kprobes_fast_paths *saved);

static inline bool kprobe_optimized(const struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_OPTIMIZED;
}

/* ---- jump optimization ------------------------------------------------------- */

/*
 * The optimizer's records, queues and refusal reasons are the manager's
 * (probes/kprobes_internal.h); its arch half and the text quiescence are
 * the CPU's (<asm/kprobes.h>).  What the rest of the kernel asks:
 */
unsigned int kprobes_nr_optimized(void);
/* kprobe_mutex (probes/kprobes.c): the optimizer takes it for each batch. */
void kprobe_mutex_lock(void);
void kprobe_mutex_unlock(void);
/* Linux's synchronize_rcu() for kprobe hits (probes/kprobes_sync.c). */
void synchronize_kprobes(void);

#endif
