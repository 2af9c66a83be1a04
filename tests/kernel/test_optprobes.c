/*
 * test_optprobes.c - boosting and jump-optimized probes.
 *
 * Two suites:
 *   boost      a boosted probe takes one exception per hit, gives the
 *              same results, and is not boosted when it must not be;
 *   optprobes  a pre-handler-only probe becomes a jump where the safety
 *              analysis allows, its handler sees the pt_regs an int3 hit
 *              would show, results do not change, refused sites stay
 *              ordinary probes, and optimization can be toggled under load.
 * The routines probed are in optprobes_asm.S.
 */
#include "kernel.h"
#include "ktest.h"
#include <asm/atomic.h>
#include "trap_watch.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include "errno.h"
#include <asm/irqflags.h>
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "timer.h"
#include <asm/traps.h>
#include <asm/extable.h>
#include "vsprintf.h"
#include "workloads.h"
#include "workload_results.h"
#include "kprobes_fixups.h"
#include <asm/text_patching.h>
#include "bench_sled.h"
#include "linkage.h"

/* ---- the routines (optprobes_asm.S: arguments on the stack) ------------------------ */

asmlinkage unsigned long opt_mix(unsigned long x);
asmlinkage unsigned long opt_mix_clean(unsigned long x);	/* registers set to constants */
asmlinkage unsigned long opt_jump_into(unsigned long x);
asmlinkage unsigned long opt_jump_table(unsigned long x);
asmlinkage unsigned long opt_calls(unsigned long x);
asmlinkage unsigned long opt_rep(unsigned long n);
asmlinkage unsigned long opt_call_clean(unsigned long (*fn)(void));	/* registers set to constants */
extern const char oj_site[], ot_site[], os_site[], oc_site[], or_site[];
extern const char fx_entry[];	/* kprobes_fixups.S: a routine with jmp *%eax */
asmlinkage void opt_spin(volatile int *stop);
extern const char opt_spin_loop[], opt_spin_end[];

/*
 * Every label in opt_mix and whether a jump may go there: all may,
 * except the last three, where the function ends too soon.
 */
#define MIX_LABELS(L)							\
	L(om_push_ebp, OPT_OK) L(om_mov_esp, OPT_OK)			\
	L(om_push_ebx, OPT_OK) L(om_load_arg, OPT_OK)			\
	L(om_lea_sib, OPT_OK) L(om_imul, OPT_OK) L(om_xor, OPT_OK)	\
	L(om_shl, OPT_OK) L(om_bswap, OPT_OK) L(om_mov_imm32, OPT_OK)	\
	L(om_add_reg, OPT_OK) L(om_cmp, OPT_OK) L(om_setb, OPT_OK)	\
	L(om_movzbl, OPT_OK) L(om_pushf, OPT_OK) L(om_pop_flags, OPT_OK) \
	L(om_and_flags, OPT_OK) L(om_std, OPT_OK) L(om_cld, OPT_OK)	\
	L(om_xchg, OPT_OK) L(om_lock_add, OPT_OK) L(om_lock_sub, OPT_OK) \
	L(om_push16, OPT_OK) L(om_pop16, OPT_OK) L(om_shl16, OPT_OK)	\
	L(om_or, OPT_OK) L(om_add_flags, OPT_OK) L(om_seg_ss, OPT_OK)	\
	L(om_pop_ebx, OPT_CROSSES_END) L(om_leave, OPT_CROSSES_END)	\
	L(om_ret, OPT_CROSSES_END)

#define DECLARE_LABEL(name, why) extern const char name[];
MIX_LABELS(DECLARE_LABEL)

struct mix_label {
	const char *name;
	const char *addr;
	int why;		/* the expected optprobe_why_not() */
};

#define LABEL_ENTRY(name, why) { #name, name, why },
static const struct mix_label mix_labels[] = { MIX_LABELS(LABEL_ENTRY) };
#define NR_MIX ARRAY_SIZE(mix_labels)

static const unsigned long mix_inputs[] = { 0, 1, 12345, 0xdeadbeef, 0x7fffffff };
#define NR_INPUTS ARRAY_SIZE(mix_inputs)

/* ---- a probe that records what it saw ------------------------------------------- */

struct rec_probe {
	struct kprobe kp;
	unsigned long hits;
	bool have_regs;
	struct pt_regs regs;		/* the first hit's, while recording */
	unsigned long sp;		/* kernel_stack_pointer() at that hit */
	unsigned long stack[2];		/* the two words there (at an entry: return address, arg) */
};

static bool recording = true;

static int rec_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct rec_probe *rp = container_of(p, struct rec_probe, kp);

	if (!READ_ONCE(recording))
		return 0;
	rp->hits++;
	if (!rp->have_regs) {
		rp->regs = *regs;
		rp->sp = kernel_stack_pointer(regs);
		rp->stack[0] = ((unsigned long *)rp->sp)[0];
		rp->stack[1] = ((unsigned long *)rp->sp)[1];
		rp->have_regs = true;
	}
	return 0;
}

static void rec_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
}

static void rec_init(struct rec_probe *rp, const void *addr)
{
	memset(rp, 0, sizeof(*rp));
	rp->kp.addr = (kprobe_opcode_t *)addr;
	rp->kp.pre_handler = rec_pre;
}

/* Every case of the boost and optprobes suites runs under this watch. */
static struct trap_watch watch;

/* Exceptions that kprobes itself takes: #BP and #DB. */
static unsigned long probe_exceptions(void)
{
	return trap_watch_taken(&watch, X86_TRAP_BP) +
	       trap_watch_taken(&watch, X86_TRAP_DB);
}

/* The bytes of [addr, addr + len) equal a copy taken before? */
static bool text_same(const char *addr, const uint8_t *before, size_t len)
{
	return memcmp(addr, before, len) == 0;
}

/* ---- field by field ------------------------------------------------------------- */

/*
 * An optimized hit must show exactly what an int3 hit showed.  With
 * all_gprs false only the fields that cannot depend on data are
 * compared: a kernel function's registers may hold heap pointers, and
 * the heap differs between the two runs (detour buffers are allocated).
 */
#define FRAME_FIELDS(F) F(ds) F(es) F(fs) F(gs) F(orig_ax) F(ip) F(cs) F(flags)
#define GPR_FIELDS(F) F(bx) F(cx) F(dx) F(si) F(di) F(bp) F(ax)
/* A ring-0 trap pushes no sp/ss: these two are the words at the stack top. */
#define STACK_FIELDS(F) F(sp) F(ss)

static void compare_regs(struct ktest *t, const char *what, const struct rec_probe *opt,
			 const struct rec_probe *int3, bool all_gprs)
{
#define CMP_FIELD(f)							\
	if (opt->regs.f != int3->regs.f)				\
		ktest_fail(t, __FILE__, __LINE__, "%s: regs->" #f " %#lx, int3 hit %#lx", \
			   what, (unsigned long)opt->regs.f, (unsigned long)int3->regs.f);
	FRAME_FIELDS(CMP_FIELD)
	if (all_gprs) {
		GPR_FIELDS(CMP_FIELD)
		STACK_FIELDS(CMP_FIELD)
	}
#undef CMP_FIELD
	if (opt->sp != int3->sp)
		ktest_fail(t, __FILE__, __LINE__, "%s: kernel_stack_pointer %#lx, int3 hit %#lx",
			   what, opt->sp, int3->sp);
	if (opt->stack[0] != int3->stack[0])
		ktest_fail(t, __FILE__, __LINE__, "%s: word at sp %#lx, int3 hit %#lx",
			   what, opt->stack[0], int3->stack[0]);
}

