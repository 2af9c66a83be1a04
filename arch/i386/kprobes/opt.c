/*
 * opt.c (arch/i386) - jump-optimized probes: the CPU half.
 *
 * An armed kprobe is an int3: two exceptions per hit (one if boosted).
 * An optimized kprobe replaces the int3 and the bytes after it with a
 * 5-byte "jmp rel32" to a detour buffer of its own:
 *
 *   probed text:   jmp detour  [dead bytes of the displaced instructions]
 *   detour:        optprobe_template.S: build pt_regs, call
 *                  optimized_callback(), iret
 *                  copies of the displaced instructions
 *                  jmp back to addr + size
 *
 * No exception at all.  Three things make it safe (docs/optprobes.md):
 *
 *  1. The safety analysis (can_optimize, arch_check_optimized_kprobe, in
 *     opt_check.c): the displaced instructions must run anywhere,
 *     and nothing may ever jump into the middle of the jump.
 *  2. The patching protocol (arch_optimize_kprobe): Linux's
 *     text_poke_bp(), so that the other CPUs may run the code meanwhile;
 *     with its window open, every CPU stopped for a look: nobody may
 *     stand inside the tail.
 *  3. The detour buffer is freed only when no thread can be inside it
 *     (arch/i386/kprobes/text_quiesce.c).
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "hash.h"
#include "kallsyms.h"
#include <asm/extable.h>
#include "errno.h"
#include "mm.h"
#include "sched.h"
#include "string.h"
#include <asm/irqflags.h>
#include "nokprobe.h"
#include <asm/text_patching.h>
#include "smp.h"

/* optprobe_template.S */
extern const char optprobe_template_entry[], optprobe_template_ip[],
	optprobe_template_op[], optprobe_template_call[], optprobe_template_copies[],
	optprobe_template_end[];

#define TMPL_SIZE	(size_t)(optprobe_template_end - optprobe_template_entry)
#define TMPL_IP_IMM	(size_t)(optprobe_template_ip - optprobe_template_entry + 1)
#define TMPL_OP_IMM	(size_t)(optprobe_template_op - optprobe_template_entry + 1)
#define TMPL_CALL	(size_t)(optprobe_template_call - optprobe_template_entry)
#define TMPL_COPIES_IMM	(size_t)(optprobe_template_copies - optprobe_template_entry - 4)
#define CALL_SIZE	5	/* e8 rel32 */

/* ---- detour buffers: slots of kprobe_optinsn_slots ---------------------------- */

/*
 * Each detour is a MAX_OPTINSN_SIZE slot of the second instance of the
 * slot cache (probes/insn_slot.c), in pages that hold nothing but code.
 */

/*
 * A backtrace through a handler of an optimized probe meets the return
 * address of the detour's "call optimized_callback": the detour's
 * pt_regs lie right above it (arch/i386/unwind_frame.c).  Read only, no
 * lock: an oops may be printing.
 */
bool arch_optprobe_detour_return(unsigned long ret)
{
	/*
	 * text_quiesce.c asks for every frame of every thread: the offset
	 * test first, which all but one return address in MAX_OPTINSN_SIZE
	 * fail, then the page hash.
	 */
	return ret % MAX_OPTINSN_SIZE == TMPL_CALL + CALL_SIZE &&
	       __is_insn_slot_addr(&kprobe_optinsn_slots, ret);
}
NOKPROBE_SYMBOL(arch_optprobe_detour_return);

/* ---- the detour buffer --------------------------------------------------------- */

/* Template, copies, jmp back.  A rel32 reaches anywhere in 4 GiB. */
static int build_detour(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	size_t size = op->optinsn.size;
	size_t total = TMPL_SIZE + size + RELATIVEJUMP_SIZE;
	kprobe_opcode_t *buf = total <= MAX_OPTINSN_SIZE ? get_optinsn_slot() : NULL;
	unsigned long b = (unsigned long)buf;
	uint32_t opaddr = (uint32_t)(unsigned long)op;
	uint32_t copies = (uint32_t)(b + TMPL_SIZE);
	uint32_t past_int3 = (uint32_t)(addr + sizeof(kprobe_opcode_t));	/* Linux's INT3_INSN_SIZE */

	if (!buf)
		return -OPT_NO_MEMORY;
	memcpy(buf, optprobe_template_entry, TMPL_SIZE);
	memcpy(buf + TMPL_IP_IMM, &past_int3, sizeof(past_int3));
	memcpy(buf + TMPL_OP_IMM, &opaddr, sizeof(opaddr));
	memcpy(buf + TMPL_COPIES_IMM, &copies, sizeof(copies));
	put_rel32(buf + TMPL_CALL + 1, b + TMPL_CALL + CALL_SIZE,
		  (unsigned long)optimized_callback);
	memcpy(buf + TMPL_SIZE, op->optinsn.copy, size);
	buf[TMPL_SIZE + size] = RELATIVEJUMP_OPCODE;
	put_rel32(buf + TMPL_SIZE + size + 1, b + total, addr + size);
	op->optinsn.insn = buf;
	op->optinsn.insn_size = total;
	return 0;
}

