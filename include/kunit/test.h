/*
 * kunit/test.h - Linux's KUnit API for test modules, on this kernel.
 *
 * A KUnit module declares suites of cases and says kunit_test_suite();
 * loading it runs them and prints KTAP, as Linux does.  The runner is
 * kernel/kunit.c: it prints the same KTAP as the kernel's own test
 * framework (tests/kernel/ktest.h), nested one level deeper when the module
 * is loaded from inside a running ktest case (which sets
 * kunit_base_indent), so `make test` counts every KUnit case in its
 * "N passed, N failed" line.
 *
 *	static void my_case(struct kunit *test)
 *	{
 *		KUNIT_EXPECT_EQ(test, 2 + 2, 4);
 *	}
 *	static struct kunit_case my_cases[] = { KUNIT_CASE(my_case), {} };
 *	static struct kunit_suite my_suite = { .name = "my", .test_cases = my_cases };
 *	kunit_test_suite(my_suite);
 *
 * What differs from Linux: a failed KUNIT_ASSERT_*() returns from the
 * function it is written in (Linux aborts the whole case from any depth),
 * so write assertions in the case function itself.
 */
#ifndef KUNIT_TEST_H
#define KUNIT_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include "../linux/kernel.h"
#include "../linux/module.h"
#include "../linux/slab.h"
#include "../linux/err.h"

#define KUNIT_MAX_RESOURCES	16	/* kunit_kmalloc()s per case, freed after it */

struct kunit {
	const char *name;		/* the case running */
	void *priv;			/* the suite's init may hang its state here */
	bool failed;
	bool skipped;
	char skip_reason[64];
	void *resources[KUNIT_MAX_RESOURCES];
	unsigned int nr_resources;
	unsigned int indent;		/* KTAP indentation of the case's lines */
};

/* A case's result once it has run, as Linux keeps it (lib/kunit/test.c). */
enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	enum kunit_status status;	/* set by the runner */
};

struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);	/* before each case */
	void (*exit)(struct kunit *test);	/* after each case */
	struct kunit_case *test_cases;		/* ends with {} */
};

#define KUNIT_CASE(fn)	{ .run_case = fn, .name = #fn }

/* ---- the runner (kernel/kunit.c) ----------------------------------------- */

/*
 * Spaces before the module's KTAP document: 0 when loaded by hand, as
 * Linux prints it; KUNIT_INDENT_UNDER_KTEST_CASE while a ktest case
 * loads the module, whose result line then closes the nested document.
 */
extern unsigned int kunit_base_indent;
#define KUNIT_INDENT_UNDER_KTEST_CASE	8	/* below ktest's suite and case lines */

/* Run the suites, print KTAP; the number of failed cases. */
int __kunit_test_suites_init(struct kunit_suite *const *suites, int num);
void kunit_fail(struct kunit *test, const char *file, int line,
		const char *fmt, ...) __printf(4, 5);
void kunit_log(struct kunit *test, const char *fmt, ...) __printf(2, 3);
void kunit_skip_case(struct kunit *test, const char *fmt, ...) __printf(2, 3);
void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp);
/* FAILURE if a case failed, SUCCESS if one passed, else SKIPPED (Linux's). */
enum kunit_status kunit_suite_has_succeeded(struct kunit_suite *suite);

/*
 * Loading the module runs its suites (Linux 5.x put the same module_init
 * in this macro).  The module's init succeeds even if cases fail: the
 * KTAP says what failed, and the module stays loaded until rmmod.
 */
#define kunit_test_suites(...)						\
	static struct kunit_suite *const __kunit_suites[] = { __VA_ARGS__ }; \
	static int kunit_test_suites_init(void)				\
	{								\
		__kunit_test_suites_init(__kunit_suites,		\
					 ARRAY_SIZE(__kunit_suites));	\
		return 0;						\
	}								\
	static void kunit_test_suites_exit(void) { }			\
	module_init(kunit_test_suites_init)				\
	module_exit(kunit_test_suites_exit)
#define kunit_test_suite(suite)	kunit_test_suites(&suite)

/* ---- messages and resources ----------------------------------------------- */

