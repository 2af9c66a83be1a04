/*
 * kprobes_debugfs.c - /sys/kernel/debug/kprobes, as in Linux:
 *
 *   list       every registered probe: "addr  k  sym+off  [DISABLED]";
 *              for the optimizer's candidates [OPTIMIZED], [WAITING: ...]
 *              (queued: what the optimizer will decide, its analysis run
 *              now; or a preempted thread is in the way) or
 *              [NOT OPTIMIZED: why], also for a probe whose handlers keep
 *              it an int3 while optimization is on
 *   profile    the list line of every probe with its hits and misses
 *              (ours, not Linux's: its kprobe_profile counts events only)
 *   enabled    1/0: the global switch.  0 takes every int3 out of the
 *              text and 1 puts back those whose probe is enabled; each
 *              probe's own enabled state is kept (arm_all_kprobes /
 *              disarm_all_kprobes in probes/kprobes.c)
 *   blacklist  the address ranges no probe may go: "0xstart-0xend\tsym"
 *   narrate    1: the next hit of each probe prints every step of the
 *              int3 / single-step dance as it happens (ours, not Linux's)
 *   optimize   1/0: jump-optimize probes where the site allows (Linux's
 *              sysctl debug.kprobes-optimization).  1 queues them for
 *              the optimizer thread and returns at once; 0 turns every
 *              jump back into an int3 before it returns (probes/optprobes.c)
 *   boost      1/0: let a stepped instruction's slot jump straight back,
 *              so later hits take one exception (arch/i386/kprobes/boost.c)
 *   emulate    1/0: compute branches, calls, returns, pushes, pops and nops
 *              on pt_regs in the int3 handler instead of stepping them, as
 *              Linux 5.13+ (arch/i386/kprobes/emulate.c; ours: Linux
 *              always emulates)
 *   stepmode   outofline/inline: step the probed instruction's copy in its
 *              slot, or the instruction itself in place (the naive design
 *              that misses other CPUs' hits); the last demonstration's
 *              hits and calls (arch/i386/kprobes/stepmode.c)
 *   step       int3/tf: how a stepped hit ends - the int3 after the copy
 *              in the slot (as Linux 6.1) or a TF #DB (2005); refused
 *              with EBUSY while probes are registered
 *              (arch/i386/kprobes/step_design.c)
 */
#include "kernel.h"
#include "trace.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "pseudofs.h"
#include "kallsyms.h"
#include "errno.h"
#include "narrate.h"
#include "kprobes_stepmode.h"

/* One line per probe, by list's or profile's formatter. */
typedef int (*sprint_probe_t)(char *buf, size_t len, const struct kprobe *p);

struct probe_lines {
	struct seq_buf *s;
	sprint_probe_t sprint;
};

static int probe_line(struct kprobe *p, void *data)
{
	struct probe_lines *pl = data;
	char line[192];

	pl->sprint(line, sizeof(line), p);
	seq_buf_printf(pl->s, "%s\n", line);
	return 0;
}

static int show_probe_lines(struct seq_buf *s, sprint_probe_t sprint)
{
	struct probe_lines pl = { .s = s, .sprint = sprint };

	kprobes_for_each(probe_line, &pl);
	kprobes_for_each_gone(probe_line, &pl);	/* [GONE]: their module unloaded */
	return 0;
}

static int list_show(struct seq_buf *s, void *data)
{
	return show_probe_lines(s, sprint_kprobe);
}

static int profile_show(struct seq_buf *s, void *data)
{
	return show_probe_lines(s, sprint_kprobe_profile);
}

static int blacklist_one(void *data, unsigned long start, unsigned long end)
{
	unsigned long size, offset;
	const char *name = kallsyms_lookup(start, &size, &offset);

	seq_buf_printf(data, "0x%08lx-0x%08lx\t%s\n", start, end, name ? name : "?");
	return 0;
}

static int blacklist_show(struct seq_buf *s, void *data)
{
	kprobe_blacklist_for_each(blacklist_one, s);
	return 0;
}

