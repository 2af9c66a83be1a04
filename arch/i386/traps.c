/*
 * traps.c - the one C function every vector reaches: do_trap().
 *
 * For an exception the order is the Linux one:
 *   1. on #BP and #DB, kprobes first (do_int3(), do_debug()): a probe
 *      hit is what these vectors mostly carry, so it is claimed before
 *      any notifier is asked, as Linux's do_int3() / exc_debug_kernel()
 *      do - for a kernel frame: exc_int3() / exc_debug() test the ring
 *      once, first, and handle a process's #BP/#DB apart (its int3 goes
 *      to the chain alone, where uprobes is), with the last look before
 *      ring 3; on the other vectors kprobes looks only while a hit is
 *      in progress (a fault in a stepped copy or in a handler);
 *   2. ask the die-notifier chain - a debugger, a test's watch - which
 *      may claim it;
 *   3. look for an exception-fixup entry for the faulting ip;
 *   4. otherwise it is a kernel bug: print an oops and stop.
 * For a hardware interrupt: acknowledge the PIC (or the local APIC, for
 * its timer and the IPIs), then run the handler.
 * An NMI is neither: arch/i386/nmi.c reports it and returns.
 */
#include "kernel.h"
#include <asm/text_patching.h>
#include "sched.h"
#include <asm/traps.h>
#include <asm/kdebug.h>
#include <asm/extable.h>
#include <asm/processor.h>
#include <asm/sysenter.h>
#include <asm/pic.h>
#include <asm/apic.h>
#include "smp.h"
#include "nokprobe.h"
#include <asm/calling.h>	/* checks entry.S's PT_* offsets at compile time */
#include "kprobes.h"
#include <asm/percpu.h>
#include <asm/ptrace.h>
#include "process.h"
#include "syscalls.h"
#include "hw_breakpoint.h"
#include <asm/pgfault.h>

static irq_handler_t irq_handlers[NR_PIC_IRQS];

/*
 * Exceptions taken, by vector, on this CPU: one %fs-relative increment
 * per exception, read by tests and the benchmark (trap_watch) - the only
 * way to see the exceptions kprobes claims before the die chain.
 */
DEFINE_PER_CPU(unsigned long[NR_EXCEPTIONS], exception_count);

static const char *const exception_names[NR_EXCEPTIONS] = {
	[X86_TRAP_DE] = "divide error",
	[X86_TRAP_DB] = "debug",
	[X86_TRAP_NMI] = "non-maskable interrupt",
	[X86_TRAP_BP] = "breakpoint (int3)",
	[X86_TRAP_OF] = "overflow (into)",
	[X86_TRAP_BR] = "bound range exceeded",
	[X86_TRAP_UD] = "invalid opcode",
	[X86_TRAP_NM] = "device not available",
	[X86_TRAP_DF] = "double fault",
	[X86_TRAP_OLD_MF] = "coprocessor segment overrun",
	[X86_TRAP_TS] = "invalid TSS",
	[X86_TRAP_NP] = "segment not present",
	[X86_TRAP_SS] = "stack-segment fault",
	[X86_TRAP_GP] = "general protection fault",
	[X86_TRAP_PF] = "page fault",
	[X86_TRAP_SPURIOUS] = "reserved (15)",
	[X86_TRAP_MF] = "x87 floating-point error",
	[X86_TRAP_AC] = "alignment check",
	[X86_TRAP_MC] = "machine check",
	[X86_TRAP_XF] = "SIMD floating-point error",
};

const char *trap_name(unsigned long vector)
{
	if (vector < NR_EXCEPTIONS)
		return exception_names[vector] ? exception_names[vector] : "reserved";
	if (vector < IRQ_BASE_VECTOR + NR_PIC_IRQS)
		return "hardware interrupt";
	return "unknown vector";
}

void request_irq(int irq, irq_handler_t handler)
{
	irq_handlers[irq] = handler;
	pic_unmask(irq);
}

/* Which notifier event an exception is announced as. */
static enum die_val die_event(unsigned long vector)
{
	/* LAB 1: BEGIN the notifier event of each exception */
	switch (vector) {
	case X86_TRAP_BP: return DIE_INT3;
	case X86_TRAP_DB: return DIE_DEBUG;
	case X86_TRAP_GP: return DIE_GPF;
	case X86_TRAP_PF: return DIE_PAGE_FAULT;
	default:          return DIE_TRAP;
	}
	/* LAB 1: STUB return DIE_TRAP; */
	/* LAB 1: END */
}


extern const unsigned long vector_entries[];	/* entry.S: each vector's stub */

