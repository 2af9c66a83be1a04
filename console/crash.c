/*
 * crash.c - "crash=WHAT" on the command line makes the kernel commit one
 * deliberate mistake, so a student can watch the CPU and the kernel react:
 *
 *   crash=null    read through a NULL pointer         (#PF, CR2 = 0)
 *   crash=text    write to read-only kernel code      (#PF, error code 3)
 *   crash=ud2     execute an invalid opcode           (#UD)
 *   crash=div0    divide by zero                      (#DE)
 *   crash=int3    a breakpoint no one claims          (#BP)
 *   crash=gp      load a selector past the GDT limit  (#GP, selector error code)
 *   crash=intn    int $0x81: an IDT entry with no gate (#GP, error code names the IDT)
 *   crash=np      load DS with a not-present segment  (#NP, selector error code)
 *   crash=ss      load SS with a not-present segment  (#SS, selector error code)
 *   crash=ts      iret to a "task" that is no TSS     (#TS, selector error code)
 *   crash=stack   a thread recursing off its stack    (#DF task: thread killed, kernel lives)
 *   crash=triple  an IDT with no entries at all       (triple fault: the CPU resets)
 *   crash=smp     NULL read on CPU 1 while CPU 0 spins (oops names CPU 1, NMI shows CPU 0)
 *
 * The first ten, and smp, have no exception-table entry, so each ends in die()
 * and its oops report.  "panic_exit" on the command line then leaves
 * QEMU (the tests and `make run` add it); without it the CPU halts.
 * A non-maskable interrupt is the one event here that is not a mistake:
 * send one from the QEMU monitor (Ctrl-A C, "nmi", Ctrl-A C) and the
 * kernel reports it and carries on (arch/i386/nmi.c).
 */
#include "kernel.h"
#include <asm/desc.h>
#include <asm/segment.h>
#include <asm/processor.h>
#include "sched.h"
#include <asm/irqflags.h>
#include "string.h"
#include "errno.h"
#include "smp.h"
#include "shell.h"

static volatile int zero;   /* volatile: the compiler must not fold it */

static noinline void crash_null(void)
{
	printk("crash: reading *(int *)NULL = %d\n", *(volatile int *)(unsigned long)zero);
}

static noinline void crash_text(void)
{
	*(volatile unsigned char *)crash_null = 0x90;
}

static noinline void crash_ud2(void)
{
	/* The mistake itself: ud2, the opcode defined to be invalid. */
	__asm__ __volatile__("ud2");
}

/*
 * In C, 1 / x may legally compile to a compare (the answer is 0 unless x
 * is 1 or -1), so the division is written as the instruction itself.
 */
static noinline void crash_div0(void)
{
	unsigned int q = 1, r = 0, d = zero;

	/* The mistake itself: divl by zero (C leaves x / 0 undefined, not a #DE). */
	__asm__ __volatile__("divl %2" : "+a"(q), "+d"(r) : "r"(d));
	printk("crash: 1 / 0 = %u\n", q);
}

static noinline void crash_int3(void)
{
	/* The mistake itself: a breakpoint no kprobe owns. */
	__asm__ __volatile__("int3");
}

/* The GDT has GDT_ENTRIES descriptors: index GDT_ENTRIES is past its limit. */
#define SELECTOR_PAST_GDT (GDT_ENTRIES * 8)

static noinline void crash_gp(void)
{
	/* The mistake itself: FS loaded with a selector past the GDT's limit. */
	__asm__ __volatile__("movw %w0, %%fs" : : "r"(SELECTOR_PAST_GDT));
}

/*
 * Only vectors 0-47, the local APIC's and the system call's (0x80) have
 * gates (arch/i386/idt.c); the rest are empty descriptors.  "int n"
 * through one is a #GP whose error code is n * 8 with the IDT bit set:
 * the descriptor at fault is an IDT entry.
 */
#define UNUSED_VECTOR 0x81

static noinline void crash_intn(void)
{
	/* The mistake itself: int n to a vector with no gate. */
	__asm__ __volatile__("int %0" : : "i"(UNUSED_VECTOR));
}

/*
 * A descriptor that is valid but marked not present (an OS would have
 * swapped the segment out) is a #NP when loaded into DS, ES, FS or GS.
 * GDT_ENTRY_NOT_PRESENT is kept for exactly this and crash=ss.
 */
static noinline void crash_np(void)
{
	/* The mistake itself: DS loaded with a descriptor marked not present. */
	__asm__ __volatile__("movw %w0, %%ds" : : "r"(__NOT_PRESENT_SEL));
}

/*
 * Loading SS is checked harder than DS: a not-present stack segment is
 * a stack fault (#SS), not #NP, so the handler knows the stack is the
 * problem.
 */
static noinline void crash_ss(void)
{
	/* The mistake itself: SS loaded with a descriptor marked not present. */
	__asm__ __volatile__("movw %w0, %%ss" : : "r"(__NOT_PRESENT_SEL));
}

/*
 * With EFLAGS.NT set, iret is not a return from an interrupt but a
 * return to the task named by the current TSS's back link (a hardware
 * task switch).  Pointing the back link at the kernel data segment,
 * which is no TSS, makes the switch fail with #TS naming that selector.
 */
