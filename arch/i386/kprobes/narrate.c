/*
 * narrate.c - tell one probe hit step by step, as it happens.
 *
 *   echo 1 > /sys/kernel/debug/kprobes/narrate
 *
 * Narration is the top layer of the hit (kprobe_hit_ops, core.c): it
 * sees each int3 and #DB before and after the layers below handle it and
 * tells what they did, from the state they leave - the current probe,
 * its status, ip, the flags, the slot.  The hit itself makes no call to
 * it.  Jprobes and kretprobes, whose stories go on outside the hit, send
 * theirs with kprobe_narrate(KPN_..., p, regs) (narrate.h).  This file
 * alone knows what to say, and numbers the steps as docs/kprobes.md
 * ("One hit") numbers them:
 *
 *   1. int3               the CPU traps #BP through an interrupt gate
 *   2. direct dispatch    exc_int3 -> kprobe_int3_handler, before the
 *                         die-notifier chain (as Linux's do_int3())
 *   3. kprobe_int3_handler  get_kprobe() finds the probe
 *   4. the pre-handler    runs; then TF is armed for the step
 *   5. iret               the CPU runs the copy in the slot, one instruction
 *   6. #DB                exc_debug -> kprobe_debug_handler
 *   7. fixup              ip and flags as if the instruction ran in place
 *   8. post-handler
 *   9. iret               back into the probed function
 *
 * Stepped with int3 (kprobes.step=int3, the default) steps 4 to 6 are
 * Linux 6.1's: no TF is armed, the copy falls through into the int3
 * after it in the slot, and the second #BP - exc_int3 ->
 * kprobe_int3_handler again, which finds no probe there but a step in
 * progress - ends the step.  Two #BP, no #DB.
 *
 * A hit that needs no step (cli/sti, a boosted slot, a pre-handler that
 * moved ip) goes from step 4 to its iret.  The next hit of each probe is
 * told once; writing 1 again tells the next one again.
 *
 * The told names are the functions `syms` finds and a probe definition
 * may name (and is refused, they are on the blacklist).  The steps'
 * own parts in core.c - kprobe_handler(), setup_singlestep(),
 * post_kprobe_handler(), resume_execution(), Linux's names - are inlined
 * into those two handlers, so the hit path pays no call for the split:
 * they have no address of their own to find or to probe.
 *
 * A jprobe hit goes on after its handler: the int3 in jprobe_return() is
 * told too (the article's steps 2 and 3, with the stack bytes saved and
 * put back).  A kretprobe hit goes on when the told call returns: the
 * trampoline finds the instance and puts the real return address back.
 *
 * Narration changes nothing it tells.  An optimized probe is a jmp, not
 * an int3, and is not told; a boosted or emulated hit is told without
 * its single-step.  To watch the whole int3 / single-step dance, turn
 * those off first (the debugfs optimize, boost and emulate files):
 * enabling narration says which are on.
 */
#include "kernel.h"
#include "narrate.h"
#include "ftrace.h"
#include "kprobes.h"
#include "kallsyms.h"
#include <asm/desc.h>
#include <asm/traps.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "nokprobe.h"
#include "vsprintf.h"
#include "string.h"
#include "sched.h"
#include "smp.h"
#include "hw_breakpoint.h"
#include "spinlock.h"
#include "kprobes_stepmode.h"
#include "rethook.h"

#define NARRATE_MAX_PROBES 32	/* probes told once each per `echo 1` */
#define NARRATE_MAX_RETURNS 8	/* told kretprobe calls still in progress */
#define BYTES_PER_LINE 16	/* stack dumps: four words a line */

/* "1 byte", "2 bytes" */
#define plural(n) ((n) == 1 ? "" : "s")

bool kprobe_narrate_enabled;
unsigned long kprobe_narrate_hits;	/* hits told so far (tests) */

/*
 * Which probes were told, and which kretprobe calls: shared by every
 * CPU (a thread may return on another CPU than it entered on), so
 * changed under narrate_lock.  Only narrated hits take it.
 */
static DEFINE_SPINLOCK(narrate_lock);
static unsigned long narrated[NARRATE_MAX_PROBES];
static int nr_narrated;
/* Told kretprobe calls, by return slot: their return is told too. */
static unsigned long *returns_told[NARRATE_MAX_RETURNS];

/*
 * The story of one hit belongs to the CPU that takes the hit (a hit
 * never leaves its CPU, include/kprobes.h): two CPUs may each be telling
 * one at the same time, and neither may finish the other's.
 */
DEFINE_PER_CPU(int, kprobe_narrate_telling);	/* the hit in progress here is told */

/* The told hit's pre-handler is running: the next transition ends it. */
static DEFINE_PER_CPU(int, pre_handler_running);

/* The values resume_execution() is about to change, for before/after. */
static DEFINE_PER_CPU(unsigned long, ip_before);
static DEFINE_PER_CPU(unsigned long, flags_before);
static DEFINE_PER_CPU(unsigned long, tos_before);

/* A told jprobe hit whose handler is running: its break int3 is told too. */
static DEFINE_PER_CPU(struct jprobe *, jprobe_told);

/* The told kretprobe return the trampoline handler is in. */
static DEFINE_PER_CPU(unsigned long *, return_telling);

/* One line of a told hit, indented under the "narrate:" heading. */
#define narrate(...) printk("  " __VA_ARGS__)

static const struct kprobe_hit_ops narrate_hit_ops;