/* ============================================================================
 * suite "boost"
 * ========================================================================== */

static int boost_init(struct ktest *t)
{
	kprobes_set_optimization(false);	/* int3 probes only */
	kprobes_set_boosting(true);
	return trap_watch_start(&watch);
}

static void fast_defaults_exit(struct ktest *t)
{
	trap_watch_stop(&watch);
	kprobes_set_optimization(true);
	kprobes_set_boosting(true);
	KTEST_EXPECT_TRUE(t, kprobe_running() == NULL);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

/* Exceptions for `calls` calls of opt_mix(1234), interrupts off. */
static unsigned long exceptions_for_calls(int calls, unsigned long *result)
{
	unsigned long flags = local_irq_save(), e0 = probe_exceptions();

	for (int i = 0; i < calls; i++)
		*result = opt_mix(1234);
	e0 = probe_exceptions() - e0;
	local_irq_restore(flags);
	return e0;
}

static void boost_one_exception_per_hit(struct ktest *t)
{
	static struct rec_probe rp;
	unsigned long want = opt_mix(1234), got = 0;

	rec_init(&rp, om_mov_imm32);
	KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
	KTEST_EXPECT_EQ(t, rp.kp.ainsn.boostable, 0);		/* not yet: never stepped */
	KTEST_EXPECT_EQ(t, exceptions_for_calls(1, &got), 2);	/* int3 + #DB */
	KTEST_EXPECT_EQ(t, rp.kp.ainsn.boostable, 1);		/* the slot has its jmp */
	KTEST_EXPECT_EQ(t, exceptions_for_calls(100, &got), 100);	/* int3 only */
	KTEST_EXPECT_EQ(t, got, want);
	KTEST_EXPECT_EQ(t, rp.hits, 101);
	KTEST_EXPECT_EQ(t, rp.kp.nmissed, 0);
	unregister_kprobe(&rp.kp);
	KTEST_EXPECT_EQ(t, opt_mix(1234), want);
}

static void boost_not_with_post_handler(struct ktest *t)
{
	static struct rec_probe rp;
	unsigned long got = 0;

	rec_init(&rp, om_mov_imm32);
	rp.kp.post_handler = rec_post;
	KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
	KTEST_EXPECT_EQ(t, exceptions_for_calls(1, &got), 2);
	KTEST_EXPECT_EQ(t, exceptions_for_calls(50, &got), 100);	/* still two each */
	KTEST_EXPECT_EQ(t, got, opt_mix(1234));
	unregister_kprobe(&rp.kp);
}

static void boost_switched_off(struct ktest *t)
{
	static struct rec_probe rp;
	unsigned long got = 0;

	rec_init(&rp, om_mov_imm32);
	KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
	kprobes_set_boosting(false);
	KTEST_EXPECT_EQ(t, exceptions_for_calls(10, &got), 20);
	kprobes_set_boosting(true);
	KTEST_EXPECT_EQ(t, exceptions_for_calls(10, &got), 10);	/* stepped once already */
	unregister_kprobe(&rp.kp);
}

/*
 * A call (pushes the slot's address) and rep movsb (one hit per
 * iteration).  The call is emulated, not boosted (emulate.c): one
 * exception per hit all the same, and no slot run at all.
 */
static void boost_not_for_unboostable(struct ktest *t)
{
	static struct rec_probe call, rep;
	unsigned long flags, e0, rep_hits;

	rec_init(&call, oc_site);
	rec_init(&rep, or_site);
	KTEST_ASSERT_EQ(t, register_kprobe(&call.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&rep.kp), 0);
	KTEST_EXPECT_EQ(t, call.kp.ainsn.boostable, -1);
	KTEST_EXPECT_EQ(t, rep.kp.ainsn.boostable, -1);
	flags = local_irq_save();
	e0 = probe_exceptions();
	for (int i = 0; i < 5; i++) {
		KTEST_EXPECT_EQ(t, opt_calls(7), 1007);
		KTEST_EXPECT_EQ(t, opt_rep(4), 0);
	}
	e0 = probe_exceptions() - e0;
	local_irq_restore(flags);
	KTEST_EXPECT_TRUE(t, call.kp.ainsn.emulate_op != NULL);
	/*
	 * rep, stepped with TF: 4 iterations, a hit and a #DB each; with
	 * int3 the copy runs all 4 before its int3: one hit, two #BP.
	 */
	rep_hits = kprobe_step_design == KPROBE_SS_TF ? 4 : 1;
	KTEST_EXPECT_EQ(t, e0, 5 * 1 + 5 * rep_hits * 2);
	KTEST_EXPECT_EQ(t, call.hits, 5);
	KTEST_EXPECT_EQ(t, rep.hits, 5 * rep_hits);
	unregister_kprobe(&call.kp);
	unregister_kprobe(&rep.kp);
}

/*
 * Every label of opt_mix, boosted after its first hit: same results,
 * irqs on and off.  Emulation off: it would take the push, pop and ret
 * labels before boosting could.
 */
static void boost_every_mix_label(struct ktest *t)
{
	static struct rec_probe rp;
	unsigned long want[NR_INPUTS], flags;

	kprobes_set_emulation(false);
	for (size_t i = 0; i < NR_INPUTS; i++)
		want[i] = opt_mix(mix_inputs[i]);
	for (size_t l = 0; l < NR_MIX; l++) {
		rec_init(&rp, mix_labels[l].addr);
		KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
		for (int on = 0; on <= 1; on++) {
			flags = local_irq_save();
			if (on)
				local_irq_enable();
			for (size_t i = 0; i < NR_INPUTS; i++)
				if (opt_mix(mix_inputs[i]) != want[i])
					ktest_fail(t, __FILE__, __LINE__, "%s: opt_mix(%#lx) changed (irqs %s)",
						   mix_labels[l].name, mix_inputs[i], on ? "on" : "off");
			local_irq_disable();
			local_irq_restore(flags);
		}
		if (rp.hits != 2 * NR_INPUTS)
			ktest_fail(t, __FILE__, __LINE__, "%s: %lu hits, want %u",
				   mix_labels[l].name, rp.hits, (unsigned)(2 * NR_INPUTS));
		/* Stepped with int3, a ret is emulated whatever the switch: never boosted. */
		if (rp.kp.ainsn.boostable != 1 && !kprobe_emulates(&rp.kp))
			ktest_fail(t, __FILE__, __LINE__, "%s: not boosted (%d)",
				   mix_labels[l].name, rp.kp.ainsn.boostable);
		unregister_kprobe(&rp.kp);
	}
	kprobes_set_emulation(true);
}

/* ---- which instructions may be boosted: the rules one by one --------------------- */

struct boost_rule {
	const char *what;
	uint8_t bytes[INSN_MAX_LEN];
	bool boostable;
};

static const struct boost_rule boost_rules[] = {
	{ "mov %ecx,%eax",		{ 0x89, 0xc8 }, true },
	{ "push %ebp",			{ 0x55 }, true },
	{ "ret (leaves by itself)",	{ 0xc3 }, true },
	{ "jmp *%eax (leaves by itself)", { 0xff, 0xe0 }, true },
	{ "je rel8 (conditional)",	{ 0x74, 0x10 }, false },
	{ "jne rel32 (conditional)",	{ 0x0f, 0x85, 1, 0, 0, 0 }, false },
	{ "jmp rel8 (relative)",	{ 0xeb, 0x10 }, false },
	{ "call rel32 (relative)",	{ 0xe8, 1, 0, 0, 0 }, false },
	{ "loop rel8",			{ 0xe2, 0x10 }, false },
	{ "jecxz rel8",			{ 0xe3, 0x10 }, false },
	{ "int3",			{ 0xcc }, false },
	{ "int $0x80",			{ 0xcd, 0x80 }, false },
	{ "into",			{ 0xce }, false },
	{ "lcall $8,$0 (far call)",	{ 0x9a, 0, 0, 0, 0, 8, 0 }, false },
	{ "lcall *(%eax) (far call)",	{ 0xff, 0x18 }, false },
	{ "call *%eax (pushes the slot)", { 0xff, 0xd0 }, false },
	{ "67: mov (%bx),%eax (address size)", { 0x67, 0x8b, 0x07 }, false },
	{ "rep movsb",			{ 0xf3, 0xa4 }, false },
};

/*
 * arch_can_boost() on each rule's bytes (at an address with no fixup
 * entry), then on an instruction that has one: the same bytes are
 * boostable anywhere else.
 */
static void boost_rules_one_by_one(struct ktest *t)
{
	extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];
	const struct exception_table_entry *e = __start___ex_table;
	struct insn insn;

	for (size_t i = 0; i < ARRAY_SIZE(boost_rules); i++) {
		const struct boost_rule *r = &boost_rules[i];

		if (insn_decode(&insn, r->bytes, INSN_MAX_LEN) <= 0) {
			ktest_fail(t, __FILE__, __LINE__, "%s: does not decode", r->what);
			continue;
		}
		if (arch_can_boost(&insn, (kprobe_opcode_t *)opt_mix) != r->boostable)
			ktest_fail(t, __FILE__, __LINE__, "%s: boostable %d, want %d", r->what,
				   !r->boostable, r->boostable);
	}
	KTEST_ASSERT_TRUE(t, e < __stop___ex_table);
	KTEST_ASSERT_TRUE(t, insn_decode(&insn, (const void *)e->insn, INSN_MAX_LEN) > 0);
	KTEST_EXPECT_FALSE(t, arch_can_boost(&insn, (kprobe_opcode_t *)e->insn));
	KTEST_EXPECT_TRUE(t, arch_can_boost(&insn, (kprobe_opcode_t *)opt_mix));
}

