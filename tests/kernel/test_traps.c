/*
 * test_traps.c - suite "traps": the IDT, the gates' types, the frame the
 * entry stubs build, the oops report, every exception class raised on
 * purpose, the die-notifier chain, fault-safe copies, symbols and
 * backtraces.
 */
#include "ktest.h"
#include <asm/apic.h>
#include <asm/traps.h>
#include <asm/desc.h>
#include <asm/segment.h>
#include <asm/kdebug.h>
#include <asm/extable.h>
#include <asm/processor.h>
#include <asm/irqflags.h>
#include "kallsyms.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "trap_watch.h"
#include "traps_asm.h"

extern const unsigned long vector_entries[];

#define BAD_SELECTOR (GDT_ENTRIES * 8)

/* ---- the IDT, read back ------------------------------------------------ */

static int expected_gate_type(int v)
{
	switch (v) {
	case X86_TRAP_DB: case X86_TRAP_NMI: case X86_TRAP_BP:
	case X86_TRAP_GP: case X86_TRAP_PF: case X86_TRAP_MC:
		return GATE_INTERRUPT;
	case X86_TRAP_DF:
		return GATE_TASK;
	default:
		return v >= IRQ_BASE_VECTOR ? GATE_INTERRUPT : GATE_TRAP;
	}
}

static void idt_gate_types(struct ktest *t)
{
	int v;

	for (v = 0; v < IRQ_BASE_VECTOR + NR_PIC_IRQS; v++) {
		struct gate_desc *g = idt_entry(v);
		int type = GATE_TYPE(g->type_attr);

		if (type != expected_gate_type(v))
			ktest_fail(t, __FILE__, __LINE__, "vector %d: %s gate, want %s",
				   v, gate_type_name(type),
				   gate_type_name(expected_gate_type(v)));
		KTEST_EXPECT_TRUE(t, g->type_attr & GATE_PRESENT);
		/* Only what a program raises on purpose is open to ring 3. */
		KTEST_EXPECT_EQ(t, GATE_DPL(g->type_attr),
				v == X86_TRAP_BP || v == X86_TRAP_OF ? 3 : 0);
		if (type == GATE_TASK) {
			KTEST_EXPECT_EQ(t, g->selector, __DF_TSS_SEL);
		} else {
			KTEST_EXPECT_EQ(t, g->selector, __KERNEL_CS);
			KTEST_EXPECT_EQ(t, gate_offset(g), vector_entries[v]);
		}
	}
	/*
	 * Above the PIC's: the system call's DPL-3 trap gate, and the local
	 * APIC's vectors, interrupt gates.
	 */
	for (v = IRQ_BASE_VECTOR + NR_PIC_IRQS; v < NR_VECTORS; v++) {
		struct gate_desc *g = idt_entry(v);

		if (v == IA32_SYSCALL_VECTOR) {
			KTEST_EXPECT_EQ(t, GATE_TYPE(g->type_attr), GATE_TRAP);
			KTEST_EXPECT_EQ(t, GATE_DPL(g->type_attr), 3);
			KTEST_EXPECT_EQ(t, g->selector, __KERNEL_CS);
			continue;
		}
		if (!is_apic_vector(v)) {
			KTEST_EXPECT_FALSE(t, g->type_attr & GATE_PRESENT);
			continue;
		}
		KTEST_EXPECT_TRUE(t, g->type_attr & GATE_PRESENT);
		KTEST_EXPECT_EQ(t, GATE_TYPE(g->type_attr), GATE_INTERRUPT);
		KTEST_EXPECT_EQ(t, g->selector, __KERNEL_CS);
	}
}

/* ---- a die notifier that records what the handler saw ----------------- */

static struct {
	bool armed;
	unsigned long event;
	unsigned long handler_flags;   /* EFLAGS inside the handler */
	unsigned long regs_flags;      /* EFLAGS of the interrupted code */
	unsigned long ip;
	bool claim;                    /* return NOTIFY_STOP? */
	bool report;                   /* print the oops report (__die) */
	int trapnr;                    /* the vector do_trap() was given */
	struct pt_regs regs;           /* the whole frame, copied */
	unsigned long sp;              /* kernel_stack_pointer() of it */
	unsigned long cr2;
} seen;

