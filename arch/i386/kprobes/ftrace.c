/*
 * ftrace.c - a kprobe on a function's call site, hit through ftrace
 * instead of an int3 (Linux's arch/x86/kernel/kprobes/ftrace.c,
 * CONFIG_KPROBES_ON_FTRACE).
 *
 * The site is a 5-byte nop that ftrace turns into "call
 * ftrace_regs_caller"; that trampoline builds the same pt_regs an int3 on
 * the function's first byte would, so the probe needs no exception at
 * all: no #BP, no single-step, no slot.  kprobe_ftrace_handler() makes
 * the hit look like an int3 hit to the handlers, as Linux does: regs->ip
 * is addr + 1 in the pre-handler, as if the int3 had trapped, and
 * addr + 5 in the post-handler, as if the nop had been stepped.  A
 * pre-handler that returns non-zero has moved regs->ip itself: the
 * trampoline returns there, and the post-handler does not run.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "ftrace.h"
#include "narrate.h"
#include "nokprobe.h"

/* The post-handler, as after stepping the nop: out of the hit's way. */
static noinline void kprobe_ftrace_post(struct kprobe *p, struct pt_regs *regs)
{
	set_kprobe_status(KPROBE_HIT_SSDONE);
	p->post_handler(p, regs, 0);
}
NOKPROBE_SYMBOL(kprobe_ftrace_post);

/*
 * The hit, as an int3's: regs->ip is addr + 1 for the pre-handler and
 * addr + MCOUNT_INSN_SIZE after it, as after stepping the nop.  The
 * trampoline built the latter (the return address into the function;
 * no other ops may move it: only one FTRACE_OPS_FL_IPMODIFY ops per
 * site), so the first is a subtraction from it, and Linux's save and
 * restore of it is a write.  `told` is a constant: the narrated copy
 * below tells each step, the usual one pays for none of it.
 */
static __always_inline void kprobe_ftrace_hit(struct kprobe *p, struct pt_regs *regs,
					      bool told)
{
	regs->ip -= MCOUNT_INSN_SIZE - sizeof(kprobe_opcode_t);	/* as after the int3 */
	this_cpu_write(current_kprobe, p);
	set_kprobe_status(KPROBE_HIT_ACTIVE);
	kprobe_count_inc(&p->nhit);
	if (told)
		__kprobe_narrate(KPN_FTRACE_HIT, p, regs);
	if (!p->pre_handler || !p->pre_handler(p, regs)) {
		regs->ip = (unsigned long)p->addr + MCOUNT_INSN_SIZE;	/* as after stepping the nop */
		if (p->post_handler)
			kprobe_ftrace_post(p, regs);
	}
	if (told)
		__kprobe_narrate(KPN_FTRACE_DONE, p, regs);
	this_cpu_write(current_kprobe, NULL);
}

/*
 * Linux's kprobe_ftrace_handler() up to the hit: the probe at the call
 * site, or NULL if there is none to run - disabled, or hit inside a
 * handler (a reentry, missed).  The hash walk is inlined: nothing else
 * on this path is a call.
 */
static __always_inline struct kprobe *kprobe_ftrace_probe(unsigned long ip)
{
	struct kprobe *p = __get_kprobe((kprobe_opcode_t *)ip);

	if (!p || kprobe_disabled(p))
		return NULL;
	if (this_cpu_read(current_kprobe)) {	/* a probe hit inside a handler */
		kprobes_inc_nmissed_count(p);
		return NULL;
	}
	return p;
}

void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct kprobe *p = kprobe_ftrace_probe(ip);

	if (p)
		kprobe_ftrace_hit(p, ftrace_get_regs(fregs), false);
}
NOKPROBE_SYMBOL(kprobe_ftrace_handler);

/*
 * Narration is a layer here too (narrate.h): while it is on, the
 * kprobes ops calls this copy, which tells each step; the usual one
 * never tests for it.
 */
void kprobe_ftrace_told_handler(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct kprobe *p = kprobe_ftrace_probe(ip);

	if (p)
		kprobe_ftrace_hit(p, ftrace_get_regs(fregs), true);
}
NOKPROBE_SYMBOL(kprobe_ftrace_told_handler);

/* No slot, no copy: the nop is never run out of line. */
int arch_prepare_kprobe_ftrace(struct kprobe *p)
{
	p->ainsn.insn = NULL;
	p->ainsn.boostable = -1;
	return 0;
}
