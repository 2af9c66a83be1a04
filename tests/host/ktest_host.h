/*
 * ktest_host.h - run ktest cases as an ordinary Linux program.
 *
 * Host unit tests use the very same KTEST_EXPECT_* / KTEST_ASSERT_*
 * macros as the in-kernel suites (they come from tests/kernel/ktest.h);
 * this header only supplies the reporting functions and a main().
 * Each test binary prints one flat KTAP version 1 document:
 *
 *   KTAP version 1
 *   1..3
 *   ok 1 strlen_basic
 *   # test_string.c:42: EXPECT_EQ(n, 3) failed: got 4 (0x4), want 3 (0x3)
 *   not ok 2 strnlen_limit
 *   ok 3 needs_big_buffer # SKIP not on this host
 *
 * and exits 0 when every case passed (or was skipped), 1 otherwise.
 * Use it like this, once per test file:
 *
 *   #include "ktest_host.h"
 *   static void strlen_basic(struct ktest *t) { KTEST_EXPECT_EQ(t, strlen("abc"), 3); }
 *   static struct ktest_case cases[] = { KTEST_CASE(strlen_basic), KTEST_END };
 *   KTEST_HOST_MAIN(cases)
 *
 * The functions below are defined (not just declared) here because
 * every host test is a single .c file: include this header once.
 */
#ifndef KTEST_HOST_H
#define KTEST_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include "string.h"     /* ours: strcmp for EXPECT_STREQ, see include/string.h */
#include "../kernel/ktest.h"

/* "tests/host/test_string.c" -> "test_string.c", as the kernel prints. */
static const char *ktest_host_basename(const char *path)
{
	const char *base = path;

	for (; *path; path++)
		if (*path == '/')
			base = path + 1;
	return base;
}

void ktest_fail(struct ktest *t, const char *file, int line,
		const char *fmt, ...)
{
	va_list ap;

	t->failed = true;
	printf("# %s:%d: ", ktest_host_basename(file), line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void ktest_skip(struct ktest *t, const char *reason)
{
	t->skipped = true;
	t->skip_reason = reason;
}

void ktest_info(struct ktest *t, const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Run a KTEST_END-terminated case list; return the number that failed. */
static int ktest_host_run(const struct ktest_case *cases)
{
	int n = 0, failed = 0;

	while (cases[n].run)
		n++;
	printf("KTAP version 1\n1..%d\n", n);
	for (int i = 0; i < n; i++) {
		struct ktest t = { .name = cases[i].name };

		cases[i].run(&t);
		if (t.failed)
			failed++;
		printf("%s %d %s", t.failed ? "not ok" : "ok", i + 1, t.name);
		if (t.skipped && !t.failed)
			printf(" # SKIP %s", t.skip_reason ? t.skip_reason : "");
		printf("\n");
		fflush(stdout);   /* keep order if a later case crashes */
	}
	return failed;
}

#define KTEST_HOST_MAIN(cases)                                           \
	int main(void)                                                       \
	{                                                                    \
		return ktest_host_run(cases) ? EXIT_FAILURE : EXIT_SUCCESS;      \
	}

#endif
