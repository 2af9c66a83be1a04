/*
 * test_text_poke_smp.c - suite "text_poke_smp": changing code that other
 * CPUs are running (arch/i386/text_poke_bp.c, docs/kprobes-smp.md).
 *
 *   - an int3 hit inside text_poke_bp()'s window goes where the new code
 *     would go, not to the kernel's "stray int3" oops;
 *   - optimize/unoptimize and arm/disarm, thousands of times, while every
 *     other CPU calls the probed function in a loop: every call returns
 *     the right result, every switch leaves the right first byte, .text
 *     is identical at the end.
 */
#include "kernel.h"
#include "ktest.h"
#include "kprobes.h"
#include <asm/atomic.h>
#include "sched.h"
#include "smp.h"
#include "string.h"
#include <asm/text_patching.h>

/* noipa: gcc must neither inline these nor specialise calls to them. */
static __attribute__((__noinline__, __noipa__)) unsigned long poke_target(unsigned long x)
{
	return x * 3 + 1;
}

/* Where the window sends a hit: the same arguments, a different answer. */
static __attribute__((__noinline__, __noipa__)) unsigned long poke_detour(unsigned long x)
{
	return x + 1000;
}

/*
 * With the window open on poke_target's first byte, a call to it traps
 * on the int3 and must come out of poke_detour().  Closing the window
 * (abandon) puts the original byte back.
 */
static void window_hit_goes_to_handler(struct ktest *t)
{
	uint8_t first = *(const uint8_t *)poke_target;
	uint32_t before = ktest_text_checksum();

	text_poke_bp_begin(poke_target, poke_detour);
	KTEST_EXPECT_EQ(t, *(const uint8_t *)poke_target, BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, poke_target(5), 1005);
	text_poke_bp_abandon(poke_target, first);
	KTEST_EXPECT_EQ(t, poke_target(5), 16);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
}

/* The whole protocol: the new bytes in place, the old ones back. */
static void poke_bp_writes_and_restores(struct ktest *t)
{
	uint8_t old[RELATIVEJUMP_SIZE], jmp[RELATIVEJUMP_SIZE];
	unsigned long a = (unsigned long)poke_target;

	memcpy(old, poke_target, sizeof(old));
	jmp[0] = RELATIVEJUMP_OPCODE;
	put_rel32(jmp + 1, a + RELATIVEJUMP_SIZE, (unsigned long)poke_detour);
	text_poke_bp(poke_target, jmp, sizeof(jmp), poke_detour);
	KTEST_EXPECT_EQ(t, memcmp((const void *)a, jmp, sizeof(jmp)), 0);
	KTEST_EXPECT_EQ(t, poke_target(5), 1005);	/* through the jmp now */
	text_poke_bp(poke_target, old, sizeof(old), poke_detour);
	KTEST_EXPECT_EQ(t, memcmp((const void *)a, old, sizeof(old)), 0);
	KTEST_EXPECT_EQ(t, poke_target(5), 16);
}

/* ---- patching under load ------------------------------------------------------- */

#define PATCH_CYCLES	2500	/* four switches each: 10,000 patches */

static volatile bool load_stop;
static atomic_t load_hits;

static __attribute__((__noinline__, __noipa__)) int smp_target(int x)
{
	return x * 7 + 3;
}

static int count_hit(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&load_hits);
	return 0;
}

/* One per other CPU: call the probed function until told to stop. */
static int load_worker(void *arg)
{
	unsigned long *calls = arg;
	int bad = 0;

	for (int i = 0; !READ_ONCE(load_stop); i++) {
		if (smp_target(i) != i * 7 + 3)
			bad++;
		(*calls)++;
	}
	return bad;
}

/* One switch, and the first byte it must leave. */
static bool patch_step(struct kprobe *p, int step, uint8_t orig)
{
	const uint8_t *text = (const uint8_t *)smp_target;

	switch (step) {
	case 0:	/* int3 -> jmp (or int3, if a CPU stood inside: retried later) */
		if (kprobes_set_optimization(true) || wait_for_kprobe_optimizer())
			return false;
		return text[0] == (kprobe_optimized(p) ? RELATIVEJUMP_OPCODE :
				   BREAKPOINT_INSTRUCTION);
	case 1:	/* jmp -> int3 */
		if (kprobes_set_optimization(false) || wait_for_kprobe_optimizer())
			return false;
		return !kprobe_optimized(p) && text[0] == BREAKPOINT_INSTRUCTION;
	case 2:	/* int3 -> the original byte */
		return !disable_kprobe(p) && text[0] == orig;
	default: /* and back */
		return !enable_kprobe(p) && text[0] == BREAKPOINT_INSTRUCTION;
	}
}

static void patch_while_others_run(struct ktest *t)
{
	static struct kprobe kp;
	static unsigned long calls[NR_CPUS];
	struct task_struct *workers[NR_CPUS] = { NULL };
	uint8_t orig = *(const uint8_t *)smp_target;
	uint32_t before = ktest_text_checksum();
	int cpu, me, wrong = 0, optimized = 0, bad = 0;
	unsigned long total = 0;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU: nobody else runs the patched bytes");
		return;
	}
	memset(&kp, 0, sizeof(kp));
	kp.addr = (kprobe_opcode_t *)smp_target;
	kp.pre_handler = count_hit;
	atomic_set(&load_hits, 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	load_stop = false;
	me = smp_processor_id();
	for_each_online_cpu(cpu) {
		calls[cpu] = 0;
		if (cpu != me)
			workers[cpu] = kthread_create_on_cpu(load_worker, &calls[cpu],
							     cpu, "poke-load");
	}
	for (int i = 0; i < PATCH_CYCLES * 4; i++) {
		if (!patch_step(&kp, i % 4, orig))
			wrong++;
		if (i % 4 == 0 && kprobe_optimized(&kp))
			optimized++;
	}
	WRITE_ONCE(load_stop, true);
	for_each_online_cpu(cpu) {
		if (workers[cpu])
			bad += kthread_join(workers[cpu]);
		total += calls[cpu];
	}
	kprobes_set_optimization(true);
	unregister_kprobe(&kp);
	ktest_info(t, "%d switches on %u CPUs: %d times a jump; %lu calls, %d hits",
		   PATCH_CYCLES * 4, num_online_cpus(), optimized, total,
		   atomic_read(&load_hits));
	KTEST_EXPECT_EQ(t, wrong, 0);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_TRUE(t, total > 0 && atomic_read(&load_hits) > 0);
	KTEST_EXPECT_TRUE(t, optimized > 0);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), before);
	synchronize_kprobe_text();	/* collects, under kprobe_mutex */
	KTEST_EXPECT_EQ(t, kprobes_nr_deferred(), 0);
}

static struct ktest_case text_poke_smp_cases[] = {
	KTEST_CASE(window_hit_goes_to_handler),
	KTEST_CASE(poke_bp_writes_and_restores),
	KTEST_CASE(patch_while_others_run),
	KTEST_END,
};

static struct ktest_suite text_poke_smp_suite = {
	.name = "text_poke_smp",
	.cases = text_poke_smp_cases,
};
KTEST_SUITE(text_poke_smp_suite);
