// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe_bench.c - what one probe hit costs on Debian's Linux 6.1, measured
 * the way this kernel's tests/kernel/bench.c measures it, so the two can
 * stand in one table (tests/bench_linux.py, `make bench-linux`).
 *
 * A Linux module, built against Debian's linux-headers with kbuild and
 * loaded in a QEMU guest booted with -icount shift=0: there the TSC
 * advances by one per guest instruction, so rdtsc deltas are guest
 * instructions.  For each row it arms one kind of probe on an almost empty
 * function, calls that function `iters` times with interrupts off, checks
 * that the probe took the row's path and prints one line:
 *
 *   BENCH row="kprobe (pre)" mode=int3-stepped iters=20000 hits=20000 tsc=... \
 *         tsc_per_hit=... exceptions_per_hit=2.00 exceptions_from=path
 *
 * Linux turns jump optimization on and off for all probes at once
 * (/proc/sys/debug/kprobes-optimization), so the module runs in two halves:
 * optimize=0 measures the rows that must not be optimized, optimize=1 the
 * optimized ones.  The initramfs's /init flips the switch between them.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <asm/msr.h>
#include <asm/text-patching.h>

#define BENCH_WARMUP_ITERS	100	/* let QEMU translate the code first */
#define BENCH_OPT_WAIT_MS	10	/* poll step while the optimizer works */
#define BENCH_OPT_WAIT_STEPS	500	/* Linux's optimizer runs after a delay */
#define BENCH_LINE_MAX		256

static unsigned long iters = 20000;
module_param(iters, ulong, 0444);
MODULE_PARM_DESC(iters, "calls per row");

static int optimize;
module_param(optimize, int, 0444);
MODULE_PARM_DESC(optimize, "the value /init wrote to /proc/sys/debug/kprobes-optimization");

/* The probed functions: the same bytes as this kernel's bench rows probe. */
void bench_target(void);	/* bench_target.S */
void bench_target_jmp(void);	/* bench_targets.S */
void bench_target_call(void);

/*
 * A C function that ftrace knows: Debian builds with -pg -mfentry, so its
 * first instruction is the 5-byte call __fentry__ (a nop until traced),
 * and a kprobe on its address goes through ftrace (KPROBES_ON_FTRACE).
 */
static unsigned long bench_ftrace_calls;

static noinline void bench_ftrace_target(void)
{
	WRITE_ONCE(bench_ftrace_calls, bench_ftrace_calls + 1);
}

/* ---- the probes ------------------------------------------------------------- */

static unsigned long bench_hits, bench_post_hits;
static struct kprobe bench_kp;
static struct kretprobe bench_rp;

static int bench_pre(struct kprobe *p, struct pt_regs *regs)
{
	bench_hits++;
	return 0;
}

/* Linux 6.1 runs the post handler from the int3 that follows the copy. */
static void bench_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	bench_post_hits++;
}

static int bench_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bench_hits++;
	return 0;
}

static int arm_kprobe_on(void (*fn)(void), kprobe_post_handler_t post)
{
	bench_kp = (struct kprobe){ .addr = (kprobe_opcode_t *)fn,
				    .pre_handler = bench_pre, .post_handler = post };
	return register_kprobe(&bench_kp);
}

static int arm_kretprobe_on(void (*fn)(void))
{
	bench_rp = (struct kretprobe){ .kp.addr = (kprobe_opcode_t *)fn,
				       .handler = bench_ret };
	return register_kretprobe(&bench_rp);
}

static int arm_kprobe(void)          { return arm_kprobe_on(bench_target, NULL); }
static int arm_kprobe_post(void)     { return arm_kprobe_on(bench_target, bench_post); }
static int arm_kprobe_jmp(void)      { return arm_kprobe_on(bench_target_jmp, NULL); }
static int arm_kprobe_call(void)     { return arm_kprobe_on(bench_target_call, NULL); }
static int arm_kprobe_ftrace(void)   { return arm_kprobe_on(bench_ftrace_target, NULL); }
static int arm_kretprobe(void)       { return arm_kretprobe_on(bench_target); }
static int arm_kretprobe_ftrace(void) { return arm_kretprobe_on(bench_ftrace_target); }
static void disarm_kprobe(void)      { unregister_kprobe(&bench_kp); }
static void disarm_kretprobe(void)   { unregister_kretprobe(&bench_rp); }

