#ifndef TEXT_PATCHING_H
#define TEXT_PATCHING_H
/*
 * Changing code while other CPUs run it (arch/i386/text_poke_bp.c),
 * after Linux's asm/text-patching.h.  text_poke() (mm.h) writes bytes;
 * these make the write safe for the CPUs executing them.
 */
#include <stddef.h>
#include "kernel.h"
#include <asm/ptrace.h>

#define INT3_INSN_OPCODE	0xcc
#define INT3_INSN_SIZE		1

/*
 * Must the other CPUs take part (a sync, a stop)?  Not while the
 * scheduler parks them for kprobes (single-CPU mode, docs/scheduler.md):
 * a parked CPU runs only its idle loop and its timer and IPI handlers,
 * none of which may carry a probe, and it leaves the mode through an
 * interrupt, whose iret serializes.  Stable while the caller keeps
 * preemption off: in that mode every thread runs on this CPU.
 */
bool text_poke_others_involved(void);

/* Every CPU runs a serializing instruction (an IPI) before it returns. */
void text_poke_sync(void);

/*
 * int3 over the first byte, sync, the tail, sync, the first byte, sync.
 * An int3 hit meanwhile goes to handler (NULL: to the int3's owner).
 */
void text_poke_bp(void *addr, const void *opcode, size_t len, void *handler);

/* One patch of a batch (Linux's struct text_poke_loc). */
struct text_poke_loc {
	void *addr;
	const void *opcode;	/* len bytes: what addr holds afterwards */
	size_t len;
	void *handler;		/* where a hit in the window goes; NULL: the int3's owner */
};

/* How many windows (batches or single patches) were opened since boot. */
unsigned long text_poke_bp_nr_windows(void);

/* The protocol for many patches at once: three syncs in all. */
void text_poke_bp_batch_begin(struct text_poke_loc *tp, int nr);
void text_poke_bp_batch_finish(struct text_poke_loc *tp, int nr);

/* The same in two halves, for a caller that checks the CPUs in between. */
void text_poke_bp_begin(void *addr, void *handler);
void text_poke_bp_finish(void *addr, const void *opcode, size_t len);
void text_poke_bp_abandon(void *addr, unsigned char old_byte);

/*
 * The patches in progress (Linux's bp_desc): for each, the address
 * whose int3 is ours and where a hit there goes.  One patch or a batch
 * of them; read without a lock by every CPU's int3.
 */
struct bp_patching_desc {
	struct text_poke_loc *vec;
	int nr;
	int active;
};
extern struct bp_patching_desc bp_patching;

int __poke_int3_handler(struct pt_regs *regs);

/*
 * do_int3(): 1 if the int3 was a patch's (or is gone) and the CPU was
 * sent on.  Every #BP asks, and nearly always the int3 is still there
 * and no patch is in progress: those two loads are made here, inline,
 * and only the rare case pays the call.
 */
static inline int poke_int3_handler(struct pt_regs *regs)
{
	const unsigned char *at = (const unsigned char *)(regs->ip - INT3_INSN_SIZE);

	if (READ_ONCE(*at) == INT3_INSN_OPCODE && !READ_ONCE(bp_patching.active))
		return 0;
	return __poke_int3_handler(regs);
}

#endif