/*
 * A detour op already has was built by an attempt that found a thread
 * in the way (arch_optimize_kprobe()); other CPUs may have run it since,
 * so it stays, and is the same bytes a new one would be.
 */
int arch_prepare_optimized_kprobe(struct optimized_kprobe *op)
{
	int ret = arch_check_optimized_kprobe(op);

	if (ret || op->optinsn.insn)
		return ret;
	return build_detour(op);
}

/* ---- patching ------------------------------------------------------------------ */

/*
 * int3 -> jmp, with the other CPUs running (text_poke_bp(),
 * arch/i386/text_poke_bp.c).  The int3 at addr is already there; the
 * patch window opens on it, and from then on a hit there goes straight
 * to the detour (poke_int3_handler()), whose copies come back past the
 * whole window: nobody can enter bytes 1-4 any more.  But someone may
 * be inside them already, having entered before the window opened: a
 * CPU or a preempted thread that stepped the probed instruction (or ran
 * the boosted slot, whose jmp back goes to addr + len) and stands at
 * addr + len, or a thread preempted there before the probe was armed.
 * So, with the window open, we stop every CPU and look at where each
 * CPU and each thread will resume (text_snapshot_take()).  Someone
 * inside: the window closes untouched and the optimizer tries again
 * later.  Nobody: the tail, then the first byte.  The batch's
 * snapshot (snap) was taken before the window opened, so it is not
 * enough here.
 */
static struct text_snapshot window_snapshot;	/* under kprobe_mutex */

/* A batch's patches and the bytes they write (under kprobe_mutex). */
static struct text_poke_loc batch_locs[MAX_OPTIMIZE_PROBES];
static kprobe_opcode_t batch_bytes[MAX_OPTIMIZE_PROBES][RELATIVEJUMP_SIZE];
static const kprobe_opcode_t int3_byte = BREAKPOINT_INSTRUCTION;

/* Would a thread resume in the bytes op's jump covers, or in its slot? */
static bool op_site_busy(const struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	unsigned long slot = (unsigned long)op->kp->ainsn.boost_insn;	/* a boosted copy */

	return text_snapshot_busy(&window_snapshot, addr + 1, addr + op->optinsn.size) ||
	       (slot && text_snapshot_busy(&window_snapshot, slot, slot + MAX_INSN_SIZE));
}

/*
 * Linux's arch_optimize_kprobes(): the whole batch through one
 * text_poke_bp window, so n jumps cost three syncs and one look at the
 * CPUs, not 3n and n.  A site with a thread inside stays an int3
 * (ret[i] = -OPT_THREAD_INSIDE); its detour stays with op, since hits in
 * the window may have run it.
 */
void arch_optimize_kprobes(struct optimized_kprobe **ops, int n, int *ret)
{
	for (int i = 0; i < n; i++)
		batch_locs[i] = (struct text_poke_loc){ .addr = ops[i]->kp->addr,
							.handler = ops[i]->optinsn.insn };
	text_poke_bp_batch_begin(batch_locs, n);
	text_snapshot_take(&window_snapshot);
	for (int i = 0; i < n; i++) {
		unsigned long addr = (unsigned long)ops[i]->kp->addr;

		ret[i] = op_site_busy(ops[i]) ? -OPT_THREAD_INSIDE : 0;
		if (ret[i]) {
			batch_locs[i].opcode = &int3_byte;	/* stays the probe's int3 */
			batch_locs[i].len = 1;
			continue;
		}
		batch_bytes[i][0] = RELATIVEJUMP_OPCODE;
		put_rel32(batch_bytes[i] + 1, addr + RELATIVEJUMP_SIZE,
			  (unsigned long)ops[i]->optinsn.insn);
		batch_locs[i].opcode = batch_bytes[i];
		batch_locs[i].len = RELATIVEJUMP_SIZE;
	}
	text_poke_bp_batch_finish(batch_locs, n);
}

/* Linux's arch_unoptimize_kprobes(): every jump back to an int3, one window. */
void arch_unoptimize_kprobes(struct optimized_kprobe **ops, int n)
{
	for (int i = 0; i < n; i++) {
		batch_bytes[i][0] = BREAKPOINT_INSTRUCTION;
		memcpy(batch_bytes[i] + 1, ops[i]->optinsn.copy + 1, RELATIVEJUMP_SIZE - 1);
		batch_locs[i] = (struct text_poke_loc){ .addr = ops[i]->kp->addr,
							.opcode = batch_bytes[i],
							.len = RELATIVEJUMP_SIZE,
							.handler = ops[i]->optinsn.insn };
	}
	text_poke_bp_batch_begin(batch_locs, n);
	text_poke_bp_batch_finish(batch_locs, n);
}

