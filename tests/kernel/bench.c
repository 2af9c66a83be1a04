/*
 * bench.c - what one probe hit costs, measured from inside the guest.
 *
 * Booted with "bench" (or "bench=ITERATIONS") on the command line, the
 * test image runs bench_run(), its "bench" boot mode, instead of the
 * shell, then leaves QEMU.  For each row of the table below we arm one
 * kind of probe on an empty function, call that function ITERATIONS
 * times with interrupts off, and print one line:
 *
 *   BENCH row="kprobe (pre)" iters=20000 hits=20000 tsc=... tsc_per_hit=93.50 \
 *         counted_iters=100 exceptions=200 bp=100 db=100 exceptions_per_hit=2.00
 *
 * tsc is the rdtsc delta over the whole loop.  Under QEMU with
 * "-icount shift=0" the TSC advances by exactly one per guest
 * instruction, so tsc_per_hit is then guest instructions per call
 * (docs/performance.md explains why).  exceptions counts every CPU
 * exception (vectors 0-31) taken during BENCH_COUNT_ITERS calls made
 * under a trap watch (trap_watch.h) before the timed loop: the watch's
 * notifier would add its own instructions to every timed exception
 * that reaches the chain.  A stepped row also checks them by vector:
 * one #BP and one #DB a hit stepped with TF, two #BP and no #DB stepped
 * with int3 (kprobes.step), or it prints an error line.
 *
 * tests/bench.py boots the test image twice (with and without icount) and turns
 * the lines into a table.  A new probe kind is a new row.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "errno.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include <asm/traps.h>
#include "vsprintf.h"
#include "mm.h"
#include "timer.h"
#include "kallsyms.h"
#include "workloads.h"
#include "sched.h"
#include "bench_sled.h"
#include "trap_watch.h"
#include "ftrace.h"
#include "fprobe.h"
#include "every_insn.h"
#include "bench.h"

#define BENCH_DEFAULT_ITERS	20000
#define BENCH_WARMUP_ITERS	100	/* let QEMU translate the code first */
#define BENCH_COUNT_ITERS	100	/* calls whose exceptions are counted */

/*
 * The probed function: next to nothing, but not empty, so the probe sits
 * on an ordinary instruction at a function entry, where most probes sit
 * (gcc gives a leaf like this no frame: the first instruction is the
 * 5-byte load of bench_calls).  An empty function would be a lone "ret".
 */
static volatile unsigned long bench_calls;

noinline void bench_target(void)
{
	bench_calls++;
}

/* Functions that start with a jmp, a push %ebp, a call (bench_targets.S). */
void bench_target_jmp(void);
void bench_target_push(void);
void bench_target_call(void);

/* ---- the probe each row arms --------------------------------------------- */

static unsigned long bench_hits;

static int bench_pre(struct kprobe *p, struct pt_regs *regs)
{
	bench_hits++;
	return 0;
}

static void bench_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
}

static struct kprobe bench_kp;

static int arm_kprobe(kprobe_pre_handler_t pre, kprobe_post_handler_t post)
{
	bench_kp = (struct kprobe){
		.addr = (kprobe_opcode_t *)bench_target,
		.pre_handler = pre,
		.post_handler = post,
	};
	return register_kprobe(&bench_kp);
}

static int arm_kprobe_pre(void)      { return arm_kprobe(bench_pre, NULL); }

static int arm_kprobe_at(void (*fn)(void))
{
	bench_kp = (struct kprobe){ .addr = (kprobe_opcode_t *)fn, .pre_handler = bench_pre };
	return register_kprobe(&bench_kp);
}

static int arm_kprobe_jmp(void)  { return arm_kprobe_at(bench_target_jmp); }
static int arm_kprobe_push(void) { return arm_kprobe_at(bench_target_push); }
static int arm_kprobe_call(void) { return arm_kprobe_at(bench_target_call); }

static int arm_kprobe_pre_post(void) { return arm_kprobe(bench_pre, bench_post); }
static void disarm_kprobe(void)      { unregister_kprobe(&bench_kp); }

/* jprobe and kretprobe rows (docs/jprobes.md, docs/kretprobes.md). */
static struct jprobe bench_jp;
static struct kretprobe bench_rp;

