/*
 * test_hw_breakpoint.c - suite "hw_breakpoint": the debug registers
 * (arch/i386/hw_breakpoint.c, docs/hw-breakpoints.md).
 *
 * Execute, write and read/write breakpoints fire once per access, with
 * the ip a fault or a trap reports; lengths 1, 2 and 4 and an unaligned
 * access into the range; RF lets an execute breakpoint's function run;
 * a kprobe's single-step and a watchpoint end in one #DB and both are
 * reported; a thread's registers follow it across switches and CPUs; a
 * wide one is on every CPU; the slots run out with -ENOSPC, bad input
 * gets -EINVAL, and unregistering gives every CPU its DR7 back.
 */
#include "ktest.h"
#include "hw_breakpoint.h"
#include "kprobes.h"
#include "sched.h"
#include "smp.h"
#include <asm/ptrace.h>
#include <asm/processor.h>
#include "errno.h"
#include "linux/err.h"
#include "trap_watch.h"
#include "hw_breakpoint_asm.h"
#include "shell.h"
#include "narrate.h"
#include "pseudofs.h"
#include "string.h"

#define EXEC_CALLS 10		/* calls of the execute-breakpoint target */
#define RUNAWAY_HITS 100	/* an execute hit repeating: RF missing; stop it */
#define THREAD_ROUNDS 5		/* writes of each thread */

/* What the triggered callback saw, by CPU (a wide breakpoint fires on several at once). */
struct hit_log {
	int hits[NR_CPUS];
	unsigned long last_ip;
	unsigned long last_dr6;
	int runaway;
};

static int total_hits(const struct hit_log *log)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		n += log->hits[cpu];
	return n;
}

static void log_hit(struct hw_breakpoint *bp, struct pt_regs *regs)
{
	struct hit_log *log = bp->context;

	log->hits[smp_processor_id()]++;
	log->last_ip = regs->ip;
	log->last_dr6 = this_cpu_read(debug_dr6);
	/*
	 * Without RF the execute breakpoint would fault on the same ip for
	 * ever; the test stops that here so the case fails instead of hanging.
	 */
	if (bp->attr.bp_type == HW_BREAKPOINT_X && log->hits[smp_processor_id()] > RUNAWAY_HITS) {
		regs->flags |= X86_EFLAGS_RF;
		log->runaway = 1;
	}
}

static struct hw_breakpoint *watch(void *addr, unsigned int len, unsigned int type,
				   struct hit_log *log)
{
	struct hw_breakpoint_attr attr = {
		.bp_addr = (unsigned long)addr, .bp_len = len, .bp_type = type,
	};

	return register_wide_hw_breakpoint(&attr, log_hit, log);
}

/* Every CPU's DR7, read on that CPU. */
static unsigned long dr7_seen[NR_CPUS];

static void read_dr7(void *unused)
{
	(void)unused;
	dr7_seen[smp_processor_id()] = get_debugreg(DR_CONTROL);
}

static void snapshot_dr7(unsigned long *out)
{
	int cpu;

	on_each_cpu(read_dr7, NULL, 1);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		out[cpu] = dr7_seen[cpu];
}

static unsigned long watched[4] __attribute__((aligned(16)));

static void reset_watched(void)
{
	for (int i = 0; i < 4; i++)
		watched[i] = 0;
}

/* ---- the DR7 encoding --------------------------------------------------------------- */

