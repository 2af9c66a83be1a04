/*
 * ktest.c - runs the test suites and prints KTAP version 1.
 *
 * Every KTEST_SUITE() leaves a pointer in the .ktest_suites section;
 * the linker gathers them between __start_ktest_suites and
 * __stop_ktest_suites, so adding a suite never touches this file.
 *
 * The runner belongs to the test image (build/kernel-test.elf) only: it
 * is the image's "test" boot mode, and kmain() finds it through the
 * .boot_modes section.
 */
#include "ktest.h"
#include "printk.h"
#include <asm/kdebug.h>
#include "mm.h"
#include "nokprobe.h"
#include "string.h"
#include "vsprintf.h"
#include "ramfs.h"

extern struct ktest_suite *__start_ktest_suites[], *__stop_ktest_suites[];

#define SUBTEST_INDENT "    "

/* FNV-1a: tiny, and any changed byte changes the result. */
#define FNV32_OFFSET_BASIS	2166136261u
#define FNV32_PRIME		16777619u

uint32_t ktest_boot_text_checksum;

uint32_t ktest_text_checksum(void)
{
	uint32_t h = FNV32_OFFSET_BASIS;

	for (const unsigned char *c = (const unsigned char *)_text;
	     c < (const unsigned char *)_etext; c++)
		h = (h ^ *c) * FNV32_PRIME;
	return h;
}

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	const char *base = strrchr(file, '/');

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(SUBTEST_INDENT "# %s: %s:%d: %s\n", t->name, base ? base + 1 : file,
	       line, msg);
	t->failed = true;
}

void ktest_skip(struct ktest *t, const char *reason)
{
	t->skipped = true;
	t->skip_reason = reason;
}

void ktest_info(struct ktest *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(SUBTEST_INDENT "# %s: %s\n", t->name, msg);
}

/* ---- printk capture: one more console, switched on by a case ------------ */

static char capture_buf[KTEST_CAPTURE_SIZE];
static size_t capture_len;
static bool capturing;

static void capture_write(const char *s, size_t len)
{
	if (!capturing)
		return;
	if (len > sizeof(capture_buf) - 1 - capture_len)
		len = sizeof(capture_buf) - 1 - capture_len;
	memcpy(capture_buf + capture_len, s, len);
	capture_len += len;
	capture_buf[capture_len] = '\0';
}

static struct console capture_console = { .name = "ktest-capture",
					  .write = capture_write };

void ktest_capture_start(void)
{
	static bool registered;

	if (!registered) {
		register_console(&capture_console);
		registered = true;
	}
	capture_len = 0;
	capture_buf[0] = '\0';
	capturing = true;
}

void ktest_capture_stop(void)
{
	capturing = false;
}

const char *ktest_captured(void)
{
	return capture_buf;
}

bool ktest_hex_after(const char *text, const char *key, unsigned long *val)
{
	const char *p = text ? strstr(text, key) : NULL;

	if (!p)
		return false;
	*val = simple_strtoul(p + strlen(key), NULL, 16);
	return true;
}

/*
 * The list is "a,b.case,c": a suite's name runs the whole suite,
 * "suite.case" only that case of it (the labs' grader asks for one case
 * at a time).  Does the item of length len name suite s, and case c of
 * it (c NULL: any case)?
 */
static bool item_names(const char *item, size_t len, const struct ktest_suite *s,
		       const struct ktest_case *c)
{
	size_t n = strlen(s->name);

	if (len < n || strncmp(item, s->name, n) != 0)
		return false;
	if (len == n)
		return true;			/* the whole suite */
	if (item[n] != '.')
		return false;
	return !c || (len - n - 1 == strlen(c->name) &&
		      strncmp(item + n + 1, c->name, len - n - 1) == 0);
}

/* Does `list` name suite s (c NULL) or case c of it? NULL list: not on_request suites. */
static bool listed(const char *list, const struct ktest_suite *s,
		   const struct ktest_case *c)
{
	if (!list)
		return !s->on_request;
	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (item_names(list, len, s, c))
			return true;
		if (!end)
			break;
		list = end + 1;
	}
	return false;
}

static bool selected(const char *list, const struct ktest_suite *s)
{
	return listed(list, s, NULL);
}

static int count_cases(const char *list, struct ktest_suite *s)
{
	int i, n = 0;

	for (i = 0; s->cases[i].name; i++)
		n += listed(list, s, &s->cases[i]);
	return n;
}