/*
 * An oops report a case prints on purpose (seen.report) reaches the
 * serial line too, where "Oops:" opening a line means that the run
 * crashed (tests/run_tests.py).  This KTAP diagnostic opens its line.
 */
#define REPORT_ON_PURPOSE "# the oops report of a planted fault: "

static int recording_notifier(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;

	if (!seen.armed)
		return NOTIFY_DONE;
	seen.armed = false;
	seen.event = val;
	seen.handler_flags = read_eflags();
	seen.regs_flags = args->regs->flags;
	seen.ip = args->regs->ip;
	seen.trapnr = args->trapnr;
	seen.regs = *args->regs;
	seen.sp = kernel_stack_pointer(args->regs);
	seen.cr2 = read_cr2();
	if (seen.report) {
		printk(REPORT_ON_PURPOSE);
		__die(args->str, args->regs, args->trapnr);
	}
	if (val == DIE_DEBUG)
		args->regs->flags &= ~X86_EFLAGS_TF;   /* stop stepping */
	return seen.claim ? NOTIFY_STOP : NOTIFY_DONE;
}

/* Higher priority than kprobes: we see the trap first. */
static struct notifier_block recorder = {
	.notifier_call = recording_notifier,
	.priority = 100,
};

static int traps_init(struct ktest *t)
{
	memset(&seen, 0, sizeof(seen));
	return register_die_notifier(&recorder);
}

static void traps_exit(struct ktest *t)
{
	unregister_die_notifier(&recorder);
}

static void arm(bool claim)
{
	memset(&seen, 0, sizeof(seen));
	seen.claim = claim;
	seen.armed = true;
}

/* IF is set in the interrupted code but clear inside the handler. */
static void expect_if_cleared(struct ktest *t, const char *what)
{
	if (!(seen.regs_flags & X86_EFLAGS_IF))
		ktest_fail(t, __FILE__, __LINE__, "%s: IF was not set before the trap", what);
	if (seen.handler_flags & X86_EFLAGS_IF)
		ktest_fail(t, __FILE__, __LINE__, "%s: IF set inside the handler", what);
}

static void if_clear_in_gates(struct ktest *t)
{
	local_irq_enable();

	arm(true);
	raise_single_step();
	KTEST_EXPECT_EQ(t, seen.event, DIE_DEBUG);
	KTEST_EXPECT_EQ(t, seen.ip, (unsigned long)single_step_expected_ip);
	expect_if_cleared(t, "#DB");

	arm(true);
	raise_claimed_breakpoint();
	KTEST_EXPECT_EQ(t, seen.event, DIE_INT3);
	KTEST_EXPECT_EQ(t, seen.ip, (unsigned long)claimed_breakpoint_next_ip);
	expect_if_cleared(t, "#BP");

	arm(false);
	KTEST_EXPECT_EQ(t, raise_general_protection(), -1);
	KTEST_EXPECT_EQ(t, seen.event, DIE_GPF);
	expect_if_cleared(t, "#GP");

	arm(false);
	KTEST_EXPECT_EQ(t, raise_page_fault_read(NULL), -1);
	KTEST_EXPECT_EQ(t, seen.event, DIE_PAGE_FAULT);
	expect_if_cleared(t, "#PF");
}

/* ---- the trap frame entry.S builds ------------------------------------- */

/*
 * The frame of an exception raised by a raise_*_known_regs() routine:
 * do_trap() got the right vector, the error code (or entry.S's zero) is
 * in orig_ax, ip and cs are where the CPU left them, and every register
 * the routine loaded is in its slot.  A frame a word off fails them all.
 */