/* "0"/"1" plus echo's newline. */
static int parse_01(const char *text, size_t len, bool *on)
{
	if (len == 0 || len > 2 || (len == 2 && text[1] != '\n') ||
	    (text[0] != '0' && text[0] != '1'))
		return -EINVAL;
	*on = text[0] == '1';
	return 0;
}

static int enabled_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", !kprobes_all_disarmed);
	return 0;
}

static int enabled_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	if (on)
		arm_all_kprobes();
	else
		disarm_all_kprobes();
	return 0;
}

static int narrate_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", kprobe_narrate_enabled);
	return 0;
}

static int narrate_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	kprobe_narrate_set(on);
	return 0;
}

static int optimize_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", kprobes_get_optimization());
	return 0;
}

static int optimize_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	return kprobes_set_optimization(on);
}

static int boost_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", kprobes_get_boosting());
	return 0;
}

static int boost_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	return kprobes_set_boosting(on);
}

static int emulate_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", kprobes_get_emulation());
	return 0;
}

static int emulate_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	return kprobes_set_emulation(on);
}

/* Which design the hits use, and what kprobe_lock cost each CPU. */
static int lock_show(struct seq_buf *s, void *data)
{
	struct kprobe_lock_stats sum;
	int cpu;

	seq_buf_printf(s, "mode %s\n", kprobes_global_lock ? "global" : "percpu");
	for_each_online_cpu(cpu) {
		const struct kprobe_lock_stats *st = &per_cpu(kprobe_lock_stats, cpu);

		seq_buf_printf(s, "cpu%d taken %lu contended %lu spin_cycles %llu\n", cpu,
			   st->taken, st->contended, (unsigned long long)st->spin_cycles);
	}
	kprobe_lock_stats_sum(&sum);
	seq_buf_printf(s, "all  taken %lu contended %lu spin_cycles %llu\n", sum.taken,
		   sum.contended, (unsigned long long)sum.spin_cycles);
	return 0;
}

/* Writing 0 clears the figures (a benchmark run starts from zero). */
static int lock_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on) || on)
		return -EINVAL;
	kprobe_lock_stats_reset();
	return 0;
}

/*
 * ftrace: 1 (the default) puts new probes on call sites on ftrace, 0 on
 * an int3 (probes already registered keep their way until re-registered).
 */
static int ftrace_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(kprobes_on_ftrace));
	return 0;
}

static int ftrace_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	WRITE_ONCE(kprobes_on_ftrace, on);
	return 0;
}

/*
 * rethook: 1 (the default) makes new kretprobes return through rethook,
 * 0 through kretprobe_trampoline (those on ftrace stay on rethook).
 */
static int rethook_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(kretprobe_on_rethook));
	return 0;
}

static int rethook_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_01(text, len, &on))
		return -EINVAL;
	WRITE_ONCE(kretprobe_on_rethook, on);
	return 0;
}

static const struct pseudo_file_spec kprobes_debug_files[] = {
	{ "list",      list_show,      NULL },
	{ "profile",   profile_show,   NULL },
	{ "enabled",   enabled_show,   enabled_write },
	{ "blacklist", blacklist_show, NULL },
	{ "narrate",   narrate_show,   narrate_write },
	{ "optimize",  optimize_show,  optimize_write },
	{ "boost",     boost_show,     boost_write },
	{ "emulate",   emulate_show,   emulate_write },
	{ "ftrace",    ftrace_show,    ftrace_write },
	{ "rethook",   rethook_show,   rethook_write },
	{ "lock",      lock_show,      lock_write },
	{ "stepmode",  kprobe_stepmode_show, kprobe_stepmode_write },	/* arch/i386/kprobes/stepmode.c */
	{ "step",      kprobe_step_design_show, kprobe_step_design_write },	/* arch/i386/kprobes/step_design.c */
};

int kprobes_debugfs_init(void)
{
	return pseudofs_create_files(KPROBES_DEBUG_DIR, kprobes_debug_files,
				     ARRAY_SIZE(kprobes_debug_files));
}
