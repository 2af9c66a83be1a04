/*
 * jprobes.c (arch/i386) - the stack work behind jprobes.
 *
 * A jprobe is the article's three steps (docs/jprobes.md draws them):
 *
 *   1. setjmp_pre_handler() - the kprobe's int3 hit at the function's
 *      first byte.  Save the registers and the top of the stack (the
 *      return address and the arguments), point ip at the user's handler
 *      and return 1: no single-step yet.  iret lands in the handler with
 *      the stack exactly as the probed function would have seen it.
 *   2. The handler reads its arguments and calls jprobe_return()
 *      (jprobe_return.S), which puts the stack pointer back where it was
 *      at the hit and executes int3.
 *   3. longjmp_break_handler() - that int3.  Check it is the one we
 *      expect, put the registers and the stack bytes back; the core
 *      (kprobe_handler) then runs the probed instruction as for any
 *      kprobe: emulated, boosted or single-stepped.
 *
 * Our addition to Linux: a handler that forgets jprobe_return() and
 * simply returns would pop the probed function's return address and run
 * the caller with a garbage result and the probe still "active".  So
 * step 1 replaces that return-address slot with jprobe_handler_returned:
 * a plain return lands on a second known int3, which is reported and
 * then recovered from exactly as jprobe_return() would be (the saved
 * stack copy brings the real return address back).
 *
 * The kretprobe half of the stack work is in retprobe.c.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kallsyms.h"
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "sched.h"
#include "string.h"
#include "nokprobe.h"
#include "narrate.h"

DEFINE_PER_CPU(struct jprobe_ctlblk, jprobe_ctlblk);

/* jprobe_return.S loads %esp from the first word of this CPU's jprobe_ctlblk. */
_Static_assert(offsetof(struct jprobe_ctlblk, saved_sp) == 0,
	       "jprobe_return.S reads saved_sp at offset 0");

/* The registers proper: sp and ss are only the stack's first two words. */
#define PT_REGS_SAVED	offsetof(struct pt_regs, sp)

/*
 * Each hit copies the registers and up to MAX_STACK_SIZE bytes of
 * stack, there and back.  "rep movsl" moves a word per iteration (lib's
 * memcpy goes byte by byte, which made these copies two thirds of a
 * jprobe hit; an unrolled load and store per word was twice this).  DF
 * is clear: the entry stubs clear it, as the C ABI wants.  The CPU reads
 * and writes unaligned words, so any sp will do; a tail shorter than a
 * word goes byte by byte.
 */
static nokprobe_inline void copy_words(void *dst, const void *src, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t words = len / sizeof(unsigned long);

	asm volatile("rep movsl" : "+D" (d), "+S" (s), "+c" (words) : : "memory");
	for (size_t i = 0; i < len % sizeof(unsigned long); i++)
		d[i] = s[i];
}

/* ---- step 1: the hit at the function's entry ---------------------------------- */

/*
 * In ring 0 the CPU pushed no sp/ss, so the stack the probed function
 * was about to use starts at kernel_stack_pointer(regs): first the
 * return address, then the arguments, left to right.  Save up to
 * MAX_STACK_SIZE bytes of it, never beyond the top of this thread's
 * stack (the boot thread's too: sched.c describes it like any other).
 */
