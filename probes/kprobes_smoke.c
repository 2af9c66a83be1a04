/*
 * kprobes_smoke.c - the "Kprobe smoke test" every boot runs, as Linux
 * does with CONFIG_KPROBES_SANITY_TEST (kernel/test_kprobes.c there).
 *
 * The full suites (tests/kernel/) live in the test image only.  This is
 * the one check the kernel a student boots makes on itself: one probe of
 * each kind on real kernel routines, fired once each, so that a kernel
 * whose int3 path, #DB path, jprobe longjmp or kretprobe trampoline is
 * broken says so in the boot log instead of at the first `echo p:...`.
 *
 *   kprobe     crc32_byte(): pre- and post-handler run once per byte
 *   jprobe     crc32_le(crc, buf, len): the entry sees those arguments
 *   kretprobe  ht_hash(key): the handler sees the value the caller gets
 *
 * It prints one line, "Kprobe smoke test: passed" or what failed, and
 * takes a few milliseconds.  `nosmoke` on the command line skips it.
 *
 * In a lab's student tree (labs/README.md) the pieces the lab asks for
 * are stubs, and a probe whose hit runs through one would stop the boot.
 * So a kind whose path needs a lab that is not done is skipped, and the
 * line says so: "jprobe skipped: lab 3 not done".  The smoke test does
 * not guess: scripts/mklab.py writes, with each stub, the definition of
 * a symbol labN_not_done, which the student deletes with the stub.  The
 * full tree defines none of them, and so runs every kind.
 */
#include "kernel.h"
#include "errno.h"
#include "kprobes.h"
#include "kprobes_smoke.h"
#include <asm/ptrace.h>
#include "string.h"
#include "vsprintf.h"
#include "workloads.h"

/* What the routines are called with: short, so the test is quick. */
static const unsigned char smoke_text[] = "kprobes";
#define SMOKE_TEXT_LEN		(sizeof(smoke_text) - 1)	/* one crc32_byte() each */
#define SMOKE_CRC_SEED		0xffffffffu			/* crc32's usual start */
static const char smoke_key[] = "smoke";

/* What the handlers saw, reset before each run. */
static struct {
	unsigned int pre_hits, post_hits;
	unsigned int jprobe_hits;
	bool jprobe_args_ok;
	unsigned int kretprobe_hits;
	unsigned long kretprobe_value;
} seen;

static int smoke_pre(struct kprobe *p, struct pt_regs *regs)
{
	seen.pre_hits++;
	return 0;
}

static void smoke_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	seen.post_hits++;
}

/* The jprobe entry has crc32_le()'s prototype and ends in jprobe_return(). */
static uint32_t smoke_jprobe_entry(uint32_t crc, const unsigned char *buf,
				   size_t len)
{
	seen.jprobe_hits++;
	seen.jprobe_args_ok = crc == SMOKE_CRC_SEED && buf == smoke_text &&
			      len == SMOKE_TEXT_LEN;
	jprobe_return();
}

static int smoke_ret_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	seen.kretprobe_hits++;
	seen.kretprobe_value = regs_return_value(regs);
	return 0;
}

static struct kprobe smoke_kp;
static struct jprobe smoke_jp;
static struct kretprobe smoke_rp;

/* Fresh probes each run: registering fills in their internal fields. */
static void smoke_init_probes(void)
{
	smoke_kp = (struct kprobe){
		.symbol_name = "crc32_byte",
		.pre_handler = smoke_pre,
		.post_handler = smoke_post,
	};
	smoke_jp = (struct jprobe){
		.kp.symbol_name = "crc32_le",
		.entry = smoke_jprobe_entry,
	};
	smoke_rp = (struct kretprobe){
		.kp.symbol_name = "ht_hash",
		.handler = smoke_ret_handler,
	};
	memset(&seen, 0, sizeof(seen));
}

/*
 * lab1_not_done..lab4_not_done: weak, so a symbol no stub defines is 0
 * (mklab.py defines it weak and absolute, once per stub).  Lab 5's stubs
 * only make probes slower: no kind needs lab 5 done.
 */
