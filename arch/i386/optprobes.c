/*
 * optprobes.c (arch/i386) - jump-optimized probes: the CPU half.
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
 *  1. The safety analysis (arch_check_optimized_kprobe): the
 *     instructions the jump displaces must run anywhere (no relative
 *     branch, call, trap...),
 *     and nothing may ever jump into the middle of the jump - so we
 *     decode the whole function and look at every branch target, and
 *     give up on functions with indirect jumps (jump tables), fixup-table
 *     entries, or an int3 we did not put there.
 *  2. The patching order (arch_optimize_kprobe): the int3 is already at
 *     addr, so nobody can run the bytes behind it while we write them;
 *     first the four tail bytes, then the first byte.  Before that we
 *     check that no preempted thread stopped inside the tail.
 *  3. The detour buffer is freed only when no thread can be inside it
 *     (arch/i386/text_quiesce.c).
 */
#include "kernel.h"
#include "kprobes.h"
#include "hash.h"
#include "kallsyms.h"
#include "extable.h"
#include "errno.h"
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "irqflags.h"
#include "nokprobe.h"

/* optprobe_template.S */
extern const char optprobe_template_entry[], optprobe_template_ip[],
	optprobe_template_op[], optprobe_template_call[], optprobe_template_end[];

#define TMPL_SIZE	(size_t)(optprobe_template_end - optprobe_template_entry)
#define TMPL_IP_IMM	(size_t)(optprobe_template_ip - optprobe_template_entry + 1)
#define TMPL_OP_IMM	(size_t)(optprobe_template_op - optprobe_template_entry + 1)
#define TMPL_CALL	(size_t)(optprobe_template_call - optprobe_template_entry)
#define CALL_SIZE	5	/* e8 rel32 */

/* ---- reading the text as the compiler wrote it ------------------------------- */

/*
 * The instruction at ip before any probe: the first byte may be a
 * probe's int3 (instructions are probed only at their first byte) and
 * any byte may lie under another optimized probe's jump.
 */
static int decode_original_at(struct insn *insn, kprobe_opcode_t *buf,
			      unsigned long ip)
{
	struct kprobe *p = get_kprobe((void *)ip);

	memcpy(buf, (void *)ip, INSN_MAX_LEN);
	if (p)
		buf[0] = p->opcode;
	recover_optprobed_bytes(buf, (kprobe_opcode_t *)ip, INSN_MAX_LEN);
	return insn_decode(insn, buf, INSN_MAX_LEN);
}

/* ---- the safety analysis -------------------------------------------------------- */

/* May this instruction run from the detour buffer, then fall through? */
static bool can_relocate(const struct insn *insn)
{
	/*
	 * NO_BOOST is the same question Linux asks (can_boost): relative
	 * branches and calls would go relative to the buffer, traps and
	 * far calls leave, x87 errors would be reported late...  We also
	 * want every copy to fall through to the next one, so no branch of
	 * any kind, not even ret or jmp *x.  And, as for boosting, no rep
	 * string instruction: an int3 probe on one fires once per iteration,
	 * a jump would fire once for all of them.
	 */
	return !(insn->attr & (INSN_ATTR_NO_BOOST | INSN_ATTR_NO_SSTEP |
			       INSN_ATTR_BRANCH | INSN_ATTR_REL_BRANCH |
			       INSN_ATTR_STRING_REP));
}

/* Could the CPU, after this instruction, go to an address in (lo, hi)? */
static bool jumps_into(const struct insn *insn, unsigned long ip,
		       unsigned long lo, unsigned long hi)
{
	unsigned long target;

	if (insn_is_rel_branch(insn))
		target = insn_rel_target(insn, ip);
	else if (insn->type == INSN_TYPE_JMP_FAR && !(insn->attr & INSN_ATTR_INDIRECT))
		target = (unsigned long)(uint32_t)insn->imm.value;	/* ljmp $cs, $target */
	else if (insn->type == INSN_TYPE_CALL_FAR && !(insn->attr & INSN_ATTR_INDIRECT))
		target = (unsigned long)(uint32_t)insn->imm.value;
	else
		return false;
	return target > lo && target < hi;
}