/* Which of the paths that skip a step, or the int3, are on: the user's switches. */
static void say_fast_paths(void)
{
	bool opt = kprobes_get_optimization(), boost = kprobes_get_boosting();
	bool emulate = kprobes_get_emulation();

	if (!opt && !boost && !emulate) {
		printk("narrate: optimization, boosting and emulation are off:\n"
		       "  every told hit takes the int3 and, but for a pre-handler that moves ip,\n"
		       "  the single-step with its %s - the steps to watch; a probe on a\n"
		       "  function's call site rides on ftrace instead, no exception (docs/ftrace.md)\n",
		       READ_ONCE(kprobe_step_design) == KPROBE_SS_TF ? "#DB" : "second int3");
		return;
	}
	printk("narrate: on:%s%s%s - %s%s\n", opt ? " optimize" : "", boost ? " boost" : "",
	       emulate ? " emulate" : "",
	       opt ? "an optimized probe takes no int3 and is not told; " : "",
	       boost || emulate ? "a boosted or emulated hit is told without a single-step" : "");
	printk("  to watch every step: echo 0 to them in /sys/kernel/debug/kprobes/\n");
}

void kprobe_narrate_set(bool on)
{
	unsigned long flags;
	int cpu;

	if (on && !kprobe_narrate_enabled)
		say_fast_paths();
	kprobe_narrate_enabled = on;
	kprobe_set_hit_layer(KPROBE_HIT_NARRATE, on ? &narrate_hit_ops : NULL);
	kprobe_ftrace_narrate(on);
	for_each_online_cpu(cpu) {
		per_cpu(kprobe_narrate_telling, cpu) = false;
		per_cpu(jprobe_told, cpu) = NULL;
		per_cpu(return_telling, cpu) = NULL;
	}
	spin_lock_irqsave(&narrate_lock, flags);
	nr_narrated = 0;	/* every probe gets its next hit told again */
	for (int i = 0; i < NARRATE_MAX_RETURNS; i++)
		returns_told[i] = NULL;
	spin_unlock_irqrestore(&narrate_lock, flags);
}

static nokprobe_inline const char *sym(unsigned long addr, char *buf, size_t len)
{
	sprint_symbol(buf, len, addr);
	return buf;
}

static nokprobe_inline int flag(unsigned long flags, unsigned long bit)
{
	return (flags & bit) != 0;
}

/* ---- steps 1 to 4: the int3 and the pre-handler --------------------------------- */

/* Is this hit told?  Each probe's next hit is, once per `echo 1`. */
static nokprobe_inline bool claim_probe_story(unsigned long addr)
{
	for (int i = 0; i < nr_narrated; i++)
		if (narrated[i] == addr)
			return false;
	if (nr_narrated == NARRATE_MAX_PROBES)
		return false;
	narrated[nr_narrated++] = addr;
	kprobe_narrate_hits++;
	return true;
}

/* Is this hit told?  Each probe's next hit is, once per `echo 1`, on one CPU. */
static nokprobe_inline bool tell_this_hit(struct kprobe *p)
{
	bool tell;

	spin_lock(&narrate_lock);	/* interrupts are off in a hit */
	tell = claim_probe_story((unsigned long)p->addr);
	spin_unlock(&narrate_lock);
	if (tell)
		this_cpu_write(kprobe_narrate_telling, true);
	return tell;
}

/*
 * Whose frame the int3 pushed: always a kernel frame (ring 0 to ring 0:
 * no stack switch, no sp or ss), but the kernel code may be serving a
 * process - a system call - whose user frame (ring 3) lies further up
 * the same kernel stack, at its top.
 */
static nokprobe_inline void narrate_frame_kind(void)
{
	struct task_struct *me = current;

	if (me->mm)
		narrate("   a kernel frame (ring 0, no sp/ss); above it, at the stack's top, "
			"the user frame of process %s[%d] (ring 3), which entered the kernel\n",
			me->comm, me->pid);
	else
		narrate("   a kernel frame (ring 0, no sp/ss), in kernel thread %s[%d]\n",
			me->comm, me->pid);
}

/* Steps 1 to 4, before the layers below: p's int3, no hit in progress. */
static nokprobe_inline void narrate_hit(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;
	struct gate_desc *gate = idt_entry(X86_TRAP_BP);
	bool intr_gate = GATE_TYPE(gate->type_attr) == GATE_INTERRUPT;
	char buf[96];

	if (!tell_this_hit(p))
		return;
	printk("\nnarrate: a hit of the probe at %s\n", sym(addr, buf, sizeof(buf)));
	narrate("1. int3: the CPU ran our int3 (0xcc) at %08lx: trap #BP (vector %d)\n",
		addr, X86_TRAP_BP);
	narrate("   it pushed EFLAGS (IF=%d TF=%d), CS and the ip after the int3, %08lx:\n",
		flag(regs->flags, X86_EFLAGS_IF), flag(regs->flags, X86_EFLAGS_TF), regs->ip);
	narrate_frame_kind();
	narrate("   IDT gate %d is a%s %s gate: %s\n", X86_TRAP_BP, intr_gate ? "n" : "",
		gate_type_name(GATE_TYPE(gate->type_attr)),
		intr_gate ? "the CPU cleared IF, no interrupt can come in" : "IF stays as it was");
	narrate("2. direct dispatch: exc_int3 -> kprobe_int3_handler\n");
	narrate("   kprobes first, the die-notifier chain only for int3s it does not claim:\n");
	narrate("   as Linux's do_int3(), so a hit never walks the chain\n");
	narrate("3. kprobe_int3_handler: get_kprobe(%08lx) finds a '%c' probe, no hit in progress\n",
		addr, kprobe_type_char(p));
	narrate("4. ip stays %08lx, past the int3, as on Linux; pre_handler %s runs\n",
		regs->ip,
		p->pre_handler ? sym((unsigned long)p->pre_handler, buf, sizeof(buf)) : "(none)");
	this_cpu_write(pre_handler_running, true);
}