extern const char lab1_not_done[] __attribute__((weak));
extern const char lab2_not_done[] __attribute__((weak));
extern const char lab3_not_done[] __attribute__((weak));
extern const char lab4_not_done[] __attribute__((weak));

static bool lab_done(int lab)
{
	switch (lab) {
	case 1: return !lab1_not_done;
	case 2: return !lab2_not_done;
	case 3: return !lab3_not_done;
	case 4: return !lab4_not_done;
	default: return true;
	}
}

/* The report: "; "-separated phrases after "Kprobe smoke test: ". */
struct smoke_report {
	char text[200];
	size_t len;
	int phrases;
	int failures;
};

static void __printf(2, 3) smoke_say(struct smoke_report *r,
				     const char *fmt, ...)
{
	va_list ap;

	if (r->phrases++ && r->len < sizeof(r->text))
		r->len += snprintf(r->text + r->len, sizeof(r->text) - r->len, "; ");
	if (r->len < sizeof(r->text)) {
		va_start(ap, fmt);
		r->len += vsnprintf(r->text + r->len, sizeof(r->text) - r->len,
				    fmt, ap);
		va_end(ap);
	}
}

#define smoke_fail(r, ...) do { (r)->failures++; smoke_say(r, __VA_ARGS__); } while (0)

/*
 * Did each probe fire as often as its routine ran and see what the
 * routine saw?  (The kretprobe check also needs the value the caller got.)
 */
static void smoke_check_kprobe(struct smoke_report *r, unsigned int hash)
{
	if (seen.pre_hits != SMOKE_TEXT_LEN || seen.post_hits != SMOKE_TEXT_LEN)
		smoke_fail(r, "kprobe on crc32_byte: %u pre, %u post hits, want %u",
			   seen.pre_hits, seen.post_hits,
			   (unsigned int)SMOKE_TEXT_LEN);
}

static void smoke_check_jprobe(struct smoke_report *r, unsigned int hash)
{
	if (seen.jprobe_hits != 1)
		smoke_fail(r, "jprobe on crc32_le: %u hits, want 1",
			   seen.jprobe_hits);
	else if (!seen.jprobe_args_ok)
		smoke_fail(r, "jprobe on crc32_le: wrong arguments");
}

static void smoke_check_kretprobe(struct smoke_report *r, unsigned int hash)
{
	if (seen.kretprobe_hits != 1)
		smoke_fail(r, "kretprobe on ht_hash: %u hits, want 1",
			   seen.kretprobe_hits);
	else if (seen.kretprobe_value != hash)
		smoke_fail(r, "kretprobe on ht_hash: saw %#lx, caller got %#x",
			   seen.kretprobe_value, hash);
}

static int smoke_register_kprobe(void) { return register_kprobe(&smoke_kp); }
static int smoke_register_jprobe(void) { return register_jprobe(&smoke_jp); }
static int smoke_register_kretprobe(void) { return register_kretprobe(&smoke_rp); }
static void smoke_unregister_kprobe(void) { unregister_kprobe(&smoke_kp); }
static void smoke_unregister_jprobe(void) { unregister_jprobe(&smoke_jp); }
static void smoke_unregister_kretprobe(void) { unregister_kretprobe(&smoke_rp); }

/*
 * The three kinds, and the labs whose code a hit of each runs: the trap
 * path (lab 1), the int3 and #DB handlers (lab 2), then its own.
 */