static struct ktest_case boost_cases[] = {
	KTEST_CASE(boost_one_exception_per_hit),
	KTEST_CASE(boost_not_with_post_handler),
	KTEST_CASE(boost_switched_off),
	KTEST_CASE(boost_not_for_unboostable),
	KTEST_CASE(boost_every_mix_label),
	KTEST_CASE(boost_rules_one_by_one),
	KTEST_END
};

static struct ktest_suite boost_suite = {
	.name = "boost",
	.cases = boost_cases,
	.init = boost_init,
	.exit = fast_defaults_exit,
};
KTEST_SUITE(boost_suite);

/* ============================================================================
 * suite "optprobes"
 * ========================================================================== */

static uint32_t text_before;

static int opt_init(struct ktest *t)
{
	kprobes_set_optimization(true);
	kprobes_set_boosting(true);
	text_before = ktest_text_checksum();
	return trap_watch_start(&watch);
}

static void opt_exit(struct ktest *t)
{
	fast_defaults_exit(t);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), text_before);
}

/* What the handler sees at a function's entry, and that nothing traps. */
static void optprobe_basic(struct ktest *t)
{
	static struct rec_probe rp;
	uint8_t before[8];
	char line[128];
	unsigned long flags, exc;

	unsigned long deadline;
	bool delayed;

	memcpy(before, opt_mix, sizeof(before));
	rec_init(&rp, opt_mix);
	KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
	/*
	 * The registration kicked the optimizer, which waits OPTIMIZE_DELAY
	 * (from the first kick of a burst) before it takes the batch, even
	 * when it wakes on another CPU: until the deadline the probe is a
	 * queued int3.  (A host that stalls this thread past the deadline
	 * proves nothing either way: not asserted.)
	 */
	delayed = kprobe_optimizer_delay_pending(&deadline);
	sprint_kprobe(line, sizeof(line), &rp.kp);
	if (delayed && time_before(jiffies, deadline)) {
		KTEST_EXPECT_FALSE(t, kprobe_optimized(&rp.kp));	/* queued: an int3 for now */
		KTEST_EXPECT_TRUE(t, strstr(line, "  [WAITING]") != NULL);
	} else {
		ktest_info(t, "this thread ran past OPTIMIZE_DELAY: [WAITING] not checked");
	}
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&rp.kp));
	KTEST_EXPECT_EQ(t, ((const uint8_t *)opt_mix)[0], RELATIVEJUMP_OPCODE);
	sprint_kprobe(line, sizeof(line), &rp.kp);
	KTEST_EXPECT_TRUE(t, strstr(line, "[OPTIMIZED]") != NULL);

	flags = local_irq_save();
	exc = probe_exceptions();
	KTEST_EXPECT_EQ(t, opt_mix(77), (unsigned long)opt_mix(77));
	exc = probe_exceptions() - exc;
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, exc, 0);
	KTEST_EXPECT_EQ(t, rp.hits, 2);
	KTEST_EXPECT_EQ(t, rp.kp.nhit, 2);
	KTEST_EXPECT_EQ(t, rp.regs.ip, (unsigned long)opt_mix + 1);	/* as an int3's */
	/* At the entry: the return address at sp, the argument above it. */
	KTEST_EXPECT_EQ(t, rp.stack[1], 77);
	KTEST_EXPECT_TRUE(t, kernel_text_address(rp.stack[0]));
	KTEST_EXPECT_EQ(t, rp.regs.flags & X86_EFLAGS_IF, 0);	/* we called with irqs off */

	unregister_kprobe(&rp.kp);
	KTEST_EXPECT_TRUE(t, text_same((const char *)opt_mix, before, sizeof(before)));
	sprint_kprobe(line, sizeof(line), &rp.kp);
	KTEST_EXPECT_TRUE(t, strstr(line, "[OPTIMIZED]") == NULL);
}

/* One label: unprobed, int3 and optimized runs agree; regs agree field by field. */
static void check_mix_label(struct ktest *t, const struct mix_label *l,
			    const unsigned long *want)
{
	static struct rec_probe by_int3, by_jump;
	struct rec_probe *rps[2] = { &by_int3, &by_jump };
	unsigned long flags;
	int ret;

	for (int opt = 0; opt <= 1; opt++) {
		struct rec_probe *rp = rps[opt];

		kprobes_set_optimization(opt);
		rec_init(rp, l->addr);
		ret = register_kprobe(&rp->kp);
		if (ret) {
			ktest_fail(t, __FILE__, __LINE__, "%s (%s): register_kprobe() = %d",
				   l->name, opt ? "jump" : "int3", ret);
			return;
		}
		wait_for_kprobe_optimizer();
		if (opt && optprobe_why_not(&rp->kp) != l->why)
			ktest_fail(t, __FILE__, __LINE__, "%s: %s, want %s", l->name,
				   optprobe_refusal_name(optprobe_why_not(&rp->kp)),
				   optprobe_refusal_name(l->why));
		if (kprobe_optimized(&rp->kp) != (opt && l->why == OPT_OK))
			ktest_fail(t, __FILE__, __LINE__, "%s: optimized is %d", l->name,
				   kprobe_optimized(&rp->kp));
		flags = local_irq_save();
		for (size_t i = 0; i < NR_INPUTS; i++)
			if (opt_mix_clean(mix_inputs[i]) != want[i])
				ktest_fail(t, __FILE__, __LINE__, "%s (%s): opt_mix(%#lx) changed",
					   l->name, opt ? "jump" : "int3", mix_inputs[i]);
		local_irq_restore(flags);
		unregister_kprobe(&rp->kp);
		if (get_kprobe((void *)l->addr))
			ktest_fail(t, __FILE__, __LINE__, "%s (%s): still registered, nr %u",
				   l->name, opt ? "jump" : "int3", kprobes_nr_registered());
	}
	KTEST_EXPECT_EQ(t, by_jump.hits, NR_INPUTS);
	KTEST_EXPECT_EQ(t, by_int3.hits, NR_INPUTS);
	compare_regs(t, l->name, &by_jump, &by_int3, true);
}

