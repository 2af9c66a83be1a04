/*
 * kprobes_sync.c - the grace period: until no CPU can still be in a hit
 * that found a probe we have just unlinked.
 *
 * The hit path takes no lock (probes/kprobes.c, get_kprobe()): a CPU
 * that executed the int3 a moment before unregister_kprobe() took it out
 * may have found the probe in the table and be running its handlers, or
 * stepping its slot, while the unregistering CPU goes on.  Freeing the
 * slot or an aggregate then would pull them from under that CPU.  Linux
 * waits with synchronize_rcu() (before 5.0, synchronize_sched()): the
 * writer waits until every CPU has passed a "quiescent state", a point
 * where it cannot be inside a reader.
 *
 * Our readers are kprobe hits.  A hit runs with interrupts off from the
 * int3 to the end of the single step (both gates are interrupt gates,
 * and the copy is stepped with IF clear), so an interrupt that reaches a
 * CPU proves that CPU is not inside one - except in a handler that turns
 * interrupts on, and that hit still has current_kprobe set.  So the
 * writer sends every other CPU an IPI and waits for it to run
 * (smp_call_function_many() with wait); the IPI answers "quiescent" if
 * it found no kprobe running on its CPU, and the CPUs that answered "no"
 * are asked again until each has said yes once:
 *
 *   CPU 0 (unregister)        CPU 1                     CPU 2
 *   ------------------        -----                     -----
 *                             int3: get_kprobe() = p
 *   disarm p, unlink p        handlers of p  (IF=0)     runs other code
 *   synchronize_kprobes():                              (IF=1)
 *     IPI -> 1, 2             .   (the IPI waits:       IPI: no kprobe
 *                             .    IF is clear)           running: quiescent
 *                             #DB: step done, iret
 *                             IPI: no kprobe running:
 *                               quiescent
 *   <---- every CPU quiescent: no hit can still hold p ---->
 *   free p's slot (poisoned), kfree an aggregate
 *
 * A hit that starts after the unlink cannot find p: the table no longer
 * has it (and the int3 is gone before the unlink).  The calling CPU is
 * quiescent by being here: a thread, not inside a hit.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "smp.h"
#include "sched.h"
#include <asm/processor.h>
#include <asm/bitops.h>

/* Grace periods completed, and IPI rounds they took (the debugfs "sync"). */
unsigned long kprobes_grace_periods;
unsigned long kprobes_grace_rounds;

/* Runs in the IPI on each CPU asked: is this CPU outside every hit? */
static void note_quiescent(void *info)
{
	if (!kprobe_running())
		clear_bit(smp_processor_id(), info);	/* locked: other CPUs clear theirs */
}

/* Linux's synchronize_rcu(), for kprobe hits.  From a thread, interrupts on. */
void synchronize_kprobes(void)
{
	volatile unsigned long pending;

	preempt_disable();	/* "every other CPU" must stay the same set */
	pending = READ_ONCE(cpu_online_mask) & ~(1UL << smp_processor_id());
	while (pending) {
		smp_call_function_many(pending, note_quiescent, (void *)&pending, true);
		kprobes_grace_rounds++;
		if (pending)
			cpu_relax();	/* a handler with IF on: ask again */
	}
	preempt_enable();
	kprobes_grace_periods++;
}