/* One instruction of the function: could it make the CPU run behind the jump? */
static int check_insn(const struct insn *insn, unsigned long ip,
		      unsigned long addr, size_t size)
{
	if (insn->type == INSN_TYPE_INT3)
		return -OPT_UNDECODABLE;	/* someone else's breakpoint hides a byte */
	if (insn->attr & INSN_ATTR_INDIRECT &&
	    (insn->type == INSN_TYPE_JMP_IND || insn->type == INSN_TYPE_JMP_FAR))
		return -OPT_INDIRECT_JUMP;	/* a jump table can go anywhere */
	if (search_exception_tables(ip))
		return -OPT_FIXUP_ENTRY;	/* its fixup code jumps back in, unseen */
	if (jumps_into(insn, ip, addr, addr + size))
		return -OPT_JUMP_INTO_RANGE;
	return 0;
}

/*
 * Decode [start, end) and check every instruction.  Returns 0 only if
 * the walk passed through `must` (the probe's own instruction boundary;
 * 0 for the cold half of a split function, which has no probe).
 */
static int check_code(unsigned long start, unsigned long end, unsigned long must,
		      unsigned long addr, size_t size)
{
	kprobe_opcode_t buf[INSN_MAX_LEN];
	struct insn insn;
	bool seen = !must;
	int ret, into = 0;

	for (unsigned long ip = start; ip < end; ip += insn.length) {
		if (decode_original_at(&insn, buf, ip) < 0)
			return -OPT_UNDECODABLE;
		seen |= ip == must;
		ret = check_insn(&insn, ip, addr, size);
		if (ret == -OPT_JUMP_INTO_RANGE)
			into = ret;		/* keep looking for a function-wide reason */
		else if (ret)
			return ret;
	}
	return seen ? into : -OPT_UNDECODABLE;
}

/*
 * The instructions the jump displaces: whole instructions from addr
 * until at least RELATIVEJUMP_SIZE bytes, all relocatable, all inside
 * the function, no other probe among them.  Their original bytes go to
 * op->optinsn.copy.
 */
static int measure_displaced(struct optimized_kprobe *op, unsigned long end)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	kprobe_opcode_t buf[INSN_MAX_LEN];
	struct insn insn;
	size_t size = 0;

	while (size < RELATIVEJUMP_SIZE) {
		if (decode_original_at(&insn, buf, addr + size) < 0)
			return -OPT_UNDECODABLE;
		if (!can_relocate(&insn))
			return -OPT_NOT_RELOCATABLE;
		if (addr + size + insn.length > end)
			return -OPT_CROSSES_END;	/* would spill into the next function */
		memcpy(op->optinsn.copy + size, buf, insn.length);
		size += insn.length;
	}
	for (size_t i = 1; i < size; i++)
		if (get_kprobe((void *)(addr + i)))
			return -OPT_PROBE_IN_RANGE;
	op->optinsn.size = size;
	return 0;
}

/*
 * Linux's can_optimize(): decode the whole function (kprobe_function_extent
 * finds it, cold half included) and refuse if anything in it could make
 * the CPU run the bytes behind the jump - a branch into (addr, addr +
 * size), an indirect jump, an exception-fixup entry, a foreign int3.
 *
 * The answer names the function-wide reason first, as Linux's order
 * does (can_optimize() before copying the instructions): every site of
 * a function with a jump table is refused for the jump table, whatever
 * its own instruction is.  When the displaced instructions do not
 * qualify, the walk still runs, with an empty range (no branch can land
 * inside it), to look for such a reason.
 */