#define kunit_info(test, fmt, ...)	kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_mark_skipped(test, fmt, ...) kunit_skip_case(test, fmt, ##__VA_ARGS__)
#define kunit_skip(test, fmt, ...)					\
	do { kunit_skip_case(test, fmt, ##__VA_ARGS__); return; } while (0)
#define kunit_kzalloc(test, size, gfp)	kunit_kmalloc(test, size, (gfp) | __GFP_ZERO)
#define KUNIT_FAIL(test, fmt, ...)					\
	kunit_fail(test, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* ---- expectations: the case goes on; assertions: it stops here ----------- */

#define KUNIT_BINARY_CHECK(test, fail_action, left, op, right, ...) do {	\
	long long __l = (long long)(left), __r = (long long)(right);	\
	if (!(__l op __r)) {						\
		kunit_fail(test, __FILE__, __LINE__,			\
			   "Expected %s %s %s, but %s == %lld, %s == %lld " \
			   __VA_ARGS__, #left, #op, #right, #left, __l,	\
			   #right, __r);				\
		fail_action;						\
	}								\
} while (0)

#define KUNIT_PTR_CHECK(test, fail_action, left, op, right) do {	\
	const void *__l = (left), *__r = (right);			\
	if (!(__l op __r)) {						\
		kunit_fail(test, __FILE__, __LINE__,			\
			   "Expected %s %s %s, but %s == %px, %s == %px", \
			   #left, #op, #right, #left, __l, #right, __r); \
		fail_action;						\
	}								\
} while (0)

#define KUNIT_STR_CHECK(test, fail_action, left, op, right) do {	\
	const char *__l = (left), *__r = (right);			\
	if (!(strcmp(__l, __r) op 0)) {					\
		kunit_fail(test, __FILE__, __LINE__,			\
			   "Expected %s %s %s, but \"%s\" vs \"%s\"",	\
			   #left, #op, #right, __l, __r);		\
		fail_action;						\
	}								\
} while (0)

#define KUNIT_EXPECTATION	(void)0
#define KUNIT_ASSERTION		return

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, ==, r)
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, !=, r)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, <, r)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, <=, r)
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, >, r)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, >=, r)
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, !!(c), ==, true)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, !!(c), ==, false)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, fmt, ...) \
	KUNIT_BINARY_CHECK(t, KUNIT_EXPECTATION, l, ==, r, "(" fmt ")", ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ(t, l, r)	KUNIT_PTR_CHECK(t, KUNIT_EXPECTATION, l, ==, r)
#define KUNIT_EXPECT_PTR_NE(t, l, r)	KUNIT_PTR_CHECK(t, KUNIT_EXPECTATION, l, !=, r)
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_PTR_CHECK(t, KUNIT_EXPECTATION, p, ==, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_PTR_CHECK(t, KUNIT_EXPECTATION, p, !=, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(t, p) KUNIT_EXPECT_FALSE(t, IS_ERR_OR_NULL(p))
#define KUNIT_EXPECT_STREQ(t, l, r)	KUNIT_STR_CHECK(t, KUNIT_EXPECTATION, l, ==, r)
#define KUNIT_EXPECT_STRNEQ(t, l, r)	KUNIT_STR_CHECK(t, KUNIT_EXPECTATION, l, !=, r)

#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, l, ==, r)
#define KUNIT_ASSERT_NE(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, l, !=, r)
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, l, <, r)
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, l, <=, r)
#define KUNIT_ASSERT_GT(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, l, >, r)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, l, >=, r)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, !!(c), ==, true)
#define KUNIT_ASSERT_FALSE(t, c)	KUNIT_BINARY_CHECK(t, KUNIT_ASSERTION, !!(c), ==, false)
#define KUNIT_ASSERT_PTR_EQ(t, l, r)	KUNIT_PTR_CHECK(t, KUNIT_ASSERTION, l, ==, r)
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_PTR_CHECK(t, KUNIT_ASSERTION, p, !=, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p) KUNIT_ASSERT_FALSE(t, IS_ERR_OR_NULL(p))
#define KUNIT_ASSERT_STREQ(t, l, r)	KUNIT_STR_CHECK(t, KUNIT_ASSERTION, l, ==, r)

#endif