static void expect_known_frame(struct ktest *t, unsigned long vector,
			       unsigned long err, unsigned long ip)
{
	const struct pt_regs *r = &seen.regs;

	KTEST_EXPECT_EQ(t, seen.trapnr, vector);
	KTEST_EXPECT_EQ(t, r->orig_ax, err);
	KTEST_EXPECT_EQ(t, r->ip, ip);
	KTEST_EXPECT_EQ(t, r->cs, __KERNEL_CS);
	KTEST_EXPECT_TRUE(t, r->flags & X86_EFLAGS_IF);
	KTEST_EXPECT_EQ(t, seen.sp, known_regs_sp);
	KTEST_EXPECT_EQ(t, r->bp, known_regs_bp);
	KTEST_EXPECT_EQ(t, r->ax, KNOWN_EAX);
	KTEST_EXPECT_EQ(t, r->bx, KNOWN_EBX);
	KTEST_EXPECT_EQ(t, r->cx, KNOWN_ECX);
	KTEST_EXPECT_EQ(t, r->dx, KNOWN_EDX);
	KTEST_EXPECT_EQ(t, r->si, KNOWN_ESI);
	KTEST_EXPECT_EQ(t, r->di, KNOWN_EDI);
	KTEST_EXPECT_EQ(t, r->ds, __KERNEL_DS);
	KTEST_EXPECT_EQ(t, r->es, __KERNEL_DS);
}

/* Run one routine with IF set, under the recorder; it must take its fixup. */
static noinline void raise_recorded(struct ktest *t, int (*raise)(void), bool report)
{
	local_irq_enable();
	arm(false);
	seen.report = report;
	KTEST_EXPECT_EQ(t, raise(), -1);
	KTEST_EXPECT_FALSE(t, seen.armed);	/* the exception reached us */
}

/* #BP pushes no error code: the stub's zero stands in orig_ax. */
static void frame_breakpoint(struct ktest *t)
{
	raise_recorded(t, raise_breakpoint_known_regs, false);
	expect_known_frame(t, X86_TRAP_BP, 0, breakpoint_known_regs_ip);
}

/* #GP's error code is the selector it could not load. */
static void frame_general_protection(struct ktest *t)
{
	raise_recorded(t, raise_general_protection_known_regs, false);
	expect_known_frame(t, X86_TRAP_GP, BAD_SELECTOR,
			   general_protection_known_regs_ip);
}

/* #PF's error code says what the access was; CR2 says where. */
static void frame_page_fault(struct ktest *t)
{
	raise_recorded(t, raise_page_fault_known_regs, false);
	expect_known_frame(t, X86_TRAP_PF, PF_PROT | PF_WRITE,
			   page_fault_known_regs_ip);
	KTEST_EXPECT_EQ(t, seen.cr2, (unsigned long)known_regs_pf_target);
}

/* ---- the oops report ---------------------------------------------------- */

/*
 * The report __die() prints for the #PF of raise_page_fault_known_regs(),
 * captured: the recorder prints it from inside the exception, with the
 * real frame, and the fixup then carries on.
 */
static noinline const char *known_fault_oops(struct ktest *t)
{
	ktest_capture_start();
	raise_recorded(t, raise_page_fault_known_regs, true);
	ktest_capture_stop();
	return ktest_captured();
}

/* `want` must be in the report; say what was missing if it is not. */
static void expect_in_report(struct ktest *t, const char *report, const char *want)
{
	if (!strstr(report, want))
		ktest_fail(t, __FILE__, __LINE__, "the oops report lacks \"%s\"", want);
}

/* Every register as the interrupted code had it; ESP from &regs->sp. */
static void oops_register_dump(struct ktest *t)
{
	const char *report = known_fault_oops(t);
	char want[96];

	snprintf(want, sizeof(want), "EIP: %04x:%08lx [raise_page_fault_known_regs+",
		 __KERNEL_CS, page_fault_known_regs_ip);
	expect_in_report(t, report, want);
	expect_in_report(t, report, "(IF=1 TF=0)\n");
	snprintf(want, sizeof(want), "EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n",
		 KNOWN_EAX, KNOWN_EBX, KNOWN_ECX, KNOWN_EDX);
	expect_in_report(t, report, want);
	snprintf(want, sizeof(want), "ESI: %08x EDI: %08x EBP: %08lx ESP: %08lx\n",
		 KNOWN_ESI, KNOWN_EDI, known_regs_bp, known_regs_sp);
	expect_in_report(t, report, want);
}