static void dr7_encodes_slot(struct ktest *t)
{
	struct hit_log log = {};
	struct hw_breakpoint *bp = watch(&watched[1], HW_BREAKPOINT_LEN_2, HW_BREAKPOINT_RW, &log);
	unsigned long dr7 = get_debugreg(DR_CONTROL), field;

	KTEST_ASSERT_FALSE(t, IS_ERR(bp));
	field = (dr7 >> (DR_CONTROL_SHIFT + bp->slot * DR_CONTROL_SIZE)) & 0xf;
	KTEST_EXPECT_EQ(t, field, DR_LEN_2 | DR_RW_READ);
	KTEST_EXPECT_TRUE(t, dr7 & (DR_GLOBAL_ENABLE << (bp->slot * DR_ENABLE_SIZE)));
	KTEST_EXPECT_TRUE(t, dr7 & DR_GLOBAL_SLOWDOWN);
	KTEST_EXPECT_EQ(t, dr7 & ~0x400UL, this_cpu_read(cpu_dr7));	/* bit 10 reads as 1 */
	switch (bp->slot) {
	case 0: KTEST_EXPECT_EQ(t, get_debugreg(0), (unsigned long)&watched[1]); break;
	case 1: KTEST_EXPECT_EQ(t, get_debugreg(1), (unsigned long)&watched[1]); break;
	case 2: KTEST_EXPECT_EQ(t, get_debugreg(2), (unsigned long)&watched[1]); break;
	case 3: KTEST_EXPECT_EQ(t, get_debugreg(3), (unsigned long)&watched[1]); break;
	default: ktest_fail(t, __FILE__, __LINE__, "slot %d", bp->slot);
	}
	unregister_wide_hw_breakpoint(bp);
}

/* ---- data breakpoints: once per access, trap semantics -------------------------------- */

static void write_watch_once_per_write(struct ktest *t)
{
	struct hit_log log = {};
	struct hw_breakpoint *bp;

	reset_watched();
	bp = watch(&watched[0], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log);
	KTEST_ASSERT_FALSE(t, IS_ERR(bp));
	for (int i = 0; i < 3; i++)
		hwbp_write32(&watched[0], i + 1);
	KTEST_EXPECT_EQ(t, total_hits(&log), 3);
	/* A trap: the access is done, ip is the instruction after it. */
	KTEST_EXPECT_EQ(t, log.last_ip, (unsigned long)hwbp_write32_after);
	KTEST_EXPECT_TRUE(t, log.last_dr6 & (DR_TRAP0 << bp->slot));
	KTEST_EXPECT_EQ(t, watched[0], 3);
	/* A read does not match a write breakpoint, nor a write next door. */
	KTEST_EXPECT_EQ(t, hwbp_read32(&watched[0], 0), 3);
	hwbp_write32(&watched[1], 7);
	KTEST_EXPECT_EQ(t, total_hits(&log), 3);
	KTEST_EXPECT_EQ(t, atomic_read(&bp->hit_count), 3);
	unregister_wide_hw_breakpoint(bp);
	hwbp_write32(&watched[0], 9);	/* gone: no hit, and no #DB to nobody */
	KTEST_EXPECT_EQ(t, total_hits(&log), 3);
}

static void rw_watch_reads_and_writes(struct ktest *t)
{
	struct hit_log log = {};
	struct hw_breakpoint *bp;

	reset_watched();
	bp = watch(&watched[0], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_RW, &log);
	KTEST_ASSERT_FALSE(t, IS_ERR(bp));
	hwbp_read32(&watched[0], 0);
	KTEST_EXPECT_EQ(t, total_hits(&log), 1);
	KTEST_EXPECT_EQ(t, log.last_ip, (unsigned long)hwbp_read32_after);
	hwbp_write32(&watched[0], 5);
	KTEST_EXPECT_EQ(t, total_hits(&log), 2);
	KTEST_EXPECT_EQ(t, log.last_ip, (unsigned long)hwbp_write32_after);
	hwbp_read32(&watched[1], 0);
	KTEST_EXPECT_EQ(t, total_hits(&log), 2);
	unregister_wide_hw_breakpoint(bp);
}

/*
 * The CPU compares byte ranges: an access that overlaps the watched
 * bytes at all matches, aligned or not; one beside them does not.
 */
