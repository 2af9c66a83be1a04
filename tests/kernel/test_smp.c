/*
 * test_smp.c - suite "smp": the CPUs the firmware lists come up, each
 * with its own APIC id, per-CPU area and timer, and the IPIs work.
 *
 * The harness boots it at -smp 1, 2 and 4, and once more at 4 with
 * smp_skip_cpu=2.  Cases that need a second CPU skip at -smp 1.  Every
 * answer about "which CPU" comes from the CPU itself: a function run
 * there by on_each_cpu() reads its own local APIC id, the hardware's
 * word, and files what it sees under that id.
 */
#include "ktest.h"
#include "smp.h"
#include <asm/apic.h>
#include <asm/mpspec.h>
#include <asm/atomic.h>
#include "sched.h"
#include "timer.h"
#include "string.h"
#include "vsprintf.h"
#include <asm/processor.h>
#include "errno.h"
#include "kprobes.h"

#define MAX_APIC_ID	256		/* an xAPIC id is 8 bits */
#define NR_TEST_IPIS	10000
#define POLL_SPINS	100000000L	/* a bound on waiting for another CPU */
#define RESCHED_WAIT_TICKS	(5 * HZ)
#define TICK_WAIT_MS	100
#define FLOOD_TARGET	1		/* the CPU the IPI flood goes to */

/* What each CPU reported about itself, filed under its APIC id. */
struct cpu_report {
	bool seen;
	int cpu_number;			/* this_cpu_read(cpu_number) */
	unsigned long *percpu_var;	/* this_cpu_ptr(&probe_var) */
	unsigned long var_value;	/* ...and what it found there */
};

static DEFINE_PER_CPU(unsigned long, probe_var);
static struct cpu_report reports[MAX_APIC_ID];
static atomic_t calls_run;

static void report_self(void *info)
{
	struct cpu_report *r = &reports[read_apic_id()];

	r->cpu_number = this_cpu_read(cpu_number);
	r->percpu_var = this_cpu_ptr(&probe_var);
	r->var_value = this_cpu_read(probe_var);
	WRITE_ONCE(r->seen, true);
}

static void count_call(void *info)
{
	atomic_inc(&calls_run);
}

static bool need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() >= 2)
		return true;
	ktest_skip(t, "one CPU (boot with -smp 2 or more)");
	return false;
}

/* smp_skip_cpu=N: the firmware table index that must stay out, or -1. */
static int skipped_index(void)
{
	char buf[8];
	unsigned long n;

	if (!cmdline_value("smp_skip_cpu", buf, sizeof(buf)) || kstrtoul(buf, 10, &n))
		return -1;
	return (int)n;
}

static bool wait_until_calls(int want)
{
	for (long i = 0; i < POLL_SPINS; i++) {
		if (atomic_read(&calls_run) >= want)
			return true;
		cpu_relax();
	}
	return false;
}

/* ---- the CPUs came up ------------------------------------------------- */

static void every_listed_cpu_online(struct ktest *t)
{
	int listed, want, skip = skipped_index();

	KTEST_ASSERT_TRUE(t, boot_cpu_table != NULL);
	listed = boot_cpu_table->count;
	want = listed - (skip > 0 && skip < listed);
	ktest_info(t, "%s lists %d CPUs, %u online", boot_cpu_table->source,
		   listed, num_online_cpus());
	KTEST_EXPECT_EQ(t, num_online_cpus(), (unsigned int)want);
	/* Dense numbers: CPUs 0..n-1 and nothing above. */
	KTEST_EXPECT_EQ(t, cpu_online_mask, (1UL << want) - 1);
}

static void apic_ids_distinct_and_true(struct ktest *t)
{
	int cpu, other;

	memset(reports, 0, sizeof(reports));
	on_each_cpu(report_self, NULL, 1);
	for_each_online_cpu(cpu) {
		struct cpu_report *r = &reports[cpu_apic_id[cpu]];

		/* The CPU we call "cpu" answered from the APIC id we gave it. */
		KTEST_EXPECT_TRUE(t, r->seen);
		KTEST_EXPECT_EQ(t, r->cpu_number, cpu);
		for_each_online_cpu(other)
			if (other != cpu)
				KTEST_EXPECT_NE(t, cpu_apic_id[other], cpu_apic_id[cpu]);
	}
}