static int raise_page_fault_null_read(void)
{
	return raise_page_fault_read(NULL);
}

/* The #PF error code decoded, CR2 beside it: a write, then a read. */
static void oops_page_fault_decode(struct ktest *t)
{
	const char *report = known_fault_oops(t);
	char want[128];

	snprintf(want, sizeof(want), "Oops: page fault [vector %d] error code %08x\n"
		 "CR2: %08lx (protection violation, write access, kernel mode)\n",
		 X86_TRAP_PF, PF_PROT | PF_WRITE, (unsigned long)known_regs_pf_target);
	expect_in_report(t, report, want);

	ktest_capture_start();
	raise_recorded(t, raise_page_fault_null_read, true);
	ktest_capture_stop();
	expect_in_report(t, ktest_captured(), "error code 00000000\n"
			 "CR2: 00000000 (page not present, read access, kernel mode)\n");
}

/*
 * The trace starts at the faulting instruction itself, then goes on to
 * the caller of the function that faulted (raise_recorded()).
 */
static void oops_call_trace(struct ktest *t)
{
	const char *report = known_fault_oops(t);
	const char *first, *second;
	char want[96], line[96];

	snprintf(want, sizeof(want), "Call Trace:\n [<%08lx>] raise_page_fault_known_regs+",
		 page_fault_known_regs_ip);
	first = strstr(report, want);
	if (!first) {
		ktest_fail(t, __FILE__, __LINE__, "the oops report lacks \"%s\"", want);
		return;
	}
	second = strchr(first + strlen("Call Trace:\n"), '\n');
	KTEST_ASSERT_TRUE(t, second != NULL);
	snprintf(line, sizeof(line), "%s", second + 1);
	if (strchr(line, '\n'))
		*strchr(line, '\n') = '\0';
	if (strncmp(line, " [<", strlen(" [<")) || !strstr(line, "] raise_recorded+"))
		ktest_fail(t, __FILE__, __LINE__,
			   "the trace's second line is \"%s\", want raise_recorded()", line);
}

/* ---- each exception class through the fixup table --------------------- */

/*
 * Run one raise_*() function under a trap watch: it must return the
 * fixup's -1, and exactly one exception, the expected one, must have
 * reached the fixup table.
 */
static void expect_fixup(struct ktest *t, int (*raise)(void), unsigned long vector,
			 unsigned long err, struct trap_watch *w)
{
	KTEST_ASSERT_EQ(t, trap_watch_start(w), 0);
	KTEST_EXPECT_EQ(t, raise(), -1);
	trap_watch_stop(w);
	KTEST_EXPECT_EQ(t, w->unclaimed, 1);
	KTEST_EXPECT_EQ(t, w->last_unclaimed.vector, vector);
	KTEST_EXPECT_EQ(t, w->last_unclaimed.error_code, err);
}

static void divide_error_fixup(struct ktest *t)
{
	struct trap_watch w;

	expect_fixup(t, raise_divide_error, X86_TRAP_DE, 0, &w);
	KTEST_EXPECT_EQ(t, w.taken[X86_TRAP_DE], 1);
	KTEST_EXPECT_EQ(t, trap_watch_total(&w), 1);
}

static void invalid_opcode_fixup(struct ktest *t)
{
	struct trap_watch w;

	expect_fixup(t, raise_invalid_opcode, X86_TRAP_UD, 0, &w);
}

/* No probe claims this int3, so kprobes must pass it on to the fixup. */
static void breakpoint_fixup(struct ktest *t)
{
	struct trap_watch w;

	expect_fixup(t, raise_breakpoint, X86_TRAP_BP, 0, &w);
}

static void general_protection_fixup(struct ktest *t)
{
	struct trap_watch w;

	expect_fixup(t, raise_general_protection, X86_TRAP_GP, BAD_SELECTOR, &w);
}

