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
 */
#include "kernel.h"
#include "errno.h"
#include "kprobes.h"
#include "kprobes_smoke.h"
#include "ptrace.h"
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

/* The failure report: "; "-separated phrases after "FAILED: ". */
struct smoke_report {
	char text[160];
	size_t len;
	int failures;
};

static void __printf(2, 3) smoke_fail(struct smoke_report *r,
				      const char *fmt, ...)
{
	va_list ap;

	if (r->failures++ && r->len < sizeof(r->text))
		r->len += snprintf(r->text + r->len, sizeof(r->text) - r->len, "; ");
	if (r->len < sizeof(r->text)) {
		va_start(ap, fmt);
		r->len += vsnprintf(r->text + r->len, sizeof(r->text) - r->len,
				    fmt, ap);
		va_end(ap);
	}
}

static int smoke_register(struct smoke_report *r)
{
	int ret;

	ret = register_kprobe(&smoke_kp);
	if (ret) {
		smoke_fail(r, "register_kprobe(crc32_byte) = %d", ret);
		return ret;
	}
	ret = register_jprobe(&smoke_jp);
	if (ret) {
		smoke_fail(r, "register_jprobe(crc32_le) = %d", ret);
		unregister_kprobe(&smoke_kp);
		return ret;
	}
	ret = register_kretprobe(&smoke_rp);
	if (ret) {
		smoke_fail(r, "register_kretprobe(ht_hash) = %d", ret);
		unregister_jprobe(&smoke_jp);
		unregister_kprobe(&smoke_kp);
	}
	return ret;
}

static void smoke_unregister(void)
{
	unregister_kretprobe(&smoke_rp);
	unregister_jprobe(&smoke_jp);
	unregister_kprobe(&smoke_kp);
}

/*
 * Did each probe fire as often as its routine ran, see what the routine
 * saw, and leave the routine's result alone?
 */
static void smoke_check(struct smoke_report *r, uint32_t crc, uint32_t want_crc,
			unsigned int hash, unsigned int want_hash)
{
	if (seen.pre_hits != SMOKE_TEXT_LEN || seen.post_hits != SMOKE_TEXT_LEN)
		smoke_fail(r, "kprobe on crc32_byte: %u pre, %u post hits, want %u",
			   seen.pre_hits, seen.post_hits,
			   (unsigned int)SMOKE_TEXT_LEN);
	if (seen.jprobe_hits != 1)
		smoke_fail(r, "jprobe on crc32_le: %u hits, want 1",
			   seen.jprobe_hits);
	else if (!seen.jprobe_args_ok)
		smoke_fail(r, "jprobe on crc32_le: wrong arguments");
	if (seen.kretprobe_hits != 1)
		smoke_fail(r, "kretprobe on ht_hash: %u hits, want 1",
			   seen.kretprobe_hits);
	else if (seen.kretprobe_value != hash)
		smoke_fail(r, "kretprobe on ht_hash: saw %#lx, caller got %#x",
			   seen.kretprobe_value, hash);
	if (crc != want_crc || hash != want_hash)
		smoke_fail(r, "probed routines returned %#x/%#x, want %#x/%#x",
			   crc, hash, want_crc, want_hash);
}

/* 0, or a register_*() error, or -EFAULT when a probe misbehaved. */
int init_test_probes(void)
{
	struct smoke_report report = { .len = 0 };
	/* The answers, computed before any probe is in place. */
	uint32_t want_crc = crc32_le(SMOKE_CRC_SEED, smoke_text, SMOKE_TEXT_LEN);
	unsigned int want_hash = ht_hash(smoke_key);
	uint32_t crc;
	unsigned int hash;

	smoke_init_probes();
	if (smoke_register(&report) == 0) {
		crc = crc32_le(SMOKE_CRC_SEED, smoke_text, SMOKE_TEXT_LEN);
		hash = ht_hash(smoke_key);
		smoke_unregister();
		smoke_check(&report, crc, want_crc, hash, want_hash);
	}

	if (report.failures)
		printk("Kprobe smoke test: FAILED: %s\n", report.text);
	else
		printk("Kprobe smoke test: passed\n");
	return report.failures ? -EFAULT : 0;
}