static void per_cpu_areas_distinct(struct ktest *t)
{
	int cpu, other;

	for_each_online_cpu(cpu)
		per_cpu(probe_var, cpu) = 1000 + cpu;
	memset(reports, 0, sizeof(reports));
	on_each_cpu(report_self, NULL, 1);
	for_each_online_cpu(cpu) {
		struct cpu_report *r = &reports[cpu_apic_id[cpu]];

		KTEST_ASSERT_TRUE(t, r->seen);
		/* Through %fs each CPU reaches the copy per_cpu() names. */
		KTEST_EXPECT_EQ(t, (unsigned long)r->percpu_var,
				(unsigned long)&per_cpu(probe_var, cpu));
		KTEST_EXPECT_EQ(t, r->var_value, 1000ul + cpu);
		for_each_online_cpu(other)
			if (other != cpu)
				KTEST_EXPECT_NE(t, (unsigned long)r->percpu_var,
						(unsigned long)reports[cpu_apic_id[other]].percpu_var);
	}
}

/*
 * The MADT is the table used (unless acpi=off); the MP table, read too,
 * must at least list the boot CPU (SeaBIOS lists only the CPUs it woke
 * itself) and nothing the MADT does not know.
 */
static void firmware_tables_agree(struct ktest *t)
{
	bool boot_listed = false;

	if (cmdline_has("acpi=off")) {
		KTEST_EXPECT_TRUE(t, boot_cpu_table == &mptable_cpus);
		return;
	}
	KTEST_EXPECT_TRUE(t, boot_cpu_table == &madt_cpus);
	KTEST_EXPECT_EQ(t, madt_cpus.lapic_addr, APIC_DEFAULT_PHYS_BASE);
	for (int i = 0; i < mptable_cpus.count && i < NR_CPUS; i++) {
		bool in_madt = false;

		for (int j = 0; j < madt_cpus.count && j < NR_CPUS; j++)
			in_madt |= madt_cpus.apicid[j] == mptable_cpus.apicid[i];
		KTEST_EXPECT_TRUE(t, in_madt);
		boot_listed |= mptable_cpus.apicid[i] == cpu_apic_id[0];
	}
	if (mptable_cpus.count)
		KTEST_EXPECT_TRUE(t, boot_listed);
}

static void skipped_cpu_left_out(struct ktest *t)
{
	int skip = skipped_index(), cpu, gone;

	if (skip <= 0 || skip >= boot_cpu_table->count) {
		ktest_skip(t, "no smp_skip_cpu=N naming an AP");
		return;
	}
	gone = boot_cpu_table->apicid[skip];
	for_each_online_cpu(cpu)
		KTEST_EXPECT_NE(t, cpu_apic_id[cpu], gone);
	/* The others answer IPIs: nothing waits on the missing one. */
	memset(reports, 0, sizeof(reports));
	on_each_cpu(report_self, NULL, 1);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_TRUE(t, reports[cpu_apic_id[cpu]].seen);
	KTEST_EXPECT_FALSE(t, reports[gone].seen);
}

/* ---- IPIs ------------------------------------------------------------- */

static void on_each_cpu_waits(struct ktest *t)
{
	atomic_set(&calls_run, 0);
	on_each_cpu(count_call, NULL, 1);
	/* wait: every CPU has run it by the time we are back. */
	KTEST_EXPECT_EQ(t, atomic_read(&calls_run), (int)num_online_cpus());
}

static void on_each_cpu_no_wait(struct ktest *t)
{
	atomic_set(&calls_run, 0);
	on_each_cpu(count_call, NULL, 0);
	/* No wait: they run soon, on their own time. */
	KTEST_EXPECT_TRUE(t, wait_until_calls(num_online_cpus()));
	KTEST_EXPECT_EQ(t, atomic_read(&calls_run), (int)num_online_cpus());
}

/*
 * Every other CPU floods one target with calls that do not wait, all at
 * once: CPU 0 from this thread, each AP from inside an IPI handler.
 * IPIs that reach the target while one is pending merge in its APIC,
 * and several senders' requests sit in its queue together, so only a
 * handler that drains the whole queue loses none.  The figures say how
 * many interrupts carried the calls.
 */
static atomic_t senders_done;

static void flood(int target, int calls)
{
	for (int i = 0; i < calls; i++)
		smp_call_function_single(target, count_call, NULL, 0);
}

static void flood_from_ap(void *info)
{
	flood(FLOOD_TARGET, (int)(unsigned long)info);
	atomic_inc(&senders_done);
}

/* Every AP but the target floods it with calls each, from an IPI handler; returns how many APs. */
static int start_ap_floods(int calls)
{
	int cpu, started = 0;

	atomic_set(&calls_run, 0);
	atomic_set(&senders_done, 0);
	for_each_online_cpu(cpu)
		if (cpu != 0 && cpu != FLOOD_TARGET) {
			smp_call_function_single(cpu, flood_from_ap, (void *)(unsigned long)calls, 0);
			started++;
		}
	return started;
}