static void lengths_and_unaligned_access(struct ktest *t)
{
	char *base = (char *)&watched[0];
	struct hit_log log1 = {}, log2 = {}, log4 = {};
	struct hw_breakpoint *b1, *b2, *b4;

	reset_watched();
	b1 = watch(base + 1, HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W, &log1);	/* byte 1 */
	b2 = watch(base + 6, HW_BREAKPOINT_LEN_2, HW_BREAKPOINT_W, &log2);	/* bytes 6-7 */
	b4 = watch(base + 12, HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log4);	/* bytes 12-15 */
	KTEST_ASSERT_FALSE(t, IS_ERR(b1) || IS_ERR(b2) || IS_ERR(b4));

	hwbp_write8(base + 0, 1);	/* beside byte 1 */
	hwbp_write8(base + 2, 1);
	KTEST_EXPECT_EQ(t, total_hits(&log1), 0);
	hwbp_write8(base + 1, 1);
	KTEST_EXPECT_EQ(t, total_hits(&log1), 1);
	hwbp_write16(base + 0, 1);	/* bytes 0-1 */
	KTEST_EXPECT_EQ(t, total_hits(&log1), 2);

	hwbp_write16(base + 4, 1);	/* bytes 4-5: beside */
	hwbp_write8(base + 8, 1);
	KTEST_EXPECT_EQ(t, total_hits(&log2), 0);
	hwbp_write32(base + 5, 1);	/* bytes 5-8, unaligned, over both */
	KTEST_EXPECT_EQ(t, total_hits(&log2), 1);
	KTEST_EXPECT_EQ(t, log2.last_ip, (unsigned long)hwbp_write32_after);

	hwbp_write32(base + 8, 1);	/* bytes 8-11: beside */
	KTEST_EXPECT_EQ(t, total_hits(&log4), 0);
	hwbp_write16(base + 11, 1);	/* bytes 11-12, unaligned, into it */
	KTEST_EXPECT_EQ(t, total_hits(&log4), 1);
	hwbp_write8(base + 15, 1);
	KTEST_EXPECT_EQ(t, total_hits(&log4), 2);

	unregister_wide_hw_breakpoint(b1);
	unregister_wide_hw_breakpoint(b2);
	unregister_wide_hw_breakpoint(b4);
}

/* ---- execute breakpoints: a fault, and RF ------------------------------------------ */

static noinline int hwbp_exec_target(int x)
{
	barrier();
	return x * 3 + 1;
}

static void execute_bp_fires_once_per_call(struct ktest *t)
{
	struct hit_log log = {};
	struct hw_breakpoint *bp;
	int i, sum = 0;

	bp = watch((void *)hwbp_exec_target, HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_X, &log);
	KTEST_ASSERT_FALSE(t, IS_ERR(bp));
	for (i = 0; i < EXEC_CALLS; i++)
		sum += hwbp_exec_target(i);
	unregister_wide_hw_breakpoint(bp);
	KTEST_EXPECT_EQ(t, log.runaway, 0);
	KTEST_EXPECT_EQ(t, total_hits(&log), EXEC_CALLS);
	/* A fault: the ip is the breakpoint's, the instruction not yet run. */
	KTEST_EXPECT_EQ(t, log.last_ip, (unsigned long)hwbp_exec_target);
	KTEST_EXPECT_EQ(t, sum, 3 * (EXEC_CALLS * (EXEC_CALLS - 1) / 2) + EXEC_CALLS);
}

/* ---- a kprobe's step and a watchpoint in one #DB --------------------------------------- */

static int post_calls;
static unsigned long post_dr6;

static void count_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p; (void)regs; (void)flags;
	post_calls++;
	post_dr6 = this_cpu_read(debug_dr6);
}

static int nothing_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p; (void)regs;
	return 0;
}

/*
 * A probe stepped over an instruction that writes a watched variable.
 * Stepped with TF, the step's end and the watchpoint are one #DB whose
 * DR6 has both BS and Bn, and kprobes must claim BS and leave Bn to the
 * breakpoint.  Stepped with int3 (Linux 5.15+), the #DB is the
 * watchpoint's alone - DR6 has no BS - and the step ends at the int3
 * after the copy: two #BP and one #DB, each exception one owner's.
 */
