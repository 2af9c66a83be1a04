/*
 * kprobes_narrate.c - tell one probe hit step by step, as it happens.
 *
 *   echo 1 > /sys/kernel/debug/kprobes/narrate
 *
 * The hit path in arch/i386/kprobes.c calls these at each step, behind a
 * test of a global (narrate_begin(), narrate_call() in narrate.h), so an
 * untold hit pays one branch per step.  The next hit of each probe is
 * told once; writing 1 again tells the next one again.
 *
 * Narration turns optprobes and boosting off while it is on: an
 * optimized probe is a jmp, not an int3, and a boosted one skips the
 * single-step; the point is to watch the whole int3 / single-step dance.
 * Writing 0 puts the previous settings back.
 */
#include "kernel.h"
#include "narrate.h"
#include "kprobes.h"
#include "kallsyms.h"
#include "desc.h"
#include "traps.h"
#include "processor.h"
#include "ptrace.h"
#include "nokprobe.h"
#include "vsprintf.h"

#define NARRATE_MAX_PROBES 32	/* probes told once each per `echo 1` */

bool kprobes_narrate;
bool kprobe_narrating;
unsigned long kprobes_narrated_hits;	/* hits told so far (tests) */
static unsigned long narrated[NARRATE_MAX_PROBES];
static int nr_narrated;
static bool optimization_before, boosting_before;

/* The values resume_execution() is about to change, for before/after. */
static unsigned long ip_before, flags_before, tos_before;

void kprobes_narrate_set(bool on)
{
	if (on && !kprobes_narrate) {
		optimization_before = kprobes_get_optimization();
		boosting_before = kprobes_get_boosting();
		kprobes_set_optimization(false);
		kprobes_set_boosting(false);
	} else if (!on && kprobes_narrate) {
		kprobes_set_optimization(optimization_before);
		kprobes_set_boosting(boosting_before);
	}
	kprobes_narrate = on;
	nr_narrated = 0;	/* every probe gets its next hit told again */
}

static const char *sym(unsigned long addr, char *buf, size_t len)
{
	sprint_symbol(buf, len, addr);
	return buf;
}

static int flag(unsigned long flags, unsigned long bit)
{
	return (flags & bit) != 0;
}

/* At the int3: is this hit told?  If so, tell how it arrived. */
void kprobe_narrate_begin(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)p->addr;
	struct gate_desc *gate = idt_entry(X86_TRAP_BP);
	char buf[96];

	for (int i = 0; i < nr_narrated; i++)
		if (narrated[i] == addr)
			return;
	if (nr_narrated == NARRATE_MAX_PROBES)
		return;
	narrated[nr_narrated++] = addr;
	kprobe_narrating = true;
	kprobes_narrated_hits++;

	printk("\nnarrate: a hit of the probe at %s\n", sym(addr, buf, sizeof(buf)));
	narrate("1. the CPU ran our int3 (0xcc) at %08lx: trap #BP (vector %d)\n",
		addr, X86_TRAP_BP);
	narrate("2. it pushed EFLAGS (IF=%d TF=%d), CS and the ip after the int3, %08lx\n",
		flag(regs->flags, X86_EFLAGS_IF), flag(regs->flags, X86_EFLAGS_TF), regs->ip);
	narrate("3. IDT gate %d is a%s %s gate: %s\n", X86_TRAP_BP,
		GATE_TYPE(gate->type_attr) == GATE_INTERRUPT ? "n" : "",
		gate_type_name(GATE_TYPE(gate->type_attr)),
		GATE_TYPE(gate->type_attr) == GATE_INTERRUPT ?
		"the CPU cleared IF, no interrupt can come in" : "IF stays as it was");
	narrate("4. do_trap -> notify_die(DIE_INT3) -> kprobe_handler: get_kprobe(%08lx) "
		"finds a '%c' probe\n", addr, kprobe_type_char(p));
	narrate("5. ip set back to %08lx; pre_handler %s runs\n", addr,
		p->pre_handler ? sym((unsigned long)p->pre_handler, buf, sizeof(buf)) : "(none)");
}

/* After setup_singlestep(): the iret will run the copy with TF set. */
void narrate_step(struct kprobe *p, struct pt_regs *regs)
{
	const struct insn *insn = &p->ainsn.decoded;
	char bytes[3 * MAX_INSN_SIZE + 1] = "";

	for (int i = 0; i < insn->length && i < MAX_INSN_SIZE; i++)
		snprintf(bytes + 3 * i, 4, " %02x", p->ainsn.insn[i]);
	narrate("7. register_kprobe copied the instruction,%s (%d bytes, class %s), "
		"to slot %08lx\n", bytes, insn->length, insn_type_name(insn->type), regs->ip);
	narrate("8. TF set, IF cleared (EFLAGS now %08lx), ip -> slot %08lx; iret\n",
		regs->flags, regs->ip);
}

/* At the #DB that ends the step, before resume_execution(). */
void narrate_db(struct kprobe *p, struct pt_regs *regs)
{
	ip_before = regs->ip;
	flags_before = regs->flags;
	tos_before = *(unsigned long *)kernel_stack_pointer(regs);
	narrate("9. the copy ran; TF made the CPU trap #DB (vector %d) at ip %08lx, "
		"%lu bytes into the slot; DR6.BS=%d\n", X86_TRAP_DB, regs->ip,
		regs->ip - (unsigned long)p->ainsn.insn, flag(read_dr6(), DR6_BS));
	narrate("10. notify_die(DIE_DEBUG) -> post_kprobe_handler -> resume_execution\n");
}

/* After resume_execution(): what the fixup changed. */
void narrate_fixup(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long tos = *(unsigned long *)kernel_stack_pointer(regs);
	char buf[96];

	narrate("11. fixup for %s: ip %08lx -> %08lx (%s)\n",
		insn_type_name(p->ainsn.decoded.type), ip_before, regs->ip,
		sym(regs->ip, buf, sizeof(buf)));
	if (tos != tos_before)
		narrate("    top of stack %08lx -> %08lx\n", tos_before, tos);
	narrate("12. flags restored: %08lx -> %08lx (TF %d->%d, IF %d->%d)\n",
		flags_before, regs->flags, flag(flags_before, X86_EFLAGS_TF),
		flag(regs->flags, X86_EFLAGS_TF), flag(flags_before, X86_EFLAGS_IF),
		flag(regs->flags, X86_EFLAGS_IF));
}

/* The last step of a told hit. */
void narrate_end(const char *how, struct pt_regs *regs)
{
	char buf[96];

	narrate("%s; iret to %08lx (%s)\n", how, regs->ip, sym(regs->ip, buf, sizeof(buf)));
	kprobe_narrating = false;
}

NOKPROBE_SYMBOL(kprobe_narrate_begin);
NOKPROBE_SYMBOL(narrate_step);
NOKPROBE_SYMBOL(narrate_db);
NOKPROBE_SYMBOL(narrate_fixup);
NOKPROBE_SYMBOL(narrate_end);
NOKPROBE_SYMBOL(sym);
NOKPROBE_SYMBOL(flag);