static void ten_thousand_ipis_none_lost(struct ktest *t)
{
	int senders = num_online_cpus() - 1, share, started;
	unsigned long irqs_before;

	if (!need_two_cpus(t))
		return;
	share = NR_TEST_IPIS / senders;
	irqs_before = per_cpu(irq_call_count, FLOOD_TARGET);
	started = start_ap_floods(share);
	flood(FLOOD_TARGET, NR_TEST_IPIS - started * share);
	KTEST_EXPECT_TRUE(t, wait_until_calls(NR_TEST_IPIS));
	KTEST_EXPECT_EQ(t, atomic_read(&calls_run), NR_TEST_IPIS);
	KTEST_EXPECT_EQ(t, atomic_read(&senders_done), started);
	ktest_info(t, "%d calls from %d CPUs ran on CPU %d in %lu call-function interrupts",
		   NR_TEST_IPIS, senders, FLOOD_TARGET,
		   per_cpu(irq_call_count, FLOOD_TARGET) - irqs_before);
}

/*
 * The same flood, from inside IPI handlers, while this CPU freezes every
 * other one again and again (kprobes_text_busy(): the optimizer's
 * stop-the-world look at every thread's stack).  A sender spins with
 * interrupts off until the target has taken its last call; when the
 * freeze has stopped the target first, only a sender that takes the
 * freeze request while it spins (csd_lock_wait()) lets both move again -
 * otherwise the freezer waits for the sender and the sender for the
 * frozen target, for ever.
 */
#define FREEZE_FLOOD_IPIS	2000	/* per sender */

static void ipi_flood_meets_a_freeze(struct ktest *t)
{
	unsigned long allowed = current->cpus_allowed;
	int started, freezes = 0;

	if (num_online_cpus() < 3) {
		ktest_skip(t, "needs three CPUs: a freezer, a target and a sender");
		return;
	}
	KTEST_ASSERT_EQ(t, set_cpus_allowed(current, 1UL << 0), 0);	/* the freezer: CPU 0 */
	started = start_ap_floods(FREEZE_FLOOD_IPIS);
	while (atomic_read(&senders_done) < started) {
		kprobes_text_busy(0, 0);
		freezes++;
	}
	set_cpus_allowed(current, allowed);
	KTEST_EXPECT_TRUE(t, wait_until_calls(started * FREEZE_FLOOD_IPIS));
	KTEST_EXPECT_EQ(t, atomic_read(&calls_run), started * FREEZE_FLOOD_IPIS);
	KTEST_EXPECT_TRUE(t, freezes > 0);
	ktest_info(t, "%d calls from %d CPUs to CPU %d while CPU 0 froze the others %d times",
		   started * FREEZE_FLOOD_IPIS, started, FLOOD_TARGET, freezes);
}

static void call_to_offline_cpu_refused(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, smp_call_function_single(NR_CPUS, count_call, NULL, 1), -ENXIO);
	KTEST_EXPECT_EQ(t, smp_call_function_single(-1, count_call, NULL, 1), -ENXIO);
}

static void reschedule_ipi_arrives(struct ktest *t)
{
	unsigned long before, deadline;
	int target;

	if (!need_two_cpus(t))
		return;
	/* Threads move between CPUs: send from ours to the next one. */
	preempt_disable();
	target = (smp_processor_id() + 1) % num_online_cpus();
	/*
	 * The scheduler sends reschedule IPIs of its own, and two that
	 * meet in the target's IRR are delivered once: so the count must
	 * grow, by exactly how much is not ours to say.  The bound is in
	 * ticks, not spins: on a busy host a vCPU may wait its turn.
	 */
	before = per_cpu(irq_resched_count, target);
	deadline = jiffies + RESCHED_WAIT_TICKS;
	smp_send_reschedule(target);
	preempt_enable();
	while (READ_ONCE(per_cpu(irq_resched_count, target)) == before &&
	       time_before(jiffies, deadline))
		cpu_relax();
	KTEST_EXPECT_TRUE(t, per_cpu(irq_resched_count, target) > before);
}

/* ---- timers ----------------------------------------------------------- */

/*
 * Every CPU's own APIC timer ticks.  jiffies advance once per tick
 * because the PIT's interrupt reaches CPU 0 alone: each AP masks LINT0,
 * where the 8259 is wired in virtual-wire mode.
 */
static void every_cpu_ticks(struct ktest *t)
{
	unsigned long before[NR_CPUS];
	int cpu;

	for_each_online_cpu(cpu)
		before[cpu] = per_cpu(apic_timer_irqs, cpu);
	msleep(TICK_WAIT_MS);
	for_each_online_cpu(cpu) {
		unsigned long d = per_cpu(apic_timer_irqs, cpu) - before[cpu];

		ktest_info(t, "CPU %d: %lu APIC timer ticks in %d ms", cpu, d,
			   TICK_WAIT_MS);
		KTEST_EXPECT_TRUE(t, d > 0);
	}
}