/* The pre-handler is back: what it returned decides the rest of step 4. */
static nokprobe_inline void narrate_pre_handler_returned(int ret)
{
	if (!this_cpu_read(pre_handler_running))
		return;		/* a jprobe's break int3: no pre-handler ran */
	this_cpu_write(pre_handler_running, false);
	if (ret)
		narrate("   pre_handler returned 1: it moved ip, no step, no post_handler\n");
	else
		narrate("   pre_handler returned 0: run the probed instruction\n");
}

/* The iret that ends a told hit. */
static nokprobe_inline void narrate_iret(struct pt_regs *regs)
{
	char buf[96];

	narrate("9. iret to %08lx (%s)\n", regs->ip, sym(regs->ip, buf, sizeof(buf)));
	this_cpu_write(kprobe_narrate_telling, false);
}

/* Hits that end without a step. */
enum narrate_no_step {
	NO_STEP_EMULATED,	/* emulate.c computed it on regs */
	NO_STEP_INT3,		/* a probed int3: handed on to the kernel */
	NO_STEP_BOOSTED,	/* the boosted slot runs and jumps back */
};

static nokprobe_inline void narrate_no_step(enum narrate_no_step what, struct kprobe *p,
					    struct pt_regs *regs)
{
	char buf[96];

	narrate_pre_handler_returned(0);
	switch (what) {
	case NO_STEP_EMULATED:
		narrate("   emulated: the %s computed on regs (ip -> %08lx), no step, no #DB\n",
			insn_type_name(p->ainsn.decoded.type), regs->ip);
		narrate("8. post_handler done, the hit is over\n");
		break;
	case NO_STEP_INT3:
		narrate("   the probed instruction is an int3 of its own: post_handler done,\n");
		narrate("   the trap handed to the kernel with ip %08lx (%s)\n", regs->ip,
			sym(regs->ip, buf, sizeof(buf)));
		this_cpu_write(kprobe_narrate_telling, false);
		return;
	default:
		narrate("   boosted: the slot ends with a jmp back, no #DB\n");
		break;
	}
	narrate_iret(regs);
}

/* setup_singlestep() armed TF, or left the int3 after the copy to end the step; step 5 is the iret. */
static nokprobe_inline void narrate_singlestep(struct kprobe *p, struct pt_regs *regs)
{
	const struct insn *insn = &p->ainsn.decoded;
	char bytes[3 * MAX_INSN_SIZE + 1] = "";

	narrate_pre_handler_returned(0);
	for (int i = 0; i < insn->length && i < MAX_INSN_SIZE; i++)
		snprintf(bytes + 3 * i, 4, " %02x", p->ainsn.insn[i]);
	narrate("   register_kprobe copied the instruction,%s (%d byte%s, class %s), "
		"to slot %08lx\n", bytes, insn->length, plural(insn->length),
		insn_type_name(insn->type), regs->ip);
	if (regs->flags & X86_EFLAGS_TF) {
		narrate("   step armed: TF set, IF cleared (EFLAGS now %08lx), ip -> slot %08lx\n",
			regs->flags, regs->ip);
		narrate("5. iret: with TF set the CPU runs one instruction, the copy, then traps\n");
		return;
	}
	narrate("   step armed: an int3 follows the copy at %08lx; IF cleared, no TF "
		"(EFLAGS now %08lx), ip -> slot %08lx\n", regs->ip + insn->length, regs->flags,
		regs->ip);
	narrate("5. iret: the CPU runs the copy and falls through into that int3\n");
}

/*
 * kprobes.stepmode=inline (stepmode.c) steps the instruction where it
 * lives.  The window it opens is the point.
 */
static nokprobe_inline void narrate_singlestep_inplace(struct kprobe *p, struct pt_regs *regs)
{
	narrate_pre_handler_returned(0);
	narrate("   stepmode inline: text_poke writes the original byte %02x back over the "
		"int3 at %08lx; no slot\n", p->opcode, (unsigned long)p->addr);
	narrate("   step armed: TF set, IF cleared (EFLAGS now %08lx), ip stays %08lx\n",
		regs->flags, regs->ip);
	narrate("5. iret: the CPU runs the instruction itself, at its own address, then traps.\n");
	narrate("   Until the int3 is back, any other CPU that gets to %08lx runs it too, "
		"unseen: a missed hit\n", (unsigned long)p->addr);
}

/* The #DB that ended an in-place step: was the int3 put back? */
static nokprobe_inline void narrate_rearmed(struct kprobe *p, struct pt_regs *regs, bool rearmed)
{
	narrate("6. #DB: the instruction ran in place; TF made the CPU trap #DB (vector %d) "
		"at ip %08lx, where it left off: no fixup needed\n", X86_TRAP_DB, regs->ip);
	if (rearmed)
		narrate("7. text_poke writes the int3 back at %08lx: from now on the probe "
			"sees every CPU again\n", (unsigned long)p->addr);
	else
		narrate("7. the probe is being disarmed: the original byte stays\n");
}

/* ---- steps 6 and 7: the #DB and the fixup, where the stepped copy left ip ----------- */

static nokprobe_inline bool in_slot(struct kprobe *p, unsigned long ip)
{
	unsigned long slot = (unsigned long)p->ainsn.insn;

	return ip >= slot && ip <= slot + p->ainsn.decoded.length;
}

/*
 * Step 6 after a branch: ip is wherever the copy went, not in the slot.
 * A relative target was counted from the slot; anything else (a register,
 * memory, the stack) is already the real one.
 */