#define SMOKE_LABS_MAX 3
static const struct smoke_kind {
	const char *name;
	const char *registered_as;	/* for a registration failure */
	int labs[SMOKE_LABS_MAX];
	int (*register_probe)(void);
	void (*unregister_probe)(void);
	void (*check)(struct smoke_report *r, unsigned int hash);
} smoke_kinds[] = {
	{ "kprobe", "register_kprobe(crc32_byte)", { 1, 2 },
	  smoke_register_kprobe, smoke_unregister_kprobe, smoke_check_kprobe },
	{ "jprobe", "register_jprobe(crc32_le)", { 1, 2, 3 },
	  smoke_register_jprobe, smoke_unregister_jprobe, smoke_check_jprobe },
	{ "kretprobe", "register_kretprobe(ht_hash)", { 1, 2, 4 },
	  smoke_register_kretprobe, smoke_unregister_kretprobe, smoke_check_kretprobe },
};
#define NR_SMOKE_KINDS ARRAY_SIZE(smoke_kinds)

/* The first lab this kind needs that is not done in this tree, or 0. */
static int smoke_lab_missing(const struct smoke_kind *k)
{
	for (int i = 0; i < SMOKE_LABS_MAX && k->labs[i]; i++)
		if (!lab_done(k->labs[i]))
			return k->labs[i];
	return 0;
}

/*
 * Register the kinds this tree can run (run[] says which), saying why
 * the others are skipped.  0, or the first registration error, with
 * whatever was registered unregistered again.
 */
static int smoke_register(struct smoke_report *r, bool run[])
{
	size_t i, j;
	int lab, ret;

	for (i = 0; i < NR_SMOKE_KINDS; i++) {
		lab = smoke_lab_missing(&smoke_kinds[i]);
		run[i] = !lab;
		if (lab)
			smoke_say(r, "%s skipped: lab %d not done",
				  smoke_kinds[i].name, lab);
	}
	for (i = 0; i < NR_SMOKE_KINDS; i++) {
		if (!run[i])
			continue;
		ret = smoke_kinds[i].register_probe();
		if (ret) {
			smoke_fail(r, "%s = %d", smoke_kinds[i].registered_as, ret);
			for (j = 0; j < i; j++)
				if (run[j])
					smoke_kinds[j].unregister_probe();
			return ret;
		}
	}
	return 0;
}

/*
 * Unregister what ran, the last registered first, and check it.  When
 * some kinds were skipped, the line also names those that passed.
 */
static void smoke_unregister_and_check(struct smoke_report *r, const bool run[],
				       unsigned int hash)
{
	bool skipped = r->phrases > 0;
	size_t i;

	for (i = NR_SMOKE_KINDS; i-- > 0; )
		if (run[i])
			smoke_kinds[i].unregister_probe();
	for (i = 0; i < NR_SMOKE_KINDS; i++)
		if (run[i])
			smoke_kinds[i].check(r, hash);
	for (i = 0; i < NR_SMOKE_KINDS && skipped && !r->failures; i++)
		if (run[i])
			smoke_say(r, "%s passed", smoke_kinds[i].name);
}

/* 0, or a register_*() error, or -EFAULT when a probe misbehaved. */
int init_test_probes(void)
{
	struct smoke_report report = { .len = 0 };
	bool run[NR_SMOKE_KINDS];
	/* The answers, computed before any probe is in place. */
	uint32_t want_crc = crc32_le(SMOKE_CRC_SEED, smoke_text, SMOKE_TEXT_LEN);
	unsigned int want_hash = ht_hash(smoke_key);
	uint32_t crc;
	unsigned int hash;
	int ret;

	smoke_init_probes();
	ret = smoke_register(&report, run);
	if (ret == 0) {
		crc = crc32_le(SMOKE_CRC_SEED, smoke_text, SMOKE_TEXT_LEN);
		hash = ht_hash(smoke_key);
		smoke_unregister_and_check(&report, run, hash);
		if (crc != want_crc || hash != want_hash)
			smoke_fail(&report, "probed routines returned %#x/%#x, want %#x/%#x",
				   crc, hash, want_crc, want_hash);
	}

	if (report.failures)
		printk("Kprobe smoke test: FAILED: %s\n", report.text);
	else if (report.phrases)
		printk("Kprobe smoke test: %s\n", report.text);
	else
		printk("Kprobe smoke test: passed\n");
	if (ret)
		return ret;
	return report.failures ? -EFAULT : 0;
}
