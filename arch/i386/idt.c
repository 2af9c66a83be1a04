/*
 * idt.c - the Interrupt Descriptor Table: which code runs for each vector.
 *
 * Every gate points at a stub in entry.S.  The gate TYPE is the lesson:
 *
 *  - An interrupt gate clears EFLAGS.IF on entry, so no hardware
 *    interrupt can arrive before the handler has done its work.
 *  - A trap gate leaves IF as it was.
 *  - A task gate switches to another TSS (and so another stack).
 *
 * kprobes needs #BP (int3) and #DB (single-step) to be interrupt gates:
 * a probe hit is a multi-step dance (int3 -> handlers -> single-step ->
 * #DB) whose state lives in one per-CPU control block.  If a timer
 * interrupt could slip in between the int3 and the single-step, its
 * handler could hit another probe and overwrite that state - 2.6.11's
 * "recursing probe".  #GP and #PF are interrupt gates too, because a
 * fault while a probe handler runs or while the copied instruction is
 * stepped must reach kprobes before anything else can run (and #PF must
 * read CR2 before another fault can overwrite it).
 *
 * The IRQ vectors are interrupt gates so a device handler runs to
 * completion before the next interrupt.  #DF starts out as an interrupt
 * gate; the thread code replaces it with a task gate (doublefault.c).
 */
#include "kernel.h"
#include <asm/desc.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include <asm/irq_vectors.h>

static struct gate_desc idt[NR_VECTORS] __aligned(8);
static struct desc_ptr idtr;	/* one IDT, shared by every CPU */

extern const unsigned long vector_entries[NR_EXCEPTIONS + NR_PIC_IRQS];
extern const struct { unsigned long vector, entry; } apic_vector_entries[NR_APIC_VECTORS];
extern char entry_INT80_32[];	/* entry.S: the system call's stub */

static void set_gate(int vector, int type, unsigned long handler, uint16_t sel)
{
	struct gate_desc *g = &idt[vector];

	g->offset_low = handler & 0xFFFF;
	g->offset_high = (handler >> 16) & 0xFFFF;
	g->selector = sel;
	g->zero = 0;
	g->type_attr = GATE_PRESENT | type;   /* DPL 0: no ring-3 "int N" */
}

/*
 * The system call gate: DPL 3, so "int $0x80" is allowed from ring 3
 * (through a DPL-0 gate it would be a #GP).  A trap gate, as Linux 2.6's
 * set_system_gate(SYSCALL_VECTOR, ...): IF stays as ring 3 had it (on),
 * so a long system call can be interrupted and preempted like any
 * kernel code, and nothing on the way in needs IF clear - the CPU has
 * already switched to TSS.esp0's stack before the first instruction of
 * the stub.  (Linux 4.x moved to an interrupt gate, for bookkeeping its
 * entry code does before it turns interrupts on; we have none.)
 */
static void set_system_trap_gate(int vector, unsigned long handler)
{
	set_gate(vector, GATE_TRAP, handler, __KERNEL_CS);
	idt[vector].type_attr |= GATE_DPL_USER;
}

void set_task_gate(int vector, unsigned short tss_selector)
{
	set_gate(vector, GATE_TASK, 0, tss_selector);
}

/* The exceptions that must not let an interrupt in; see the top comment. */
static int wants_interrupt_gate(int vector)
{
	/* LAB 1: BEGIN which exceptions get an interrupt gate */
	switch (vector) {
	case X86_TRAP_DB:
	case X86_TRAP_NMI:
	case X86_TRAP_BP:
	case X86_TRAP_DF:
	case X86_TRAP_GP:
	case X86_TRAP_PF:
	case X86_TRAP_MC:
		return 1;
	default:
		return 0;
	}
	/* LAB 1: STUB return 0; */
	/* LAB 1: END */
}

void idt_init(void)
{
	int v;

	for (v = 0; v < NR_EXCEPTIONS; v++)
		set_gate(v, wants_interrupt_gate(v) ? GATE_INTERRUPT : GATE_TRAP,
			 vector_entries[v], __KERNEL_CS);
	for (v = IRQ_BASE_VECTOR; v < IRQ_BASE_VECTOR + NR_PIC_IRQS; v++)
		set_gate(v, GATE_INTERRUPT, vector_entries[v], __KERNEL_CS);
	/* The local APIC's timer and IPIs (arch/i386/include/asm/irq_vectors.h). */
	for (v = 0; v < NR_APIC_VECTORS; v++)
		set_gate(apic_vector_entries[v].vector, GATE_INTERRUPT,
			 apic_vector_entries[v].entry, __KERNEL_CS);
	set_system_trap_gate(IA32_SYSCALL_VECTOR, (unsigned long)entry_INT80_32);
	/*
	 * int3 (and into) are instructions a program executes on purpose
	 * - a debugger's breakpoint - so their gates are DPL 3 too, as in
	 * Linux; through a DPL-0 gate ring 3's int3 would be a #GP.  The
	 * gate stays an interrupt gate: kprobes needs that (above), and
	 * declines a ring-3 int3 (user_mode(regs)).
	 */
	idt[X86_TRAP_BP].type_attr |= GATE_DPL_USER;
	idt[X86_TRAP_OF].type_attr |= GATE_DPL_USER;
	/*
	 * The other vectors stay empty: "int $0x81" here raises #GP with an
	 * error code naming the IDT entry, which the oops decodes
	 * (crash=intn).  A gate of a valid type marked not present would
	 * raise #NP instead; the type is checked first.
	 */
	idtr.size = sizeof(idt) - 1;
	idtr.address = (uint32_t)idt;
	idt_load(&idtr);
}

/* An AP loads the table CPU 0 built: every CPU takes the same gates. */
void load_current_idt(void)
{
	idt_load(&idtr);
}

struct gate_desc *idt_entry(int vector)
{
	return &idt[vector];
}

unsigned long gate_offset(const struct gate_desc *g)
{
	return ((unsigned long)g->offset_high << 16) | g->offset_low;
}

const char *gate_type_name(int type)
{
	switch (type) {
	case GATE_TASK:      return "task";
	case GATE_INTERRUPT: return "interrupt";
	case GATE_TRAP:      return "trap";
	default:             return "?";
	}
}