static noinline void crash_ts(void)
{
	this_cpu_tss()->prev_task = __KERNEL_DS;
	/* The mistake itself: iret with EFLAGS.NT set, a "task return" to no TSS. */
	__asm__ __volatile__("pushfl\n\t"
			     "orl %0, (%%esp)\n\t"
			     "popfl\n\t"
			     "iret" : : "i"(X86_EFLAGS_NT) : "memory", "cc");
}

/* Each level keeps 64 bytes live on the stack, so it cannot be a loop. */
static noinline int recurse_forever(int depth)
{
	volatile char pad[64];

	pad[0] = (char)depth;
	if (depth < 0)
		return 0;	/* never: only here so GCC sees a way out */
	return recurse_forever(depth + 1) + pad[0];
}

/* A thread body that overflows its stack (also used by the sched tests). */
int crash_stack_hog(void *arg)
{
	return recurse_forever(0);
}

/*
 * The overflow happens in a thread of its own: its stack has a guard
 * page below it, the #PF cannot be pushed, the #DF task gate switches
 * to a good stack, and arch/i386/doublefault.c kills only that thread.
 * On CPU 0, so that the report (which names the CPU's TSS) reads the
 * same however many CPUs there are.
 */
static noinline void crash_stack(void)
{
	struct task_struct *t = kthread_create_on_cpu(crash_stack_hog, NULL, 0, "stack-hog");
	int ret;

	if (!t) {
		printk("crash: could not start the thread\n");
		return;
	}
	ret = kthread_join(t);

	printk("crash: thread 'stack-hog' ended with %d (%s); the kernel carries on\n",
	       ret, errno_name(ret));
}

/*
 * An IDT limit of 0 leaves no gate at all.  The int3 cannot be
 * delivered (#GP), nor can that #GP (#DF), nor the #DF: a fault while
 * delivering a double fault is a triple fault, and the CPU shuts down.
 * Nothing can print afterwards, so the explanation comes first.
 */
static noinline void crash_triple(void)
{
	struct desc_ptr no_idt = { 0, 0 };

	printk("crash: loading an empty IDT, then int3:\n"
	       "  #BP has no gate -> #GP; #GP has no gate -> #DF (double fault);\n"
	       "  #DF has no gate -> triple fault: the CPU shuts down, the board resets.\n"
	       "  QEMU with -no-reboot exits (status 0); add -d int,cpu_reset to watch.\n");
	local_irq_disable();
	idt_load(&no_idt);
	/* The mistake itself: an exception with no gate, nor one for its #DF. */
	__asm__ __volatile__("int3");
}

/*
 * crash=smp: CPU 1 reads through NULL inside an IPI handler while CPU 0
 * spins in crash_smp_spin().  The oops names CPU 1; stopping CPU 0 with
 * an NMI shows where it was (arch/i386/nmi_backtrace.c).
 */
static void crash_smp_victim(void *info)
{
	crash_null();
}

static noinline void crash_smp_spin(volatile bool *forever)
{
	while (*forever)
		cpu_relax();
}

static noinline void crash_smp(void)
{
	volatile bool forever = true;

	if (num_online_cpus() < 2) {
		printk("crash: 'smp' needs a second CPU (make run SMP=2)\n");
		return;
	}
	smp_call_function_single(1, crash_smp_victim, NULL, 0);
	crash_smp_spin(&forever);
}

static const struct crash_mode {
	const char *name;
	void (*fn)(void);
	bool survivable;	/* the kernel is meant to live through it */
} crashes[] = {
	{ "null",   crash_null, false },
	{ "text",   crash_text, false },
	{ "ud2",    crash_ud2, false },
	{ "div0",   crash_div0, false },
	{ "int3",   crash_int3, false },
	{ "gp",     crash_gp, false },
	{ "intn",   crash_intn, false },
	{ "np",     crash_np, false },
	{ "ss",     crash_ss, false },
	{ "ts",     crash_ts, false },
	{ "stack",  crash_stack, true },
	{ "triple", crash_triple, false },
	{ "smp",    crash_smp, false },
};

const char *crash_mode_name(size_t i)
{
	return i < ARRAY_SIZE(crashes) ? crashes[i].name : NULL;
}

/* crash=WHAT: a boot mode (include/kernel.h), run by kmain before the shell. */
static void crash_run(const char *what)
{
	size_t i;

	if (!what)
		what = "";	/* "crash" alone: list the modes */
	for (i = 0; i < ARRAY_SIZE(crashes); i++) {
		if (strcmp(crashes[i].name, what) == 0) {
			printk("crash: doing '%s' on purpose\n", what);
			crashes[i].fn();
			if (!crashes[i].survivable)
				printk("crash: '%s' did not fault?!\n", what);
			return;
		}
	}
	printk("crash: unknown '%s'; the modes are:", what);
	for (i = 0; i < ARRAY_SIZE(crashes); i++)
		printk(" %s", crashes[i].name);
	printk("\n");
}
DEFINE_BOOT_MODE("crash", crash_run);