int arch_check_optimized_kprobe(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	struct func_extent fx;
	size_t size;
	int site, ret;

	ret = kprobe_function_extent(addr, &fx);
	if (ret)
		return ret;
	if (fx.end - addr < RELATIVEJUMP_SIZE)
		site = -OPT_CROSSES_END;
	else
		site = measure_displaced(op, fx.end);
	size = site ? 0 : op->optinsn.size;
	ret = check_code(fx.start, fx.end, addr, addr, size);
	if ((ret == 0 || ret == -OPT_JUMP_INTO_RANGE) && fx.other_end) {
		int cold = check_code(fx.other_start, fx.other_end, 0, addr, size);

		if (cold)
			ret = cold;
	}
	return ret ? ret : site;
}

/* ---- detour buffers: pages of their own ------------------------------------------- */

/*
 * Not kmalloc(): a detour must not share its page with data.  A store
 * into a page the CPU runs code from looks like self-modifying code -
 * real CPUs flush their pipeline, QEMU throws the page's translations
 * away - and a kretprobe writes its instances on every hit: next to its
 * own detour, that made the hit twice as slow under QEMU.  So whole
 * pages from alloc_pages() (executable: no NX bit without PAE), cut into
 * DETOUR_SLOTS slots, as probes/insn_slot.c does for int3 probes.
 */
#define DETOUR_SLOT_SIZE	128
#define DETOUR_SLOTS		(PAGE_SIZE / DETOUR_SLOT_SIZE)	/* 32: one bitmap word */

struct detour_page {
	struct detour_page *next;
	struct hlist_node hlist;	/* in detour_hash, by page address */
	kprobe_opcode_t *mem;
	uint32_t used;			/* bit i: slot i taken */
};

/*
 * Pages with room are found from the list head (new pages go first);
 * a freed buffer finds its page in a hash by page address, not by
 * walking the list (10,000 probes are 313 pages).
 */
#define DETOUR_HASH_BITS	5
static struct detour_page *detour_pages;
static struct hlist_head detour_hash[1 << DETOUR_HASH_BITS];

static struct hlist_head *detour_bucket(const void *page)
{
	uint32_t pfn = (uint32_t)(unsigned long)page >> PAGE_SHIFT;

	return &detour_hash[hash_32(pfn, DETOUR_HASH_BITS)];
}

static kprobe_opcode_t *take_detour(struct detour_page *dp)
{
	for (unsigned int i = 0; i < DETOUR_SLOTS; i++) {
		if (!(dp->used & (1u << i))) {
			dp->used |= 1u << i;
			return dp->mem + i * DETOUR_SLOT_SIZE;
		}
	}
	return NULL;
}

static kprobe_opcode_t *alloc_detour(void)
{
	struct detour_page *dp;

	for (dp = detour_pages; dp; dp = dp->next)
		if (dp->used != ~0u)
			return take_detour(dp);
	dp = kzalloc(sizeof(*dp));
	if (!dp)
		return NULL;
	dp->mem = alloc_pages(1);
	if (!dp->mem) {
		kfree(dp);
		return NULL;
	}
	memset(dp->mem, BREAKPOINT_INSTRUCTION, PAGE_SIZE);
	dp->next = detour_pages;
	detour_pages = dp;
	hlist_add_head(&dp->hlist, detour_bucket(dp->mem));
	return take_detour(dp);
}

static void release_detour_page(struct detour_page *dp)
{
	struct detour_page **pp;

	for (pp = &detour_pages; *pp != dp; pp = &(*pp)->next)
		;
	*pp = dp->next;
	hlist_del(&dp->hlist);
	free_pages(dp->mem, 1);
	kfree(dp);
}

static void free_detour(kprobe_opcode_t *buf)
{
	kprobe_opcode_t *page = (kprobe_opcode_t *)((unsigned long)buf & ~(PAGE_SIZE - 1));
	struct detour_page *dp;

	hlist_for_each_entry(dp, detour_bucket(page), hlist) {
		if (dp->mem != page)
			continue;
		memset(buf, BREAKPOINT_INSTRUCTION, DETOUR_SLOT_SIZE);
		dp->used &= ~(1u << ((buf - dp->mem) / DETOUR_SLOT_SIZE));
		if (!dp->used)
			release_detour_page(dp);
		return;
	}
	panic("optprobes: %p is not a detour buffer", buf);
}