static int run_case(struct ktest_suite *s, struct ktest_case *c, int num)
{
	struct ktest t = { .name = c->name };

	if (s->init && s->init(&t) != 0)
		ktest_fail(&t, __FILE__, __LINE__, "suite init failed");
	else
		c->run(&t);
	if (s->exit)
		s->exit(&t);
	if (t.skipped && !t.failed)
		printk(SUBTEST_INDENT "ok %d %s # SKIP %s\n", num, c->name,
		       t.skip_reason ? t.skip_reason : "");
	else
		printk(SUBTEST_INDENT "%s %d %s\n", t.failed ? "not ok" : "ok", num,
		       c->name);
	return t.failed;
}

static int run_suite(const char *list, struct ktest_suite *s, int num)
{
	int i, done = 0, failed = 0, n = count_cases(list, s);

	printk(SUBTEST_INDENT "KTAP version 1\n");
	printk(SUBTEST_INDENT "# Subtest: %s\n", s->name);
	printk(SUBTEST_INDENT "1..%d\n", n);
	for (i = 0; s->cases[i].name; i++)
		if (listed(list, s, &s->cases[i]))
			failed += run_case(s, &s->cases[i], ++done);
	printk("%s %d %s\n", failed ? "not ok" : "ok", num, s->name);
	return failed;
}

/* Names in `list` that match no suite: each is reported as a failure. */
static int count_unknown(const char *list, bool print, int *num)
{
	char name[64];
	int unknown = 0;

	while (list && *list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		struct ktest_suite **s;
		bool found = false;

		strlcpy(name, list, len + 1 < sizeof(name) ? len + 1 : sizeof(name));
		for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
			found |= item_names(list, len, *s, NULL) &&
				 count_cases(name, *s) > 0;
		if (!found) {
			unknown++;
			if (print)
				printk("not ok %d %s # no such suite or case\n", ++*num, name);
		}
		list = end ? end + 1 : NULL;
	}
	return unknown;
}

/* ---- a crash in the middle of a run fails it -------------------------------
 *
 * die() and panic() print their report and stop the machine; they know
 * nothing of tests.  While a run is on, the runner listens on the die and
 * panic chains, adds a failing result to the KTAP output so the harness
 * sees why the run ended, and leaves QEMU with the failure status.
 */
static int ktest_oops_notify(struct notifier_block *nb, unsigned long val,
			     void *data)
{
	if (val != DIE_OOPS)
		return NOTIFY_DONE;
	printk("not ok - kernel oops during test run\n");
	qemu_exit(QEMU_EXIT_FAIL);
}
NOKPROBE_SYMBOL(ktest_oops_notify);

static int ktest_panic_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	printk("not ok - kernel panic during test run\n");
	qemu_exit(QEMU_EXIT_FAIL);
}
NOKPROBE_SYMBOL(ktest_panic_notify);

static struct notifier_block ktest_oops_nb = { .notifier_call = ktest_oops_notify };
static struct notifier_block ktest_panic_nb = { .notifier_call = ktest_panic_notify };

int ktest_run(const char *list)
{
	struct ktest_suite **s;
	int planned = 0, num = 0, failed = 0;

	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		planned += selected(list, *s);
	planned += count_unknown(list, false, &num);

	ktest_boot_text_checksum = ktest_text_checksum();
	register_die_notifier(&ktest_oops_nb);
	atomic_notifier_chain_register(&panic_notifier_list, &ktest_panic_nb);
	printk("KTAP version 1\n1..%d\n", planned);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		if (selected(list, *s))
			failed += run_suite(list, *s, ++num);
	failed += count_unknown(list, true, &num);
	atomic_notifier_chain_unregister(&panic_notifier_list, &ktest_panic_nb);
	unregister_die_notifier(&ktest_oops_nb);
	printk("# ktest: %d failed\n", failed);
	return failed;
}

/* "test" or "test=a,b": run the suites, then leave QEMU with the verdict. */
static void ktest_boot(const char *list)
{
	int failed = ktest_run(list);

	qemu_exit(failed ? QEMU_EXIT_FAIL : QEMU_EXIT_PASS);
}
DEFINE_BOOT_MODE("test", ktest_boot);

struct inode *ktest_program_inode(const char *name)
{
	char path[PATH_MAX];
	struct inode *inode;

	snprintf(path, sizeof(path), "/bin/%s", name);
	if (ramfs_lookup(path, &inode))
		return NULL;
	iput(inode);
	return inode;
}
