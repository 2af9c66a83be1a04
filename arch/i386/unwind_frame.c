/*
 * unwind_frame.c - walk the stack for a backtrace (Linux's
 * arch/x86/kernel/unwind_frame.c, for our frame layout).
 *
 * The kernel is built with frame pointers: a function that has set up
 * its frame ("push %ebp; mov %esp,%ebp") has %ebp pointing at a record
 * of two words, its caller's %ebp and its return address.  Following
 * %ebp from record to record walks up the call stack.  Three things
 * break a plain walk, and each is repaired here:
 *
 *  - A trap frame.  The entry stub (entry.S) and an optprobe's detour
 *    build a struct pt_regs and call C with it; the interrupted
 *    function's ip lives in that pt_regs, not in any %ebp record, so a
 *    plain walk skips it.  The record above do_trap() (or
 *    optimized_callback()) returns into that assembly: there the walk
 *    takes the pt_regs, which the assembly passed in %eax (or %edx) and
 *    so starts right above that return address, reports regs->ip, and
 *    goes on from regs->bp.
 *
 *  - A function caught before its frame exists or after it tore it down
 *    (ip on its first instruction, after "push %ebp", after the "pop
 *    %ebp" or "leave" of an epilogue, on its "ret"), and a leaf gcc
 *    built without a frame at all (one that touches no stack slot gets
 *    none, even with -fno-omit-frame-pointer).  %ebp still points into
 *    its caller's record, whose return address names the caller's
 *    caller: the caller itself would be lost.  Decoding the function
 *    from its start up to ip says which case it is, and so where its
 *    return address is (for a frameless leaf: above what it pushed).
 *    Where the decoding cannot tell (a branch in a frameless leaf, an
 *    unusual move of %esp), the first word above sp that is a return
 *    address (the bytes before it are a call) is taken and marked "?"
 *    as a guess, as Linux marks such entries.
 *
 *  - A kretprobe or an fprobe's exit: the return address in a record is
 *    a trampoline - 2005's kretprobe_trampoline or rethook's
 *    arch_rethook_trampoline, which kretprobes take since Linux 5.18;
 *    the real one is in the kretprobe's instance or the rethook node of
 *    that slot (unwind_recover_ret_addr, as Linux's).
 *
 * Every word is read with the fault-safe copy: a corrupt chain ends the
 * walk instead of faulting inside the oops printer.
 */
#include "kernel.h"
#include <asm/ptrace.h>
#include "kallsyms.h"
#include "kprobes.h"
#include "rethook.h"
#include <asm/ptrace.h>
#include <asm/insn.h>
#include <asm/extable.h>
#include "mm.h"
#include "nokprobe.h"
#include "vsprintf.h"
#include "errno.h"

#define MAX_BACKTRACE_DEPTH	32
#define FRAMELESS_SCAN_WORDS	16	/* a leaf's pushes and locals: a few words */
#define PUSH_EBP		0x55	/* the first byte of a frame-pointer prologue */
#define MOV_ESP_EBP_0		0x89	/* mov %esp,%ebp: 89 e5 */
#define MOV_ESP_EBP_1		0xe5
#define POP_EBP			0x5d	/* the epilogue: pop %ebp ... */
#define LEAVE			0xc9	/* ... or leave (mov %ebp,%esp; pop %ebp) */

/* A record on the %ebp chain: saved %ebp, return address. */
struct frame_record {
	unsigned long next_bp;
	unsigned long ret;
};

static bool read_word(unsigned long addr, unsigned long *val)
{
	return copy_from_kernel_nofault(val, (const void *)addr, sizeof(*val)) == 0;
}

/*
 * The pt_regs a record leads to, or NULL: a record whose return address
 * is in the entry code belongs to do_trap(), exc_int3() or exc_debug(),
 * one returning into an optprobe detour to optimized_callback().  Each
 * was called right after its pt_regs was pushed, the pointer passed in
 * a register (-mregparm=3), so the pt_regs starts just above the return
 * address, the word after the record.
 */
struct pt_regs *frame_pt_regs(unsigned long bp, unsigned long ret)
{
	if ((ret >= (unsigned long)entry_text_start && ret < (unsigned long)entry_text_end) ||
	    arch_optprobe_detour_return(ret))
		return (struct pt_regs *)(bp + sizeof(struct frame_record));
	return NULL;
}

/* Decode the instruction at addr from a fault-safe copy; its length or < 0. */
static int decode_at(struct insn *insn, unsigned long addr)
{
	uint8_t buf[INSN_MAX_LEN];

	if (copy_from_kernel_nofault(buf, (const void *)addr, sizeof(buf)))
		return -EFAULT;
	return insn_decode(insn, buf, sizeof(buf));
}

