/*
 * text_poke_bp.c - changing code that other CPUs are running.
 *
 * text_poke() writes bytes; it does not make the change safe for a CPU
 * that is executing them at that moment.  A CPU fetches an instruction
 * in pieces and may have decoded the old bytes already: if it runs the
 * first byte of our new jmp followed by the tail of the old instruction
 * it executes something nobody wrote.  Intel allows exactly one kind of
 * cross-modifying store without stopping the other CPUs: replacing one
 * byte with int3 (SDM vol. 3, "Handling Self- and Cross-Modifying
 * Code").  Linux's text_poke_bp() (arch/x86/kernel/alternative.c) builds
 * the whole protocol on it; so do we:
 *
 *   1. int3 on the first byte, then sync every CPU: each runs a
 *      serializing instruction (sync_core()) in an IPI, so from now on
 *      every CPU that reaches addr traps instead of running the rest;
 *   2. write the tail (bytes 1..len-1), sync: nobody can be executing
 *      them, since the only way in - the first byte - is an int3;
 *   3. write the first byte, sync: the new instruction is whole.
 *
 * An int3 hit while the window is open is not a stray breakpoint.
 * poke_int3_handler() runs before any notifier (do_int3() in Linux
 * calls it first) and sends the CPU where the new code would take it:
 * the caller's handler, e.g. an optprobe's detour, which runs the probe
 * and the displaced instructions and comes back past the window.  A
 * caller whose new first byte is itself an int3 (arming a kprobe) or
 * whose int3 still belongs to a probe (disarming one) passes no handler:
 * the probe's owner takes the trap as usual.
 *
 * One patch at a time (text_poke_bp_lock): the window is one global
 * description, read without a lock by every CPU's int3.
 */
#include "kernel.h"
#include "mm.h"
#include "smp.h"
#include "sched.h"
#include <asm/processor.h>
#include "spinlock.h"
#include <asm/ptrace.h>
#include <asm/ptrace.h>
#include "nokprobe.h"
#include <asm/text_patching.h>

/*
 * The patches in progress (text_patching.h): one patch or a batch of
 * them (text_poke_bp_batch_begin(): the optimizer's), which shares
 * every sync: a batch of n jumps costs three syncs, not 3n.
 */
struct bp_patching_desc bp_patching;

/* Windows opened since boot (text_poke_bp_nr_windows()). */
static unsigned long bp_windows;

/* text_poke_bp_begin()'s one patch. */
static struct text_poke_loc bp_single;

static DEFINE_SPINLOCK(text_poke_bp_lock);

/* The IPI: throw away whatever this CPU fetched of the old bytes. */
static void do_sync_core(void *info)
{
	sync_core();
}
NOKPROBE_SYMBOL(do_sync_core);

/*
 * Every CPU runs a serializing instruction before this returns.  Also
 * the proof that no CPU is still inside an int3 taken before: an int3
 * runs with interrupts off (interrupt gate), and the IPI waits for IF.
 */
void text_poke_sync(void)
{
	if (text_poke_others_involved())
		on_each_cpu(do_sync_core, NULL, 1);
	else
		sync_core();
}

bool text_poke_others_involved(void)
{
	return num_online_cpus() > 1 && !sched_single_cpu();
}
NOKPROBE_SYMBOL(text_poke_others_involved);
NOKPROBE_SYMBOL(text_poke_sync);

/*
 * From do_int3(), before kprobes and the die notifiers, when the int3
 * is gone or a patch is in progress (poke_int3_handler() in
 * text_patching.h tests both inline).  Returns 1 if the CPU was sent on
 * (regs->ip changed), 0 to let kprobes and the kernel see the trap.
 */
int __poke_int3_handler(struct pt_regs *regs)
{
	unsigned long at = regs->ip - INT3_INSN_SIZE, handler;

	/* A process's own int3 (Linux checks first too): kernel text is never there. */
	if (user_mode(regs))
		return 0;
	/*
	 * The int3 this CPU trapped on is gone: another CPU patched it away
	 * between the fetch and now (Linux's kprobe_int3_handler() checks the
	 * same).  Whatever is there now is what should run: go back to it.
	 */
	if (READ_ONCE(*(const unsigned char *)at) != INT3_INSN_OPCODE) {
		text_poke_refetch((void *)at);	/* under QEMU: see text_poke.c */
		regs->ip = at;
		return 1;
	}
	if (!READ_ONCE(bp_patching.active))
		return 0;
	barrier();		/* x86 keeps loads in order: only the compiler must */
	handler = 0;
	for (int i = 0; i < bp_patching.nr; i++) {
		if ((unsigned long)bp_patching.vec[i].addr == at) {
			handler = (unsigned long)bp_patching.vec[i].handler;
			break;
		}
	}
	if (!handler)
		return 0;	/* not ours, or the int3's owner takes it */
	regs->ip = handler;	/* as if the new instruction had jumped there */
	return 1;
}
NOKPROBE_SYMBOL(__poke_int3_handler);

