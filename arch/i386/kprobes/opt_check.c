/*
 * opt_check.c (arch/i386) - may this probe become a jump?
 *
 * The safety analysis: can_optimize() and arch_check_optimized_kprobe(),
 * as Linux names them (docs/optprobes.md, "The safety analysis"):
 *
 *   - the instructions the jump displaces must run anywhere and fall
 *     through (no branch, call, trap, rep string...), lie inside the
 *     function, and carry no other probe;
 *   - nothing in the function may ever land in the middle of the jump:
 *     we decode the whole function (and its .cold part) and look at
 *     every branch target, and give up on functions with indirect jumps
 *     (jump tables), fixup-table entries, or an int3 we did not put there.
 *
 * The second half is about the function, not the probe.  Probing every
 * instruction of a 2 KiB function used to decode the function once per
 * probe - 600 probes, 600 decodes each.  So the function's answer is
 * kept as a summary (its first function-wide refusal, its instruction
 * boundaries, its branch targets) and reused while the optimizer works
 * through one batch; each probe then only measures its own few bytes.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include <asm/extable.h>
#include "mm.h"
#include "string.h"

/* ---- reading the text as the compiler wrote it ------------------------------- */

/* ---- one instruction ------------------------------------------------------------ */

/* May this instruction run from the detour buffer, then fall through? */
static bool can_relocate(const struct insn *insn)
{
	/* LAB 5: BEGIN can_relocate: may this instruction run from the detour buffer? */
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
	/* LAB 5: STUB return false; */
	/* LAB 5: END */
}

/* Where the CPU may go after this instruction, if the instruction says. */
static bool branch_target(const struct insn *insn, unsigned long ip, unsigned long *target)
{
	if (insn_is_rel_branch(insn))
		*target = insn_rel_target(insn, ip);
	else if (insn->type == INSN_TYPE_JMP_FAR && !(insn->attr & INSN_ATTR_INDIRECT))
		*target = (unsigned long)(uint32_t)insn->imm.value;	/* ljmp $cs, $target */
	else if (insn->type == INSN_TYPE_CALL_FAR && !(insn->attr & INSN_ATTR_INDIRECT))
		*target = (unsigned long)(uint32_t)insn->imm.value;
	else
		return false;
	return true;
}

/* A reason no probe anywhere in the function may become a jump, or 0. */
static int function_wide_refusal(const struct insn *insn, unsigned long ip)
{
	/* LAB 5: BEGIN function_wide_refusal: what rules out every jump in a function */
	if (insn->type == INSN_TYPE_INT3)
		return -OPT_UNDECODABLE;	/* someone else's breakpoint hides a byte */
	if (insn->attr & INSN_ATTR_INDIRECT &&
	    (insn->type == INSN_TYPE_JMP_IND || insn->type == INSN_TYPE_JMP_FAR))
		return -OPT_INDIRECT_JUMP;	/* a jump table can go anywhere */
	if (search_exception_tables(ip))
		return -OPT_FIXUP_ENTRY;	/* its fixup code jumps back in, unseen */
	return 0;
	/* LAB 5: STUB return 0; */
	/* LAB 5: END */
}

/* ---- the function, summarised --------------------------------------------------- */

/* One part of a function: the whole of foo, or foo.cold. */
struct code_part {
	unsigned long start, end;
	int wide;			/* first function-wide refusal met, 0 if none */
	unsigned long *targets;		/* every branch target, in walk order */
	unsigned int nr_targets;
};

struct func_summary {
	struct code_part main, cold;	/* cold.end == 0: no cold part */
	uint32_t *boundary;		/* bit i: an instruction starts at main.start + i */
	bool valid;
};

#define BITS_PER_WORD	32

/*
 * Decode [start, end) in order, as the CPU would walk it, until the end
 * or the first function-wide refusal (which decides for every probe:
 * Linux's can_optimize() runs before the displaced bytes are looked at).
 */