static void report_lint0(void *info)
{
	bool *masked = info;

	masked[smp_processor_id()] = lapic_read(APIC_LVT0) & APIC_LVT_MASKED;
}

static void legacy_irqs_on_cpu0_only(struct ktest *t)
{
	bool masked[NR_CPUS] = { false };
	int cpu;

	on_each_cpu(report_lint0, masked, 1);
	KTEST_EXPECT_FALSE(t, masked[0]);
	for_each_online_cpu(cpu)
		if (cpu != 0)
			KTEST_EXPECT_TRUE(t, masked[cpu]);
}

/*
 * Firmware need not leave LINT0 in virtual-wire mode (Bochs's BIOS
 * leaves CPU 0's masked): each CPU masks both pins, as such a BIOS
 * would, and reprograms them.  Interrupts are off in the call, so the
 * 8259's line waits; the pins are put back as they were either way.
 */
struct lint_seen {
	uint32_t lvt0[NR_CPUS];
	uint32_t lvt1[NR_CPUS];
};

static void remask_and_reprogram_lint(void *info)
{
	struct lint_seen *seen = info;
	int cpu = smp_processor_id();
	uint32_t lvt0 = lapic_read(APIC_LVT0), lvt1 = lapic_read(APIC_LVT1);

	lapic_write(APIC_LVT0, APIC_LVT_MASKED);
	lapic_write(APIC_LVT1, APIC_LVT_MASKED);
	setup_local_lint();
	seen->lvt0[cpu] = lapic_read(APIC_LVT0);
	seen->lvt1[cpu] = lapic_read(APIC_LVT1);
	lapic_write(APIC_LVT0, lvt0);
	lapic_write(APIC_LVT1, lvt1);
}

static void lint_pins_set_whatever_the_firmware_left(struct ktest *t)
{
	struct lint_seen seen;
	int cpu;

	on_each_cpu(remask_and_reprogram_lint, &seen, 1);
	for_each_online_cpu(cpu) {
		uint32_t masked = cpu == 0 ? 0 : APIC_LVT_MASKED;

		KTEST_EXPECT_EQ(t, seen.lvt0[cpu] & APIC_LVT_MASKED, masked);
		KTEST_EXPECT_EQ(t, seen.lvt0[cpu] & APIC_LVT_DM_MASK, APIC_DM_EXTINT);
		KTEST_EXPECT_EQ(t, seen.lvt1[cpu] & APIC_LVT_MASKED, masked);
		KTEST_EXPECT_EQ(t, seen.lvt1[cpu] & APIC_LVT_DM_MASK, APIC_DM_NMI_LVT);
	}
}

/* ---- NMI backtrace ------------------------------------------------------ */

static void backtrace_names_every_cpu(struct ktest *t)
{
	char want[48];
	int cpu;

	ktest_capture_start();
	trigger_all_cpu_backtrace();
	ktest_capture_stop();
	for_each_online_cpu(cpu) {
		snprintf(want, sizeof(want), "NMI backtrace for CPU %d (APIC id %d)",
			 cpu, cpu_apic_id[cpu]);
		KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), want) != NULL);
	}
	/* An AP's registers and trace: it was in its idle loop. */
	if (num_online_cpus() > 1) {
		KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "EIP: ") != NULL);
		KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "cpu_idle_loop") != NULL);
	}
}

static struct ktest_case smp_cases[] = {
	KTEST_CASE(every_listed_cpu_online),
	KTEST_CASE(apic_ids_distinct_and_true),
	KTEST_CASE(per_cpu_areas_distinct),
	KTEST_CASE(firmware_tables_agree),
	KTEST_CASE(skipped_cpu_left_out),
	KTEST_CASE(on_each_cpu_waits),
	KTEST_CASE(on_each_cpu_no_wait),
	KTEST_CASE(ten_thousand_ipis_none_lost),
	KTEST_CASE(ipi_flood_meets_a_freeze),
	KTEST_CASE(call_to_offline_cpu_refused),
	KTEST_CASE(reschedule_ipi_arrives),
	KTEST_CASE(every_cpu_ticks),
	KTEST_CASE(legacy_irqs_on_cpu0_only),
	KTEST_CASE(lint_pins_set_whatever_the_firmware_left),
	KTEST_CASE(backtrace_names_every_cpu),
	KTEST_END,
};

static struct ktest_suite smp_suite = { .name = "smp", .cases = smp_cases };
KTEST_SUITE(smp_suite);