static void page_fault_null_read(struct ktest *t)
{
	struct trap_watch w;

	expect_fixup(t, raise_page_fault_null_read, X86_TRAP_PF, 0, &w);
	KTEST_EXPECT_EQ(t, w.last_unclaimed.cr2, 0);
}

static int raise_page_fault_text_write(void)
{
	return raise_page_fault_write((void *)raise_divide_error);
}

static void page_fault_text_write(struct ktest *t)
{
	struct trap_watch w;

	expect_fixup(t, raise_page_fault_text_write, X86_TRAP_PF,
		     PF_PROT | PF_WRITE, &w);
	KTEST_EXPECT_EQ(t, w.last_unclaimed.cr2, (unsigned long)raise_divide_error);
}

/* ---- fault-safe copies ------------------------------------------------ */

static void safe_copies(struct ktest *t)
{
	unsigned long word = 0x12345678, out = 0;
	char code[4];

	KTEST_EXPECT_EQ(t, copy_from_kernel_nofault(&out, &word, sizeof(out)), 0);
	KTEST_EXPECT_EQ(t, out, 0x12345678);
	KTEST_EXPECT_EQ(t, copy_from_kernel_nofault(&out, NULL, sizeof(out)), -EFAULT);
	/* Reading code is fine; writing it through the normal map is not. */
	KTEST_EXPECT_EQ(t, copy_from_kernel_nofault(code, _text, sizeof(code)), 0);
	KTEST_EXPECT_EQ(t, copy_to_kernel_nofault(_text, code, sizeof(code)), -EFAULT);
	KTEST_EXPECT_EQ(t, memcmp(code, _text, sizeof(code)), 0);
}

/* ---- the notifier chain ------------------------------------------------ */

static int order_log[4], order_n;

static int log_a(struct notifier_block *nb, unsigned long v, void *d)
{
	order_log[order_n++] = 1;
	return NOTIFY_DONE;
}

static int log_b(struct notifier_block *nb, unsigned long v, void *d)
{
	order_log[order_n++] = 2;
	return NOTIFY_STOP;
}

static void notifier_chain_order(struct ktest *t)
{
	struct notifier_block a = { .notifier_call = log_a, .priority = 50 };
	struct notifier_block b = { .notifier_call = log_b, .priority = 60 };
	struct pt_regs regs = { 0 };

	unregister_die_notifier(&recorder);
	KTEST_EXPECT_EQ(t, register_die_notifier(&a), 0);
	KTEST_EXPECT_EQ(t, register_die_notifier(&b), 0);
	KTEST_EXPECT_EQ(t, register_die_notifier(&b), -EEXIST);
	order_n = 0;
	/*
	 * b has the higher priority, runs first, and stops the chain.  The
	 * event is DIE_TRAP with no probe running, which kprobes passes on
	 * (DIE_OOPS would be the test runner's cue to fail the run).
	 */
	KTEST_EXPECT_EQ(t, notify_die(DIE_TRAP, "test", &regs, 0, 0), NOTIFY_STOP);
	KTEST_EXPECT_EQ(t, order_n, 1);
	KTEST_EXPECT_EQ(t, order_log[0], 2);
	KTEST_EXPECT_EQ(t, unregister_die_notifier(&b), 0);
	order_n = 0;
	KTEST_EXPECT_EQ(t, notify_die(DIE_TRAP, "test", &regs, 0, 0), NOTIFY_DONE);
	KTEST_EXPECT_EQ(t, order_n, 1);
	KTEST_EXPECT_EQ(t, order_log[0], 1);
	KTEST_EXPECT_EQ(t, unregister_die_notifier(&a), 0);
	KTEST_EXPECT_EQ(t, unregister_die_notifier(&a), -ENOENT);
}

/* ---- symbols and backtraces ---------------------------------------------- */

static noinline int trace_leaf(unsigned long *out, int max)
{
	unsigned long bp;

	__asm__ __volatile__("movl %%ebp, %0" : "=r"(bp));
	return save_stack_trace_bp(bp, out, max);
}