/*
 * Is addr a return address: inside known code, right after a call?  A
 * call is 2 to 7 bytes long (ff d0 "call *%eax" .. e8 rel32 .. ff 94 sib
 * disp32); one of those lengths must decode to a call ending at addr.
 */
static bool is_return_address(unsigned long addr)
{
	struct insn insn;

	if (!kallsyms_lookup(addr - 1, NULL, NULL))
		return false;
	for (int len = 2; len <= 7; len++)
		if (decode_at(&insn, addr - len) == len &&
		    (insn.type == INSN_TYPE_CALL_REL || insn.type == INSN_TYPE_CALL_IND))
			return true;
	return false;
}

/* The first return address within FRAMELESS_SCAN_WORDS above sp, or 0. */
static unsigned long scan_for_return(unsigned long sp, unsigned long limit)
{
	unsigned long word;

	for (int i = 0; i < FRAMELESS_SCAN_WORDS; i++, sp += sizeof(long)) {
		if (limit && sp >= limit)
			break;
		if (!read_word(sp, &word))
			break;
		if (is_return_address(word))
			return word;
	}
	return 0;
}

/* How far the function at ip has built its frame, ip not yet run. */
enum frame_state {
	FRAME_NONE,	/* nothing pushed: the return address is at sp */
	FRAME_PUSHED,	/* push %ebp done: the return address is one word up */
	FRAME_BUILT,	/* %ebp points at its record: the chain is right */
	FRAME_TORN,	/* pop %ebp / leave done: the return address is at sp */
	FRAME_LEAF,	/* no prologue: the return address is above what it pushed */
	FRAME_UNKNOWN,	/* undecodable, or esp moved in a way not followed */
};

/* ---- a function without a frame: count what it pushed ------------------------ */

#define OP_PUSH_IMM32	0x68
#define OP_PUSH_IMM8	0x6a
#define OP_GRP1_IMM32	0x81	/* add/sub $imm32, r/m */
#define OP_GRP1_IMM8	0x83	/* add/sub $imm8, r/m */
#define MODRM_SUB_ESP	0xec	/* mod 3, /5 (sub), rm esp */
#define MODRM_ADD_ESP	0xc4	/* mod 3, /0 (add), rm esp */
#define REG_ESP		4

static bool is_push(uint8_t op)
{
	return (op >= 0x50 && op <= 0x57) || op == OP_PUSH_IMM32 || op == OP_PUSH_IMM8 ||
	       op == 0x06 || op == 0x0e || op == 0x16 || op == 0x1e;	/* push es/cs/ss/ds */
}

static bool is_pop(uint8_t op)
{
	return (op >= 0x58 && op <= 0x5f && op != 0x5c) ||		/* not pop %esp */
	       op == 0x07 || op == 0x17 || op == 0x1f;			/* pop es/ss/ds */
}

/*
 * One-byte opcodes without a ModRM byte that move esp some other way:
 * inc/dec/pop/xchg/mov-to %esp, pusha/popa, enter/leave.
 */
static bool moves_esp_otherwise(uint8_t op)
{
	return op == 0x44 || op == 0x4c || op == 0x5c || op == 0x94 || op == 0xbc ||
	       op == 0x60 || op == 0x61 || op == 0xc8 || op == 0xc9;
}

/*
 * How many bytes insn pushes (negative: pops), or false if it moves
 * esp in a way we do not follow - a branch (the code is read straight
 * through), or any ModRM form naming %esp as a register operand or
 * with /4.  Conservative: "do not know" only costs a "?" in the trace.
 */
static bool leaf_stack_effect(const struct insn *insn, long *delta)
{
	long word = insn->opnd16 ? 2 : 4;
	uint8_t op = insn->opcode;

	*delta = 0;
	if (insn->type != INSN_TYPE_OTHER && insn->type != INSN_TYPE_PUSHF &&
	    insn->type != INSN_TYPE_POPF)
		return false;
	if (insn->map != INSN_MAP_ONEBYTE)
		return !insn->has_modrm || (MODRM_REG(insn->modrm) != REG_ESP &&
					    !(MODRM_MOD(insn->modrm) == 3 &&
					      MODRM_RM(insn->modrm) == REG_ESP));
	if (insn->type == INSN_TYPE_PUSHF || is_push(op))
		*delta = word;
	else if (insn->type == INSN_TYPE_POPF || is_pop(op))
		*delta = -word;
	else if ((op == OP_GRP1_IMM8 || op == OP_GRP1_IMM32) && insn->modrm == MODRM_SUB_ESP)
		*delta = insn->imm.value;
	else if ((op == OP_GRP1_IMM8 || op == OP_GRP1_IMM32) && insn->modrm == MODRM_ADD_ESP)
		*delta = -(long)insn->imm.value;
	else if (moves_esp_otherwise(op))
		return false;
	else if (insn->has_modrm && (MODRM_REG(insn->modrm) == REG_ESP ||
				     (MODRM_MOD(insn->modrm) == 3 &&
				      MODRM_RM(insn->modrm) == REG_ESP)))
		return false;
	return true;
}