static nokprobe_inline void narrate_branch_db(struct kprobe *p, struct pt_regs *regs)
{
	const struct insn *insn = &p->ainsn.decoded;
	char buf[96];

	switch (insn->type) {
	case INSN_TYPE_CALL_REL:
	case INSN_TYPE_JMP_REL:
	case INSN_TYPE_JCC:
	case INSN_TYPE_LOOP:
		narrate("   the %s went to %08lx = slot %08lx + length %d + displacement %ld: "
			"counted from the slot, not from %08lx where it belongs\n",
			insn_type_name(insn->type), regs->ip, (unsigned long)p->ainsn.insn,
			insn->length, (long)insn->imm.value, (unsigned long)p->addr);
		break;
	default:
		narrate("   the %s took its target from a register, memory or the stack: "
			"%08lx (%s), the real one\n", insn_type_name(insn->type), regs->ip,
			sym(regs->ip, buf, sizeof(buf)));
		break;
	}
	if (insn->type == INSN_TYPE_CALL_REL || insn->type == INSN_TYPE_CALL_IND ||
	    insn->type == INSN_TYPE_CALL_FAR)
		narrate("   and it pushed the slot's next byte, %08lx, as the return address\n",
			this_cpu_read(tos_before));
}

/* The #DB that ends the step, before resume_execution(). */
static nokprobe_inline void narrate_debug(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_write(ip_before, regs->ip);
	this_cpu_write(flags_before, regs->flags);
	this_cpu_write(tos_before, *(unsigned long *)kernel_stack_pointer(regs));
	if (in_slot(p, regs->ip)) {
		narrate("6. #DB: the copy ran; TF made the CPU trap #DB (vector %d) at ip %08lx, "
			"%lu byte%s into the slot; DR6.BS=%d\n", X86_TRAP_DB, regs->ip,
			regs->ip - (unsigned long)p->ainsn.insn,
			plural(regs->ip - (unsigned long)p->ainsn.insn), flag(this_cpu_read(debug_dr6), DR_STEP));
	} else {
		narrate("6. #DB: the copy ran; TF made the CPU trap #DB (vector %d) at ip %08lx, "
			"outside the slot: the %s branched; DR6.BS=%d\n", X86_TRAP_DB, regs->ip,
			insn_type_name(p->ainsn.decoded.type), flag(this_cpu_read(debug_dr6), DR_STEP));
		narrate_branch_db(p, regs);
	}
	narrate("   exc_debug -> kprobe_debug_handler,\n");
	narrate("   before the die-notifier chain (Linux's exc_debug_kernel())\n");
}

/*
 * Stepped with int3: the copy fell through into the int3 after it, and
 * the hit's int3 handler ends the step.  Before the layers below.
 */
static nokprobe_inline void narrate_step_int3(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long at = regs->ip - sizeof(kprobe_opcode_t);

	this_cpu_write(ip_before, at);
	this_cpu_write(flags_before, regs->flags);
	this_cpu_write(tos_before, *(unsigned long *)kernel_stack_pointer(regs));
	narrate("6. #BP again: the copy ran and fell through into our int3 at %08lx, %lu byte%s "
		"into the slot: trap #BP (vector %d), no #DB\n", at,
		at - (unsigned long)p->ainsn.insn, plural(at - (unsigned long)p->ainsn.insn),
		X86_TRAP_BP);
	narrate("   exc_int3 -> kprobe_int3_handler: no probe at %08lx, but this CPU is\n", at);
	narrate("   stepping one (Linux's kprobe_is_ss()): the end of the step; ip back over the int3\n");
}

/* Is this #BP the int3 after the told hit's copy? */
static nokprobe_inline bool told_step_int3(struct kprobe *cur, struct pt_regs *regs)
{
	return cur && this_cpu_read(kprobe_narrate_telling) &&
	       get_kprobe_ctlblk()->kprobe_status == KPROBE_HIT_SS &&
	       regs->ip - sizeof(kprobe_opcode_t) ==
	       (unsigned long)cur->ainsn.insn + cur->ainsn.decoded.length;
}

/* Why resume_execution() did what it did, class by class. */
static nokprobe_inline const char *fixup_reason(struct kprobe *p)
{
	bool fell_through = this_cpu_read(ip_before) == (unsigned long)p->ainsn.insn + p->ainsn.decoded.length;

	switch (p->ainsn.decoded.type) {
	case INSN_TYPE_CALL_REL:
		return "the target counted again from the probed address; "
		       "the return address becomes the text's next instruction";
	case INSN_TYPE_CALL_IND:
	case INSN_TYPE_CALL_FAR:
		return "the absolute target stays; the return address becomes the text's next "
		       "instruction";
	case INSN_TYPE_JMP_REL:
	case INSN_TYPE_JCC:
	case INSN_TYPE_LOOP:
		return fell_through ? "not taken: from just past the copy to just past the original" :
		       "taken: the target counted again from the probed address";
	case INSN_TYPE_JMP_IND:
	case INSN_TYPE_JMP_FAR:
	case INSN_TYPE_RET:
	case INSN_TYPE_LRET:
	case INSN_TYPE_IRET:
		return "ip came from a register, memory or the stack: already right, kept";
	case INSN_TYPE_PUSHF:
		return "the pushed flags get the TF and IF of before the step; ip back to the text";
	default:
		return "ip moved from the slot back to the text, by the same offset";
	}
}