/*
 * Step 1 for a batch: an int3 on each first byte, the window open for
 * all, one sync.  The caller may then look at the other CPUs (nobody can
 * enter the bytes behind an int3 any more) and, before finishing, turn
 * any patch into "stay an int3" (opcode an int3, len 1).
 */
void text_poke_bp_batch_begin(struct text_poke_loc *tp, int nr)
{
	unsigned char int3 = INT3_INSN_OPCODE;
	bool sync = false;

	spin_lock(&text_poke_bp_lock);
	bp_windows++;
	bp_patching.vec = tp;
	bp_patching.nr = nr;
	barrier();		/* stores stay in order on x86: an int3 that sees active sees the rest */
	WRITE_ONCE(bp_patching.active, 1);
	for (int i = 0; i < nr; i++) {
		if (*(unsigned char *)tp[i].addr != INT3_INSN_OPCODE) {
			text_poke(tp[i].addr, &int3, INT3_INSN_SIZE);
			sync = true;
		} else if (tp[i].handler) {
			sync = true;	/* hits from now on must be redirected */
		}
	}
	if (sync)		/* nothing changed, no hit to redirect: no sync */
		text_poke_sync();
}
NOKPROBE_SYMBOL(text_poke_bp_batch_begin);

unsigned long text_poke_bp_nr_windows(void)
{
	return READ_ONCE(bp_windows);
}

static void text_poke_bp_close(void)
{
	WRITE_ONCE(bp_patching.active, 0);
	spin_unlock(&text_poke_bp_lock);
}
NOKPROBE_SYMBOL(text_poke_bp_close);

/* Steps 2 and 3 for the batch: every tail, sync, every first byte, sync. */
void text_poke_bp_batch_finish(struct text_poke_loc *tp, int nr)
{
	bool tails = false, last_sync = false;

	for (int i = 0; i < nr; i++) {
		const unsigned char *op = tp[i].opcode;

		if (tp[i].len > INT3_INSN_SIZE) {
			text_poke((unsigned char *)tp[i].addr + INT3_INSN_SIZE,
				  op + INT3_INSN_SIZE, tp[i].len - INT3_INSN_SIZE);
			tails = true;
		}
	}
	if (tails)
		text_poke_sync();
	for (int i = 0; i < nr; i++) {
		const unsigned char *op = tp[i].opcode;

		if (op[0] != INT3_INSN_OPCODE) {
			text_poke(tp[i].addr, op, INT3_INSN_SIZE);
			last_sync = true;
		}
		/*
		 * Even when the first byte stays an int3, if hits were
		 * redirected: the sync also proves that no CPU is still in
		 * poke_int3_handler() with the old window.  Arming a kprobe
		 * (one byte, an int3, no handler) needs the one sync begin
		 * made, as in Linux.
		 */
		if (tp[i].handler)
			last_sync = true;
	}
	if (last_sync)
		text_poke_sync();
	text_poke_bp_close();
}
NOKPROBE_SYMBOL(text_poke_bp_batch_finish);

/* Step 1 on its own, for one patch: text_poke_bp_batch_begin() of one. */
void text_poke_bp_begin(void *addr, void *handler)
{
	bp_single = (struct text_poke_loc){ .addr = addr, .handler = handler };
	text_poke_bp_batch_begin(&bp_single, 1);
}
NOKPROBE_SYMBOL(text_poke_bp_begin);

/* Steps 2 and 3: the tail behind the int3, then the first byte. */
void text_poke_bp_finish(void *addr, const void *opcode, size_t len)
{
	bp_single.opcode = opcode;
	bp_single.len = len;
	text_poke_bp_batch_finish(&bp_single, 1);
}
NOKPROBE_SYMBOL(text_poke_bp_finish);

/* Nothing but the first byte changed: put it back (old_byte) and close. */
void text_poke_bp_abandon(void *addr, unsigned char old_byte)
{
	if (old_byte != INT3_INSN_OPCODE)
		text_poke(addr, &old_byte, INT3_INSN_SIZE);
	text_poke_sync();
	text_poke_bp_close();
}
NOKPROBE_SYMBOL(text_poke_bp_abandon);

/*
 * Linux's text_poke_bp(addr, opcode, len, handler): the whole protocol.
 * Called with interrupts on (the syncs wait for the other CPUs) and
 * never from a probe handler.
 */
void text_poke_bp(void *addr, const void *opcode, size_t len, void *handler)
{
	text_poke_bp_begin(addr, handler);
	text_poke_bp_finish(addr, opcode, len);
}
NOKPROBE_SYMBOL(text_poke_bp);