/*
 * QEMU (7.2, TCG) reports a data breakpoint hit by an instruction that
 * ran with TF set one instruction late: the single-step #DB is
 * delivered first, and the data breakpoint's #DB is raised on the first
 * instruction of that #DB's own entry stub, with DR6 holding both BS
 * and Bn.  A real CPU reports both in one #DB.  So a #DB whose ip is the
 * #DB entry is the late half: the breakpoints are handled here, and BS
 * is written back to DR6 for the outer #DB, which reads DR6 next.
 */
static bool do_debug_late_breakpoint(struct pt_regs *regs, unsigned long dr6)
{
	/*
	 * The access was made where the outer #DB interrupted: its ip and
	 * flags are the words the CPU pushed just above this frame's.
	 */
	unsigned long *outer = (unsigned long *)kernel_stack_pointer(regs);
	struct pt_regs at_access = *regs;
	bool claimed;

	at_access.ip = outer[0];
	at_access.flags = outer[2];
	claimed = hw_breakpoint_handler(&at_access, dr6);
	set_debugreg(dr6 & ~DR_TRAP_BITS, DR_STATUS);
	return claimed;
}

/*
 * A #DB that carries a breakpoint's Bn, maybe with BS too: kprobes' step
 * of an instruction that writes a watched variable is one exception.
 * kprobes claims BS, the breakpoints their Bn bits; the chain gets the
 * #DB if BS is left.
 */
static bool do_debug_breakpoint(struct pt_regs *regs, unsigned long dr6)
{
	bool claimed = false;

	if (regs->ip == vector_entries[X86_TRAP_DB])
		return do_debug_late_breakpoint(regs, dr6);
	if ((dr6 & DR_STEP) && kprobe_debug_handler(regs)) {
		dr6 &= ~DR_STEP;
		claimed = true;
	}
	if (hw_breakpoint_handler(regs, dr6))
		claimed = true;
	if (claimed && !(dr6 & DR_STEP))
		return true;
	return notify_die(DIE_DEBUG, "debug", regs, regs->orig_ax,
			  X86_TRAP_DB) == NOTIFY_STOP;
}

/* #DB: Linux's exc_debug_kernel().  The end of a probe's step, or the chain's. */
static nokprobe_inline bool do_debug(struct pt_regs *regs)
{
	if (kprobe_debug_handler(regs))
		return true;
	return notify_die(DIE_DEBUG, "debug", regs, regs->orig_ax,
			  X86_TRAP_DB) == NOTIFY_STOP;
}

/* Every other exception: kprobes only during a hit, then the chain. */
static bool do_other_exception(struct pt_regs *regs, unsigned long vector)
{
	if (kprobe_exception_handler(regs, vector))
		return true;
	return notify_die(die_event(vector), trap_name(vector), regs,
			  regs->orig_ax, vector) == NOTIFY_STOP;
}

/*
 * Nobody claimed the exception: from ring 3 the process gets the
 * signal Linux would send (kernel/signal.c), acted on on its way back
 * to ring 3; from the kernel, a fixup entry for regs->ip, or an oops.
 */
static void exception_unclaimed(struct pt_regs *regs, unsigned long vector)
{
	if (user_mode(regs)) {
		force_sig_fault(regs, vector);	/* delivered by exit_to_user_mode() */
		return;
	}
	if (fixup_exception(regs, vector))
		return;
	die(trap_name(vector), regs, vector);
}

static void do_exception(struct pt_regs *regs, unsigned long vector)
{
	/*
	 * #PF: Linux's exc_page_fault().  A fault on a process's address may
	 * be a page to make (demand-zero, copy-on-write): then it is no
	 * error, and the instruction is retried (arch/i386/fault.c).  First,
	 * before anything could fault again and overwrite CR2.
	 */
	if (vector == X86_TRAP_PF && do_user_addr_fault(regs, read_cr2()))
		return;
	if (!do_other_exception(regs, vector))
		exception_unclaimed(regs, vector);
}

/*
 * A kernel #BP: Linux's do_int3().  An int3 of code being patched is no
 * one's breakpoint: first.  Then kprobes, then the chain.
 */
static nokprobe_inline bool do_int3(struct pt_regs *regs)
{
	if (poke_int3_handler(regs))
		return true;
	if (kprobe_int3_handler(regs))
		return true;
	return notify_die(DIE_INT3, "int3", regs, regs->orig_ax,
			  X86_TRAP_BP) == NOTIFY_STOP;
}

