/*
 * smpboot.c - waking the other CPUs (Linux's arch/x86/kernel/smpboot.c).
 *
 * At power-on every CPU but one (the bootstrap processor, BSP, which
 * ran the BIOS and then us) sits halted, "waiting for SIPI".  Each of
 * these application processors (APs) is woken the way Intel's MP
 * initialization protocol prescribes (SDM vol. 3, 8.4.4):
 *
 *   INIT IPI        reset the AP (it may have been used by the BIOS);
 *   wait 10 ms
 *   STARTUP IPI     "start in real mode at page V": our trampoline;
 *   wait 200 us
 *   STARTUP IPI     again: the first may be lost on some chipsets.
 *
 * One AP at a time (do_boot_cpu): the BSP prepares what the AP will
 * need - its per-CPU area (percpu.c), its GDT with its own TSS and
 * per-CPU segment (gdt.c), a stack - sends the IPIs and waits for the
 * AP to set its bit in cpu_callin_mask.  An AP that does not answer
 * within CALLIN_TIMEOUT_MS is reported, sent back to sleep with another
 * INIT, and left out: the kernel goes on with the others.
 *
 * The AP's path to C, step by step: trampoline.S (real mode ->
 * protected mode -> startup_32_smp: paging on, its stack) and then
 * start_secondary() below: its GDT and %fs, the shared IDT, its #DF
 * task, its local APIC and timer; it reports in and joins the scheduler
 * (cpu_startup_entry()).
 */
#include <asm/fpu.h>
#include <asm/sysenter.h>
#include "kernel.h"
#include "smp.h"
#include <asm/smpboot.h>
#include <asm/mpspec.h>
#include <asm/apic.h>
#include <asm/segment.h>
#include <asm/desc.h>
#include "sched.h"
#include "mm.h"
#include "ktime.h"
#include "string.h"
#include "errno.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include <asm/atomic.h>
#include "vsprintf.h"
#include "nokprobe.h"

#define AP_STACK_PAGES		2	/* start_secondary(), until its idle task's stack */
#define INIT_DEASSERT_DELAY_US	10000	/* SDM: 10 ms after INIT */
#define STARTUP_DELAY_US	200	/* SDM: 200 us between the SIPIs */
#define NR_STARTUP_IPIS		2
#define CALLIN_TIMEOUT_MS	2000	/* generous: vCPUs share host cores */

extern char trampoline_start[], trampoline_end[];

int cpu_apic_id[NR_CPUS];			/* Linux's x86_cpu_to_apicid */
unsigned long initial_stack, initial_page_table;
static volatile int booting_cpu;		/* the number the AP takes */
static volatile unsigned long cpu_callin_mask;	/* set by each AP */
static unsigned long cpu_stack[NR_CPUS];	/* each AP's stack (base) */

struct cpu_table madt_cpus, mptable_cpus;
const struct cpu_table *boot_cpu_table;

/* ---- finding the CPUs ----------------------------------------------------- */

static void print_cpu_table(const struct cpu_table *t, int err)
{
	if (err) {
		printk("smp: no %s\n", t->source);
		return;
	}
	printk("smp: %s lists %d CPU%s, APIC ids", t->source, t->count,
	       t->count == 1 ? "" : "s");
	for (int i = 0; i < t->count && i < NR_CPUS; i++)
		printk(KERN_CONT " %d", t->apicid[i]);
	printk(KERN_CONT "; local APIC at %#lx\n", t->lapic_addr);
}

/*
 * Which table the CPUs come from, and why the other may count fewer.
 * The MP spec (1997) predates multi-core chips, and a BIOS may write
 * one processor entry per package there: SeaBIOS does, and QEMU's
 * "-smp 2" is one package of two cores, so its MP table lists CPU 0
 * alone while the MADT QEMU builds lists both.
 */
