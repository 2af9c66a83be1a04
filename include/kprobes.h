/*
 * kprobes.h - kernel probes: run your handlers when the CPU reaches an
 * instruction, without recompiling anything.  Linux's names throughout.
 *
 * How it works (docs/kprobes.md walks one hit step by step):
 *
 *   register_kprobe(p)   decode the instruction at p->addr, copy it into
 *                        an out-of-line slot, save its first byte and
 *                        write int3 (0xCC) over it with text_poke().
 *   the CPU runs int3 -> do_trap -> notify_die(DIE_INT3) -> kprobe_handler:
 *                        pre_handler(p, regs), then single-step the copy
 *                        in the slot with EFLAGS.TF set.
 *   the step ends    -> #DB -> notify_die(DIE_DEBUG) -> post_kprobe_handler:
 *                        resume_execution() fixes ip/stack as if the
 *                        instruction had run in place, post_handler().
 *
 * The manager (probes/kprobes.c) knows probes: the hash table, aggregate
 * probes, enable/disable, the blacklist.  The arch half
 * (arch/i386/kprobes.c) knows the CPU: int3, TF, EFLAGS, the stack.
 */
#ifndef KPROBES_H
#define KPROBES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "list.h"
#include "ptrace.h"
#include "insn.h"

/* ---- arch-specific part (i386) ------------------------------------------- */

typedef uint8_t kprobe_opcode_t;

#define BREAKPOINT_INSTRUCTION	0xcc	/* int3: the one-byte trap */
#define MAX_INSN_SIZE		16	/* one slot: INSN_MAX_LEN (15) rounded up */

/* What register_kprobe() learned about the probed instruction. */
struct arch_specific_insn {
	kprobe_opcode_t *insn;	/* the out-of-line copy: a slot from get_insn_slot() */
	struct insn decoded;	/* length, type (the fixup class), attributes */
};

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
};

#define KPROBE_FLAG_GONE	1	/* the probed code went away */
#define KPROBE_FLAG_DISABLED	2	/* registered but not armed */

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
 *   -EINVAL  no/invalid address, unknown symbol, symbol and addr disagree,
 *            not kernel text, blacklisted
 *   -EILSEQ  not on an instruction boundary, or an instruction that cannot
 *            be single-stepped out of line (hlt, mov ss, ud2, int n...)
 *   -EEXIST  this struct kprobe is already registered
 *   -ENOMEM  no memory for a slot or an aggregate probe
 *   -EBUSY   called from inside a probe handler
 *   -ENODEV  kprobes_init() has not run yet
 * Never call (un)register from a handler.
 */
int register_kprobe(struct kprobe *p);
void unregister_kprobe(struct kprobe *p);
/* All or nothing: on failure the ones already registered are undone. */
int register_kprobes(struct kprobe **kps, int num);
void unregister_kprobes(struct kprobe **kps, int num);
int disable_kprobe(struct kprobe *p);
int enable_kprobe(struct kprobe *p);

/* The probe armed at addr (an aggregate if several share it), or NULL. */
struct kprobe *get_kprobe(void *addr);

void kprobes_inc_nmissed_count(struct kprobe *p);

/* Register the die notifier, take the boot .text checksum.  From kmain. */
int kprobes_init(void);

/* ---- the blacklist -------------------------------------------------------- */

/* Is addr inside a function marked NOKPROBE_SYMBOL (or the entry stubs)? */
bool within_kprobe_blacklist(unsigned long addr);
/* Build the list from NOKPROBE_SYMBOL entries (kprobes_init calls it). */
int populate_kprobe_blacklist(void);
/* Add [start, end) to the blacklist (kprobes_init and the arch code use it). */
int kprobe_add_area_blacklist(unsigned long start, unsigned long end);
/* Call fn for every blacklisted range; stop early if fn returns non-zero. */
int kprobe_blacklist_for_each(int (*fn)(void *data, unsigned long start,
					unsigned long end), void *data);
void kprobe_blacklist_print(void);

/* ---- inspection (for people and tests) ------------------------------------- */

/* One line in Linux's debugfs "list" format: "addr  k  sym+0xoff  [DISABLED]". */
int sprint_kprobe(char *buf, size_t len, const struct kprobe *p);
void kprobes_list_print(void);		/* every registered probe */
void kprobes_profile_print(void);	/* hits and misses per probe */
unsigned int kprobes_nr_registered(void); /* user probes (not aggregates) */

/* FNV-1a of _text.._etext; kprobes_init() records it at boot. */
uint32_t kprobes_text_checksum(void);
extern uint32_t kprobes_boot_text_checksum;

/* ---- the out-of-line slots (probes/insn_slot.c) ---------------------------- */

/* A MAX_INSN_SIZE-byte executable slot, or NULL.  Freed slots are int3-filled. */
kprobe_opcode_t *get_insn_slot(void);
void free_insn_slot(kprobe_opcode_t *slot, int dirty);

struct insn_slot_stats {
	unsigned long pages;		/* pages currently holding slots */
	unsigned long slots_in_use;
	unsigned long total_allocs;
	unsigned long total_frees;
};
void insn_slot_get_stats(struct insn_slot_stats *st);

/* ---- the per-CPU (here: the one CPU) hit state ----------------------------- */

/* Where kprobe_handler is in a hit; Linux's kprobe_status values. */
enum {
	KPROBE_HIT_ACTIVE = 1,	/* pre-handler running */
	KPROBE_HIT_SS,		/* stepping the copied instruction */
	KPROBE_REENTER,		/* stepping a probe hit inside another hit */
	KPROBE_HIT_SSDONE,	/* post-handler running */
};

/* The outer hit, saved while a reentered probe is stepped. */
struct prev_kprobe {
	struct kprobe *kp;
	unsigned long status;
	unsigned long old_flags;
	unsigned long saved_flags;
};

struct kprobe_ctlblk {
	unsigned long kprobe_status;
	unsigned long kprobe_old_flags;	  /* TF|IF as they were at the int3 */
	unsigned long kprobe_saved_flags; /* TF|IF to put back after the step */
	struct prev_kprobe prev_kprobe;
};

extern struct kprobe *current_kprobe;
extern struct kprobe_ctlblk kprobe_ctlblk;

/* The probe whose hit is in progress, NULL when none. */
static inline struct kprobe *kprobe_running(void)
{
	return current_kprobe;
}

static inline struct kprobe_ctlblk *get_kprobe_ctlblk(void)
{
	return &kprobe_ctlblk;
}

static inline void reset_current_kprobe(void)
{
	current_kprobe = NULL;
}

/* ---- the seam: manager -> arch --------------------------------------------- */

int arch_prepare_kprobe(struct kprobe *p);	/* decode + copy to a slot */
void arch_arm_kprobe(struct kprobe *p);		/* write int3 */
void arch_disarm_kprobe(struct kprobe *p);	/* restore the original byte */
void arch_remove_kprobe(struct kprobe *p);	/* free the slot */
int arch_init_kprobes(void);			/* register the die notifier */
int arch_populate_kprobe_blacklist(void);	/* the entry stubs */

#endif