static void step_and_watchpoint(struct ktest *t, enum kprobe_step_design design)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)hwbp_store_shared_insn,
			     .pre_handler = nothing_pre, .post_handler = count_post };
	struct kprobes_fast_paths saved;
	struct hit_log log = {};
	struct hw_breakpoint *bp;
	struct trap_watch tw;
	bool tf = design == KPROBE_SS_TF;

	KTEST_ASSERT_EQ(t, kprobe_set_step_design(design), 0);
	kprobes_fast_paths_off(&saved);	/* a real single-step, not a boosted jump */
	post_calls = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	bp = watch((void *)&hwbp_shared_var, HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log);
	if (IS_ERR(bp)) {
		unregister_kprobe(&kp);
		kprobes_fast_paths_restore(&saved);
		kprobe_set_step_design(KPROBE_SS_INT3);
		KTEST_ASSERT_FALSE(t, IS_ERR(bp));
	}
	KTEST_ASSERT_EQ(t, trap_watch_start(&tw), 0);
	hwbp_store_shared(0x1234);
	trap_watch_stop(&tw);
	unregister_wide_hw_breakpoint(bp);
	unregister_kprobe(&kp);
	kprobes_fast_paths_restore(&saved);
	KTEST_EXPECT_EQ(t, kprobe_set_step_design(KPROBE_SS_INT3), 0);

	KTEST_EXPECT_EQ(t, hwbp_shared_var, 0x1234);
	KTEST_EXPECT_EQ(t, post_calls, 1);
	KTEST_EXPECT_EQ(t, total_hits(&log), 1);
	ktest_info(t, "stepped with %s: %lu #BP, %lu #DB; hit reported at %pS, DR6 %#lx",
		   kprobe_step_design_name(design), tw.taken[X86_TRAP_BP],
		   tw.taken[X86_TRAP_DB], (void *)log.last_ip, log.last_dr6);
	KTEST_EXPECT_TRUE(t, log.last_dr6 & (DR_TRAP0 << bp->slot));
	if (tf) {
		/*
		 * One int3; one #DB on a real CPU, the step's end carrying
		 * both causes.  QEMU raises the watchpoint's half again on
		 * the #DB entry (arch/i386/traps.c,
		 * do_debug_late_breakpoint()): two.
		 */
		KTEST_EXPECT_EQ(t, tw.taken[X86_TRAP_BP], 1);
		KTEST_EXPECT_TRUE(t, tw.taken[X86_TRAP_DB] == 1 || tw.taken[X86_TRAP_DB] == 2);
		KTEST_EXPECT_TRUE(t, log.last_dr6 & DR_STEP);
		KTEST_EXPECT_TRUE(t, post_dr6 & DR_STEP);
	} else {
		KTEST_EXPECT_EQ(t, tw.taken[X86_TRAP_BP], 2);
		KTEST_EXPECT_EQ(t, tw.taken[X86_TRAP_DB], 1);
		KTEST_EXPECT_FALSE(t, log.last_dr6 & DR_STEP);
		KTEST_EXPECT_FALSE(t, post_dr6 & DR_STEP);	/* the post-handler ran from a #BP */
	}
}

static void step_and_watchpoint_one_db(struct ktest *t)
{
	step_and_watchpoint(t, KPROBE_SS_TF);
}

static void step_int3_and_watchpoint_own_db(struct ktest *t)
{
	step_and_watchpoint(t, KPROBE_SS_INT3);
}

/* ---- per-thread breakpoints ----------------------------------------------------------- */

static volatile unsigned long thread_var __attribute__((aligned(4)));
static struct hit_log thread_log;

struct thread_job {
	int cpu_after;		/* move here half-way (-1: stay) */
	bool watch;
	int ret;
};

static int write_rounds(void)
{
	for (int i = 0; i < THREAD_ROUNDS; i++) {
		hwbp_write32((void *)&thread_var, i);
		yield();
	}
	return 0;
}

static int thread_writer(void *arg)
{
	struct thread_job *job = arg;
	struct hw_breakpoint_attr attr = {
		.bp_addr = (unsigned long)&thread_var,
		.bp_len = HW_BREAKPOINT_LEN_4, .bp_type = HW_BREAKPOINT_W,
	};
	struct hw_breakpoint *bp = NULL;

	if (job->watch) {
		bp = register_thread_hw_breakpoint(current, &attr, log_hit, &thread_log);
		if (IS_ERR(bp))
			return job->ret = PTR_ERR(bp);
	}
	write_rounds();
	if (job->cpu_after >= 0) {
		kthread_bind(current, job->cpu_after);
		yield();	/* runs there from here on */
		if (smp_processor_id() != job->cpu_after)
			return job->ret = -EAGAIN;
		write_rounds();
	}
	if (bp)
		unregister_thread_hw_breakpoint(bp);
	return 0;
}