static void optprobe_every_mix_label(struct ktest *t)
{
	unsigned long want[NR_INPUTS];
	size_t len = (const char *)opt_jump_into - (const char *)opt_mix;
	uint8_t *before = kmalloc(len);

	KTEST_ASSERT_TRUE(t, before != NULL);
	memcpy(before, opt_mix, len);
	for (size_t i = 0; i < NR_INPUTS; i++)
		want[i] = opt_mix(mix_inputs[i]);
	for (size_t l = 0; l < NR_MIX; l++)
		check_mix_label(t, &mix_labels[l], want);
	KTEST_EXPECT_TRUE(t, text_same((const char *)opt_mix, before, len));
	kfree(before);
}

/* All labels at once: neighbours block each other's jumps; results still agree. */
static void optprobe_all_mix_labels_at_once(struct ktest *t)
{
	static struct rec_probe rps[NR_MIX];
	unsigned long want[NR_INPUTS], flags;
	unsigned int optimized = 0;

	for (size_t i = 0; i < NR_INPUTS; i++)
		want[i] = opt_mix(mix_inputs[i]);
	for (size_t l = 0; l < NR_MIX; l++) {
		rec_init(&rps[l], mix_labels[l].addr);
		KTEST_ASSERT_EQ(t, register_kprobe(&rps[l].kp), 0);
	}
	wait_for_kprobe_optimizer();
	for (size_t l = 0; l < NR_MIX; l++)
		optimized += kprobe_optimized(&rps[l].kp);
	for (int on = 0; on <= 1; on++) {
		flags = local_irq_save();
		if (on)
			local_irq_enable();
		for (size_t i = 0; i < NR_INPUTS; i++)
			KTEST_EXPECT_EQ(t, opt_mix(mix_inputs[i]), want[i]);
		local_irq_disable();
		local_irq_restore(flags);
	}
	for (size_t l = 0; l < NR_MIX; l++) {
		if (rps[l].hits != 2 * NR_INPUTS)
			ktest_fail(t, __FILE__, __LINE__, "%s: %lu hits", mix_labels[l].name,
				   rps[l].hits);
		unregister_kprobe(&rps[l].kp);
	}
	ktest_info(t, "%u of %u probes optimized", optimized, (unsigned)NR_MIX);
	KTEST_EXPECT_TRUE(t, optimized > 0 && optimized < NR_MIX);
}

/*
 * unregister_kprobes() of many jumps: one text_poke_bp() window takes
 * them all back to int3s, then each probe's disarm opens one for its
 * int3 - where each probe used to open two (its jump, its int3), with
 * three syncs each on SMP.  The probes sit at the start of sled
 * functions (bench_sled.S: nops enough for a jump, nobody calls them).
 */
#define UNREG_BATCH_PROBES	8
#define SLED_NOP_OPCODE		0x90	/* what bench_sled.S is made of */

static int quiet_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static void optprobe_unregister_batch(struct ktest *t)
{
	static struct kprobe kps[UNREG_BATCH_PROBES];
	struct kprobe *kpp[UNREG_BATCH_PROBES];
	unsigned long windows;
	int optimized = 0;

	for (int i = 0; i < UNREG_BATCH_PROBES; i++) {
		kps[i] = (struct kprobe){
			.addr = (kprobe_opcode_t *)(bench_sled + i * BENCH_SLED_FUNC_SIZE),
			.pre_handler = quiet_pre,
		};
		kpp[i] = &kps[i];
		KTEST_ASSERT_EQ(t, register_kprobe(&kps[i]), 0);
	}
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	for (int i = 0; i < UNREG_BATCH_PROBES; i++)
		optimized += kprobe_optimized(&kps[i]);
	KTEST_EXPECT_EQ(t, optimized, UNREG_BATCH_PROBES);
	windows = text_poke_bp_nr_windows();
	unregister_kprobes(kpp, UNREG_BATCH_PROBES);
	windows = text_poke_bp_nr_windows() - windows;
	ktest_info(t, "%d jumps unregistered: %lu text_poke_bp windows", optimized, windows);
	KTEST_EXPECT_EQ(t, windows, (unsigned long)UNREG_BATCH_PROBES + 1);
	for (int i = 0; i < UNREG_BATCH_PROBES; i++)
		KTEST_EXPECT_EQ(t, *(const uint8_t *)kps[i].addr, SLED_NOP_OPCODE);	/* the text is back */
}

/* The state part of p's debugfs list line: everything after "sym+off". */
static void expect_list_state(struct ktest *t, struct kprobe *p, const char *want)
{
	char line[160];
	const char *plus, *state;

	sprint_kprobe(line, sizeof(line), p);
	plus = strchr(line, '+');
	state = plus ? strchr(plus, ' ') : NULL;
	KTEST_EXPECT_STREQ(t, state ? state : "", want);
}

/* Sites the analysis must refuse: each still works as an int3 probe. */
static void optprobe_refusals(struct ktest *t)
{
	static struct rec_probe into, table, shrt, call, post, fixups;

	rec_init(&into, oj_site);
	rec_init(&table, ot_site);
	rec_init(&shrt, os_site);
	rec_init(&call, oc_site);
	rec_init(&post, opt_mix);
	post.kp.post_handler = rec_post;
	rec_init(&fixups, fx_entry);
	KTEST_ASSERT_EQ(t, register_kprobe(&into.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&table.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&shrt.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&call.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&post.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&fixups.kp), 0);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);

	/* The list says why, for a probe its post-handler keeps an int3 too. */
	expect_list_state(t, &into.kp, "  [NOT OPTIMIZED: a branch lands inside the jump]");
	expect_list_state(t, &table.kp, "  [NOT OPTIMIZED: function has an indirect jump]");
	expect_list_state(t, &shrt.kp, "  [NOT OPTIMIZED: jump would cross the function's end]");
	expect_list_state(t, &call.kp,
			  "  [NOT OPTIMIZED: displaced instruction cannot be relocated]");
	expect_list_state(t, &post.kp, "  [NOT OPTIMIZED: has a post- or break-handler]");
	KTEST_EXPECT_EQ(t, optprobe_why_not(&into.kp), OPT_JUMP_INTO_RANGE);
	KTEST_EXPECT_EQ(t, optprobe_why_not(&table.kp), OPT_INDIRECT_JUMP);
	KTEST_EXPECT_EQ(t, optprobe_why_not(&shrt.kp), OPT_CROSSES_END);
	KTEST_EXPECT_EQ(t, optprobe_why_not(&call.kp), OPT_NOT_RELOCATABLE);
	KTEST_EXPECT_EQ(t, optprobe_why_not(&post.kp), OPT_HANDLERS);
	KTEST_EXPECT_EQ(t, optprobe_why_not(&fixups.kp), OPT_INDIRECT_JUMP);
	KTEST_EXPECT_EQ(t, kprobes_nr_optimized(), 0);

	KTEST_EXPECT_EQ(t, opt_jump_into(0), 6);
	KTEST_EXPECT_EQ(t, opt_jump_into(10), 17);
	KTEST_EXPECT_EQ(t, opt_jump_table(2), 102);
	KTEST_EXPECT_EQ(t, opt_jump_table(3), 203);
	KTEST_EXPECT_EQ(t, opt_calls(5), 1005);
	KTEST_EXPECT_EQ(t, into.hits, 1);	/* x = 0 jumps past the site */
	KTEST_EXPECT_EQ(t, table.hits, 2);
	KTEST_EXPECT_EQ(t, call.hits, 1);
	KTEST_EXPECT_EQ(t, shrt.hits, 0);

	unregister_kprobe(&into.kp);
	unregister_kprobe(&table.kp);
	unregister_kprobe(&shrt.kp);
	unregister_kprobe(&call.kp);
	unregister_kprobe(&post.kp);
	unregister_kprobe(&fixups.kp);
}