/*
 * A backtrace through a handler of an optimized probe meets the return
 * address of the detour's "call optimized_callback": the detour's
 * pt_regs lie right above it (arch/i386/unwind_frame.c).  Read only, no
 * lock: an oops may be printing.
 */
bool arch_optprobe_detour_return(unsigned long ret)
{
	for (struct detour_page *dp = detour_pages; dp; dp = dp->next) {
		unsigned long off = ret - (unsigned long)dp->mem;

		if (off < PAGE_SIZE)
			return off % DETOUR_SLOT_SIZE == TMPL_CALL + CALL_SIZE;
	}
	return false;
}
NOKPROBE_SYMBOL(arch_optprobe_detour_return);

/* ---- the detour buffer --------------------------------------------------------- */

static void put_rel32(kprobe_opcode_t *at, unsigned long from_end, unsigned long target)
{
	int32_t rel = (int32_t)(target - from_end);

	memcpy(at, &rel, sizeof(rel));
}

/* Template, copies, jmp back.  A rel32 reaches anywhere in 4 GiB. */
static int build_detour(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	size_t size = op->optinsn.size;
	size_t total = TMPL_SIZE + size + RELATIVEJUMP_SIZE;
	kprobe_opcode_t *buf = total <= DETOUR_SLOT_SIZE ? alloc_detour() : NULL;
	unsigned long b = (unsigned long)buf;
	uint32_t opaddr = (uint32_t)(unsigned long)op;
	uint32_t copies = (uint32_t)(b + TMPL_SIZE);

	if (!buf)
		return -OPT_NO_MEMORY;
	memcpy(buf, optprobe_template_entry, TMPL_SIZE);
	memcpy(buf + TMPL_IP_IMM, &copies, sizeof(copies));
	memcpy(buf + TMPL_OP_IMM, &opaddr, sizeof(opaddr));
	put_rel32(buf + TMPL_CALL + 1, b + TMPL_CALL + CALL_SIZE,
		  (unsigned long)optimized_callback);
	memcpy(buf + TMPL_SIZE, op->optinsn.copy, size);
	buf[TMPL_SIZE + size] = RELATIVEJUMP_OPCODE;
	put_rel32(buf + TMPL_SIZE + size + 1, b + total, addr + size);
	op->optinsn.insn = buf;
	op->optinsn.insn_size = total;
	return 0;
}

int arch_prepare_optimized_kprobe(struct optimized_kprobe *op)
{
	int ret = arch_check_optimized_kprobe(op);

	return ret ? ret : build_detour(op);
}

/* ---- patching ------------------------------------------------------------------ */

/*
 * int3 -> jmp.  The int3 at addr is already there, so no one can start
 * running the displaced instructions while we write: first the rel32
 * (bytes 1-4), then the opcode byte - Linux's order, which matters on
 * SMP.  Here it is not enough on its own: an int3 hit does not stop at
 * addr, it comes back at addr + len (after the step, or by the boosted
 * slot's jmp), which is inside the bytes being written.  An interrupt
 * handler hitting the probe between the two writes would run half a
 * jump.  So both writes happen in one stretch with interrupts off: on
 * one CPU, nothing at all runs in between.  A thread preempted
 * before the probe was armed could have stopped in the middle of the
 * range, though, and would resume in the middle of our jump.  So could
 * a thread preempted in the probe's boosted slot: the slot's jmp back
 * goes to addr + len, inside the range.  Then we do not optimize now
 * (the optimizer tries again later).
 */