static void summarize_part(struct code_part *part, uint32_t *boundary)
{
	kprobe_opcode_t buf[INSN_MAX_LEN];
	struct insn insn;
	unsigned long target;

	for (unsigned long ip = part->start; ip < part->end; ip += insn.length) {
		if (decode_original(&insn, buf, (kprobe_opcode_t *)ip) < 0) {
			part->wide = -OPT_UNDECODABLE;
			return;
		}
		if (boundary) {
			unsigned long i = ip - part->start;

			boundary[i / BITS_PER_WORD] |= 1u << (i % BITS_PER_WORD);
		}
		part->wide = function_wide_refusal(&insn, ip);
		if (part->wide)
			return;
		if (branch_target(&insn, ip, &target))
			part->targets[part->nr_targets++] = target;
	}
}

/*
 * The one summary kept, and its buffers.  They only grow during a batch
 * (a kmalloc per function would search a heap holding a block per
 * probe) and are freed when the optimizer says the batch is over.
 */
static struct func_summary kept;
static size_t kept_bytes;		/* the longest part the buffers can hold */

static void free_summary(void)
{
	kfree(kept.main.targets);
	kfree(kept.cold.targets);
	kfree(kept.boundary);
	memset(&kept, 0, sizeof(kept));
	kept_bytes = 0;
}

/*
 * A branch instruction is at least 2 bytes (jcc rel8), so a part of n
 * bytes has at most n / 2 targets, and n bits of boundaries.
 */
static int make_room(size_t bytes)
{
	if (bytes <= kept_bytes)
		return 0;
	free_summary();
	kept.main.targets = kmalloc((bytes / 2 + 1) * sizeof(unsigned long));
	kept.cold.targets = kmalloc((bytes / 2 + 1) * sizeof(unsigned long));
	kept.boundary = kmalloc((bytes / BITS_PER_WORD + 1) * sizeof(uint32_t));
	if (!kept.main.targets || !kept.cold.targets || !kept.boundary) {
		free_summary();
		return -OPT_NO_MEMORY;
	}
	kept_bytes = bytes;
	return 0;
}

static int summarize(const struct func_extent *fx)
{
	size_t main_len = fx->end - fx->start, cold_len = fx->other_end - fx->other_start;
	unsigned long *main_targets, *cold_targets;

	kept.valid = false;
	if (make_room(main_len > cold_len ? main_len : cold_len))
		return -OPT_NO_MEMORY;
	main_targets = kept.main.targets;
	cold_targets = kept.cold.targets;
	kept.main = (struct code_part){ .start = fx->start, .end = fx->end,
					.targets = main_targets };
	kept.cold = (struct code_part){ .start = fx->other_start, .end = fx->other_end,
					.targets = cold_targets };
	memset(kept.boundary, 0, (main_len / BITS_PER_WORD + 1) * sizeof(uint32_t));
	summarize_part(&kept.main, kept.boundary);
	if (!kept.main.wide && kept.cold.end)
		summarize_part(&kept.cold, NULL);
	kept.valid = true;
	return 0;
}

static bool is_boundary(const struct func_summary *fs, unsigned long addr)
{
	unsigned long i = addr - fs->main.start;

	return addr >= fs->main.start && addr < fs->main.end &&
	       fs->boundary[i / BITS_PER_WORD] & (1u << (i % BITS_PER_WORD));
}

/* Does a branch of this part land behind the jump, in (addr, addr + size)? */
static bool lands_inside(const struct code_part *part, unsigned long addr, size_t size)
{
	for (unsigned int i = 0; i < part->nr_targets; i++)
		if (part->targets[i] > addr && part->targets[i] < addr + size)
			return true;
	return false;
}

/*
 * The function's verdict for a jump of size bytes at addr: a
 * function-wide reason first, then a branch into (addr, addr + size)
 * from either part.  size 0 (the displaced bytes were refused already)
 * asks only for a function-wide reason.
 */