/* The state part of p's list line, as the list file (holding kprobe_mutex) prints it. */
static const char *list_state(struct kprobe *p, char *line, size_t len)
{
	const char *plus, *state;

	sprint_kprobe(line, len, p);
	plus = strchr(line, '+');
	state = plus ? strchr(plus, ' ') : NULL;
	return state ? state : "";
}

/*
 * The list file, read while probes wait in the optimizer's queue, runs
 * the analysis at once and says what the optimizer will decide - and the
 * optimizer then decides just that.  The reader holds kprobe_mutex (as
 * the list file does), so the optimizer cannot take its batch while the
 * lines are made; a probe it already took before is not checked.
 */
static void optprobe_list_tells_the_verdict(struct ktest *t)
{
	static struct rec_probe good, into;
	char line[160];
	const char *state;
	int told = 0;

	rec_init(&good, opt_mix);
	rec_init(&into, oj_site);
	KTEST_ASSERT_EQ(t, register_kprobe(&good.kp), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&into.kp), 0);
	kprobe_mutex_lock();
	state = list_state(&good.kp, line, sizeof(line));
	if (strncmp(state, "  [WAITING", 10) == 0) {
		KTEST_EXPECT_STREQ(t, state, "  [WAITING: will be a jump]");
		told++;
	}
	state = list_state(&into.kp, line, sizeof(line));
	if (strncmp(state, "  [WAITING", 10) == 0) {
		KTEST_EXPECT_STREQ(t, state,
				   "  [WAITING: will stay an int3: a branch lands inside the jump]");
		told++;
	}
	kprobe_mutex_unlock();
	ktest_info(t, "%d of 2 probes listed while queued", told);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	expect_list_state(t, &good.kp, "  [OPTIMIZED]");
	expect_list_state(t, &into.kp, "  [NOT OPTIMIZED: a branch lands inside the jump]");
	unregister_kprobe(&into.kp);
	unregister_kprobe(&good.kp);
}

/* A probe inside another's jump: the jump goes, and comes back when it leaves. */
static void optprobe_probe_in_range(struct ktest *t)
{
	static struct rec_probe a, b;

	rec_init(&a, om_shl);		/* shl (3 bytes) + bswap (2): covers om_bswap */
	rec_init(&b, om_bswap);
	KTEST_ASSERT_EQ(t, register_kprobe(&a.kp), 0);
	wait_for_kprobe_optimizer();
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&a.kp));
	KTEST_ASSERT_EQ(t, register_kprobe(&b.kp), 0);
	KTEST_EXPECT_FALSE(t, kprobe_optimized(&a.kp));	/* at once: b's int3 is in a's range */
	wait_for_kprobe_optimizer();
	KTEST_EXPECT_FALSE(t, kprobe_optimized(&a.kp));
	KTEST_EXPECT_EQ(t, optprobe_why_not(&a.kp), OPT_PROBE_IN_RANGE);
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&b.kp));
	KTEST_EXPECT_EQ(t, opt_mix(5), opt_mix(5));
	KTEST_EXPECT_EQ(t, a.hits, 2);
	KTEST_EXPECT_EQ(t, b.hits, 2);
	unregister_kprobe(&b.kp);
	wait_for_kprobe_optimizer();
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&a.kp));	/* re-optimized */
	unregister_kprobe(&a.kp);
}

/* ---- library functions --------------------------------------------------------- */

static const char *const workload_funcs[] = {
	"snprintf", "vsnprintf", "strlen", "strcmp", "strncmp", "memcmp", "memset",
	"memcpy", "memmove", "strlcpy", "kstrtoul", "insn_decode", "insn_type_name",
	"kmalloc", "kzalloc", "kfree", "errno_name", "kallsyms_lookup",
};
#define NR_WORKLOAD ARRAY_SIZE(workload_funcs)

/* Ordinary library work whose result is one number. */
static noinline uint32_t workload(void)
{
	char buf[64], copy[64];
	unsigned long v = 0, size, off;
	struct insn insn;
	uint32_t h = 0;

	for (int i = 0; i < 8; i++) {
		char *m = kzalloc(24 + i);

		snprintf(buf, sizeof(buf), "%d:%s:%08x", i, errno_name(-EINVAL), 0xbeef + i);
		strlcpy(copy, buf, sizeof(copy));
		h = h * 31 + strlen(copy) + (strcmp(copy, buf) == 0) + (strncmp(copy, "3:", 2) == 0);
		h = h * 31 + (memcmp(copy, buf, 8) == 0);
		if (m) {
			memset(m, i, 24);
			memcpy(buf, m, 16);
			memmove(buf + 1, buf, 8);
			h = h * 31 + (unsigned char)buf[3];
			kfree(m);
		}
		if (kstrtoul("12345", 10, &v) == 0)
			h += v;
		if (insn_decode(&insn, (const void *)opt_mix, INSN_MAX_LEN) > 0)
			h = h * 31 + insn.length;
		h = h * 31 + strlen(insn_type_name(insn.type));
		if (kallsyms_lookup((unsigned long)opt_mix + 3, &size, &off))
			h = h * 31 + off;
	}
	return h;
}