static void run_pair(struct ktest *t, struct thread_job *w, struct thread_job *o,
		     int cpu_w, int cpu_o)
{
	struct task_struct *a = kthread_create_on_cpu(thread_writer, w, cpu_w, "hwbp-watch");
	struct task_struct *b = kthread_create_on_cpu(thread_writer, o, cpu_o, "hwbp-other");

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_EXPECT_EQ(t, kthread_join(a), 0);
	KTEST_EXPECT_EQ(t, kthread_join(b), 0);
	KTEST_EXPECT_EQ(t, w->ret, 0);
}

/* Both threads on one CPU, switching at every yield: only the watcher's writes hit. */
static void thread_bp_follows_switches(struct ktest *t)
{
	struct thread_job w = { .cpu_after = -1, .watch = true };
	struct thread_job o = { .cpu_after = -1, .watch = false };

	thread_log = (struct hit_log){};
	run_pair(t, &w, &o, 0, 0);
	KTEST_EXPECT_EQ(t, total_hits(&thread_log), THREAD_ROUNDS);
	KTEST_EXPECT_EQ(t, this_cpu_read(cpu_dr7), 0);	/* nothing left behind here */
}

/* The watcher moves to CPU 1 half-way; the other thread stays on CPU 0. */
static void thread_bp_follows_cpus(struct ktest *t)
{
	struct thread_job w = { .cpu_after = 1, .watch = true };
	struct thread_job o = { .cpu_after = -1, .watch = false };

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU");
		return;
	}
	thread_log = (struct hit_log){};
	run_pair(t, &w, &o, 0, 0);
	KTEST_EXPECT_EQ(t, thread_log.hits[0], THREAD_ROUNDS);
	KTEST_EXPECT_EQ(t, thread_log.hits[1], THREAD_ROUNDS);
}

/*
 * Registered by another thread, while the watched one is alive and
 * switching (on another CPU when there is one); the watched thread then
 * exits with its breakpoint still registered, which frees the slot.
 */
static volatile int remote_go;

static int remote_writer(void *unused)
{
	(void)unused;
	while (!READ_ONCE(remote_go))
		yield();
	return write_rounds();
}

static void thread_bp_registered_from_outside(struct ktest *t)
{
	struct hw_breakpoint_attr attr = {
		.bp_addr = (unsigned long)&thread_var,
		.bp_len = HW_BREAKPOINT_LEN_4, .bp_type = HW_BREAKPOINT_W,
	};
	int cpu = num_online_cpus() > 1 ? 1 : 0;
	struct task_struct *th;
	struct hw_breakpoint *bp, *wide[HBP_NUM];
	struct hit_log log = {};
	int n, got = 0;

	thread_log = (struct hit_log){};
	remote_go = 0;
	th = kthread_create_on_cpu(remote_writer, NULL, cpu, "hwbp-remote");
	KTEST_ASSERT_TRUE(t, th != NULL);
	bp = register_thread_hw_breakpoint(th, &attr, log_hit, &thread_log);
	KTEST_EXPECT_FALSE(t, IS_ERR(bp));
	write_rounds();			/* this thread's writes: no hit */
	WRITE_ONCE(remote_go, 1);
	KTEST_EXPECT_EQ(t, kthread_join(th), 0);
	KTEST_EXPECT_EQ(t, total_hits(&thread_log), IS_ERR(bp) ? 0 : THREAD_ROUNDS);
	/* Its slot went with it: all four are free for wide breakpoints. */
	for (n = 0; n < HBP_NUM; n++) {
		wide[n] = watch(&watched[n], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log);
		got += !IS_ERR(wide[n]);
	}
	KTEST_EXPECT_EQ(t, got, HBP_NUM);
	for (n = 0; n < HBP_NUM; n++)
		if (!IS_ERR(wide[n]))
			unregister_wide_hw_breakpoint(wide[n]);
}