/* ---- a function with a frame: how far it got ----------------------------------- */

#define MAX_PROLOGUE_SCAN 4096	/* bytes decoded from a function's start */

/*
 * The state after insn (whose bytes these are), given the state before
 * it; a frameless function's pushes are added up in *depth.
 */
static enum frame_state frame_step(enum frame_state st, const struct insn *insn,
				   const uint8_t *bytes, long *depth)
{
	long delta;

	if (st == FRAME_NONE && bytes[0] == PUSH_EBP)
		return FRAME_PUSHED;
	if (st == FRAME_NONE || st == FRAME_LEAF) {
		if (!leaf_stack_effect(insn, &delta))
			return FRAME_UNKNOWN;
		*depth += delta;
		return FRAME_LEAF;
	}
	if (st == FRAME_PUSHED) {
		if (bytes[0] == MOV_ESP_EBP_0 && bytes[1] == MOV_ESP_EBP_1)
			return FRAME_BUILT;
		/*
		 * gcc may schedule an instruction between the two, typically
		 * a load into an argument register (-mregparm=3): one that
		 * leaves esp alone leaves the frame as it was.
		 */
		return leaf_stack_effect(insn, &delta) && delta == 0 ?
			FRAME_PUSHED : FRAME_UNKNOWN;
	}
	if (bytes[0] == POP_EBP || bytes[0] == LEAVE)
		return FRAME_TORN;
	/*
	 * Code after a ret (or a jmp) is reached only by a branch from the
	 * body, where the frame is built: gcc puts several exits in a
	 * function, each with its own epilogue.
	 */
	if (insn->type == INSN_TYPE_RET || insn->type == INSN_TYPE_JMP_REL)
		return FRAME_BUILT;
	return st;
}

/*
 * Decode the function from its first instruction up to ip, following
 * the frame-pointer prologue and epilogues, or a frameless function's
 * pushes and pops (*depth, in bytes).  Linear, so it relies on gcc's
 * layout (the prologue first, each epilogue right before its ret).
 */
static enum frame_state frame_state_at(unsigned long start, unsigned long ip, long *depth)
{
	enum frame_state st = FRAME_NONE;
	unsigned long addr = start;
	uint8_t bytes[INSN_MAX_LEN];
	struct insn insn;

	while (addr < ip && st != FRAME_UNKNOWN) {
		if (addr - start > MAX_PROLOGUE_SCAN ||
		    copy_from_kernel_nofault(bytes, (const void *)addr, sizeof(bytes)) ||
		    insn_decode(&insn, bytes, sizeof(bytes)) <= 0)
			return FRAME_UNKNOWN;
		st = frame_step(st, &insn, bytes, depth);
		addr += insn.length;
	}
	return addr == ip ? st : FRAME_UNKNOWN;
}

/*
 * The instruction regs stopped at.  During a probe hit, as on Linux,
 * regs->ip is one past the int3 (or, in an optprobe's detour, says so):
 * the probed instruction has not run, and it is the one to name and to
 * decode the frame from.
 */
static unsigned long trap_ip(struct pt_regs *regs)
{
	struct kprobe *p = kprobe_running();

	if (p && kprobe_status() == KPROBE_HIT_ACTIVE &&
	    regs->ip == (unsigned long)p->addr + sizeof(kprobe_opcode_t))
		return (unsigned long)p->addr;
	return regs->ip;
}

/*
 * The interrupted function of regs: if its own record is not (or no
 * longer) on the %ebp chain, its return address; 0 if the chain is
 * right.  *guess says whether it was found by scanning.
 */
static unsigned long frameless_return(struct pt_regs *regs, bool *guess)
{
	unsigned long sp = kernel_stack_pointer(regs), off, ret = 0;
	unsigned long ip = trap_ip(regs);
	struct insn insn;
	long depth = 0;

	*guess = false;
	if (!kallsyms_lookup(ip, NULL, &off))
		return 0;
	if (decode_at(&insn, ip) > 0 && insn.type == INSN_TYPE_RET) {
		read_word(sp, &ret);		/* a ret pops it: it is at sp */
		return ret;
	}
	switch (frame_state_at(ip - off, ip, &depth)) {
	case FRAME_NONE:
	case FRAME_TORN:
		read_word(sp, &ret);
		return ret;
	case FRAME_PUSHED:
		read_word(sp + sizeof(long), &ret);
		return ret;
	case FRAME_BUILT:
		return 0;
	case FRAME_LEAF:
		/* Above what it pushed - if that word really is a return address. */
		if (depth >= 0 && read_word(sp + depth, &ret) && is_return_address(ret))
			return ret;
		/* fall through */
	default:
		*guess = true;
		return scan_for_return(sp, regs->bp);
	}
}