static void optprobe_library_functions(struct ktest *t)
{
	static struct rec_probe rps[2][NR_WORKLOAD];
	bool registered[2][NR_WORKLOAD];
	uint32_t want, got[2];
	unsigned long flags;
	unsigned int optimized = 0, compared = 0;
	bool on_ftrace = kprobes_on_ftrace;

	want = workload();
	/* Each entry an int3 or a jump, not an ftrace callback (docs/ftrace.md). */
	kprobes_on_ftrace = false;
	for (int opt = 0; opt <= 1; opt++) {
		kprobes_set_optimization(opt);
		WRITE_ONCE(recording, false);
		for (size_t f = 0; f < NR_WORKLOAD; f++) {
			unsigned long addr = kallsyms_lookup_name(workload_funcs[f]);

			rec_init(&rps[opt][f], (void *)addr);
			registered[opt][f] = addr && register_kprobe(&rps[opt][f].kp) == 0;
		}
		wait_for_kprobe_optimizer();
		for (size_t f = 0; f < NR_WORKLOAD; f++)
			if (opt && registered[opt][f])
				optimized += kprobe_optimized(&rps[opt][f].kp);
		flags = local_irq_save();
		WRITE_ONCE(recording, true);
		got[opt] = workload();
		WRITE_ONCE(recording, false);
		local_irq_restore(flags);
		for (size_t f = 0; f < NR_WORKLOAD; f++)
			if (registered[opt][f])
				unregister_kprobe(&rps[opt][f].kp);
	}
	WRITE_ONCE(recording, true);
	KTEST_EXPECT_EQ(t, got[0], want);
	KTEST_EXPECT_EQ(t, got[1], want);
	for (size_t f = 0; f < NR_WORKLOAD; f++) {
		if (registered[0][f] != registered[1][f])
			ktest_fail(t, __FILE__, __LINE__, "%s: registered only once", workload_funcs[f]);
		if (!registered[0][f] || !registered[1][f])
			continue;
		if (rps[0][f].hits != rps[1][f].hits)
			ktest_fail(t, __FILE__, __LINE__, "%s: %lu hits as int3, %lu as jump",
				   workload_funcs[f], rps[0][f].hits, rps[1][f].hits);
		if (rps[0][f].have_regs && rps[1][f].have_regs) {
			compare_regs(t, workload_funcs[f], &rps[1][f], &rps[0][f], false);
			compared++;
		}
	}
	kprobes_on_ftrace = on_ftrace;
	ktest_info(t, "%u of %u functions optimized, %u compared", optimized,
		   (unsigned)NR_WORKLOAD, compared);
	KTEST_EXPECT_TRUE(t, optimized >= NR_WORKLOAD / 2);
}

/* ---- the kernel's workloads (kernel/workloads.c), every instruction ------------- */

/*
 * Each workload as a function returning one number
 * (tests/kernel/workload_results.c).  worker_thread() is called directly
 * (not in a thread of its own) so that both runs have the same stack.
 */
struct wl_func {
	const char *name;
	unsigned long (*run)(void);	/* the workload that runs it */
	bool heap;			/* the workload computes with kmalloc()ed pointers */
};

static const struct wl_func wl_funcs[] = {
	{ "fib", wl_fib, false },
	{ "sort_ints", wl_sort, false }, { "cmp_ints", wl_sort, false },
	{ "crc32_le", wl_crc32, false }, { "crc32_byte", wl_crc32, false },
	{ "ht_insert", wl_hash, true }, { "ht_lookup", wl_hash, true },
	{ "ht_hash", wl_hash, true },
	{ "worker_thread", wl_worker, false }, { "do_work", wl_worker, false },
};

struct site_tally {
	unsigned int sites, optimized;
	unsigned int refused[OPT_NR_REFUSALS];
};

static void tally_report(struct ktest *t, const char *what, const struct site_tally *st)
{
	ktest_info(t, "%s: %u sites, %u optimized, %u refused", what, st->sites,
		   st->optimized, st->sites - st->optimized);
	for (int why = 1; why < OPT_NR_REFUSALS; why++)
		if (st->refused[why])
			ktest_info(t, "  %u refused: %s", st->refused[why],
				   optprobe_refusal_name(why));
}

#define ARITH_FLAGS (X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | \
		     X86_EFLAGS_SF | X86_EFLAGS_OF)

/*
 * Heap and page-allocator memory, above the kernel image.  The jump
 * run allocates a detour record the int3 run does not, so the same
 * kmalloc() can return another address: a register holding such a
 * pointer may differ between the runs, nothing else may.
 */
static bool dynamic_address(unsigned long v)
{
	return v >= (unsigned long)_end && v < (max_pfn << PAGE_SHIFT);
}

static void compare_gprs(struct ktest *t, const char *fn, unsigned long off,
			 const struct pt_regs *opt, const struct pt_regs *int3)
{
#define CMP_GPR(f)							\
	if (opt->f != int3->f && !(dynamic_address(opt->f) && dynamic_address(int3->f))) \
		ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: regs->" #f " %#lx, int3 hit %#lx", \
			   fn, off, opt->f, int3->f);
	GPR_FIELDS(CMP_GPR)
#undef CMP_GPR
}

/*
 * One instruction of a workload function: probed as an int3, then with
 * optimization on (a jump where the analysis allows).  The workload's
 * result, the hit count and what the handler saw must all agree.
 */
static void check_workload_site(struct ktest *t, const struct wl_func *wf,
				unsigned long start, unsigned long ip,
				unsigned long want, struct site_tally *st)
{
	static struct rec_probe rps[2];
	unsigned long got[2], off = ip - start;
	int why = OPT_OK, ret;

	for (int opt = 0; opt <= 1; opt++) {
		kprobes_set_optimization(opt);
		rec_init(&rps[opt], (void *)ip);
		ret = register_kprobe(&rps[opt].kp);
		if (ret) {
			ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: register_kprobe() = %d",
				   wf->name, off, ret);
			kprobes_set_optimization(true);
			return;
		}
		wait_for_kprobe_optimizer();
		yield();	/* the optimizer thread, woken by the queueing, sleeps again */
		if (opt) {
			why = optprobe_why_not(&rps[opt].kp);
			if (kprobe_optimized(&rps[opt].kp) != (why == OPT_OK))
				ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: optimized %d but %s",
					   wf->name, off, kprobe_optimized(&rps[opt].kp),
					   optprobe_refusal_name(why));
		}
		got[opt] = opt_call_clean(wf->run);
		unregister_kprobe(&rps[opt].kp);
	}
	kprobes_set_optimization(true);
	st->sites++;
	if (why == OPT_OK)
		st->optimized++;
	else if (why > 0 && why < OPT_NR_REFUSALS)
		st->refused[why]++;

	if (got[0] != want || got[1] != want)
		ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: result %#lx as int3, %#lx as %s, unprobed %#lx",
			   wf->name, off, got[0], got[1], why ? "int3 (refused)" : "jump", want);
	if (rps[0].hits != rps[1].hits)
		ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: %lu hits as int3, %lu with optimization",
			   wf->name, off, rps[0].hits, rps[1].hits);
	if (!rps[0].have_regs || !rps[1].have_regs)
		return;				/* never runs (an error path) */
	if (rps[1].regs.ip != ip + 1 || rps[0].regs.ip != ip + 1)	/* past the int3 */
		ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: regs->ip %#lx / %#lx", wf->name, off,
			   rps[0].regs.ip, rps[1].regs.ip);
	/*
	 * Past the entry, the word at the stack top may be a local the
	 * function has not written yet: stale, and the two runs left
	 * different things there.  So the stack words are compared at the
	 * entry (the return address) only; the stack pointer everywhere.
	 */
	if (off != 0)
		rps[1].stack[0] = rps[0].stack[0];
	/*
	 * The hash workload compares and hashes pointers kmalloc() returned
	 * (see dynamic_address()): the arithmetic flags it leaves may
	 * differ; the system flags (IF, DF, TF...) may not.
	 */
	if (wf->heap && !((rps[0].regs.flags ^ rps[1].regs.flags) & ~ARITH_FLAGS))
		rps[1].regs.flags = rps[0].regs.flags;
	compare_regs(t, wf->name, &rps[1], &rps[0], false);
	compare_gprs(t, wf->name, off, &rps[1].regs, &rps[0].regs);
}

/*
 * Every instruction of every workload function (the decoder walks each
 * from its kallsyms start to its end), probed as a jump where allowed.
 */