static int check_function(const struct func_summary *fs, unsigned long addr, size_t size)
{
	/* LAB 5: BEGIN check_function: may a jump of size bytes cover addr? */
	int ret = 0;

	if (fs->main.wide)
		return fs->main.wide;
	if (!is_boundary(fs, addr))
		return -OPT_UNDECODABLE;	/* addr is not where an instruction starts */
	if (lands_inside(&fs->main, addr, size))
		ret = -OPT_JUMP_INTO_RANGE;
	if (fs->cold.wide)
		ret = fs->cold.wide;
	else if (fs->cold.end && lands_inside(&fs->cold, addr, size))
		ret = -OPT_JUMP_INTO_RANGE;
	return ret;
	/* LAB 5: STUB return 0; */
	/* LAB 5: END */
}

/*
 * The summary of the function fx: the kept one if it is the same
 * function, else a new one.  The optimizer hands probes over sorted by
 * address, so a function's probes come together.
 */
static const struct func_summary *summary_for(const struct func_extent *fx)
{
	if (kept.valid && kept.main.start == fx->start && kept.main.end == fx->end &&
	    kept.cold.start == fx->other_start && kept.cold.end == fx->other_end)
		return &kept;
	return summarize(fx) ? NULL : &kept;
}

/* The batch is over: the text may change (a module), the memory goes back. */
void arch_forget_optprobe_summaries(void)
{
	free_summary();
}

/* ---- the probe's own bytes ------------------------------------------------------ */

/*
 * The instructions the jump displaces: whole instructions from addr
 * until at least RELATIVEJUMP_SIZE bytes, all relocatable, all inside
 * the function (Linux checks these as copy_optimized_instructions()
 * copies them).  Their original bytes go to op->optinsn.copy.
 */
static int measure_displaced(struct optimized_kprobe *op, unsigned long end)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	kprobe_opcode_t buf[INSN_MAX_LEN];
	struct insn insn;
	size_t size = 0;

	if (end - addr < RELATIVEJUMP_SIZE)
		return -OPT_CROSSES_END;
	while (size < RELATIVEJUMP_SIZE) {
		if (decode_original(&insn, buf, (kprobe_opcode_t *)(addr + size)) < 0)
			return -OPT_UNDECODABLE;
		if (!can_relocate(&insn))
			return -OPT_NOT_RELOCATABLE;
		if (addr + size + insn.length > end)
			return -OPT_CROSSES_END;	/* would spill into the next function */
		memcpy(op->optinsn.copy + size, buf, insn.length);
		size += insn.length;
	}
	op->optinsn.size = size;
	return 0;
}

/*
 * Linux's can_optimize(): may the code at the probe become a jump at
 * all - the function around it, then the instructions the jump
 * displaces.  The answer names the function-wide reason first, as
 * Linux's order does: every site of a function with a jump table is
 * refused for the jump table, whatever its own instruction is.
 */
static int can_optimize(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	const struct func_summary *fs;
	struct func_extent fx;
	int site, ret;

	ret = kprobe_function_extent(addr, &fx);
	if (ret)
		return ret;
	fs = summary_for(&fx);
	if (!fs)
		return -OPT_NO_MEMORY;
	site = measure_displaced(op, fx.end);
	ret = check_function(fs, addr, site ? 0 : op->optinsn.size);
	return ret ? ret : site;
}

/*
 * Linux's arch_check_optimized_kprobe(): can op actually be optimized?
 * The code may become a jump (can_optimize()), and no other probe sits
 * on a byte the jump would cover after the first: its int3 would be
 * overwritten.
 */
int arch_check_optimized_kprobe(struct optimized_kprobe *op)
{
	unsigned long addr = (unsigned long)op->kp->addr;
	int ret = can_optimize(op);

	if (ret)
		return ret;
	for (size_t i = 1; i < op->optinsn.size; i++)
		if (get_kprobe((void *)(addr + i)))
			return -OPT_PROBE_IN_RANGE;
	return 0;
}