int arch_optimize_kprobe(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	unsigned long slot = (unsigned long)op->kp->ainsn.insn;
	kprobe_opcode_t jmp[RELATIVEJUMP_SIZE];
	unsigned long flags;

	if (kprobes_text_busy(addr + 1, addr + op->optinsn.size) ||
	    kprobes_text_busy(slot, slot + MAX_INSN_SIZE)) {
		free_detour(op->optinsn.insn);	/* never ran: free it now */
		op->optinsn.insn = NULL;
		return -OPT_THREAD_INSIDE;
	}
	jmp[0] = RELATIVEJUMP_OPCODE;
	put_rel32(jmp + 1, addr + RELATIVEJUMP_SIZE, (unsigned long)op->optinsn.insn);
	flags = local_irq_save();
	text_poke((void *)(addr + 1), jmp + 1, RELATIVEJUMP_SIZE - 1);
	text_poke((void *)addr, jmp, 1);
	local_irq_restore(flags);
	return 0;
}

/*
 * jmp -> int3, the other way round: int3 first (from now on every hit
 * traps; nobody can be between the jmp's bytes), then the original
 * tail, again in one interrupts-off stretch (a hit in between would come
 * back at addr + len into the old rel32).  The text is then an ordinary
 * armed kprobe again.
 */
void arch_unoptimize_kprobe(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	kprobe_opcode_t int3 = BREAKPOINT_INSTRUCTION;
	unsigned long flags = local_irq_save();

	text_poke((void *)addr, &int3, 1);
	text_poke((void *)(addr + 1), op->optinsn.copy + 1, RELATIVEJUMP_SIZE - 1);
	local_irq_restore(flags);
}

static void release_optimized_kprobe(void *arg)
{
	struct optimized_kprobe *op = arg;

	free_detour(op->optinsn.insn);
	kfree(op);
}

/*
 * A preempted thread may still be in the buffer: in its first two
 * instructions (before cli) or in the copies (after iret).  Both the
 * buffer and op, which the template calls back with, wait for it.
 */
void arch_remove_optimized_kprobe(struct optimized_kprobe *op)
{
	unsigned long b = (unsigned long)op->optinsn.insn;

	if (!op->optinsn.insn) {
		kfree(op);
		return;
	}
	kprobes_free_text_later(b, b + op->optinsn.insn_size,
				release_optimized_kprobe, op);
}

/* ---- the hit ------------------------------------------------------------------- */

/*
 * Called by the detour with interrupts off and a pt_regs just like an
 * int3's (but regs->ip = the copies, where iret will go).  Set the state kprobe_handler() sets for a hit - current_kprobe,
 * KPROBE_HIT_ACTIVE, nhit - so that a probe hit inside the handler is a
 * reentry counted in nmissed, and a fault in it goes to the probe's
 * fault_handler.  No preempt_disable(): the int3 path needs it because a
 * hit spans two exceptions with the thread running in between; here the
 * whole hit is one stretch with interrupts off, so nothing can preempt
 * it.  There is nothing to step: iret goes straight to the copies.
 *
 * op->kp is NULL if the probe was unoptimized while this thread sat,
 * preempted, at the top of the detour: the probe is gone, only the
 * displaced instructions still have to run.
 */
void __attribute__((regparm(2)))
optimized_callback(struct optimized_kprobe *op, struct pt_regs *regs)
{
	struct kprobe *p = op->kp;
	unsigned long copies = regs->ip;	/* the template pushed it */

	if (!p || kprobe_running()) {
		if (p)
			kprobes_inc_nmissed_count(p);
		return;				/* iret runs the copies */
	}
	regs->ip = (unsigned long)p->addr;	/* what handlers see on an int3 too */
	current_kprobe = p;
	kprobe_ctlblk.kprobe_status = KPROBE_HIT_ACTIVE;
	p->nhit++;
	if (!p->pre_handler || !p->pre_handler(p, regs))
		regs->ip = copies;		/* else the handler chose where to go */
	current_kprobe = NULL;
}
NOKPROBE_SYMBOL(optimized_callback);