/*
 * int3 -> jmp for one probe: the batch of one.  (The int3 at addr is
 * already there; see above for the window and the look.)
 */
int arch_optimize_kprobe(struct optimized_kprobe *op)
{
	int ret;

	arch_optimize_kprobes(&op, 1, &ret);
	return ret;
}

/*
 * jmp -> int3, the other way round, as Linux did it: the same protocol
 * with the detour as the window's handler.  Once the int3 replaces the
 * jmp's opcode nobody starts the rel32; a hit while we write the
 * original tail back runs the detour as before.  The text is then an
 * ordinary armed kprobe again.
 */
void arch_unoptimize_kprobe(struct optimized_kprobe *op)
{
	arch_unoptimize_kprobes(&op, 1);
}

static void release_optimized_kprobe(void *arg)
{
	struct optimized_kprobe *op = arg;

	free_optinsn_slot(op->optinsn.insn, 0);
	kfree(op);
}

/*
 * A preempted thread may still be in the buffer: in its first two
 * instructions (before cli) or in the copies (after iret).  Both the
 * buffer and op, which the template calls back with, wait for it.  The
 * optimizer passes the batch's snapshot, so a batch of unoptimized
 * probes costs one walk of the threads, not one per probe.
 */
void arch_remove_optimized_kprobe(struct optimized_kprobe *op,
				  const struct text_snapshot *snap)
{
	unsigned long b = (unsigned long)op->optinsn.insn;

	if (!op->optinsn.insn) {
		kfree(op);
		return;
	}
	/*
	 * The batch's snapshot was taken before the jump went: on one CPU
	 * nobody ran since, but another CPU may have entered the detour
	 * after it.  Then only a fresh look (kprobes_free_text_later) says.
	 */
	if (snap && num_online_cpus() == 1 &&
	    !text_snapshot_busy(snap, b, b + op->optinsn.insn_size)) {
		release_optimized_kprobe(op);
		return;
	}
	kprobes_free_text_later(b, b + op->optinsn.insn_size,
				release_optimized_kprobe, op);
}

/* ---- the hit ------------------------------------------------------------------- */

/*
 * Called by the detour with interrupts off and a pt_regs just like an
 * int3's, regs->ip just past the probe.  Set the state kprobe_handler() sets for a hit - current_kprobe,
 * KPROBE_HIT_ACTIVE, nhit - so that a probe hit inside the handler is a
 * reentry counted in nmissed, and a fault in it goes to the probe's
 * fault_handler.  The preempt count is raised around the handler, as
 * around an int3 hit's (arch/i386/kprobes/core.c): a handler that turns
 * interrupts on is still not preempted in the middle of the hit, so no
 * other thread can ever find this one stopped half-way through a hit.
 * There is nothing to step.  It returns what the pre-handler returned,
 * as Linux's handlers mean it: zero, the detour runs the copies next (it
 * sets regs->ip to them); non-zero, the pre-handler chose regs->ip.
 *
 * op->kp is NULL if the jump was taken out while this CPU was at the
 * top of the detour (sent there by the patch window, or preempted
 * there): the call still went through the probed address, so whatever
 * probe is registered there now is the one hit - the same probe if
 * only the optimization was switched off, none if it was unregistered
 * (then only the displaced instructions still have to run).  A probe
 * with a post-handler needs the int3 path: that call counts as missed.
 */
int optimized_callback(struct optimized_kprobe *op, struct pt_regs *regs)
{
	struct kprobe *p = op->kp;
	int moved_ip;

	if (!p) {
		p = get_kprobe(op->addr);
		if (p && (kprobe_disabled(p) || p->post_handler || p->break_handler)) {
			if (!kprobe_disabled(p))
				kprobes_inc_nmissed_count(p);
			return 0;
		}
	}
	if (!p || this_cpu_read(current_kprobe)) {
		if (p)
			kprobes_inc_nmissed_count(p);
		return 0;			/* iret runs the copies */
	}
	__preempt_count_add(1);			/* as around an int3 hit's handlers */
	this_cpu_write(current_kprobe, p);
	set_kprobe_status(KPROBE_HIT_ACTIVE);
	kprobe_count_inc(&p->nhit);
	moved_ip = p->pre_handler ? p->pre_handler(p, regs) : 0;
	reset_current_kprobe();
	__preempt_count_sub(1);
	return moved_ip;
}
NOKPROBE_SYMBOL(optimized_callback);
