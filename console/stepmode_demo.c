/*
 * stepmode_demo.c - why kprobes steps a copy in a slot, measured:
 * the shell's `stepmode [N]`.
 *
 * Every online CPU calls stepmode_target() N times at once, with a
 * classic kprobe on the first of its instructions that a hit steps: the
 * int3 handler may emulate the first one (push %ebp, when the debugfs
 * emulate switch is on), and an emulated hit steps nowhere.  The demo
 * changes no switch but the step mode it is there to compare.  Each call that reaches the
 * int3 is a hit (the probe's nhit); calls minus hits are the calls the
 * probe never saw.  Run once with the instruction stepped in place
 * (kprobes.stepmode=inline: the int3 leaves the text during each step)
 * and once out of line (the slot: the int3 never leaves):
 *
 *   kprobes# stepmode
 *   2 CPUs x 2000 calls of stepmode_target(), probed at its first stepped instruction
 *   inline: 3412 of 4000 calls hit, 588 missed; outofline: 4000 of 4000 calls hit, 0 missed
 *
 * The probe has a post-handler, so it is neither boosted nor optimized
 * in outofline mode either: both runs take the classic int3 + #DB path
 * and differ only in where the step happens.  The figures stay in
 * /sys/kernel/debug/kprobes/stepmode.  With one CPU nobody can run
 * through the open window: both runs hit every call.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kallsyms.h"
#include "kprobes_stepmode.h"
#include <asm/atomic.h>
#include "mutex.h"
#include <asm/processor.h>
#include "sched.h"
#include "shell.h"
#include "smp.h"
#include "string.h"
#include "timer.h"
#include "errno.h"
#include "vsprintf.h"

#define STEPMODE_DEMO_CALLS	2000	/* calls on each CPU, by default */
#define STEPMODE_DEMO_MAX	100000
#define DEMO_SLEEP_MS		1

/* notrace: the demonstration steps its first instruction, which a call site would put on ftrace. */
noinline notrace int stepmode_target(int x)
{
	barrier();
	return 2 * x + 1;
}

/* One CPU's share. */
struct demo_cpu {
	unsigned long calls;
	unsigned long wrong;
};

static struct demo_cpu demo_cpus[NR_CPUS];
static unsigned long demo_calls_per_cpu;
static atomic_t demo_ready;
static volatile bool demo_go;
static DEFINE_MUTEX(demo_mutex);	/* one demonstration at a time */

static void demo_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	/* Only there to keep the probe classic: no boost, no jump. */
}

static struct kprobe demo_kp;

/*
 * Register demo_kp on the first instruction of stepmode_target() that a
 * hit steps rather than emulates.  0 or a negative errno.
 */
static int register_demo_probe(void)
{
	unsigned long size, offset, at = (unsigned long)stepmode_target;
	int ret;

	if (!kallsyms_lookup(at, &size, &offset))
		return -ENOENT;
	while (at < (unsigned long)stepmode_target + size) {
		demo_kp = (struct kprobe){ .addr = (kprobe_opcode_t *)at,
					   .post_handler = demo_post };
		ret = register_kprobe(&demo_kp);
		if (ret || !kprobe_emulates(&demo_kp))
			return ret;
		at += demo_kp.ainsn.decoded.length;
		unregister_kprobe(&demo_kp);
	}
	return -EILSEQ;
}

static int demo_thread(void *arg)
{
	struct demo_cpu *c = arg;

	atomic_inc(&demo_ready);
	while (!READ_ONCE(demo_go))
		cpu_relax();		/* every CPU starts calling at the same moment */
	for (unsigned long i = 0; i < demo_calls_per_cpu; i++) {
		if (stepmode_target((int)i) != 2 * (int)i + 1)
			c->wrong++;
		c->calls++;
	}
	return 0;
}

/* demo_calls_per_cpu calls on every online CPU at once; sums into run. */
static void call_on_every_cpu(struct stepmode_run *run)
{
	struct task_struct *threads[NR_CPUS];
	int cpu, n = 0;

	atomic_set(&demo_ready, 0);
	demo_go = false;
	for_each_online_cpu(cpu) {
		demo_cpus[cpu] = (struct demo_cpu){ 0 };
		threads[cpu] = kthread_create_on_cpu(demo_thread, &demo_cpus[cpu], cpu,
						     "stepmode");
		n += threads[cpu] != NULL;
	}
	while (atomic_read(&demo_ready) < n)
		msleep(DEMO_SLEEP_MS);
	WRITE_ONCE(demo_go, true);
	for_each_online_cpu(cpu) {
		if (!threads[cpu])
			continue;
		kthread_join(threads[cpu]);
		run->cpus++;
		run->calls += demo_cpus[cpu].calls;
		run->wrong += demo_cpus[cpu].wrong;
	}
}

int stepmode_demo(enum kprobe_stepmode mode, unsigned long calls_per_cpu,
		  struct stepmode_run *run)
{
	enum kprobe_stepmode before = READ_ONCE(kprobe_stepmode);
	int ret;

	memset(run, 0, sizeof(*run));
	if (calls_per_cpu == 0 || calls_per_cpu > STEPMODE_DEMO_MAX)
		return -EINVAL;
	mutex_lock(&demo_mutex);
	ret = kprobe_set_stepmode(mode);
	if (ret)
		goto out;
	ret = register_demo_probe();
	if (ret == 0) {
		demo_calls_per_cpu = calls_per_cpu;
		call_on_every_cpu(run);
		run->hits = demo_kp.nhit;
		unregister_kprobe(&demo_kp);
		kprobe_stepmode_record(mode, run);
	}
	kprobe_set_stepmode(before);
out:
	mutex_unlock(&demo_mutex);
	return ret;
}

/* `stepmode [N]`: both modes, one line. */
int cmd_stepmode(int argc, char **argv)
{
	static const enum kprobe_stepmode order[] = { KPROBE_STEP_INLINE, KPROBE_STEP_OUTOFLINE };
	struct stepmode_run r[ARRAY_SIZE(order)];
	unsigned long n = STEPMODE_DEMO_CALLS;
	int ret;

	if (argc > 2 || (argc == 2 && (kstrtoul(argv[1], 0, &n) || n == 0 ||
				       n > STEPMODE_DEMO_MAX))) {
		sh_printf("usage: stepmode [N]: N calls on each CPU, 1..%d\n", STEPMODE_DEMO_MAX);
		return -EINVAL;
	}
	sh_printf("%d CPUs x %lu calls of stepmode_target(), probed at its first stepped instruction\n",
		  num_online_cpus(), n);
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		ret = stepmode_demo(order[i], n, &r[i]);
		if (ret) {
			sh_printf("stepmode %s: %s\n", kprobe_stepmode_name(order[i]),
				  shell_strerror(ret));
			return ret;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		sh_printf("%s: %lu of %lu calls hit, %lu missed%s", kprobe_stepmode_name(order[i]),
			  r[i].hits, r[i].calls, r[i].calls - r[i].hits,
			  i + 1 < ARRAY_SIZE(order) ? "; " : "\n");
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (r[i].wrong)
			sh_printf("%s: %lu calls returned a wrong result!\n",
				  kprobe_stepmode_name(order[i]), r[i].wrong);
	return 0;
}
