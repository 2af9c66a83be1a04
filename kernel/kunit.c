/*
 * kunit.c - runs the KUnit suites of a module (include/kunit/test.h).
 *
 * Linux's KUnit prints KTAP: a document per module with one subtest per
 * suite and a result line per case.  Here the same text is printed, so
 * Linux's kunit.py would read it, and so would tests/run_tests.py: a
 * ktest case that loads a KUnit module sets kunit_base_indent, the whole
 * document is then indented below that case (KTAP nests by indentation),
 * and each KUnit case counts as a test of its own.
 */
#include "kernel.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "kunit/test.h"

#define KTAP_INDENT	4	/* spaces per nesting level */

unsigned int kunit_base_indent;

void kunit_fail(struct kunit *test, const char *file, int line, const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("%*s# %s: %s:%d: %s\n", test->indent, "", test->name,
	       base ? base + 1 : file, line, msg);
	test->failed = true;
}

void kunit_log(struct kunit *test, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("%*s# %s: %s\n", test->indent, "", test->name, msg);
}

void kunit_skip_case(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(test->skip_reason, sizeof(test->skip_reason), fmt, ap);
	va_end(ap);
	test->skipped = true;
}

/* Memory that lives as long as the case: freed when it ends. */
void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p;

	if (test->nr_resources == KUNIT_MAX_RESOURCES) {
		KUNIT_FAIL(test, "more than %d kunit_kmalloc()s in one case",
			   KUNIT_MAX_RESOURCES);
		return NULL;
	}
	p = kmalloc(size, gfp);
	if (p)
		test->resources[test->nr_resources++] = p;
	return p;
}

static void kunit_release_resources(struct kunit *test)
{
	while (test->nr_resources)
		kfree(test->resources[--test->nr_resources]);
}

/* One case: init, run, exit, then its result line.  1 if it failed. */
static int kunit_run_case(struct kunit_suite *suite, struct kunit_case *c,
			  int num, unsigned int indent)
{
	struct kunit test = { .name = c->name, .indent = indent };

	if (suite->init && suite->init(&test))
		KUNIT_FAIL(&test, "suite init failed");
	else
		c->run_case(&test);
	if (suite->exit)
		suite->exit(&test);
	kunit_release_resources(&test);
	c->status = test.failed ? KUNIT_FAILURE :
		    test.skipped ? KUNIT_SKIPPED : KUNIT_SUCCESS;
	if (test.skipped && !test.failed)
		printk("%*sok %d %s # SKIP %s\n", indent, "", num, c->name,
		       test.skip_reason);
	else
		printk("%*s%s %d %s\n", indent, "", test.failed ? "not ok" : "ok",
		       num, c->name);
	return test.failed;
}

static int kunit_run_suite(struct kunit_suite *suite, int num, unsigned int indent)
{
	unsigned int inner = indent + KTAP_INDENT;
	int n = 0, failed = 0;

	while (suite->test_cases[n].run_case)
		n++;
	printk("%*sKTAP version 1\n%*s# Subtest: %s\n%*s1..%d\n", inner, "",
	       inner, "", suite->name, inner, "", n);
	if (suite->suite_init && suite->suite_init(suite)) {
		printk("%*s# %s: suite_init failed\n", inner, "", suite->name);
		for (int i = 0; i < n; i++)
			suite->test_cases[i].status = KUNIT_FAILURE;
		failed = n ? n : 1;
	} else {
		for (int i = 0; i < n; i++)
			failed += kunit_run_case(suite, &suite->test_cases[i], i + 1, inner);
		if (suite->suite_exit)
			suite->suite_exit(suite);
	}
	printk("%*s%s %d %s\n", indent, "", failed ? "not ok" : "ok", num, suite->name);
	return failed;
}

/*
 * What Linux's debugfs results file and its test tooling ask of a suite
 * that has run: one failed case fails it, all skipped is a skip.
 */
enum kunit_status kunit_suite_has_succeeded(struct kunit_suite *suite)
{
	enum kunit_status status = KUNIT_SKIPPED;
	struct kunit_case *c;

	for (c = suite->test_cases; c->run_case; c++) {
		if (c->status == KUNIT_FAILURE)
			return KUNIT_FAILURE;
		if (c->status == KUNIT_SUCCESS)
			status = KUNIT_SUCCESS;
	}
	return status;
}

int __kunit_test_suites_init(struct kunit_suite *const *suites, int num)
{
	unsigned int indent = kunit_base_indent;
	int failed = 0;

	printk("%*sKTAP version 1\n%*s1..%d\n", indent, "", indent, "", num);
	for (int i = 0; i < num; i++)
		failed += kunit_run_suite(suites[i], i + 1, indent);
	return failed;
}