int setjmp_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	/* LAB 3: BEGIN setjmp_pre_handler: save, then enter the handler */
	struct jprobe *jp = container_of(p, struct jprobe, kp);
	struct jprobe_ctlblk *jcb = this_cpu_ptr(&jprobe_ctlblk);
	unsigned long sp = kernel_stack_pointer(regs);

	jcb->jp = jp;
	jcb->saved_sp = sp;
	copy_words(&jcb->saved_regs, regs, PT_REGS_SAVED);
	jcb->saved_len = sp < current_stack_top() ? MIN_STACK_SIZE(sp) : 0;
	copy_words(jcb->saved_stack, (void *)sp, jcb->saved_len);

	/* A plain "ret" from the handler now lands on our int3. */
	if (jcb->saved_len >= sizeof(unsigned long))
		*(unsigned long *)sp = (unsigned long)jprobe_handler_returned;

	regs->flags &= ~X86_EFLAGS_IF;	/* the saved state is this CPU's: no interrupts, no migration */
	regs->ip = (unsigned long)jp->entry;
	kprobe_narrate(KPN_JPROBE_SETJMP, p, regs);
	return 1;			/* ip moved: no single-step now */
	/* LAB 3: STUB printk("lab 3: setjmp_pre_handler: not yet\n"); */
	/* LAB 3: STUB return 0; */
	/* LAB 3: END */
}
NOKPROBE_SYMBOL(setjmp_pre_handler);

/* ---- step 3: the handler is done --------------------------------------------- */

static nokprobe_inline void report_corrupt_jprobe(struct pt_regs *regs, unsigned long sp)
{
	struct jprobe_ctlblk *jcb = this_cpu_ptr(&jprobe_ctlblk);
	char sym[96];

	jcb->ncorrupt++;
	sprint_symbol(sym, sizeof(sym), regs->ip - 1);
	printk("jprobe: corrupted jprobe: int3 at %s with sp %08lx, saved sp %08lx (jprobe %p)\n",
	       sym, sp, jcb->saved_sp, (void *)jcb->jp);
	show_regs(regs);
}

static nokprobe_inline void report_bad_return(struct jprobe *jp)
{
	char entry[96], func[96];

	if (jp->nbad_return++)
		return;			/* said once per jprobe; the count goes on */
	sprint_symbol(entry, sizeof(entry), (unsigned long)jp->entry);
	sprint_symbol(func, sizeof(func), (unsigned long)jp->kp.addr);
	printk("jprobe: handler %s for %s returned without jprobe_return(); recovered"
	       " (further ones are only counted in nbad_return)\n", entry, func);
}

/*
 * An int3 that is not a probe while our jprobe is the running probe.
 * Ours if it is one of the two int3s in jprobe_return.S; both arrive
 * with the stack pointer back at its value at the hit (jprobe_return
 * loads it; the returned-stub moves it back over the popped slot).  An
 * int3 there with any other stack pointer, or for another jprobe, means
 * the saved state does not belong to this stack: restoring it would
 * scribble over live frames, so it is reported and refused (the kernel
 * then oopses on the unhandled int3).  Anything else is not ours at all.
 */
int longjmp_break_handler(struct kprobe *p, struct pt_regs *regs)
{
	/* LAB 3: BEGIN longjmp_break_handler: restore what was saved */
	struct jprobe *jp = container_of(p, struct jprobe, kp);
	struct jprobe_ctlblk *jcb = this_cpu_ptr(&jprobe_ctlblk);
	unsigned long addr = regs->ip - 1;	/* int3 reports the next byte */
	unsigned long sp = kernel_stack_pointer(regs);
	bool plain_return = addr == (unsigned long)jprobe_handler_returned_break;

	if (addr != (unsigned long)jprobe_return_break && !plain_return)
		return 0;
	if (jcb->jp != jp || sp != jcb->saved_sp) {
		report_corrupt_jprobe(regs, sp);
		return 0;
	}
	if (plain_return)
		report_bad_return(jp);
	kprobe_narrate(KPN_JPROBE_BREAK, p, regs);

	copy_words(regs, &jcb->saved_regs, PT_REGS_SAVED);
	copy_words((void *)sp, jcb->saved_stack, jcb->saved_len);
	kprobe_narrate(KPN_JPROBE_RESTORED, p, regs);
	jcb->jp = NULL;
	jcb->saved_sp = 0;	/* a stray jprobe_return() now traps where it stands */
	return 1;		/* the core single-steps the probed instruction */
	/* LAB 3: STUB panic("lab 3: longjmp_break_handler: not yet"); */
	/* LAB 3: END */
}
NOKPROBE_SYMBOL(longjmp_break_handler);
