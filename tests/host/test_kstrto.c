/*
 * test_kstrto.c - number parsing in lib/vsprintf.c: the lenient
 * simple_strto* family and the strict kstrto* family.
 *
 * unsigned long is 64 bits here but 32 bits in the kernel, so limits
 * are built from LONG_MAX/ULONG_MAX rather than written out.
 */
#include <limits.h>
#include "ktest_host.h"
#include "vsprintf.h"
#include "errno.h"

/* Decimal string of v + 1 (v + 1 may not fit any C type). */
static void decimal_plus_one(char *buf, size_t size, unsigned long long v)
{
	int i = ksnprintf(buf, size, "%llu", v) - 1;

	for (; i >= 0 && buf[i] == '9'; i--)
		buf[i] = '0';
	if (i >= 0) {
		buf[i]++;
	} else {                    /* all nines: grow by one digit */
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = '1';
	}
}

static void simple_strtoul_bases(struct ktest *t)
{
	char *end;

	KTEST_EXPECT_EQ(t, simple_strtoul("1234", NULL, 10), 1234);
	KTEST_EXPECT_EQ(t, simple_strtoul("0x1F", NULL, 0), 0x1f);
	KTEST_EXPECT_EQ(t, simple_strtoul("0X1f", NULL, 0), 0x1f);
	KTEST_EXPECT_EQ(t, simple_strtoul("017", NULL, 0), 017);
	KTEST_EXPECT_EQ(t, simple_strtoul("17", NULL, 0), 17);
	KTEST_EXPECT_EQ(t, simple_strtoul("0", NULL, 0), 0);
	KTEST_EXPECT_EQ(t, simple_strtoul("ff", NULL, 16), 0xff);
	KTEST_EXPECT_EQ(t, simple_strtoul("0xff", NULL, 16), 0xff);
	KTEST_EXPECT_EQ(t, simple_strtoul("101", NULL, 2), 5);
	KTEST_EXPECT_EQ(t, simple_strtoul("c0100000", NULL, 16), 0xc0100000UL);

	/* *end stops at the first non-digit. */
	KTEST_EXPECT_EQ(t, simple_strtoul("42abc", &end, 10), 42);
	KTEST_EXPECT_STREQ(t, end, "abc");
	KTEST_EXPECT_EQ(t, simple_strtoul("0x1g", &end, 0), 1);
	KTEST_EXPECT_STREQ(t, end, "g");
	KTEST_EXPECT_EQ(t, simple_strtoul("019", &end, 0), 1);     /* octal */
	KTEST_EXPECT_STREQ(t, end, "9");
	KTEST_EXPECT_EQ(t, simple_strtoul("xyz", &end, 10), 0);
	KTEST_EXPECT_STREQ(t, end, "xyz");
	/* "0x" without a hex digit after it is just the number 0. */
	KTEST_EXPECT_EQ(t, simple_strtoul("0xg", &end, 0), 0);
	KTEST_EXPECT_STREQ(t, end, "xg");
}

static void simple_strtol_signs(struct ktest *t)
{
	char buf[32];
	char *end;

	KTEST_EXPECT_EQ(t, simple_strtol("-42", NULL, 10), -42);
	KTEST_EXPECT_EQ(t, simple_strtol("-0x10", &end, 0), -16);
	KTEST_EXPECT_STREQ(t, end, "");
	KTEST_EXPECT_EQ(t, simple_strtol("99", NULL, 10), 99);
	ksnprintf(buf, sizeof(buf), "%ld", LONG_MIN);
	KTEST_EXPECT_EQ(t, simple_strtol(buf, NULL, 10), LONG_MIN);
	ksnprintf(buf, sizeof(buf), "%ld", LONG_MAX);
	KTEST_EXPECT_EQ(t, simple_strtol(buf, NULL, 10), LONG_MAX);
}