static void bench_jprobe_entry(void)
{
	bench_hits++;
	jprobe_return();
}

static int bench_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bench_hits++;
	return 0;
}

static int bench_pre_quiet(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int arm_jprobe(void)
{
	bench_jp = (struct jprobe){ .kp.addr = (kprobe_opcode_t *)bench_target,
				    .entry = bench_jprobe_entry };
	return register_jprobe(&bench_jp);
}

static int arm_kretprobe(void)
{
	bench_rp = (struct kretprobe){ .kp.addr = (kprobe_opcode_t *)bench_target,
				       .handler = bench_ret };
	return register_kretprobe(&bench_rp);
}

static int arm_kretprobe_kprobe(void)
{
	int err = arm_kretprobe();

	if (err)
		return err;
	err = arm_kprobe(bench_pre_quiet, NULL);	/* hits counted by the kretprobe */
	if (err)
		unregister_kretprobe(&bench_rp);
	return err;
}

/*
 * The ftrace rows (docs/ftrace.md): bench_fentry_0's call site, a kprobe
 * or a kretprobe on it riding on ftrace, or an fprobe on all
 * BENCH_FENTRY_FUNCS of them.
 */
void bench_fentry_0(void);

static int arm_kprobe_fentry(void) { return arm_kprobe_at(bench_fentry_0); }

static int arm_kretprobe_fentry(void)
{
	bench_rp = (struct kretprobe){ .kp.addr = (kprobe_opcode_t *)bench_fentry_0,
				       .handler = bench_ret };
	return register_kretprobe(&bench_rp);
}

static struct fprobe bench_fp;
_Static_assert(BENCH_FENTRY_FUNCS == 64, "the fprobe rows' names say 64 functions");

static void bench_fprobe_entry(struct fprobe *fp, unsigned long ip, struct pt_regs *regs)
{
	bench_hits++;
}

static void bench_fprobe_exit(struct fprobe *fp, unsigned long ip, struct pt_regs *regs)
{
}

static int arm_fprobe(bool exit)
{
	bench_fp = (struct fprobe){ .entry_handler = bench_fprobe_entry,
				    .exit_handler = exit ? bench_fprobe_exit : NULL };
	return register_fprobe(&bench_fp, "bench_fentry_*", NULL);
}

static int arm_fprobe_entry(void)      { return arm_fprobe(false); }
static int arm_fprobe_entry_exit(void) { return arm_fprobe(true); }
static void disarm_fprobe(void)        { unregister_fprobe(&bench_fp); }

static void disarm_jprobe(void)           { unregister_jprobe(&bench_jp); }
static void disarm_kretprobe(void)        { unregister_kretprobe(&bench_rp); }
static void disarm_kretprobe_kprobe(void) { disarm_kprobe(); disarm_kretprobe(); }

/* ---- the table --------------------------------------------------------------- */

struct bench_row {
	const char *name;
	int (*arm)(void);	/* NULL: nothing to arm */
	void (*disarm)(void);
	bool counts_hits;	/* bench_hits must reach the iteration count */
	enum bench_mode mode;
	void (*target)(void);	/* the function called; NULL: bench_target */
};

static const struct bench_row bench_rows[] = {
	/* A plain call and return. */
	{ "no probe", NULL, NULL, false, BENCH_CLASSIC, NULL },
	/* int3 -> pre handler -> single-step the copy with TF (#DB) -> fixup: 2005's. */
	{ "kprobe (pre)", arm_kprobe_pre, disarm_kprobe, true, BENCH_CLASSIC, NULL },
	/* The same, plus the post handler call from the #DB path. */
	{ "kprobe (pre+post)", arm_kprobe_pre_post, disarm_kprobe, true, BENCH_CLASSIC, NULL },
	/* int3 -> pre handler -> the copy, the int3 after it (#BP) -> fixup: Linux 6.1's. */
	{ "int3-stepped", arm_kprobe_pre, disarm_kprobe, true, BENCH_CLASSIC, NULL },
	/* The same, plus the post handler call from the second #BP. */
	{ "int3-stepped (pre+post)", arm_kprobe_pre_post, disarm_kprobe, true, BENCH_CLASSIC, NULL },
	/* int3 -> pre handler -> iret into the slot, whose jmp comes back. */
	{ "boosted", arm_kprobe_pre, disarm_kprobe, true, BENCH_BOOSTED, NULL },
	/* jmp -> detour: pt_regs, handler, iret -> copied insn -> jmp back. */
	{ "optimized", arm_kprobe_pre, disarm_kprobe, true, BENCH_OPTIMIZED, NULL },
	/* int3 on a jmp -> pre handler -> the jmp computed on regs, iret. */
	{ "emulated (jmp)", arm_kprobe_jmp, disarm_kprobe, true, BENCH_EMULATED,
	  bench_target_jmp },
	/* The same on push %ebp: the #BP exit moves the iret frame down a word. */
	{ "emulated (push %ebp)", arm_kprobe_push, disarm_kprobe, true, BENCH_EMULATED,
	  bench_target_push },
	/* The same on call rel32: a push and a jump. */
	{ "emulated (call)", arm_kprobe_call, disarm_kprobe, true, BENCH_EMULATED,
	  bench_target_call },
	/*
	 * int3 -> handler -> int3 in jprobe_return -> restore -> iret into
	 * the boosted copy (no #DB: Linux's setup_singlestep() boosted here).
	 */
	{ "jprobe", arm_jprobe, disarm_jprobe, true, BENCH_BOOSTED, NULL },
	/* A kprobe hit at entry, then the trampoline (no exception) at return. */
	{ "kretprobe", arm_kretprobe, disarm_kretprobe, true, BENCH_CLASSIC, NULL },
	/* The entry kprobe boosted (Linux's "rb"): no #DB; the return as above. */
	{ "kretprobe, boosted entry", arm_kretprobe, disarm_kretprobe, true,
	  BENCH_BOOSTED, NULL },
	/* The kretprobe's entry kprobe as a jump; the return as above. */
	{ "kretprobe, optimized entry", arm_kretprobe, disarm_kretprobe, true,
	  BENCH_OPTIMIZED, NULL },
	/* Both on one address: an aggregate probe, one int3 for the two. */
	{ "kretprobe + kprobe", arm_kretprobe_kprobe, disarm_kretprobe_kprobe, true,
	  BENCH_CLASSIC, NULL },
	/* call ftrace_regs_caller -> pt_regs -> kprobe_ftrace_handler -> pre handler. */
	{ "ftrace kprobe (entry)", arm_kprobe_fentry, disarm_kprobe, true, BENCH_FTRACE,
	  bench_fentry_0 },
	/* The same entry, rethook_hook(); the ret lands in arch_rethook_trampoline. */
	{ "ftrace kretprobe (rethook)", arm_kretprobe_fentry, disarm_kretprobe, true,
	  BENCH_FTRACE, bench_fentry_0 },
	/* One fprobe on every bench_fentry_* function (BENCH_FENTRY_FUNCS), called on one. */
	{ "fprobe on 64 functions (entry)", arm_fprobe_entry, disarm_fprobe, true,
	  BENCH_FTRACE, bench_fentry_0 },
	{ "fprobe on 64 functions (entry+exit)", arm_fprobe_entry_exit, disarm_fprobe, true,
	  BENCH_FTRACE, bench_fentry_0 },
};

/*
 * The stepped rows: the design that ends their step (kprobes.step; every
 * other row steps, if at all, with the default, int3) and the exceptions
 * one hit must take, by vector - the proof that the row took its path.
 */
static const struct bench_stepped {
	const char *row;
	enum kprobe_step_design step;
	unsigned int bp, db;	/* per hit */
} bench_stepped[] = {
	{ "kprobe (pre)",		KPROBE_SS_TF,	1, 1 },
	{ "kprobe (pre+post)",		KPROBE_SS_TF,	1, 1 },
	{ "int3-stepped",		KPROBE_SS_INT3,	2, 0 },
	{ "int3-stepped (pre+post)",	KPROBE_SS_INT3,	2, 0 },
};

static const struct bench_stepped *bench_stepped_row(const struct bench_row *row)
{
	for (size_t i = 0; i < ARRAY_SIZE(bench_stepped); i++)
		if (!strcmp(bench_stepped[i].row, row->name))
			return &bench_stepped[i];
	return NULL;
}

const char *const bench_mode_names[] = {
	[BENCH_CLASSIC] = "classic",
	[BENCH_BOOSTED] = "boosted",
	[BENCH_OPTIMIZED] = "optimized",
	[BENCH_EMULATED] = "emulated",
	[BENCH_FTRACE] = "ftrace",
};

void bench_set_mode(enum bench_mode mode)
{
	/* A classic or boosted row on a push %ebp would be emulated otherwise. */
	kprobes_set_emulation(mode == BENCH_EMULATED || mode == BENCH_OPTIMIZED);
	kprobes_set_boosting(mode == BENCH_BOOSTED || mode == BENCH_OPTIMIZED);
	kprobes_set_optimization(mode == BENCH_OPTIMIZED);
}

/* Did the probe at addr (the row's target) really take the row's path? */
bool bench_mode_taken(void *addr, enum bench_mode mode)
{
	struct kprobe *p = get_kprobe(addr);

	switch (mode) {
	case BENCH_EMULATED:
		return p && p->ainsn.emulate_op && !kprobe_optimized(p);
	case BENCH_BOOSTED:
		return p && p->ainsn.boostable == 1 && !kprobe_optimized(p);
	case BENCH_OPTIMIZED:
		return p && kprobe_optimized(p);
	case BENCH_FTRACE:	/* a kprobe on ftrace, or an fprobe: the site is a call */
		return (!p || kprobe_ftrace(p)) && *(uint8_t *)addr == CALL_INSN_OPCODE;
	default:	/* boosting and emulation are off, whatever the slot holds */
		return !p || !kprobe_optimized(p);
	}
}

/* ---- measuring --------------------------------------------------------------- */

struct bench_result {
	uint64_t tsc;
	unsigned long exceptions;	/* over BENCH_COUNT_ITERS calls */
	unsigned long bp, db;		/* the #BPs and #DBs among them */
	unsigned long hits;
};

/* Exceptions taken by BENCH_COUNT_ITERS calls, seen by a trap watch. */
static void bench_count_exceptions(void (*target)(void), struct bench_result *r)
{
	struct trap_watch w;
	unsigned long i;

	r->exceptions = r->bp = r->db = 0;
	if (trap_watch_start(&w))
		return;
	for (i = 0; i < BENCH_COUNT_ITERS; i++)
		target();
	trap_watch_stop(&w);
	r->exceptions = trap_watch_total(&w);
	r->bp = trap_watch_taken(&w, X86_TRAP_BP);
	r->db = trap_watch_taken(&w, X86_TRAP_DB);
}

/*
 * Interrupts stay off for the whole loop: a timer tick would add the
 * IRQ handler's instructions to whichever row it landed in.
 */
static void bench_loop(void (*target)(void), unsigned long iters, struct bench_result *r)
{
	unsigned long flags = local_irq_save();
	unsigned long i;
	uint64_t t0;

	for (i = 0; i < BENCH_WARMUP_ITERS; i++)
		target();
	bench_count_exceptions(target, r);
	WRITE_ONCE(bench_hits, 0);	/* handlers run behind the compiler's back */
	t0 = rdtsc();
	for (i = 0; i < iters; i++)
		target();	/* call *%reg: one instruction, as call bench_target */
	r->tsc = rdtsc() - t0;
	r->hits = READ_ONCE(bench_hits);
	local_irq_restore(flags);
}

/* x/n with two decimals, for "93.50". */
static void print_ratio(const char *key, uint64_t x, unsigned long n)
{
	uint64_t hundredths = (x * 100 + n / 2) / n;

	printk(" %s=%llu.%02llu", key, hundredths / 100, hundredths % 100);
}

static void bench_one(const struct bench_row *row, unsigned long iters)
{
	void (*target)(void) = row->target ? row->target : bench_target;
	const struct bench_stepped *stepped = bench_stepped_row(row);
	struct bench_result r;
	uint64_t base = 0;
	bool mode_ok;
	int err;

	if (row->target) {		/* its own unprobed cost, to subtract */
		bench_loop(target, iters, &r);
		base = r.tsc;
	}
	bench_set_mode(row->mode);
	err = kprobe_set_step_design(stepped ? stepped->step : KPROBE_SS_INT3);
	if (!err && row->arm)
		err = row->arm();
	wait_for_kprobe_optimizer();	/* the optimized rows: the jump is in */
	if (err) {
		printk("BENCH row=\"%s\" error=%d (%s)\n", row->name, err, errno_name(err));
		bench_set_mode(BENCH_OPTIMIZED);
		return;
	}
	bench_loop(target, iters, &r);
	mode_ok = bench_mode_taken((void *)target, row->mode);
	if (row->disarm)
		row->disarm();
	bench_set_mode(BENCH_OPTIMIZED);	/* the defaults: both on */
	kprobe_set_step_design(KPROBE_SS_INT3);
	if (!mode_ok)
		printk("BENCH row=\"%s\" error=probe did not take the %s path\n",
		       row->name, bench_mode_names[row->mode]);
	if (row->mode == BENCH_FTRACE && r.exceptions)	/* the point of the path */
		printk("BENCH row=\"%s\" error=%lu exceptions on the ftrace path\n",
		       row->name, r.exceptions);
	if (stepped && (r.bp != stepped->bp * BENCH_COUNT_ITERS ||
			r.db != stepped->db * BENCH_COUNT_ITERS))
		printk("BENCH row=\"%s\" error=%lu #BP and %lu #DB in %d calls, want %u and %u each\n",
		       row->name, r.bp, r.db, BENCH_COUNT_ITERS, stepped->bp, stepped->db);

	printk("BENCH row=\"%s\" mode=%s iters=%lu hits=%lu tsc=%llu", row->name,
	       bench_mode_names[row->mode], iters, row->counts_hits ? r.hits : iters, r.tsc);
	print_ratio("tsc_per_hit", r.tsc, iters);
	if (row->target)
		print_ratio("unprobed_per_hit", base, iters);
	printk(" counted_iters=%d exceptions=%lu bp=%lu db=%lu", BENCH_COUNT_ITERS, r.exceptions,
	       r.bp, r.db);
	print_ratio("exceptions_per_hit", r.exceptions, BENCH_COUNT_ITERS);
	printk("\n");
	if (row->counts_hits && r.hits != iters)
		printk("BENCH row=\"%s\" error=hits %lu != iters %lu\n",
		       row->name, r.hits, iters);
}

/* ---- registration cost ------------------------------------------------------- */

/*
 * register_kprobe() and unregister_kprobe() for n probes on n distinct
 * sites of bench_sled.S: all five sites of n / 5 functions spread evenly
 * over the sled, so every n sees the same sites within a function (the
 * same decoding work, the same neighbours).  One line per (mode, n):
 *
 *   BENCH reg mode=classic n=1000 register_tsc=... unregister_tsc=...
 *
 * "classic" registers int3 probes (optimization off); "optimized" also
 * runs the safety analysis and patches a jump for each probe that
 * qualifies.  Interrupts are off so a tick does not land in one run.
 */
/* Multiples of BENCH_SLED_SITES_PER_FUNC, at most BENCH_SLED_SITES. */
static const unsigned long bench_reg_counts[] = { 10, 100, 1000, 10000 };

/* Probe i of n: site i % 5 of function (i / 5) * stride. */
static kprobe_opcode_t *sled_site(unsigned long i, unsigned long n)
{
	unsigned long stride = BENCH_SLED_SITES / n;
	unsigned long fn = (i / BENCH_SLED_SITES_PER_FUNC) * stride;
	unsigned long off = (i % BENCH_SLED_SITES_PER_FUNC) * BENCH_SLED_SPACING;

	return (kprobe_opcode_t *)(bench_sled + fn * BENCH_SLED_FUNC_SIZE + off);
}

static void bench_registration(enum bench_mode mode, unsigned long n)
{
	struct kprobe *kps = kzalloc(n * sizeof(*kps));
	unsigned long i, ok = 0, opt = 0;
	uint64_t t0, t_reg, t_settle, t_unreg;
	unsigned long flags;

	if (!kps) {
		printk("BENCH reg mode=%s n=%lu error=no memory\n", bench_mode_names[mode], n);
		return;
	}
	for (i = 0; i < n; i++) {
		kps[i].addr = sled_site(i, n);
		kps[i].pre_handler = bench_pre;
	}
	bench_set_mode(mode);
	flags = local_irq_save();
	t0 = rdtsc();
	for (i = 0; i < n; i++)
		ok += register_kprobe(&kps[i]) == 0;
	t_reg = rdtsc() - t0;
	t0 = rdtsc();
	wait_for_kprobe_optimizer();	/* with interrupts off it works right here */
	t_settle = rdtsc() - t0;
	opt = kprobes_nr_optimized();
	t0 = rdtsc();
	for (i = 0; i < n; i++)
		unregister_kprobe(&kps[i]);
	t_unreg = rdtsc() - t0;
	local_irq_restore(flags);
	bench_set_mode(BENCH_OPTIMIZED);
	kfree(kps);

	printk("BENCH reg mode=%s n=%lu registered=%lu optimized=%lu register_tsc=%llu settle_tsc=%llu unregister_tsc=%llu",
	       bench_mode_names[mode], n, ok, opt, t_reg, t_settle, t_unreg);
	print_ratio("register_per_probe", t_reg, n);
	print_ratio("settle_per_probe", t_settle, n);
	print_ratio("unregister_per_probe", t_unreg, n);
	printk("\n");
	if (ok != n)
		printk("BENCH reg mode=%s n=%lu error=only %lu registered\n",
		       bench_mode_names[mode], n, ok);
}

/* ---- memory ------------------------------------------------------------------- */

/*
 * What the kernel spends on each probe, measured rather than added up:
 * heap bytes asked for (heap_stats.live_bytes, headers not counted)
 * plus whole pages taken from the page allocator (instruction slots and
 * detour buffers come in pages), before and after.  The caller's own
 * struct kprobe / kretprobe is not in it: it is given as struct_bytes.
 *
 *   BENCH mem kind=kprobe n=1000 bytes=... bytes_per=... struct_bytes=...
 *
 * kprobe: n int3 probes on sled sites; optimized: the same with every
 * one a jump (the optimizer's record and the detour on top);
 * kretprobe_instance: a kretprobe with 1 + n instances minus one with 1.
 */
#define BENCH_MEM_PROBES	1000
#define BENCH_MEM_INSTANCES	100

struct mem_snapshot {
	unsigned long heap_bytes, pages_free;
};

static void mem_snapshot(struct mem_snapshot *s)
{
	struct heap_stats st;

	heap_get_stats(&st);
	s->heap_bytes = st.live_bytes;
	s->pages_free = pages_free();
}

static long mem_used_since(const struct mem_snapshot *before)
{
	struct mem_snapshot now;

	mem_snapshot(&now);
	return (long)(now.heap_bytes - before->heap_bytes) +
	       (long)(before->pages_free - now.pages_free) * (long)PAGE_SIZE;
}

static void print_mem(const char *kind, unsigned long n, long bytes, size_t struct_bytes)
{
	printk("BENCH mem kind=%s n=%lu bytes=%ld", kind, n, bytes);
	print_ratio("bytes_per", bytes < 0 ? 0 : bytes, n);
	printk(" struct_bytes=%zu\n", struct_bytes);
}

/* n probes in mode: the bytes they took while registered. */
static long bench_mem_probes(enum bench_mode mode, unsigned long n)
{
	struct kprobe *kps = kzalloc(n * sizeof(*kps));
	struct mem_snapshot before;
	unsigned long i;
	long bytes;

	if (!kps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		kps[i].addr = sled_site(i, n);
		kps[i].pre_handler = bench_pre;
	}
	bench_set_mode(mode);
	mem_snapshot(&before);
	for (i = 0; i < n; i++)
		register_kprobe(&kps[i]);
	wait_for_kprobe_optimizer();
	bytes = mem_used_since(&before);
	for (i = 0; i < n; i++)
		unregister_kprobe(&kps[i]);
	bench_set_mode(BENCH_OPTIMIZED);
	kfree(kps);
	return bytes;
}

/* The bytes a kretprobe with maxactive instances took while registered. */
static long bench_mem_kretprobe(int maxactive)
{
	struct mem_snapshot before;
	long bytes;

	bench_rp = (struct kretprobe){ .kp.addr = (kprobe_opcode_t *)bench_target,
				       .handler = bench_ret, .maxactive = maxactive };
	mem_snapshot(&before);
	if (register_kretprobe(&bench_rp))
		return -ENOMEM;
	bytes = mem_used_since(&before);
	unregister_kretprobe(&bench_rp);
	return bytes;
}

static void bench_memory(void)
{
	unsigned long n = BENCH_MEM_PROBES;
	long one = bench_mem_kretprobe(1);

	print_mem("kprobe", n, bench_mem_probes(BENCH_CLASSIC, n), sizeof(struct kprobe));
	print_mem("optimized", n, bench_mem_probes(BENCH_OPTIMIZED, n),
		  sizeof(struct optimized_kprobe));
	print_mem("kretprobe_instance", BENCH_MEM_INSTANCES,
		  bench_mem_kretprobe(1 + BENCH_MEM_INSTANCES) - one,
		  sizeof(struct kretprobe_instance));
}

/* ---- the optimization switch -------------------------------------------------- */

/*
 * `echo 1 > /sys/kernel/debug/kprobes/optimize` with n probes registered
 * as int3s on n sled sites, then `echo 0`.  One line per n:
 *
 *   BENCH switch n=1000 optimized=1000 on_return_tsc=... on_tsc=... off_tsc=...
 *
 * on_return_tsc: until kprobes_set_optimization(true) returns (what the
 * shell's write waits for); on_tsc: until wait_for_kprobe_optimizer()
 * says every probe is a jump; off_tsc: kprobes_set_optimization(false),
 * which returns with every jump an int3 again.  Interrupts stay on: the
 * optimizer is a kernel thread.  The _ms fields are the same spans in
 * jiffies (wall time under plain TCG, virtual time under icount).
 */
static const unsigned long bench_switch_counts[] = { 10, 100, 1000, 5000, 10000 };

struct switch_result {
	uint64_t on_return, on, off;
	unsigned long on_ms, off_ms, optimized, left;
};

static unsigned long ms_since(unsigned long j0)
{
	return (jiffies - j0) * 1000 / HZ;
}

static void bench_toggle(struct switch_result *r)
{
	unsigned long j0 = jiffies;
	uint64_t t0 = rdtsc();

	kprobes_set_optimization(true);
	r->on_return = rdtsc() - t0;
	wait_for_kprobe_optimizer();
	r->on = rdtsc() - t0;
	r->on_ms = ms_since(j0);
	r->optimized = kprobes_nr_optimized();
	j0 = jiffies;
	t0 = rdtsc();
	kprobes_set_optimization(false);
	r->off = rdtsc() - t0;
	r->off_ms = ms_since(j0);
	r->left = kprobes_nr_optimized();
}

static void bench_switch(unsigned long n)
{
	struct kprobe *kps = kzalloc(n * sizeof(*kps));
	struct switch_result r;
	unsigned long i, ok = 0;

	if (!kps) {
		printk("BENCH switch n=%lu error=no memory\n", n);
		return;
	}
	kprobes_set_optimization(false);
	for (i = 0; i < n; i++) {
		kps[i].addr = sled_site(i, n);
		kps[i].pre_handler = bench_pre;
		ok += register_kprobe(&kps[i]) == 0;
	}
	bench_toggle(&r);
	for (i = 0; i < n; i++)
		unregister_kprobe(&kps[i]);
	kfree(kps);
	bench_set_mode(BENCH_OPTIMIZED);

	printk("BENCH switch n=%lu registered=%lu optimized=%lu on_return_tsc=%llu on_tsc=%llu off_tsc=%llu on_ms=%lu off_ms=%lu",
	       n, ok, r.optimized, r.on_return, r.on, r.off, r.on_ms, r.off_ms);
	print_ratio("on_per_probe", r.on, n);
	print_ratio("off_per_probe", r.off, n);
	printk("\n");
	if (ok != n || r.optimized != n || r.left != 0)
		printk("BENCH switch n=%lu error=registered %lu, optimized %lu, left %lu\n",
		       n, ok, r.optimized, r.left);
}

/*
 * The case that used to hurt: a probe at every instruction of whole
 * functions, as probing functions through kprobe_events does.  A
 * function of k instructions gets k probes, and the analysis must look
 * at the whole function for each.  The functions are ones the benchmark
 * never calls (the probe_events parser, the module loader) and the
 * workloads.  One line:
 *
 *   BENCH switch-funcs load=0 functions=22 n=2985 optimized=... on_tsc=... off_tsc=...
 */
static const char *const bench_whole_funcs[] = {
	"probe_event_parse", "probe_event_show", "probe_err_format", "parse_expr",
	"fetch_arg_parse", "fetch_value_format", "probe_args_format", "elf_check_module",
	"elf_apply_relocations", "elf_kallsyms_fill", "elf_resolve_symbols", "elf_layout",
};

#define BENCH_MAX_FUNC_PROBES	8000

static volatile bool bench_load_stop;

/* The workloads, nonstop, for the "load=1" line: their code is probed. */
static int bench_load(void *arg)
{
	static const unsigned char text[] = "123456789";
	int nums[] = { 4, 2, 8, 6 };

	while (!bench_load_stop) {
		fib(10);
		crc32_le(~0u, text, sizeof(text) - 1);
		sort_ints(nums, ARRAY_SIZE(nums));
	}
	return 0;
}

static void bench_switch_funcs(bool load)
{
	struct kprobe *kps = kzalloc(BENCH_MAX_FUNC_PROBES * sizeof(*kps));
	unsigned long i, n = 0, funcs = 0;
	struct task_struct *worker = NULL;
	struct switch_result r;

	if (!kps) {
		printk("BENCH switch-funcs error=no memory\n");
		return;
	}
	kprobes_set_optimization(false);
	for (i = 0; i < ARRAY_SIZE(bench_whole_funcs); i++, funcs++) {
		unsigned long fn = kallsyms_lookup_name(bench_whole_funcs[i]);

		if (!fn)	/* a renamed function would silently shrink the row */
			printk("BENCH switch-funcs error=no function %s\n", bench_whole_funcs[i]);
		n += register_kprobe_every_insn(kps + n, BENCH_MAX_FUNC_PROBES - n, fn, bench_pre);
	}
	for (const char *const *name = workload_functions; *name; name++, funcs++)
		n += register_kprobe_every_insn(kps + n, BENCH_MAX_FUNC_PROBES - n,
						kallsyms_lookup_name(*name), bench_pre);
	bench_load_stop = false;
	if (load)
		worker = kthread_create(bench_load, NULL, "bench-load");
	bench_toggle(&r);
	bench_load_stop = true;
	if (worker)
		kthread_join(worker);
	for (i = 0; i < n; i++)
		unregister_kprobe(&kps[i]);
	kfree(kps);
	bench_set_mode(BENCH_OPTIMIZED);

	printk("BENCH switch-funcs load=%d functions=%lu n=%lu optimized=%lu on_return_tsc=%llu on_tsc=%llu off_tsc=%llu on_ms=%lu off_ms=%lu",
	       load, funcs, n, r.optimized, r.on_return, r.on, r.off, r.on_ms, r.off_ms);
	print_ratio("on_per_probe", r.on, n);
	print_ratio("off_per_probe", r.off, n);
	printk("\n");
	if (r.optimized == 0 || r.left != 0)
		printk("BENCH switch-funcs error=optimized %lu, left %lu\n", r.optimized, r.left);
}

static void bench_run(const char *value)
{
	unsigned long iters = BENCH_DEFAULT_ITERS;
	size_t i;

	if (value && (kstrtoul(value, 10, &iters) || iters == 0))
		iters = BENCH_DEFAULT_ITERS;

	printk("BENCH start iters=%lu rows=%zu\n", iters, ARRAY_SIZE(bench_rows));
	for (i = 0; i < ARRAY_SIZE(bench_rows); i++)
		bench_one(&bench_rows[i], iters);
	for (i = 0; i < ARRAY_SIZE(bench_reg_counts); i++)
		bench_registration(BENCH_CLASSIC, bench_reg_counts[i]);
	for (i = 0; i < ARRAY_SIZE(bench_reg_counts); i++)
		bench_registration(BENCH_OPTIMIZED, bench_reg_counts[i]);
	bench_memory();
	for (i = 0; i < ARRAY_SIZE(bench_switch_counts); i++)
		bench_switch(bench_switch_counts[i]);
	bench_switch_funcs(false);
	bench_switch_funcs(true);
	printk("BENCH done\n");
	qemu_exit(QEMU_EXIT_PASS);
}
DEFINE_BOOT_MODE("bench", bench_run);