/* A thread's slots: four, then -ENOSPC; a wide one finds none free either. */
static void thread_slots_run_out(struct ktest *t)
{
	struct hw_breakpoint *bp[HBP_NUM], *more;
	struct hit_log log = {};
	int n;

	for (n = 0; n < HBP_NUM; n++) {
		struct hw_breakpoint_attr attr = {
			.bp_addr = (unsigned long)&watched[n],
			.bp_len = HW_BREAKPOINT_LEN_4, .bp_type = HW_BREAKPOINT_W,
		};

		bp[n] = register_thread_hw_breakpoint(current, &attr, log_hit, &log);
		KTEST_ASSERT_FALSE(t, IS_ERR(bp[n]));
	}
	more = register_thread_hw_breakpoint(current, &(struct hw_breakpoint_attr){
		(unsigned long)&watched[0], HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W }, log_hit, &log);
	KTEST_EXPECT_EQ(t, PTR_ERR(more), -ENOSPC);
	more = watch(&watched[0], HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W, &log);
	KTEST_EXPECT_EQ(t, PTR_ERR(more), -ENOSPC);
	hwbp_write32(&watched[3], 1);
	KTEST_EXPECT_EQ(t, total_hits(&log), 1);
	for (n = 0; n < HBP_NUM; n++)
		unregister_thread_hw_breakpoint(bp[n]);
	KTEST_EXPECT_EQ(t, current->debugreg.dr7, 0);
	KTEST_EXPECT_EQ(t, this_cpu_read(cpu_dr7), 0);
}

/* ---- wide breakpoints: every CPU ------------------------------------------------------ */

static void write_watched(void *unused)
{
	(void)unused;
	hwbp_write32(&watched[2], smp_processor_id());
}

static void wide_bp_fires_on_every_cpu(struct ktest *t)
{
	struct hit_log log = {};
	struct hw_breakpoint *bp = watch(&watched[2], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log);
	int cpu;

	KTEST_ASSERT_FALSE(t, IS_ERR(bp));
	on_each_cpu(write_watched, NULL, 1);
	unregister_wide_hw_breakpoint(bp);
	ktest_info(t, "%u CPUs", num_online_cpus());
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, log.hits[cpu], 1);
	KTEST_EXPECT_EQ(t, total_hits(&log), (int)num_online_cpus());
}

/* ---- the slots, bad input, and DR7 given back ----------------------------------------- */

static void fifth_slot_enospc(struct ktest *t)
{
	struct hw_breakpoint *bp[HBP_NUM + 1];
	struct hit_log log = {};
	int n;

	for (n = 0; n < HBP_NUM; n++) {
		bp[n] = watch(&watched[n], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log);
		KTEST_EXPECT_FALSE(t, IS_ERR(bp[n]));
	}
	bp[HBP_NUM] = watch(&watched[0], HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W, &log);
	KTEST_EXPECT_EQ(t, PTR_ERR(bp[HBP_NUM]), -ENOSPC);
	for (n = 0; n < HBP_NUM; n++)
		if (!IS_ERR(bp[n]))
			unregister_wide_hw_breakpoint(bp[n]);
}

static void bad_input_einval(struct ktest *t)
{
	unsigned long before[NR_CPUS], after[NR_CPUS];
	char *base = (char *)&watched[0];
	struct hit_log log = {};
	int cpu;

	snapshot_dr7(before);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base, 3, HW_BREAKPOINT_W, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base, 8, HW_BREAKPOINT_W, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base + 1, HW_BREAKPOINT_LEN_2, HW_BREAKPOINT_W, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base + 2, HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_RW, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base, HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_R, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base, HW_BREAKPOINT_LEN_4, 0, &log)), -EINVAL);
	/* Execute: length 1 only, on text, not on the #DB path. */
	KTEST_EXPECT_EQ(t, PTR_ERR(watch((void *)hwbp_exec_target, HW_BREAKPOINT_LEN_4,
					 HW_BREAKPOINT_X, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(base, HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_X, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(watch((void *)exc_debug, HW_BREAKPOINT_LEN_1,
					 HW_BREAKPOINT_X, &log)), -EINVAL);
	/* Data: a mapped page; NULL's is not. */
	KTEST_EXPECT_EQ(t, PTR_ERR(watch(NULL, HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log)), -EINVAL);
	KTEST_EXPECT_EQ(t, PTR_ERR(register_wide_hw_breakpoint(NULL, log_hit, &log)), -EINVAL);
	snapshot_dr7(after);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, after[cpu], before[cpu]);
}

static void unregister_restores_dr7(struct ktest *t)
{
	unsigned long before[NR_CPUS], during[NR_CPUS], after[NR_CPUS];
	struct hit_log log = {};
	struct hw_breakpoint *a, *b;
	int cpu;

	snapshot_dr7(before);
	a = watch(&watched[0], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &log);
	b = watch((void *)hwbp_exec_target, HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_X, &log);
	KTEST_ASSERT_FALSE(t, IS_ERR(a) || IS_ERR(b));
	snapshot_dr7(during);
	unregister_wide_hw_breakpoint(b);
	unregister_wide_hw_breakpoint(a);
	snapshot_dr7(after);
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_NE(t, during[cpu], before[cpu]);
		KTEST_EXPECT_EQ(t, during[cpu], during[0]);	/* the same slots everywhere */
		KTEST_EXPECT_EQ(t, after[cpu], before[cpu]);
	}
}