static void kstrtoul_accepts(struct ktest *t)
{
	unsigned long v = 7;
	char buf[32];

	KTEST_EXPECT_EQ(t, kstrtoul("0", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 0);
	KTEST_EXPECT_EQ(t, kstrtoul("123\n", 10, &v), 0);    /* echo adds '\n' */
	KTEST_EXPECT_EQ(t, v, 123);
	KTEST_EXPECT_EQ(t, kstrtoul("+5", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 5);
	KTEST_EXPECT_EQ(t, kstrtoul("0x10", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, 16);
	KTEST_EXPECT_EQ(t, kstrtoul("010", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, 8);
	KTEST_EXPECT_EQ(t, kstrtoul("DEADbeef", 16, &v), 0);
	KTEST_EXPECT_EQ(t, v, 0xdeadbeef);
	ksnprintf(buf, sizeof(buf), "%lu", ULONG_MAX);
	KTEST_EXPECT_EQ(t, kstrtoul(buf, 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, ULONG_MAX);
}

/* On error *res is left alone. */
static void kstrtoul_rejects(struct ktest *t)
{
	static const char *const junk[] = {
		"", "\n", "abc", "12abc", " 12", "12 ", "12\n\n", "-1", "+",
		"0x", "0xg", "1.5", "++1", "09",
	};
	unsigned long v = 7;
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(junk); i++) {
		int err = kstrtoul(junk[i], junk[i][0] == '0' ? 0 : 10, &v);

		if (err != -EINVAL)
			ktest_fail(t, __FILE__, __LINE__, "kstrtoul(\"%s\") = %d, want -EINVAL",
				   junk[i], err);
	}
	KTEST_EXPECT_EQ(t, kstrtoul("12", 8, &v), 0);
	KTEST_EXPECT_EQ(t, kstrtoul("18", 8, &v), -EINVAL);     /* 8 is no octal digit */
	KTEST_EXPECT_EQ(t, v, 10);

	decimal_plus_one(buf, sizeof(buf), ULONG_MAX);
	KTEST_EXPECT_EQ(t, kstrtoul(buf, 10, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoul("99999999999999999999999", 10, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoul("0x10000000000000000", 0, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, v, 10);
}

static void kstrtol_limits(struct ktest *t)
{
	long v = 7;
	char buf[32];

	KTEST_EXPECT_EQ(t, kstrtol("-42", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, -42);
	KTEST_EXPECT_EQ(t, kstrtol("+42\n", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 42);
	KTEST_EXPECT_EQ(t, kstrtol("-0x10", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, -16);

	ksnprintf(buf, sizeof(buf), "%ld", LONG_MAX);
	KTEST_EXPECT_EQ(t, kstrtol(buf, 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, LONG_MAX);
	ksnprintf(buf, sizeof(buf), "%ld", LONG_MIN);
	KTEST_EXPECT_EQ(t, kstrtol(buf, 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, LONG_MIN);

	v = 7;
	decimal_plus_one(buf, sizeof(buf), LONG_MAX);
	KTEST_EXPECT_EQ(t, kstrtol(buf, 10, &v), -ERANGE);
	buf[0] = '-';                         /* -(LONG_MAX + 2) */
	decimal_plus_one(buf + 1, sizeof(buf) - 1, (unsigned long long)LONG_MAX + 1);
	KTEST_EXPECT_EQ(t, kstrtol(buf, 10, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtol("-+1", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtol("--1", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtol("-", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, v, 7);
}

/* A pseudo-file write's text: len bytes, no NUL; what follows is not read. */
static void kstrntoul_reads_only_len(struct ktest *t)
{
	static const char text[] = "42\n99";
	char long_text[40];
	unsigned long v = 7;

	KTEST_EXPECT_EQ(t, kstrntoul(text, 3, 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 42);
	KTEST_EXPECT_EQ(t, kstrntoul(text, 1, 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 4);
	KTEST_EXPECT_EQ(t, kstrntoul(text, 0, 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrntoul("\n", 1, 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrntoul(text, sizeof(text) - 1, 10, &v), -EINVAL);
	memset(long_text, '1', sizeof(long_text));	/* too long: refused, not cut */
	KTEST_EXPECT_EQ(t, kstrntoul(long_text, sizeof(long_text), 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, v, 4);
}

static struct ktest_case cases[] = {
	KTEST_CASE(simple_strtoul_bases),
	KTEST_CASE(simple_strtol_signs),
	KTEST_CASE(kstrtoul_accepts),
	KTEST_CASE(kstrtoul_rejects),
	KTEST_CASE(kstrntoul_reads_only_len),
	KTEST_CASE(kstrtol_limits),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