static void optprobe_workload_functions(struct ktest *t)
{
	struct site_tally st = { 0 };

	/*
	 * The two runs of a site must see the same machine: worker_thread's
	 * registers depend on what the other CPUs do meanwhile, so they park.
	 */
	sched_single_cpu_begin();
	for (const char *const *name = workload_functions; *name; name++) {
		const struct wl_func *wf = NULL;
		unsigned long start = kallsyms_lookup_name(*name), size, off, want;
		struct insn insn;

		for (size_t i = 0; i < ARRAY_SIZE(wl_funcs); i++)
			if (strcmp(wl_funcs[i].name, *name) == 0)
				wf = &wl_funcs[i];
		if (!wf || !start || !kallsyms_lookup(start, &size, &off)) {
			ktest_fail(t, __FILE__, __LINE__, "workload function %s: %s", *name,
				   wf ? "not in kallsyms" : "no runner in this test");
			continue;
		}
		want = wf->run();
		for (unsigned long ip = start; ip < start + size; ip += insn.length) {
			if (insn_decode(&insn, (const void *)ip, INSN_MAX_LEN) <= 0) {
				ktest_fail(t, __FILE__, __LINE__, "%s+%#lx: does not decode",
					   *name, ip - start);
				break;
			}
			check_workload_site(t, wf, start, ip, want, &st);
		}
	}
	KTEST_EXPECT_EQ(t, wl_fib(), 144);
	KTEST_EXPECT_EQ(t, wl_crc32(), 0xcbf43926);
	KTEST_EXPECT_EQ(t, wl_worker(), 1);
	sched_single_cpu_end();
	tally_report(t, "workload functions", &st);
	KTEST_EXPECT_TRUE(t, st.optimized > 0);
}

/* ---- the fixup routine (kprobes_fixups.S): refused, as Linux would ------------ */

static struct fixup_state fx_want[2], fx_got;	/* unprobed: irqs off, on */

static void fx_run_irqs(struct fixup_state *st, bool irqs_on)
{
	unsigned long flags = local_irq_save();

	memset(st, 0, sizeof(*st));
	if (irqs_on)
		local_irq_enable();
	fixup_routine(st);
	local_irq_disable();
	local_irq_restore(flags);
}

/* One run, compared with the unprobed one. */
static bool fx_same_as_unprobed(bool irqs_on)
{
	fx_run_irqs(&fx_got, irqs_on);
	return memcmp(fx_got.out, fx_want[irqs_on].out, sizeof(fx_got.out)) == 0;
}

/*
 * fixup_routine contains "jmp *%eax" and "jmp *disp(%ebx)": an indirect
 * jump could land anywhere, so Linux refuses to optimize any probe in
 * such a function, and so do we - every instruction of it, whatever the
 * instruction itself is.  Each stays an int3 probe: plain (boosting
 * off), then boosted where the instruction allows, with the same record
 * and the same hit count on every run.
 */
static void optprobe_fixup_routine(struct ktest *t)
{
	static struct rec_probe rp;
	unsigned long start = (unsigned long)fixup_routine;
	unsigned long end = (unsigned long)fixup_routine_end, hits;
	unsigned int sites = 0, refused = 0, boosted = 0, unprobeable = 0;
	struct insn insn;
	int ret, why;

	fx_run_irqs(&fx_want[0], false);
	fx_run_irqs(&fx_want[1], true);
	for (unsigned long ip = start; ip < end; ip += insn.length) {
		if (insn_decode(&insn, (const void *)ip, INSN_MAX_LEN) <= 0) {
			ktest_fail(t, __FILE__, __LINE__, "fixup_routine+%#lx: does not decode",
				   ip - start);
			return;
		}
		rec_init(&rp, (void *)ip);
		ret = register_kprobe(&rp.kp);
		if (ret) {			/* mov %ss: refused by kprobes itself */
			/* and stepped with int3, what emulate.c cannot compute */
			bool int3_refusal = ret == -EOPNOTSUPP && kprobe_step_design == KPROBE_SS_INT3;

			if (insn.type != INSN_TYPE_MOV_SS && !int3_refusal)
				ktest_fail(t, __FILE__, __LINE__, "fixup_routine+%#lx: register = %d",
					   ip - start, ret);
			unprobeable++;
			continue;
		}
		sites++;
		wait_for_kprobe_optimizer();
		why = optprobe_why_not(&rp.kp);
		refused += why == OPT_INDIRECT_JUMP && !kprobe_optimized(&rp.kp);
		if (why != OPT_INDIRECT_JUMP || kprobe_optimized(&rp.kp))
			ktest_fail(t, __FILE__, __LINE__, "fixup_routine+%#lx: %s, want %s",
				   ip - start, optprobe_refusal_name(why),
				   optprobe_refusal_name(OPT_INDIRECT_JUMP));
		kprobes_set_boosting(false);
		if (!fx_same_as_unprobed(false))
			ktest_fail(t, __FILE__, __LINE__, "fixup_routine+%#lx: record differs (plain)",
				   ip - start);
		hits = rp.hits;
		kprobes_set_boosting(true);
		for (int run = 0; run < 3; run++)	/* the first hit boosts */
			if (!fx_same_as_unprobed(run == 2))
				ktest_fail(t, __FILE__, __LINE__,
					   "fixup_routine+%#lx: record differs (boosted, run %d)",
					   ip - start, run);
		if (rp.hits != 4 * hits)
			ktest_fail(t, __FILE__, __LINE__, "fixup_routine+%#lx: %lu hits, want 4 x %lu",
				   ip - start, rp.hits, hits);
		boosted += rp.kp.ainsn.boostable == 1;
		unregister_kprobe(&rp.kp);
	}
	ktest_info(t, "fixup_routine: %u sites, %u refused for the indirect jump, %u boosted, %u not probeable",
		   sites, refused, boosted, unprobeable);
	KTEST_EXPECT_EQ(t, refused, sites);
	KTEST_EXPECT_TRUE(t, sites > 100 && boosted > 0);
}

/* ---- the switch, under load --------------------------------------------------- */

#define TOGGLES 1000

static volatile bool toggle_stop, toggle_tick_on;
/* The tick (CPU 0) and the worker (any CPU) both count: a locked increment. */
static atomic_t toggle_calls;

/* noipa: gcc must not specialise calls with a constant into a clone */
/* asmlinkage: a load of x first, so the body is long enough for a jump. */
static asmlinkage __attribute__((__noinline__, __noipa__)) int toggle_target(int x)
{
	return x * 3 + 1;
}

static void toggle_tick(void)
{
	if (toggle_tick_on) {
		if (toggle_target(5) != 16)
			toggle_stop = true;
		atomic_inc(&toggle_calls);
	}
}

static int toggle_worker(void *arg)
{
	int bad = 0;

	while (!toggle_stop) {
		if (toggle_target(7) != 22)
			bad++;
		atomic_inc(&toggle_calls);
		/*
		 * A hot probe's thread is nearly always preempted right after
		 * a hit (the tick waits out the handler's interrupts-off
		 * stretch), i.e. in the boosted slot or the detour.  Yielding
		 * now and then parks it elsewhere, where the optimizer can
		 * patch around it (docs/optprobes.md).
		 */
		if (atomic_read(&toggle_calls) % 16 == 0)
			yield();
	}
	return bad;
}

