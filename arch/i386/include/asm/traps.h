/*
 * traps.h - interrupt vector numbers and the trap dispatcher's interface.
 *
 * Vectors 0-31 are reserved by Intel for exceptions.  We remap the two
 * 8259 PICs to 32-47 so hardware IRQs never collide with an exception.
 */
#ifndef TRAPS_H
#define TRAPS_H

#include <asm/ptrace.h>
#include <asm/percpu.h>

enum {
	X86_TRAP_DE = 0,   /* divide error */
	X86_TRAP_DB = 1,   /* debug (single-step, hw breakpoints) */
	X86_TRAP_NMI = 2,
	X86_TRAP_BP = 3,   /* breakpoint: int3 */
	X86_TRAP_OF = 4,   /* overflow: into */
	X86_TRAP_BR = 5,   /* bound range exceeded */
	X86_TRAP_UD = 6,   /* invalid opcode */
	X86_TRAP_NM = 7,   /* device not available */
	X86_TRAP_DF = 8,   /* double fault */
	X86_TRAP_OLD_MF = 9,
	X86_TRAP_TS = 10,  /* invalid TSS */
	X86_TRAP_NP = 11,  /* segment not present */
	X86_TRAP_SS = 12,  /* stack-segment fault */
	X86_TRAP_GP = 13,  /* general protection */
	X86_TRAP_PF = 14,  /* page fault */
	X86_TRAP_SPURIOUS = 15,
	X86_TRAP_MF = 16,  /* x87 floating point */
	X86_TRAP_AC = 17,  /* alignment check */
	X86_TRAP_MC = 18,  /* machine check */
	X86_TRAP_XF = 19,  /* SIMD floating point */
	NR_EXCEPTIONS = 32,
};

#define IRQ_BASE_VECTOR   32      /* PIC IRQ 0 arrives on this vector */
#define NR_PIC_IRQS       16
#define IRQ_VECTOR(irq)   (IRQ_BASE_VECTOR + (irq))
#define NR_VECTORS        256

/* Page-fault error code bits (SDM vol. 3, 4.7) */
#define PF_PROT   0x1   /* 0: page not present, 1: protection violation */
#define PF_WRITE  0x2   /* 0: read, 1: write */
#define PF_USER   0x4   /* 0: supervisor, 1: user mode */
#define PF_INSTR  0x10  /* instruction fetch */

/* Called by the assembly entry path for every vector but #DB and #BP. */
void do_trap(struct pt_regs *regs, unsigned long vector);
/*
 * #BP and #DB: their entry stubs call these directly (entry.S).
 * exc_int3() returns the interrupted code's new stack pointer when a
 * handler emulated a push or a pop (below), else 0.
 */
unsigned long exc_int3(struct pt_regs *regs);
void exc_debug(struct pt_regs *regs);

/*
 * For a #BP handler that emulates an instruction (kprobes): push a word
 * on the interrupted stack, or pop one (and drop `drop` more bytes, for
 * "ret imm16").  The stack pointer moves when the #BP returns; handlers
 * see kernel_stack_pointer(regs) as it was at the int3.
 */
void int3_emulate_push(struct pt_regs *regs, unsigned long val);
unsigned long int3_emulate_pop(struct pt_regs *regs, unsigned long drop);

const char *trap_name(unsigned long vector);

/* Exceptions taken on each CPU, by vector (tests and the benchmark read them). */
DECLARE_PER_CPU(unsigned long[NR_EXCEPTIONS], exception_count);

/* A non-maskable interrupt: reported, never an oops (arch/i386/nmi.c). */
void do_nmi(struct pt_regs *regs);

/* The oops report for an exception nobody handled (__die); die() then stops. */
void __die(const char *msg, struct pt_regs *regs, unsigned long vector);
void die(const char *msg, struct pt_regs *regs, unsigned long vector) __attribute__((noreturn));

/* Interrupt handlers for the 16 PIC lines. */
typedef void (*irq_handler_t)(struct pt_regs *regs);
void request_irq(int irq, irq_handler_t handler);

#endif