static noinline int trace_middle(unsigned long *out, int max)
{
	return trace_leaf(out, max) + 0;
}

static void symbols_and_backtrace(struct ktest *t)
{
	unsigned long addr = kallsyms_lookup_name("trace_middle");
	unsigned long size = 0, off = 0, trace[8];
	const char *name;
	char buf[64];
	int n;

	KTEST_EXPECT_EQ(t, addr, (unsigned long)trace_middle);
	name = kallsyms_lookup(addr + 3, &size, &off);
	KTEST_EXPECT_STREQ(t, name, "trace_middle");
	KTEST_EXPECT_EQ(t, off, 3);
	KTEST_EXPECT_TRUE(t, size > 3);
	KTEST_EXPECT_EQ(t, kallsyms_lookup_name("no_such_symbol_anywhere"), 0);
	snprintf(buf, sizeof(buf), "trace_middle+0x3/%#lx", size);
	sprint_symbol(buf + 32, 32, addr + 3);
	KTEST_EXPECT_STREQ(t, buf + 32, buf);

	/* The first return address is inside trace_middle, the next in us. */
	n = trace_middle(trace, 8);
	KTEST_ASSERT_TRUE(t, n >= 2);
	KTEST_EXPECT_STREQ(t, kallsyms_lookup(trace[0], NULL, NULL), "trace_middle");
	KTEST_EXPECT_STREQ(t, kallsyms_lookup(trace[1], NULL, NULL), "symbols_and_backtrace");
}

/* ---- the kernel's own printf --------------------------------------------- */

static void printk_formats(struct ktest *t)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%d %i %u %x %X %c %s %%", -42, 7, 3000000000u,
		 0xbeef, 0xbeef, 'k', "str");
	KTEST_EXPECT_STREQ(t, buf, "-42 7 3000000000 beef BEEF k str %");
	snprintf(buf, sizeof(buf), "[%5d|%-5d|%05d|%08x]", 42, 42, 42, 0xabc);
	KTEST_EXPECT_STREQ(t, buf, "[   42|42   |00042|00000abc]");
	/* 64-bit division is the kernel's own on i386 (lib/div64.c): check it. */
	snprintf(buf, sizeof(buf), "%llu %lld %llx", 18446744073709551615ULL,
		 -9223372036854775807LL - 1, 0x123456789abcdefULL);
	KTEST_EXPECT_STREQ(t, buf, "18446744073709551615 -9223372036854775808 123456789abcdef");
	snprintf(buf, sizeof(buf), "%p %lu", (void *)0x1000, 123456UL);
	KTEST_EXPECT_STREQ(t, buf, "0x00001000 123456");
	KTEST_EXPECT_EQ(t, snprintf(buf, 4, "abcdef"), 6);
	KTEST_EXPECT_STREQ(t, buf, "abc");
}

static struct ktest_case traps_cases[] = {
	KTEST_CASE(idt_gate_types),
	KTEST_CASE(if_clear_in_gates),
	KTEST_CASE(frame_breakpoint),
	KTEST_CASE(frame_general_protection),
	KTEST_CASE(frame_page_fault),
	KTEST_CASE(oops_register_dump),
	KTEST_CASE(oops_page_fault_decode),
	KTEST_CASE(oops_call_trace),
	KTEST_CASE(divide_error_fixup),
	KTEST_CASE(invalid_opcode_fixup),
	KTEST_CASE(breakpoint_fixup),
	KTEST_CASE(general_protection_fixup),
	KTEST_CASE(page_fault_null_read),
	KTEST_CASE(page_fault_text_write),
	KTEST_CASE(safe_copies),
	KTEST_CASE(notifier_chain_order),
	KTEST_CASE(symbols_and_backtrace),
	KTEST_CASE(printk_formats),
	KTEST_END,
};

static struct ktest_suite traps_suite = {
	.name = "traps",
	.cases = traps_cases,
	.init = traps_init,
	.exit = traps_exit,
};
KTEST_SUITE(traps_suite);