/* ---- narration: the next hit of each breakpoint is told ----------------------------- */

static int count_in(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void narrated_once_per_breakpoint(struct ktest *t)
{
	struct hit_log wlog = {}, xlog = {};
	struct hw_breakpoint *w, *x;
	const char *out;

	w = watch(&watched[0], HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_W, &wlog);
	x = watch((void *)hwbp_exec_target, HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_X, &xlog);
	KTEST_ASSERT_FALSE(t, IS_ERR(w) || IS_ERR(x));
	kprobe_narrate_set(true);
	ktest_capture_start();
	hwbp_write32(&watched[0], 1);
	hwbp_write32(&watched[0], 2);
	hwbp_exec_target(1);
	hwbp_exec_target(2);
	ktest_capture_stop();
	kprobe_narrate_set(false);
	unregister_wide_hw_breakpoint(x);
	unregister_wide_hw_breakpoint(w);
	out = ktest_captured();
	KTEST_EXPECT_EQ(t, total_hits(&wlog), 2);
	KTEST_EXPECT_EQ(t, total_hits(&xlog), 2);
	KTEST_EXPECT_EQ(t, count_in(out, "a data breakpoint is a trap"), 1);
	KTEST_EXPECT_EQ(t, count_in(out, "an execute breakpoint is a fault"), 1);
	KTEST_EXPECT_EQ(t, count_in(out, "hw_breakpoint_handler -> the triggered callback"), 2);
}

/* ---- the shell's watch ------------------------------------------------------------ */

/* `watch jiffies w`: the tick's jiffies++ in timer_interrupt() is the writer. */
static void shell_watch_jiffies(struct ktest *t)
{
	static char said[512];
	struct seq_buf sh;
	int ret;

	seq_buf_init(&sh, said, sizeof(said));
	ktest_capture_start();
	ret = shell_exec("watch jiffies w", &sh);
	msleep(50);	/* a few ticks */
	shell_exec("unwatch all", &sh);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_TRUE(t, strstr(said, "watch 0: jiffies (") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(),
				    "watch 0: jiffies written by timer_interrupt+") != NULL);
	KTEST_EXPECT_EQ(t, this_cpu_read(cpu_dr7), 0);
}

static struct ktest_case hw_breakpoint_cases[] = {
	KTEST_CASE(dr7_encodes_slot),
	KTEST_CASE(write_watch_once_per_write),
	KTEST_CASE(rw_watch_reads_and_writes),
	KTEST_CASE(lengths_and_unaligned_access),
	KTEST_CASE(execute_bp_fires_once_per_call),
	KTEST_CASE(step_and_watchpoint_one_db),
	KTEST_CASE(step_int3_and_watchpoint_own_db),
	KTEST_CASE(thread_bp_follows_switches),
	KTEST_CASE(thread_bp_follows_cpus),
	KTEST_CASE(thread_bp_registered_from_outside),
	KTEST_CASE(thread_slots_run_out),
	KTEST_CASE(wide_bp_fires_on_every_cpu),
	KTEST_CASE(fifth_slot_enospc),
	KTEST_CASE(bad_input_einval),
	KTEST_CASE(unregister_restores_dr7),
	KTEST_CASE(narrated_once_per_breakpoint),
	KTEST_CASE(shell_watch_jiffies),
	KTEST_END
};

static struct ktest_suite hw_breakpoint_suite = {
	.name = "hw_breakpoint",
	.cases = hw_breakpoint_cases,
};
KTEST_SUITE(hw_breakpoint_suite);