static void print_cpu_table_choice(void)
{
	const char *why = boot_cpu_table == &madt_cpus ? "acpi=off: the MP table" :
			  cmdline_has("acpi=off") ? "acpi=off" : "no MADT";

	printk("smp: using the %s (%s)\n", boot_cpu_table->source, why);
	if (mptable_cpus.count && mptable_cpus.count < madt_cpus.count)
		printk("smp: the MP table lists fewer: a BIOS may put one CPU per "
		       "package there (SeaBIOS does)\n");
}

/*
 * Read both tables (the MP table is cheap, and the tests compare the
 * two); use the MADT unless acpi=off, then the MP table.
 */
void detect_cpus(void)
{
	bool acpi_off = cmdline_has("acpi=off");
	int madt_err = acpi_off ? -ENODEV : acpi_parse_madt(&madt_cpus);
	int mp_err = mp_parse_table(&mptable_cpus);

	if (acpi_off)
		printk("smp: ACPI MADT not read (acpi=off)\n");
	else
		print_cpu_table(&madt_cpus, madt_err);
	print_cpu_table(&mptable_cpus, mp_err);
	if (!madt_err && madt_cpus.count)
		boot_cpu_table = &madt_cpus;
	else if (!mp_err && mptable_cpus.count)
		boot_cpu_table = &mptable_cpus;
	if (!boot_cpu_table)
		return;
	print_cpu_table_choice();
	lapic_present = true;
	mp_lapic_addr = boot_cpu_table->lapic_addr;
}

/* ---- the AP's side ---------------------------------------------------------- */

/* The AP's first C, on its own stack, with paging on (trampoline.S). */
void start_secondary(void)
{
	int cpu = booting_cpu;

	load_cpu_gdt(cpu);	/* from here smp_processor_id() == cpu */
	load_current_idt();
	fpu_init_cpu();		/* x87 and SSE usable by processes */
	enable_sep_cpu();	/* this CPU's sysenter MSRs */
	doublefault_init();	/* this CPU's #DF task */
	setup_local_APIC();
	setup_APIC_timer();
	smp_mb();		/* everything above before the BSP sees us */
	__asm__ __volatile__("lock btsl %1, %0"
			     : "+m" (cpu_callin_mask) : "r" (cpu) : "memory");
	cpu_startup_entry();	/* kernel/sched.c: run threads, idle in between */
}

/* ---- the BSP's side --------------------------------------------------------- */

/* The time us microseconds from now (interrupts are on: the PIT ticks). */
static ktime_t deadline_us(unsigned long us)
{
	return ktime_add(ktime_get(), ns_to_ktime((uint64_t)us * NSEC_PER_USEC));
}

