/*
 * kprobe_lock.c - the 2005 design, selectable: one lock for every hit.
 *
 * The kprobes the LWN article describes (2.6.11) kept one global
 * current_kprobe and one set of saved flags, and protected them - and
 * the hash table - with one spinlock, kprobe_lock, held from the int3 to
 * the end of the single step.  lock_kprobes() took it and recorded the
 * owning CPU in kprobe_cpu; unlock_kprobes() cleared the CPU and let it
 * go.  A second CPU that hit any probe meanwhile spun with interrupts
 * off until the first was done: every probe hit in the machine ran one
 * at a time.  The article's closing words name this lock as what keeps
 * kprobes from scaling.
 *
 * Booting with kprobes.lock=global brings it back on top of the per-CPU
 * design, so the two can be run on the same probes and compared: a layer
 * of the hit (kprobe_hit_ops, arch/i386/kprobes/core.c) around the
 * per-CPU one.  Every hit on any CPU takes kprobe_lock before the int3
 * handler looks up the probe, and gives it back when the int3, #DB or
 * fault that ends the hit leaves no probe running on the CPU.  A probe
 * hit inside a hit (reentry) is on the CPU that owns the lock already
 * and takes nothing, which is why the owner is recorded.  Each CPU counts how often it had to wait and how many
 * TSC cycles it spun: /sys/kernel/debug/kprobes/lock shows them.
 * Optimized probes (a jump, no int3) stay outside: 2005 had none.
 *
 * The lock itself is 2.6.11's too: a test-and-set lock, not the ticket
 * lock of include/spinlock.h (which came in 2.6.25).  A waiter spins
 * reading the word and tries an xchg when it reads "free"; whichever
 * CPU gets there first wins.  That is unfair, and it is what 2005 had.
 * A ticket lock also behaves badly here: under QEMU each vCPU is a host
 * thread, and when the host has fewer free cores than vCPUs the thread
 * of the CPU whose ticket is next may not be running - every hand-over
 * then waits for the host to schedule that one thread, while the CPUs
 * that are running spin.  With test-and-set a running CPU takes it.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "spinlock.h"
#include <asm/processor.h>
#include "smp.h"
#include "nokprobe.h"
#include "errno.h"
#include "string.h"
#include <asm/atomic.h>

#define KPROBE_LOCK_PARAM	"kprobes.lock"
#define KPROBE_LOCK_WORD_LEN	16

#define KPROBE_LOCK_FREE	0UL
#define KPROBE_LOCK_HELD	1UL

bool kprobes_global_lock;
static volatile unsigned long kprobe_lock = KPROBE_LOCK_FREE;
int kprobe_cpu = NR_CPUS;		/* the owner; NR_CPUS when free, as 2.6.11 */

DEFINE_PER_CPU(struct kprobe_lock_stats, kprobe_lock_stats);

/* One try: the xchg is the locked read-modify-write that decides. */
static nokprobe_inline bool kprobe_lock_try(void)
{
	return xchg(&kprobe_lock, KPROBE_LOCK_HELD) == KPROBE_LOCK_FREE;
}

/* Lock kprobes and record the CPU that holds them (2.6.11's words). */
void lock_kprobes(void)
{
	struct kprobe_lock_stats *st = this_cpu_ptr(&kprobe_lock_stats);
	uint64_t t0;

	if (!kprobe_lock_try()) {
		t0 = rdtsc();
		/* Interrupts are off (a hit): spin on plain reads, xchg only when it looks free. */
		do {
			while (READ_ONCE(kprobe_lock) != KPROBE_LOCK_FREE)
				cpu_relax();
		} while (!kprobe_lock_try());
		st->spin_cycles += rdtsc() - t0;
		st->contended++;
	}
	st->taken++;
	WRITE_ONCE(kprobe_cpu, smp_processor_id());
}
NOKPROBE_SYMBOL(lock_kprobes);

/* Reset the recorded CPU and unlock kprobes. */
void unlock_kprobes(void)
{
	WRITE_ONCE(kprobe_cpu, NR_CPUS);
	barrier();	/* x86 keeps stores in order: the hit's stores go first */
	WRITE_ONCE(kprobe_lock, KPROBE_LOCK_FREE);
}
NOKPROBE_SYMBOL(unlock_kprobes);

/* The hit on this CPU is over: if it held kprobe_lock, give it back. */
static nokprobe_inline void kprobe_hit_unlock(void)
{
	if (READ_ONCE(kprobe_cpu) == smp_processor_id())
		unlock_kprobes();
}

/* ---- the layer ---------------------------------------------------------------- */

/* The hit on this CPU is over (or was never one): let the lock go. */
static nokprobe_inline int unlock_after(int ret)
{
	if (!this_cpu_read(current_kprobe))
		kprobe_hit_unlock();
	return ret;
}

static int global_lock_int3(struct pt_regs *regs)
{
	if (!this_cpu_read(current_kprobe))
		lock_kprobes();		/* a reentered hit: this CPU holds it already */
	return unlock_after(kprobe_hit_below(KPROBE_HIT_LOCK)->int3(regs));
}
NOKPROBE_SYMBOL(global_lock_int3);

static int global_lock_debug(struct pt_regs *regs)
{
	return unlock_after(kprobe_hit_below(KPROBE_HIT_LOCK)->debug(regs));
}
NOKPROBE_SYMBOL(global_lock_debug);

static int global_lock_fault(struct pt_regs *regs, int trapnr)
{
	return unlock_after(kprobe_hit_below(KPROBE_HIT_LOCK)->fault(regs, trapnr));
}
NOKPROBE_SYMBOL(global_lock_fault);

static const struct kprobe_hit_ops global_lock_hit_ops = {
	.name = "global",
	.int3 = global_lock_int3,
	.debug = global_lock_debug,
	.fault = global_lock_fault,
};

/* kprobes.lock=global or kprobes.lock=percpu (the default); from init_kprobes(). */
int kprobe_lock_setup(void)
{
	char word[KPROBE_LOCK_WORD_LEN];

	if (!cmdline_value(KPROBE_LOCK_PARAM, word, sizeof(word)))
		return 0;
	if (strcmp(word, "global") == 0)
		kprobes_global_lock = true;
	else if (strcmp(word, "percpu") != 0) {
		printk("kprobes: %s=%s: want global or percpu; per-CPU it is\n",
		       KPROBE_LOCK_PARAM, word);
		return -EINVAL;
	}
	if (kprobes_global_lock) {
		kprobe_set_hit_layer(KPROBE_HIT_LOCK, &global_lock_hit_ops);
		printk("kprobes: %s=global: every hit takes kprobe_lock, as in 2005\n",
		       KPROBE_LOCK_PARAM);
	}
	return 0;
}

/* Sum of every CPU's figures (the debugfs file prints each CPU too). */
void kprobe_lock_stats_sum(struct kprobe_lock_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_online_cpu(cpu) {
		const struct kprobe_lock_stats *st = &per_cpu(kprobe_lock_stats, cpu);

		sum->taken += st->taken;
		sum->contended += st->contended;
		sum->spin_cycles += st->spin_cycles;
	}
}

void kprobe_lock_stats_reset(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		memset(&per_cpu(kprobe_lock_stats, cpu), 0, sizeof(struct kprobe_lock_stats));
}