/* What resume_execution() changed. */
static nokprobe_inline void narrate_resumed(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long tos = *(unsigned long *)kernel_stack_pointer(regs);
	char buf[96];

	narrate("7. fixup for %s: ip %08lx -> %08lx (%s)\n",
		insn_type_name(p->ainsn.decoded.type), this_cpu_read(ip_before), regs->ip,
		sym(regs->ip, buf, sizeof(buf)));
	narrate("   %s\n", fixup_reason(p));
	if (tos != this_cpu_read(tos_before))
		narrate("   top of stack %08lx -> %08lx\n", this_cpu_read(tos_before), tos);
	narrate("   flags restored: %08lx -> %08lx (TF %d->%d, IF %d->%d)\n",
		this_cpu_read(flags_before), regs->flags, flag(this_cpu_read(flags_before), X86_EFLAGS_TF),
		flag(regs->flags, X86_EFLAGS_TF), flag(this_cpu_read(flags_before), X86_EFLAGS_IF),
		flag(regs->flags, X86_EFLAGS_IF));
}

/* ---- jprobes: the article's three steps ---------------------------------------- */

/*
 * Stack bytes as memory holds them, lowest address first, a gap between
 * words.  i386 is little-endian: the word 0xc0101234 reads "34 12 10 c0".
 */
static nokprobe_inline void narrate_bytes(const uint8_t *bytes, unsigned long addr, size_t len)
{
	char line[4 * BYTES_PER_LINE];

	for (size_t off = 0; off < len; off += BYTES_PER_LINE) {
		char *pos = line;

		for (size_t i = off; i < len && i < off + BYTES_PER_LINE; i++)
			pos += snprintf(pos, line + sizeof(line) - pos, "%s%02x",
					i == off ? "" : i % 4 ? " " : "  ", bytes[i]);
		narrate("     %08lx: %s\n", addr + off, line);
	}
}

/* Step 1, at the end of setjmp_pre_handler(): what it saved and where ip goes. */
static nokprobe_inline void narrate_jprobe_setjmp(struct pt_regs *regs)
{
	struct jprobe_ctlblk *jcb = this_cpu_ptr(&jprobe_ctlblk);
	const struct pt_regs *r = &jcb->saved_regs;
	unsigned long ret = 0;
	char buf[96];

	this_cpu_write(jprobe_told, jcb->jp);
	narrate("   jprobe step 1, setjmp_pre_handler: keep the function's state\n");
	narrate("     registers saved: ax=%08lx bx=%08lx cx=%08lx dx=%08lx\n",
		r->ax, r->bx, r->cx, r->dx);
	narrate("                      si=%08lx di=%08lx bp=%08lx flags=%08lx\n",
		r->si, r->di, r->bp, r->flags);
	narrate("     %lu stack byte%s saved from sp %08lx (return address, arguments 4 on; 1-3 are ax, dx, cx):\n",
		jcb->saved_len, plural(jcb->saved_len), jcb->saved_sp);
	narrate_bytes(jcb->saved_stack, jcb->saved_sp, jcb->saved_len);
	if (jcb->saved_len >= sizeof(ret)) {
		memcpy(&ret, jcb->saved_stack, sizeof(ret));
		narrate("     return address %08lx (%s) in slot %08lx -> jprobe_handler_returned,\n",
			ret, sym(ret, buf, sizeof(buf)), jcb->saved_sp);
		narrate("     so a handler that forgets jprobe_return() is caught\n");
	}
	narrate("     IF cleared (the saved state is global); ip -> the handler, %s\n",
		sym(regs->ip, buf, sizeof(buf)));
}

/*
 * Steps 2 and 3, at the break int3, once longjmp_break_handler() has
 * checked it: the handler is done and the state is about to go back.
 * Told only for the jprobe whose hit was told.
 */
static nokprobe_inline void narrate_jprobe_break(struct pt_regs *regs)
{
	struct jprobe_ctlblk *jcb = this_cpu_ptr(&jprobe_ctlblk);
	unsigned long sp = kernel_stack_pointer(regs);
	const uint8_t *live = (const uint8_t *)sp;
	unsigned long slot = *(unsigned long *)sp;
	bool plain_return = regs->ip - 1 == (unsigned long)jprobe_handler_returned_break;
	unsigned int changed = 0;
	char buf[96];

	if (this_cpu_read(jprobe_told) != jcb->jp)
		return;
	this_cpu_write(jprobe_told, NULL);
	this_cpu_write(kprobe_narrate_telling, true);

	printk("\nnarrate: the jprobe handler for %s comes back\n",
	       sym((unsigned long)jcb->jp->kp.addr, buf, sizeof(buf)));
	if (plain_return)
		narrate("   jprobe step 2: the handler returned WITHOUT jprobe_return(): its ret "
			"popped jprobe_handler_returned, which stepped sp back to %08lx\n", sp);
	else
		narrate("   jprobe step 2, jprobe_return: sp loaded back from "
			"jprobe_ctlblk.saved_sp, %08lx, dropping the handler's frames\n", sp);
	narrate("     then int3 at %08lx (%s): trap #BP (vector %d)\n", regs->ip - 1,
		sym(regs->ip - 1, buf, sizeof(buf)), X86_TRAP_BP);
	narrate("   jprobe step 3, longjmp_break_handler: no probe at that address, but a "
		"jprobe is running: its break_handler decides\n");
	narrate("     one of jprobe_return.S's two int3s, and sp %08lx == saved sp %08lx: "
		"the saved state is this stack's\n", sp, jcb->saved_sp);
	for (unsigned int i = 0; i < jcb->saved_len; i++)
		changed += live[i] != jcb->saved_stack[i];
	narrate("     %u of the %lu saved byte%s differ%s now; slot %08lx holds %08lx (%s)\n",
		changed, jcb->saved_len, plural(jcb->saved_len), changed == 1 ? "s" : "", sp, slot, sym(slot, buf, sizeof(buf)));
}