static void udelay(unsigned long us)
{
	ktime_t end = deadline_us(us);

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

/* INIT, level-triggered: assert, then de-assert (the 82489DX needs both). */
static void send_init(int apicid)
{
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
	udelay(INIT_DEASSERT_DELAY_US);
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
	apic_wait_icr_idle();
}

/* The universal start-up algorithm (SDM vol. 3, 8.4.4.1). */
static void wakeup_secondary_cpu_via_init(int apicid, unsigned long start_eip)
{
	send_init(apicid);
	for (int i = 0; i < NR_STARTUP_IPIS; i++) {
		apic_icr_write(APIC_DM_STARTUP | (start_eip >> TRAMPOLINE_PAGE_SHIFT),
			       apicid);
		udelay(STARTUP_DELAY_US);
		apic_wait_icr_idle();
	}
}

static bool wait_for_callin(int cpu)
{
	ktime_t end = deadline_us(CALLIN_TIMEOUT_MS * USEC_PER_MSEC);

	while (ktime_before(ktime_get(), end)) {
		if (READ_ONCE(cpu_callin_mask) & (1UL << cpu))
			return true;
		cpu_relax();
	}
	return false;
}

/*
 * smp_skip_cpu=N (a test hook): the N-th CPU the firmware lists (0 is
 * the boot CPU's entry) never gets its STARTUP IPIs, so never answers.
 */
static bool skip_cpu(int table_index)
{
	char buf[8];
	unsigned long n;

	if (!cmdline_value("smp_skip_cpu", buf, sizeof(buf)) || kstrtoul(buf, 10, &n))
		return false;
	return n == (unsigned long)table_index;
}

/* What an AP needs before it runs: per-CPU area, GDT, stack. */
static int prepare_cpu(int cpu, int apicid)
{
	void *stack;

	if (per_cpu_area_alloc(cpu))
		return -ENOMEM;
	stack = alloc_pages(AP_STACK_PAGES);
	if (!stack) {
		per_cpu_area_free(cpu);
		return -ENOMEM;
	}
	cpu_stack[cpu] = (unsigned long)stack;
	cpu_apic_id[cpu] = apicid;
	setup_cpu_gdt(cpu);
	initial_stack = cpu_stack[cpu] + AP_STACK_PAGES * PAGE_SIZE;
	initial_page_table = read_cr3();
	booting_cpu = cpu;
	return 0;
}

/*
 * Wake the CPU with this APIC id as CPU number cpu; 0 when it is up.
 * skip: the test hook says it must not answer.
 */
static int do_boot_cpu(int apicid, int cpu, bool skip)
{
	int err = prepare_cpu(cpu, apicid);

	if (err)
		return err;
	if (!fork_idle(cpu)) {
		per_cpu_area_free(cpu);
		free_pages((void *)cpu_stack[cpu], AP_STACK_PAGES);
		return -ENOMEM;
	}
	smp_mb();	/* the AP reads all of it with the caches cold */
	if (skip)
		send_init(apicid);	/* smp_skip_cpu: it never starts */
	else
		wakeup_secondary_cpu_via_init(apicid, TRAMPOLINE_BASE);
	if (wait_for_callin(cpu)) {
		cpu_online_mask |= 1UL << cpu;
		nr_online_cpus++;
		return 0;
	}
	/* Back to "waiting for SIPI": it can never run on what we free now. */
	printk("smp: CPU %d (APIC id %d) did not answer within %d ms; left out\n",
	       cpu, apicid, CALLIN_TIMEOUT_MS);
	send_init(apicid);
	free_pages((void *)cpu_stack[cpu], AP_STACK_PAGES);
	per_cpu_area_free(cpu);
	return -ETIMEDOUT;
}

/* CPU 0's own APIC: enabled, its id recorded, its timer calibrated. */
static void setup_boot_APIC(void)
{
	lapic_map();
	setup_local_APIC();
	cpu_apic_id[0] = read_apic_id();
	calibrate_APIC_clock();
	setup_APIC_timer();
}

/*
 * Bring up every CPU the firmware listed (from kmain, with interrupts
 * on: the timer calibration counts PIT ticks).  CPU numbers are dense:
 * an AP that does not answer leaves no hole.
 */
void smp_boot_cpus(void)
{
	int cpu = 1;

	if (!lapic_present) {
		printk("smp: no MADT and no MP table: running on the boot CPU alone\n");
		return;
	}
	setup_boot_APIC();
	memcpy((void *)TRAMPOLINE_BASE, trampoline_start,
	       trampoline_end - trampoline_start);
	for (int i = 0; i < boot_cpu_table->count && i < NR_CPUS; i++) {
		int apicid = boot_cpu_table->apicid[i];

		if (apicid == cpu_apic_id[0] || cpu == NR_CPUS)
			continue;
		if (!do_boot_cpu(apicid, cpu, skip_cpu(i)))
			cpu++;
	}
	printk("smp: %u CPU%s online (from the %s)\n", num_online_cpus(),
	       num_online_cpus() == 1 ? "" : "s", boot_cpu_table->source);
}

/* What a CPU runs, for the console's "cpus": its current thread (or idle/N). */
const char *cpu_running_name(int cpu)
{
	return task_name(per_cpu(current_task, cpu));
}

NOKPROBE_SYMBOL(start_secondary);