static int bench_pre_quiet(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* Both on one address: Linux makes an aggregate probe, one int3 for the two. */
static int arm_kretprobe_kprobe(void)
{
	int err = arm_kretprobe();

	if (err)
		return err;
	bench_kp = (struct kprobe){ .addr = (kprobe_opcode_t *)bench_target,
				    .pre_handler = bench_pre_quiet };	/* hits: the kretprobe's */
	err = register_kprobe(&bench_kp);
	if (err)
		disarm_kretprobe();
	return err;
}

static void disarm_kretprobe_kprobe(void) { disarm_kprobe(); disarm_kretprobe(); }

/* ---- paths ------------------------------------------------------------------- */

/*
 * What a hit goes through.  The first byte of the probed instruction tells
 * which: int3 (0xcc) for the trap paths, a jmp rel32 (0xe9) once the
 * optimizer has put the detour in, ftrace's call for an fentry site.
 */
enum bench_path {
	BENCH_PLAIN,		/* no probe */
	BENCH_STEPPED,		/* int3, the copy, a second int3 after it */
	BENCH_EMULATED,		/* int3, the instruction emulated on pt_regs */
	BENCH_OPTIMIZED,	/* jmp to the detour: no exception */
	BENCH_FTRACE,		/* ftrace's call at the fentry site: no exception */
};

static const char *const bench_path_names[] = {
	[BENCH_PLAIN] = "plain",
	[BENCH_STEPPED] = "int3-stepped",
	[BENCH_EMULATED] = "emulated",
	[BENCH_OPTIMIZED] = "optimized",
	[BENCH_FTRACE] = "ftrace",
};

/* Exceptions per hit that each path takes by its design. */
static const unsigned int bench_path_exceptions[] = {
	[BENCH_PLAIN] = 0, [BENCH_STEPPED] = 2, [BENCH_EMULATED] = 1,
	[BENCH_OPTIMIZED] = 0, [BENCH_FTRACE] = 0,
};

static u8 first_byte(void (*fn)(void))
{
	return *(const u8 *)fn;
}

static bool path_taken(enum bench_path path, struct kprobe *kp, void (*fn)(void))
{
	switch (path) {
	case BENCH_STEPPED:
		return first_byte(fn) == INT3_INSN_OPCODE && !kp->ainsn.emulate_op &&
		       !kp->ainsn.boostable;
	case BENCH_EMULATED:
		return first_byte(fn) == INT3_INSN_OPCODE && kp->ainsn.emulate_op;
	case BENCH_OPTIMIZED:
		return first_byte(fn) == JMP32_INSN_OPCODE;
	case BENCH_FTRACE:
		return kp->flags & KPROBE_FLAG_FTRACE;
	default:
		return true;
	}
}

/* Linux optimizes a probe from a work queue, OPTIMIZE_DELAY after register. */
static void wait_for_optimizer(void (*fn)(void))
{
	int i;

	for (i = 0; i < BENCH_OPT_WAIT_STEPS && first_byte(fn) != JMP32_INSN_OPCODE; i++)
		msleep(BENCH_OPT_WAIT_MS);
}

/* ---- the table ----------------------------------------------------------------- */

struct bench_row {
	const char *name;
	int optimize;		/* the half that runs it */
	int (*arm)(void);	/* NULL: nothing to arm */
	void (*disarm)(void);
	void (*target)(void);
	enum bench_path path;
	struct kprobe *kp;	/* the kprobe whose path is checked */
	bool own_base;		/* also time the target unprobed */
};

static const struct bench_row bench_rows[] = {
	{ "no probe", 0, NULL, NULL, bench_target, BENCH_PLAIN, NULL, false },
	{ "kprobe (pre)", 0, arm_kprobe, disarm_kprobe, bench_target, BENCH_STEPPED,
	  &bench_kp, false },
	/* A post handler keeps Linux from optimizing the probe, whatever the switch. */
	{ "kprobe (pre+post)", 0, arm_kprobe_post, disarm_kprobe, bench_target,
	  BENCH_STEPPED, &bench_kp, false },
	{ "optimized", 1, arm_kprobe, disarm_kprobe, bench_target, BENCH_OPTIMIZED,
	  &bench_kp, false },
	{ "emulated (jmp)", 0, arm_kprobe_jmp, disarm_kprobe, bench_target_jmp,
	  BENCH_EMULATED, &bench_kp, true },
	{ "emulated (call)", 0, arm_kprobe_call, disarm_kprobe, bench_target_call,
	  BENCH_EMULATED, &bench_kp, true },
	{ "kretprobe", 0, arm_kretprobe, disarm_kretprobe, bench_target, BENCH_STEPPED,
	  &bench_rp.kp, false },
	{ "kretprobe, optimized entry", 1, arm_kretprobe, disarm_kretprobe, bench_target,
	  BENCH_OPTIMIZED, &bench_rp.kp, false },
	{ "kretprobe + kprobe", 0, arm_kretprobe_kprobe, disarm_kretprobe_kprobe, bench_target,
	  BENCH_STEPPED, &bench_rp.kp, false },
	{ "kprobe on ftrace", 0, arm_kprobe_ftrace, disarm_kprobe, bench_ftrace_target,
	  BENCH_FTRACE, &bench_kp, true },
	/* The return goes through rethook, as every kretprobe's does on 6.1. */
	{ "kretprobe on ftrace", 0, arm_kretprobe_ftrace, disarm_kretprobe,
	  bench_ftrace_target, BENCH_FTRACE, &bench_rp.kp, true },
};

/* ---- measuring ----------------------------------------------------------------- */

/*
 * Interrupts stay off for the whole loop: a timer tick would add the IRQ
 * handler's instructions to whichever row it landed in.
 */
static noinline u64 bench_loop(void (*target)(void))
{
	unsigned long flags, i;
	u64 t0, t;

	OPTIMIZER_HIDE_VAR(target);	/* one indirect call per iteration */
	local_irq_save(flags);
	for (i = 0; i < BENCH_WARMUP_ITERS; i++)
		target();
	WRITE_ONCE(bench_hits, 0);	/* handlers run behind the compiler's back */
	WRITE_ONCE(bench_post_hits, 0);
	t0 = rdtsc();
	for (i = 0; i < iters; i++)
		target();
	t = rdtsc() - t0;
	local_irq_restore(flags);
	return t;
}

/* " key=x/n" with two decimals, as this kernel prints it. */
static int put_ratio(char *buf, size_t size, const char *key, u64 x, unsigned long n)
{
	u64 hundredths = div64_u64(x * 100 + n / 2, n);
	u32 rem;
	u64 whole = div_u64_rem(hundredths, 100, &rem);	/* i386: no 64-bit % */

	return scnprintf(buf, size, " %s=%llu.%02u", key, whole, rem);
}

/*
 * Exceptions per hit: the pre+post row counts both int3s (the pre handler
 * runs from the first, the post handler from the second); the other rows
 * give what their checked path takes.
 */
static int put_exceptions(char *buf, size_t size, const struct bench_row *row)
{
	int n;

	if (row->arm == arm_kprobe_post) {
		n = put_ratio(buf, size, "exceptions_per_hit",
			      READ_ONCE(bench_hits) + READ_ONCE(bench_post_hits), iters);
		return n + scnprintf(buf + n, size - n, " exceptions_from=handlers");
	}
	return scnprintf(buf, size, " exceptions_per_hit=%u.00 exceptions_from=path",
			 bench_path_exceptions[row->path]);
}

static void bench_print(const struct bench_row *row, u64 tsc, u64 base)
{
	unsigned long hits = row->arm ? READ_ONCE(bench_hits) : iters;
	char line[BENCH_LINE_MAX];
	int n;

	n = scnprintf(line, sizeof(line), "BENCH row=\"%s\" mode=%s iters=%lu hits=%lu tsc=%llu",
		      row->name, bench_path_names[row->path], iters, hits, tsc);
	n += put_ratio(line + n, sizeof(line) - n, "tsc_per_hit", tsc, iters);
	if (row->own_base)
		n += put_ratio(line + n, sizeof(line) - n, "unprobed_per_hit", base, iters);
	n += put_exceptions(line + n, sizeof(line) - n, row);
	pr_info("%s\n", line);
	if (hits != iters)
		pr_info("BENCH row=\"%s\" error=hits %lu != iters %lu\n", row->name, hits, iters);
}

static void bench_one(const struct bench_row *row)
{
	u64 base = 0, tsc;
	bool taken;
	int err;

	if (row->own_base)
		base = bench_loop(row->target);
	err = row->arm ? row->arm() : 0;
	if (err) {
		pr_info("BENCH row=\"%s\" error=%d\n", row->name, err);
		return;
	}
	if (row->path == BENCH_OPTIMIZED)
		wait_for_optimizer(row->target);
	tsc = bench_loop(row->target);
	taken = path_taken(row->path, row->kp, row->target);
	if (row->disarm)
		row->disarm();
	if (!taken)
		pr_info("BENCH row=\"%s\" error=probe did not take the %s path (first byte %02x)\n",
			row->name, bench_path_names[row->path], first_byte(row->target));
	bench_print(row, tsc, base);
}

static int __init kprobe_bench_init(void)
{
	int i;

	if (!iters)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(bench_rows); i++)
		if (bench_rows[i].optimize == optimize)
			bench_one(&bench_rows[i]);
	if (!IS_ENABLED(CONFIG_FPROBE) && !optimize)
		pr_info("BENCH row=\"fprobe\" absent=\"CONFIG_FPROBE is not set\"\n");
	pr_info("BENCH done optimize=%d\n", optimize);
	return 0;
}

static void __exit kprobe_bench_exit(void)
{
}

module_init(kprobe_bench_init);
module_exit(kprobe_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("What a kprobe hit costs, row by row, as kprobes-i386's make bench measures it");