/* Still step 3: the registers and stack bytes are back. */
static nokprobe_inline void narrate_jprobe_restored(struct pt_regs *regs)
{
	struct jprobe_ctlblk *jcb = this_cpu_ptr(&jprobe_ctlblk);
	unsigned long ret = *(unsigned long *)jcb->saved_sp;
	char buf[96];

	narrate("     registers restored: ip %08lx (%s), ax=%08lx flags=%08lx\n",
		regs->ip, sym(regs->ip, buf, sizeof(buf)), regs->ax, regs->flags);
	narrate("     %lu stack byte%s put back at %08lx:\n", jcb->saved_len,
		plural(jcb->saved_len), jcb->saved_sp);
	narrate_bytes((const uint8_t *)jcb->saved_sp, jcb->saved_sp, jcb->saved_len);
	narrate("     slot %08lx holds the real return address again, %08lx (%s)\n",
		jcb->saved_sp, ret, sym(ret, buf, sizeof(buf)));
	narrate("     now run the probed instruction, as for any kprobe: emulated, boosted or stepped\n");
}

/* ---- kretprobes: the trampoline swap ------------------------------------------- */

/* A told call's return slot, so that its return is told too. */
static void remember_told_return(unsigned long *slot)
{
	spin_lock(&narrate_lock);
	for (int i = 0; i < NARRATE_MAX_RETURNS; i++) {
		if (!returns_told[i]) {
			returns_told[i] = slot;
			break;
		}
	}
	spin_unlock(&narrate_lock);
}
NOKPROBE_SYMBOL(remember_told_return);

/* Is this return a told call's?  Then it is told once. */
static bool claim_told_return(unsigned long *slot)
{
	int i;

	spin_lock(&narrate_lock);
	for (i = 0; i < NARRATE_MAX_RETURNS && returns_told[i] != slot; i++)
		;
	if (i < NARRATE_MAX_RETURNS)
		returns_told[i] = NULL;
	spin_unlock(&narrate_lock);
	return i < NARRATE_MAX_RETURNS;
}
NOKPROBE_SYMBOL(claim_told_return);

/* In the told hit, once the instance holds the real return address. */
static nokprobe_inline void narrate_kretprobe_entry(struct pt_regs *regs)
{
	unsigned long *slot = (unsigned long *)kernel_stack_pointer(regs);
	unsigned long ret = kretprobe_find_ret_addr(*slot, slot);
	char buf[96];

	narrate("     kretprobe: return address %08lx (%s) at stack slot %08lx\n",
		ret, sym(ret, buf, sizeof(buf)), (unsigned long)slot);
	narrate("     replaced by kretprobe_trampoline (%08lx); the instance keeps the real one\n",
		(unsigned long)kretprobe_trampoline);
	remember_told_return(slot);
}

/* In the trampoline handler, before the return handler: a told call? */
static nokprobe_inline void narrate_kretprobe_return(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long *slot = kretprobe_trampoline_slot(regs);
	struct kretprobe *rp = p ? container_of(p, struct kretprobe, kp) : NULL;
	char buf[96];

	if (!claim_told_return(slot))
		return;
	this_cpu_write(return_telling, slot);

	printk("\nnarrate: the told call of %s returns\n",
	       rp ? sym((unsigned long)rp->kp.addr, buf, sizeof(buf)) : "(an unregistered kretprobe)");
	printk("  1. its ret popped kretprobe_trampoline from slot %08lx and jumped there: "
	       "no int3, no trap\n", (unsigned long)slot);
	printk("  2. the trampoline pushed pt_regs and called trampoline_handler: "
	       "ax=%08lx, the return value\n", regs->ax);
	printk("  3. the instance is found by its slot (pid %d); handler %s runs\n",
	       task_pid(current), rp && rp->handler ?
	       sym((unsigned long)rp->handler, buf, sizeof(buf)) : "(none)");
}

/* After the return handler: where the trampoline will jump. */
static nokprobe_inline void narrate_kretprobe_returned(struct pt_regs *regs)
{
	char buf[96];

	if (this_cpu_read(return_telling) != kretprobe_trampoline_slot(regs))
		return;
	this_cpu_write(return_telling, NULL);
	printk("  4. real return address %08lx (%s) restored from the instance, ax=%08lx;\n",
	       regs->ip, sym(regs->ip, buf, sizeof(buf)), regs->ax);
	printk("     the trampoline writes it into its own return slot, pops the registers "
	       "and rets there\n");
}

/* ---- kretprobes through rethook ------------------------------------------------ */

/*
 * After a told hit's pre-handler: a kretprobe returning through rethook
 * (kretprobe_rethook.c) has swapped the word at the top of the stack for
 * arch_rethook_trampoline and put a node on the thread's list.  Read
 * from what it left, so the hit path makes no call for it.
 */
static nokprobe_inline void narrate_rethook_entry(struct pt_regs *regs)
{
	unsigned long *slot = &regs->sp;	/* a ring-0 frame: the stack's top */
	struct rethook_node *node = current->rethooks;
	char buf[96];

	if (*slot != (unsigned long)arch_rethook_trampoline || !node ||
	    node->frame != (unsigned long)slot)
		return;
	narrate("     kretprobe through rethook: return address %08lx (%s) at stack slot %08lx\n",
		node->ret_addr, sym(node->ret_addr, buf, sizeof(buf)), (unsigned long)slot);
	narrate("     replaced by arch_rethook_trampoline (%08lx); a rethook node on the\n",
		(unsigned long)arch_rethook_trampoline);
	narrate("     thread's list keeps the real one (rethook_hook())\n");
	remember_told_return(slot);
}