static void optprobe_toggle_under_load(struct ktest *t)
{
	static struct rec_probe rp;
	static bool hooked;
	struct task_struct *worker;
	uint8_t before[16];
	unsigned long calls;
	int seen_opt = 0, seen_int3 = 0;

	memcpy(before, toggle_target, sizeof(before));
	rec_init(&rp, toggle_target);
	KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&rp.kp));
	toggle_stop = false;
	atomic_set(&toggle_calls, 0);
	if (!hooked) {
		timer_add_hook(toggle_tick);	/* hooks cannot be removed: it idles after */
		hooked = true;
	}
	toggle_tick_on = true;
	worker = kthread_create(toggle_worker, NULL, "opt-toggle");
	KTEST_ASSERT_TRUE(t, worker != NULL);
	for (int i = 0; i < TOGGLES && !toggle_stop; i++) {
		KTEST_EXPECT_EQ(t, kprobes_set_optimization(i & 1), 0);
		wait_for_kprobe_optimizer();	/* a busy site may leave it an int3 */
		if (kprobe_optimized(&rp.kp))
			seen_opt++;
		else
			seen_int3++;
		if (i == 1 && !kprobe_optimized(&rp.kp))
			ktest_info(t, "not optimized: %s",
				   optprobe_refusal_name(optprobe_why_not(&rp.kp)));
		if (i % 64 == 0)
			yield();
	}
	kprobes_set_optimization(true);
	msleep(20);
	toggle_tick_on = false;
	toggle_stop = true;
	KTEST_EXPECT_EQ(t, kthread_join(worker), 0);
	calls = (unsigned long)atomic_read(&toggle_calls);
	unregister_kprobe(&rp.kp);

	ktest_info(t, "%d toggles: %d as jump, %d as int3; %lu calls, %lu hits, %lu missed",
		   TOGGLES, seen_opt, seen_int3, calls, rp.kp.nhit, rp.kp.nmissed);
	KTEST_EXPECT_TRUE(t, seen_opt > 0 && seen_int3 > 0);
	KTEST_EXPECT_TRUE(t, rp.kp.nhit + rp.kp.nmissed >= calls);
	KTEST_EXPECT_TRUE(t, rp.kp.nhit + rp.kp.nmissed <= calls + 2);	/* a tick in flight */
	KTEST_EXPECT_TRUE(t, text_same((const char *)toggle_target, before, sizeof(before)));
	synchronize_kprobe_text();	/* collects, under kprobe_mutex */
	KTEST_EXPECT_EQ(t, kprobes_nr_deferred(), 0);
}

/* ---- kretprobes on an optimized entry ------------------------------------------- */

static unsigned long kret_hits, kret_value;

static int kret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kret_hits++;
	kret_value = regs_return_value(regs);
	return 0;
}

static void optprobe_kretprobe_entry(struct ktest *t)
{
	static struct kretprobe rp;
	unsigned long flags, exc, want = opt_mix(99);

	memset(&rp, 0, sizeof(rp));
	rp.kp.addr = (kprobe_opcode_t *)opt_mix;
	rp.handler = kret_handler;
	kret_hits = 0;
	KTEST_ASSERT_EQ(t, register_kretprobe(&rp), 0);
	wait_for_kprobe_optimizer();
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&rp.kp));
	flags = local_irq_save();
	exc = probe_exceptions();
	for (int i = 0; i < 10; i++)
		KTEST_EXPECT_EQ(t, opt_mix(99), want);
	exc = probe_exceptions() - exc;
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, exc, 0);		/* entry: a jump; return: the trampoline */
	KTEST_EXPECT_EQ(t, kret_hits, 10);
	KTEST_EXPECT_EQ(t, kret_value, want);
	unregister_kretprobe(&rp);
}

/* Off turns every jump back into an int3; on makes them jumps again. */
static void optprobe_switch(struct ktest *t)
{
	static struct rec_probe rp;

	rec_init(&rp, opt_mix);
	KTEST_ASSERT_EQ(t, register_kprobe(&rp.kp), 0);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&rp.kp));
	KTEST_EXPECT_EQ(t, kprobes_set_optimization(false), 0);
	KTEST_EXPECT_FALSE(t, kprobes_get_optimization());
	KTEST_EXPECT_FALSE(t, kprobe_optimized(&rp.kp));
	KTEST_EXPECT_EQ(t, ((const uint8_t *)opt_mix)[0], BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, optprobe_why_not(&rp.kp), OPT_SWITCHED_OFF);
	KTEST_EXPECT_EQ(t, kprobes_set_optimization(true), 0);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&rp.kp));
	KTEST_EXPECT_EQ(t, opt_mix(3), opt_mix(3));
	KTEST_EXPECT_EQ(t, rp.hits, 2);
	KTEST_EXPECT_EQ(t, disable_kprobe(&rp.kp), 0);	/* disabled: an int3 no more */
	KTEST_EXPECT_FALSE(t, kprobe_optimized(&rp.kp));
	KTEST_EXPECT_EQ(t, enable_kprobe(&rp.kp), 0);
	KTEST_EXPECT_EQ(t, wait_for_kprobe_optimizer(), 0);
	KTEST_EXPECT_TRUE(t, kprobe_optimized(&rp.kp));
	unregister_kprobe(&rp.kp);
}

/* ---- seeing preempted threads (arch/i386/kprobes/text_quiesce.c) ------------------------ */

static volatile int spin_stop;

static int spin_worker(void *arg)
{
	opt_spin(&spin_stop);
	return 0;
}

/*
 * Asked as kprobes asks, in single-CPU mode (kernel/sched.c): every
 * thread on this CPU, so none is running - each sits switched out, its
 * resume points on its stack.
 */
static bool text_busy(unsigned long lo, unsigned long hi)
{
	bool busy;

	sched_single_cpu_begin();
	busy = kprobes_text_busy(lo, hi);
	sched_single_cpu_end();
	return busy;
}

static void text_busy_sees_preempted_thread(struct ktest *t)
{
	unsigned long lo = (unsigned long)opt_spin_loop, hi = (unsigned long)opt_spin_end;
	struct task_struct *w;

	spin_stop = 0;
	KTEST_EXPECT_FALSE(t, text_busy(lo, hi));
	w = kthread_create(spin_worker, NULL, "opt-spin");
	KTEST_ASSERT_TRUE(t, w != NULL);
	msleep(30);			/* it runs, and the timer preempts it in the loop */
	KTEST_EXPECT_TRUE(t, text_busy(lo, hi));
	KTEST_EXPECT_FALSE(t, text_busy(hi, hi + 1));
	spin_stop = 1;
	KTEST_EXPECT_EQ(t, kthread_join(w), 0);
	KTEST_EXPECT_FALSE(t, text_busy(lo, hi));
	/* Our own return address is on the current stack. */
	KTEST_EXPECT_TRUE(t, text_busy((unsigned long)ktest_run,
					       (unsigned long)ktest_run + 0x1000));
}

static struct ktest_case optprobes_cases[] = {
	KTEST_CASE(text_busy_sees_preempted_thread),
	KTEST_CASE(optprobe_basic),
	KTEST_CASE(optprobe_every_mix_label),
	KTEST_CASE(optprobe_all_mix_labels_at_once),
	KTEST_CASE(optprobe_unregister_batch),
	KTEST_CASE(optprobe_refusals),
	KTEST_CASE(optprobe_list_tells_the_verdict),
	KTEST_CASE(optprobe_probe_in_range),
	KTEST_CASE(optprobe_library_functions),
	KTEST_CASE(optprobe_workload_functions),
	KTEST_CASE(optprobe_fixup_routine),
	KTEST_CASE(optprobe_toggle_under_load),
	KTEST_CASE(optprobe_kretprobe_entry),
	KTEST_CASE(optprobe_switch),
	KTEST_END
};

static struct ktest_suite optprobes_suite = {
	.name = "optprobes",
	.cases = optprobes_cases,
	.init = opt_init,
	.exit = opt_exit,
};
KTEST_SUITE(optprobes_suite);