/*
 * A ring-3 #BP: Linux's do_int3_user().  Neither the text patcher nor
 * kprobes owns an int3 in a process (kernel text is never there, and a
 * user address means another thing in every process), so only the
 * chain is asked - uprobes is on it - and otherwise the process gets
 * SIGTRAP.  Then the last look before ring 3: a uprobe's work
 * (uprobe_notify_resume()), a pending kill.
 */
static noinline void do_int3_user(struct pt_regs *regs)
{
	if (notify_die(DIE_INT3, "int3", regs, regs->orig_ax,
		       X86_TRAP_BP) != NOTIFY_STOP)
		exception_unclaimed(regs, X86_TRAP_BP);
	exit_to_user_mode(regs);
}

/*
 * The #BP and #DB entry stubs call these straight (entry.S's
 * DIRECT_STUB, Linux's exc_int3() / exc_debug()): no vector to
 * dispatch on, and nothing an oops alone needs until nobody claimed
 * the trap.
 */
/*
 * An instruction a #BP handler emulates may move the stack pointer
 * (call, ret, push, pop).  In a ring-0 trap frame the interrupted stack
 * pointer is not a register in pt_regs but the frame's end
 * (kernel_stack_pointer()), and the frame itself lies on the words a
 * push would write.  So the handler only says where the stack pointer
 * goes (int3_moved_sp, 0: nowhere; a push's word waits in
 * regs->orig_ax), and the #BP exit in entry.S moves the iret frame
 * there once no C code looks at pt_regs any more.  Per CPU, and saved
 * around each #BP: a handler may hit a probe of its own.
 */
static DEFINE_PER_CPU(unsigned long, int3_moved_sp);

/*
 * Only a kernel #BP emulates (exc_int3() sends ring-3 frames elsewhere),
 * so the interrupted stack pointer is &regs->sp, with no test of the
 * frame's ring as kernel_stack_pointer() makes.
 */
static nokprobe_inline unsigned long int3_current_sp(struct pt_regs *regs)
{
	unsigned long sp = this_cpu_read(int3_moved_sp);

	return sp ? sp : (unsigned long)&regs->sp;
}

/* Linux's int3_emulate_push(): the word lands at the new stack top on the way out. */
void int3_emulate_push(struct pt_regs *regs, unsigned long val)
{
	regs->orig_ax = val;
	this_cpu_write(int3_moved_sp, int3_current_sp(regs) - sizeof(unsigned long));
}

/* Linux's int3_emulate_pop(), plus the bytes a "ret imm16" drops after it. */
unsigned long int3_emulate_pop(struct pt_regs *regs, unsigned long drop)
{
	unsigned long sp = int3_current_sp(regs);

	this_cpu_write(int3_moved_sp, sp + sizeof(unsigned long) + drop);
	return *(unsigned long *)sp;
}

/*
 * Returns the interrupted code's new stack pointer, or 0 if it stays.
 * As Linux's exc_int3(), the frame's privilege level is tested once,
 * first: a kernel probe hit never pays for the ring-3 work, and a
 * process's int3 never reaches the text patcher or kprobes.
 */
unsigned long exc_int3(struct pt_regs *regs)
{
	unsigned long outer, sp;

	this_cpu_inc(exception_count[X86_TRAP_BP]);
	if (unlikely(user_mode(regs))) {
		do_int3_user(regs);
		return 0;		/* nothing emulated: the frame stays */
	}
	outer = this_cpu_read(int3_moved_sp);
	this_cpu_write(int3_moved_sp, 0);
	if (!do_int3(regs))
		exception_unclaimed(regs, X86_TRAP_BP);
	sp = this_cpu_read(int3_moved_sp);
	this_cpu_write(int3_moved_sp, outer);
	return sp;
}

/*
 * DR7 off first (Linux's local_db_save()): a breakpoint on anything the
 * handlers touch - the count below, their data - would raise #DB inside
 * this #DB.  Only #DBs that carry a breakpoint pay for it: a kprobe's
 * step does not (a watchpoint on data a kprobe handler touches is then
 * reported from inside that handler's #DB, whose own #DB turns DR7 off,
 * so it never recurses).
 */
static noinline void exc_debug_breakpoint(struct pt_regs *regs, unsigned long dr6)
{
	unsigned long dr7 = local_db_save();

	this_cpu_inc(exception_count[X86_TRAP_DB]);
	if (!do_debug_breakpoint(regs, dr6))
		exception_unclaimed(regs, X86_TRAP_DB);
	local_db_restore(dr7);
	if (user_mode(regs))
		exit_to_user_mode(regs);	/* the SIGTRAP of a user breakpoint */
}