/* KPN_RETHOOK_RETURN: in the kretprobe's rethook handler, before its handler. */
static nokprobe_inline void narrate_rethook_return(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long *slot = kretprobe_trampoline_slot(regs);	/* the same frame as 2005's */
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	char buf[96];

	if (!claim_told_return(slot))
		return;
	printk("\nnarrate: the told call of %s returns, through rethook\n",
	       sym((unsigned long)p->addr, buf, sizeof(buf)));
	printk("  1. its ret popped arch_rethook_trampoline from slot %08lx and jumped there: "
	       "no int3, no trap\n", (unsigned long)slot);
	printk("  2. the trampoline pushed pt_regs and called rethook_trampoline_handler: "
	       "ax=%08lx, the return value\n", regs->ax);
	printk("  3. the newest node on pid %d's list is this frame's; handler %s runs\n",
	       task_pid(current), sym((unsigned long)rp->handler, buf, sizeof(buf)));
	printk("  4. the node goes back to its pool; the trampoline writes %08lx (%s)\n",
	       regs->ip, sym(regs->ip, buf, sizeof(buf)));
	printk("     into its return slot, pops the registers and rets there\n");
}

/* KPN_FTRACE_HIT: a probe on a call site, reached through ftrace (docs/ftrace.md). */
static nokprobe_inline void narrate_ftrace_hit(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;
	char buf[96];

	if (!tell_this_hit(p))
		return;
	printk("\nnarrate: a hit of the probe at %s, on ftrace\n", sym(addr, buf, sizeof(buf)));
	narrate("1. no int3: %08lx is the function's call site, its 5-byte nop made\n", addr);
	narrate("   \"call ftrace_regs_caller\" by ftrace when the probe was armed\n");
	narrate("2. ftrace_regs_caller built a pt_regs as an int3 there would (IF=%d TF=%d),\n",
		flag(regs->flags, X86_EFLAGS_IF), flag(regs->flags, X86_EFLAGS_TF));
	narrate("   no exception, no gate: the CPU only ran a call\n");
	if (READ_ONCE(ftrace_trace_function) == kprobe_ftrace_told_handler) {
		narrate("3. kprobe_ftrace_told_handler (the handler's narrated twin), called straight\n");
		narrate("   (the kprobes ops is the only one):\n");
	} else {
		narrate("3. ftrace_ops_list_func -> kprobe_ftrace_told_handler (the handler's narrated\n");
		narrate("   twin; several ops on ftrace):\n");
	}
	narrate("   get_kprobe(%08lx) finds a '%c' probe\n", addr, kprobe_type_char(p));
	narrate("4. ip set to %08lx, past the int3 there is not, as on Linux; pre_handler %s runs\n",
		regs->ip,
		p->pre_handler ? sym((unsigned long)p->pre_handler, buf, sizeof(buf)) : "(none)");
}

/* KPN_FTRACE_DONE: no step - the nop needs none. */
static nokprobe_inline void narrate_ftrace_done(struct pt_regs *regs)
{
	char buf[96];

	narrate_rethook_entry(regs);
	narrate("5. nothing to step: ip is set past the 5-byte nop, post_handler runs\n");
	narrate("6. the trampoline restores the registers and rets to %08lx (%s)\n",
		regs->ip, sym(regs->ip, buf, sizeof(buf)));
	this_cpu_write(kprobe_narrate_telling, false);
}

/* ---- the layer: each int3 and #DB, before and after the layers below -------- */

/* What the layers below did with p's int3, read from the state they left. */
static nokprobe_inline void narrate_int3_outcome(struct kprobe *p, struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = this_cpu_read(current_kprobe);

	if (p->ainsn.decoded.type == INSN_TYPE_INT3)
		narrate_no_step(NO_STEP_INT3, p, regs);
	else if (cur == p && kcb->kprobe_status == KPROBE_HIT_SS)
		if (regs->ip == (unsigned long)p->addr)
			narrate_singlestep_inplace(p, regs);
		else
			narrate_singlestep(p, regs);
	else if (cur != p && kcb->kprobe_status == KPROBE_HIT_SSDONE)
		narrate_no_step(NO_STEP_EMULATED, p, regs);	/* the instruction ran: no step */
	else if (cur != p && regs->ip == (unsigned long)p->ainsn.insn)
		narrate_no_step(NO_STEP_BOOSTED, p, regs);
	else {
		narrate_pre_handler_returned(1);	/* moved ip; a jprobe stays current */
		narrate_iret(regs);
	}
}

static int narrate_int3(struct pt_regs *regs)
{
	struct kprobe *p = get_kprobe((void *)(regs->ip - sizeof(kprobe_opcode_t)));
	struct kprobe *outer = this_cpu_read(current_kprobe);
	struct kprobe *told = NULL;
	int ret;

	if (!p && told_step_int3(outer, regs)) {
		narrate_step_int3(outer, regs);
		ret = kprobe_hit_below(KPROBE_HIT_NARRATE)->int3(regs);
		narrate_resumed(outer, regs);
		narrate("8. post_handler done, the hit is over\n");
		narrate_iret(regs);
		return ret;
	}
	if (p && !outer) {
		this_cpu_write(kprobe_narrate_telling, false);
		narrate_hit(p, regs);		/* if this hit is the one told */
		told = p;
	} else if (!p && outer && outer->break_handler) {
		told = outer;			/* a jprobe's break int3 (KPN_JPROBE_BREAK) */
	}
	ret = kprobe_hit_below(KPROBE_HIT_NARRATE)->int3(regs);
	if (told && this_cpu_read(kprobe_narrate_telling)) {
		narrate_rethook_entry(regs);
		narrate_int3_outcome(told, regs);
	}
	return ret;
}
NOKPROBE_SYMBOL(narrate_int3);