struct unwind_state {
	struct stack_entry *out;
	int n, max;
};

static bool emit(struct unwind_state *st, unsigned long addr, enum stack_entry_kind kind,
		 unsigned long regs)
{
	if (st->n == st->max)
		return false;
	st->out[st->n].addr = addr;
	st->out[st->n].kind = kind;
	st->out[st->n].regs = regs;
	st->n++;
	return true;
}

/*
 * The interrupted code of a pt_regs: its ip, and its caller if frameless.
 * A frame from ring 3 (a system call, an interrupt of a process) is
 * where the kernel's stack ends: its ip and bp are the process's, in
 * the process's address space, so the walk reports the ip and stops
 * there, as Linux's unwinder does at the user boundary.
 */
static bool emit_regs(struct unwind_state *st, struct pt_regs *regs)
{
	unsigned long ret;
	bool guess;

	if (user_mode(regs)) {
		emit(st, regs->ip, STACK_USER_IP, (unsigned long)regs);
		return false;
	}
	if (!emit(st, trap_ip(regs), STACK_TRAP_IP, (unsigned long)regs))
		return false;
	ret = frameless_return(regs, &guess);
	return !ret || emit(st, ret, guess ? STACK_GUESS : STACK_RETURN, 0);
}

/* Linux's unwind_recover_ret_addr(): a hooked return's real address. */
static unsigned long unwind_recover_ret_addr(unsigned long ret, unsigned long *slot)
{
	return rethook_find_ret_addr(kretprobe_find_ret_addr(ret, slot), slot);
}

int unwind_stack(struct pt_regs *regs, unsigned long bp, struct stack_entry *out, int max)
{
	struct unwind_state st = { .out = out, .n = 0, .max = max };
	struct frame_record rec;

	if (regs) {
		if (!emit_regs(&st, regs))
			return st.n;
		bp = regs->bp;
	}
	while (bp && !(bp & 3)) {
		if (copy_from_kernel_nofault(&rec, (const void *)bp, sizeof(rec)) || !rec.ret)
			break;
		/* A hooked call's slot holds a trampoline: show the real caller. */
		if (!emit(&st, unwind_recover_ret_addr(rec.ret, (unsigned long *)bp + 1),
			  STACK_RETURN, 0))
			break;
		regs = frame_pt_regs(bp, rec.ret);
		if (regs && (unsigned long)regs > bp) {
			if (!emit_regs(&st, regs))
				break;
			rec.next_bp = regs->bp;
		}
		if (rec.next_bp <= bp)		/* stacks grow down: callers are higher */
			break;
		bp = rec.next_bp;
	}
	return st.n;
}

int save_stack_trace_bp(unsigned long bp, unsigned long *out, int max)
{
	struct stack_entry entries[MAX_BACKTRACE_DEPTH];
	int n = unwind_stack(NULL, bp, entries, max < MAX_BACKTRACE_DEPTH ?
			     max : MAX_BACKTRACE_DEPTH);

	for (int i = 0; i < n; i++)
		out[i] = entries[i].addr;
	return n;
}

/*
 * One line per entry.  A return address is named by the call before it
 * (%pB); an interrupted ip is exact (%pS), and after the first line it
 * is announced by the pt_regs it came from.
 */
void show_backtrace(struct pt_regs *regs, unsigned long bp)
{
	struct stack_entry trace[MAX_BACKTRACE_DEPTH];
	int n = unwind_stack(regs, bp, trace, MAX_BACKTRACE_DEPTH);

	for (int i = 0; i < n; i++) {
		unsigned long addr = trace[i].addr;

		switch (trace[i].kind) {
		case STACK_TRAP_IP:
			if (i > 0)
				printk(" <trap frame: struct pt_regs at %08lx>\n", trace[i].regs);
			printk(" [<%08lx>] %pS\n", addr, (void *)addr);
			break;
		case STACK_GUESS:
			printk(" [<%08lx>] ? %pB\n", addr, (void *)addr);
			break;
		case STACK_USER_IP:
			printk(" <user frame: struct pt_regs at %08lx, from ring 3>\n",
			       trace[i].regs);
			printk(" [<%08lx>] user ip, sp %08lx\n", addr,
			       ((struct pt_regs *)trace[i].regs)->sp);
			break;
		default:
			printk(" [<%08lx>] %pB\n", addr, (void *)addr);
			break;
		}
	}
}
NOKPROBE_SYMBOL(show_backtrace);
NOKPROBE_SYMBOL(unwind_stack);