/*
 * A ring-3 #DB without a breakpoint's bit: Linux's exc_debug_user().  A
 * uprobe's step (on the chain) or the process's own TF: SIGTRAP.
 * kprobes is still asked first: a stepped iret or lret may have left
 * ring 0, and its step ends here.  Then the last look before ring 3.
 */
static noinline void exc_debug_user(struct pt_regs *regs)
{
	this_cpu_inc(exception_count[X86_TRAP_DB]);
	if (!do_debug(regs))
		exception_unclaimed(regs, X86_TRAP_DB);
	exit_to_user_mode(regs);	/* a uprobe's work (uprobe_notify_resume()) */
}

/*
 * #DB: Linux's exc_debug().  DR6 says what caused it, and is cleared
 * once read, since the CPU only ever sets its bits.  A Bn bit (a
 * hardware breakpoint) takes the long way, and so does a frame from
 * ring 3; what is left is Linux's exc_debug_kernel(): the end of a
 * kprobe's step - the fast path - or the chain's (a test's TF, an int1).
 */
void exc_debug(struct pt_regs *regs)
{
	unsigned long dr6 = debug_read_clear_dr6();

	if (unlikely(dr6 & DR_TRAP_BITS)) {
		exc_debug_breakpoint(regs, dr6);
		return;
	}
	if (unlikely(user_mode(regs))) {
		exc_debug_user(regs);
		return;
	}
	if ((dr6 & DR_STEP) && is_sysenter_singlestep(regs))
		return;		/* the user's TF, through sysenter (arch/i386/sysenter.c) */
	this_cpu_inc(exception_count[X86_TRAP_DB]);
	if (!do_debug(regs))
		exception_unclaimed(regs, X86_TRAP_DB);
}

static void do_irq(struct pt_regs *regs, int irq)
{
	if (pic_is_spurious(irq))
		return;
	/*
	 * Acknowledge first: a handler may switch to another thread (the
	 * timer's does), and the PIC must not wait for that thread to come
	 * back before it delivers the next interrupt.  IF is still clear
	 * (interrupt gate), so nothing nests before we are done here.
	 */
	pic_eoi(irq);
	/*
	 * Counted per thread, for Linux's in_interrupt(): the timer's
	 * handler may switch threads, and each resumes where it stopped.
	 */
	current->hardirq_count++;
	if (irq_handlers[irq])
		irq_handlers[irq](regs);
	current->hardirq_count--;
}

/*
 * A local APIC interrupt (timer, IPI), counted in the thread it
 * interrupted like a PIC interrupt: every CPU runs threads, and an idle
 * CPU its idle task.
 */
static void do_apic_irq(struct pt_regs *regs, unsigned long vector)
{
	current->hardirq_count++;
	smp_apic_interrupt(regs, vector);
	current->hardirq_count--;
}

void do_trap(struct pt_regs *regs, unsigned long vector)
{
	if (vector < NR_EXCEPTIONS)
		this_cpu_inc(exception_count[vector]);
	if (vector == X86_TRAP_NMI)
		do_nmi(regs);	/* an interrupt on an exception's vector */
	else if (vector < NR_EXCEPTIONS)
		do_exception(regs, vector);
	else if (vector == IA32_SYSCALL_VECTOR)
		do_int80_syscall_32(regs);
	else if (is_apic_vector(vector))
		do_apic_irq(regs, vector);
	else
		do_irq(regs, vector - IRQ_BASE_VECTOR);
	if (vector != X86_TRAP_NMI && user_mode(regs))
		exit_to_user_mode(regs);	/* a pending kill ends the process here */
}
NOKPROBE_SYMBOL(do_trap);
NOKPROBE_SYMBOL(do_exception);
NOKPROBE_SYMBOL(do_other_exception);
NOKPROBE_SYMBOL(exception_unclaimed);
NOKPROBE_SYMBOL(exc_int3);
NOKPROBE_SYMBOL(do_int3_user);
NOKPROBE_SYMBOL(exc_debug_user);
NOKPROBE_SYMBOL(int3_emulate_push);
NOKPROBE_SYMBOL(int3_emulate_pop);
NOKPROBE_SYMBOL(exc_debug);
NOKPROBE_SYMBOL(do_debug_breakpoint);
NOKPROBE_SYMBOL(exc_debug_breakpoint);
NOKPROBE_SYMBOL(do_debug_late_breakpoint);
NOKPROBE_SYMBOL(do_apic_irq);
NOKPROBE_SYMBOL(die_event);
NOKPROBE_SYMBOL(trap_name);