static int narrate_debug_trap(struct pt_regs *regs)
{
	struct kprobe *cur = this_cpu_read(current_kprobe);
	bool told = this_cpu_read(kprobe_narrate_telling) &&
		    get_kprobe_ctlblk()->kprobe_status == KPROBE_HIT_SS;
	bool in_place = told && kprobe_stepping_in_place(cur);
	int ret;

	if (told && !in_place)
		narrate_debug(cur, regs);
	ret = kprobe_hit_below(KPROBE_HIT_NARRATE)->debug(regs);
	if (!told || !ret)
		return ret;
	if (in_place)
		narrate_rearmed(cur, regs, READ_ONCE(*cur->addr) == BREAKPOINT_INSTRUCTION);
	else
		narrate_resumed(cur, regs);
	narrate("8. post_handler done, the hit is over\n");
	narrate_iret(regs);
	return ret;
}
NOKPROBE_SYMBOL(narrate_debug_trap);

/* A fault is not told; if it ended the hit, it ended the story too. */
static int narrate_fault(struct pt_regs *regs, int trapnr)
{
	int ret = kprobe_hit_below(KPROBE_HIT_NARRATE)->fault(regs, trapnr);

	if (!this_cpu_read(current_kprobe))
		this_cpu_write(kprobe_narrate_telling, false);
	return ret;
}
NOKPROBE_SYMBOL(narrate_fault);

static const struct kprobe_hit_ops narrate_hit_ops = {
	.name = "narrate",
	.int3 = narrate_int3,
	.debug = narrate_debug_trap,
	.fault = narrate_fault,
};

/* ---- the stories outside the hit: jprobes and kretprobes ----------------------- */

/* kprobe_narrate() with narration on: tell `what` if it is part of a told story. */
void __kprobe_narrate(enum kprobe_narration what, struct kprobe *p, struct pt_regs *regs)
{
	switch (what) {
	case KPN_JPROBE_SETJMP:
		if (this_cpu_read(kprobe_narrate_telling))
			narrate_jprobe_setjmp(regs);
		break;
	case KPN_FTRACE_HIT:
		narrate_ftrace_hit(p, regs);
		break;
	case KPN_JPROBE_BREAK:
		narrate_jprobe_break(regs);
		break;
	case KPN_JPROBE_RESTORED:
		if (this_cpu_read(kprobe_narrate_telling))
			narrate_jprobe_restored(regs);
		break;
	case KPN_KRETPROBE_ENTRY:
		if (this_cpu_read(kprobe_narrate_telling))
			narrate_kretprobe_entry(regs);
		break;
	case KPN_KRETPROBE_RETURN:
		narrate_kretprobe_return(p, regs);
		break;
	case KPN_KRETPROBE_RETURNED:
		narrate_kretprobe_returned(regs);
		break;
	case KPN_FTRACE_DONE:
		if (this_cpu_read(kprobe_narrate_telling))
			narrate_ftrace_done(regs);
		break;
	case KPN_RETHOOK_RETURN:
		narrate_rethook_return(p, regs);
		break;
	}
}

NOKPROBE_SYMBOL(__kprobe_narrate);

/* ---- a hardware breakpoint's #DB ------------------------------------------------- */

/*
 * Told like a probe: the next hit of each breakpoint, once per `echo 1`
 * (keyed by the breakpoint's struct, which no probe address can equal).
 */
void __hw_breakpoint_narrate(struct hw_breakpoint *bp, struct pt_regs *regs, unsigned long dr6)
{
	char where[KSYM_NAME_LEN + 32], what[KSYM_NAME_LEN + 32];
	bool tell;

	spin_lock(&narrate_lock);	/* #DB: interrupts are off */
	tell = claim_probe_story((unsigned long)bp);
	spin_unlock(&narrate_lock);
	if (!tell)
		return;
	sym(bp->attr.bp_addr, what, sizeof(what));
	sym(regs->ip, where, sizeof(where));
	narrate("1. the CPU compared DR%d (%08lx, %s) with %s and raised #DB (vector %d)\n",
		bp->slot, bp->attr.bp_addr, what,
		bp->attr.bp_type == HW_BREAKPOINT_X ? "the instruction fetch" : "a data access",
		X86_TRAP_DB);
	narrate("2. exc_debug: DR6 read and cleared: %08lx, B%d=1 BS=%d; a breakpoint's bit,\n",
		dr6, bp->slot, flag(dr6, DR_STEP));
	narrate("   so DR7 off (as Linux's local_db_save()) while its handler runs\n");
	if (bp->attr.bp_type == HW_BREAKPOINT_X) {
		narrate("3. an execute breakpoint is a fault: ip %08lx (%s) has not run yet;\n",
			regs->ip, where);
		narrate("   RF set in the saved EFLAGS, so the iret runs it instead of faulting again\n");
	} else {
		narrate("3. a data breakpoint is a trap: the %s of %u byte%s is done; ip %08lx (%s)\n",
			bp->attr.bp_type == HW_BREAKPOINT_W ? "write" : "read or write",
			bp->attr.bp_len, plural(bp->attr.bp_len), regs->ip, where);
		narrate("   is the instruction after the access\n");
	}
	narrate("4. hw_breakpoint_handler -> the triggered callback; then DR7 back, iret\n");
}
NOKPROBE_SYMBOL(__hw_breakpoint_narrate);
