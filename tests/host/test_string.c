/*
 * test_string.c - host unit tests for lib/string.c.
 *
 * "string.h" here is include/string.h: under HOST_BUILD every call
 * below goes to our kmemcpy, kstrlen, ... and not to the C library.
 */
#include "ktest_host.h"
#include "string.h"

static void memcpy_copies_and_returns_dst(struct ktest *t)
{
	char dst[8] = "xxxxxxx";

	KTEST_EXPECT_TRUE(t, memcpy(dst, "abc", 3) == dst);
	KTEST_EXPECT_EQ(t, memcmp(dst, "abcxxxx", 8), 0);
	KTEST_EXPECT_TRUE(t, memcpy(dst, "zzz", 0) == dst);   /* n = 0: no-op */
	KTEST_EXPECT_EQ(t, dst[0], 'a');
}

/* Overlap both ways: a naive forward copy would smear "ab" over it. */
static void memmove_overlap(struct ktest *t)
{
	char up[] = "abcdefgh";
	char down[] = "abcdefgh";

	KTEST_EXPECT_TRUE(t, memmove(up + 2, up, 5) == up + 2);
	KTEST_EXPECT_STREQ(t, up, "ababcdeh");
	KTEST_EXPECT_TRUE(t, memmove(down, down + 2, 5) == down);
	KTEST_EXPECT_STREQ(t, down, "cdefgfgh");
	memmove(down, down, 8);                         /* same place */
	KTEST_EXPECT_STREQ(t, down, "cdefgfgh");
}

static void memset_fills_low_byte(struct ktest *t)
{
	unsigned char b[6] = { 9, 9, 9, 9, 9, 9 };

	KTEST_EXPECT_TRUE(t, memset(b + 1, 0x1ab, 4) == b + 1);   /* only 0xab */
	KTEST_EXPECT_EQ(t, b[0], 9);
	for (int i = 1; i < 5; i++)
		KTEST_EXPECT_EQ(t, b[i], 0xab);
	KTEST_EXPECT_EQ(t, b[5], 9);
}

/* Bytes compare unsigned: 0x80 is greater than 0x01. */
static void memcmp_sign_and_order(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, memcmp("abc", "abc", 3), 0);
	KTEST_EXPECT_TRUE(t, memcmp("abc", "abd", 3) < 0);
	KTEST_EXPECT_TRUE(t, memcmp("abd", "abc", 3) > 0);
	KTEST_EXPECT_TRUE(t, memcmp("\x80", "\x01", 1) > 0);
	KTEST_EXPECT_EQ(t, memcmp("abc", "xyz", 0), 0);
	KTEST_EXPECT_EQ(t, memcmp("a\0b", "a\0c", 2), 0);   /* NUL is not special */
	KTEST_EXPECT_TRUE(t, memcmp("a\0b", "a\0c", 3) < 0);
}

static void strlen_and_strnlen(struct ktest *t)
{
	char unterminated[4] = { 'a', 'b', 'c', 'd' };

	KTEST_EXPECT_EQ(t, strlen(""), 0);
	KTEST_EXPECT_EQ(t, strlen("kprobe"), 6);
	KTEST_EXPECT_EQ(t, strnlen("kprobe", 3), 3);
	KTEST_EXPECT_EQ(t, strnlen("kprobe", 100), 6);
	KTEST_EXPECT_EQ(t, strnlen("", 5), 0);
	/* Must not read past max: ASan would catch it here. */
	KTEST_EXPECT_EQ(t, strnlen(unterminated, sizeof(unterminated)), 4);
}

static void strcmp_and_strncmp(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, strcmp("int3", "int3"), 0);
	KTEST_EXPECT_TRUE(t, strcmp("int", "int3") < 0);
	KTEST_EXPECT_TRUE(t, strcmp("int3", "int") > 0);
	KTEST_EXPECT_TRUE(t, strcmp("a", "b") < 0);
	KTEST_EXPECT_TRUE(t, strcmp("\xff", "a") > 0);      /* unsigned compare */
	KTEST_EXPECT_EQ(t, strcmp("", ""), 0);
	KTEST_EXPECT_EQ(t, strncmp("kprobe", "kprobes", 6), 0);
	KTEST_EXPECT_TRUE(t, strncmp("kprobe", "kprobes", 7) < 0);
	KTEST_EXPECT_EQ(t, strncmp("abc", "xyz", 0), 0);
	KTEST_EXPECT_EQ(t, strncmp("ab\0x", "ab\0y", 4), 0); /* stops at NUL */
	KTEST_EXPECT_TRUE(t, strncmp("abd", "abc", 3) > 0);
}

static void strchr_and_strrchr(struct ktest *t)
{
	const char *s = "a/b/c";

	KTEST_EXPECT_TRUE(t, strchr(s, '/') == s + 1);
	KTEST_EXPECT_TRUE(t, strrchr(s, '/') == s + 3);
	KTEST_EXPECT_TRUE(t, strchr(s, 'a') == s);
	KTEST_EXPECT_TRUE(t, strrchr(s, 'a') == s);
	KTEST_EXPECT_TRUE(t, strchr(s, 'x') == NULL);
	KTEST_EXPECT_TRUE(t, strrchr(s, 'x') == NULL);
	KTEST_EXPECT_TRUE(t, strchr(s, '\0') == s + 5);     /* finds the terminator */
	KTEST_EXPECT_TRUE(t, strrchr(s, '\0') == s + 5);
	/* c is converted to char: high bytes and 0x100 + 'b' both work. */
	KTEST_EXPECT_TRUE(t, strchr("t\xe9", 0xe9) != NULL);
	KTEST_EXPECT_TRUE(t, strrchr("\xe9t\xe9x", 0xe9) != NULL);
	KTEST_EXPECT_TRUE(t, strchr(s, 0x100 + 'b') == s + 2);
}

static void strstr_finds_first(struct ktest *t)
{
	const char *hay = "jprobe kprobe kretprobe";

	KTEST_EXPECT_TRUE(t, strstr(hay, "probe") == hay + 1);
	KTEST_EXPECT_TRUE(t, strstr(hay, "kret") == hay + 14);
	KTEST_EXPECT_TRUE(t, strstr(hay, "kretprobe") == hay + 14);
	KTEST_EXPECT_TRUE(t, strstr(hay, "kretprobes") == NULL);
	KTEST_EXPECT_TRUE(t, strstr(hay, "") == hay);
	KTEST_EXPECT_TRUE(t, strstr("", "") != NULL);
	KTEST_EXPECT_TRUE(t, strstr("", "a") == NULL);
	KTEST_EXPECT_TRUE(t, strstr("aab", "ab") != NULL);  /* restart after mismatch */
}

static void strlcpy_truncates(struct ktest *t)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	KTEST_EXPECT_EQ(t, strlcpy(buf, "abc", sizeof(buf)), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_EQ(t, strlcpy(buf, "0123456789", sizeof(buf)), 10);
	KTEST_EXPECT_STREQ(t, buf, "0123456");            /* size-1 bytes + NUL */
	KTEST_EXPECT_EQ(t, strlcpy(buf, "01234567", 8), 8);
	KTEST_EXPECT_STREQ(t, buf, "0123456");
	KTEST_EXPECT_EQ(t, strlcpy(buf, "zz", 1), 2);
	KTEST_EXPECT_STREQ(t, buf, "");
	buf[0] = 'q';
	KTEST_EXPECT_EQ(t, strlcpy(buf, "zz", 0), 2);      /* size 0: no write */
	KTEST_EXPECT_EQ(t, buf[0], 'q');
}

static void strlcat_appends_and_truncates(struct ktest *t)
{
	char buf[8] = "ab";

	KTEST_EXPECT_EQ(t, strlcat(buf, "cd", sizeof(buf)), 4);
	KTEST_EXPECT_STREQ(t, buf, "abcd");
	KTEST_EXPECT_EQ(t, strlcat(buf, "efghij", sizeof(buf)), 10);
	KTEST_EXPECT_STREQ(t, buf, "abcdefg");
	KTEST_EXPECT_EQ(t, strlcat(buf, "x", sizeof(buf)), 8);   /* already full */
	KTEST_EXPECT_STREQ(t, buf, "abcdefg");
	/* dst not terminated within size: nothing written, size+strlen(src). */
	KTEST_EXPECT_EQ(t, strlcat(buf, "xyz", 3), 6);
	KTEST_EXPECT_STREQ(t, buf, "abcdefg");
	KTEST_EXPECT_EQ(t, strlcat(buf, "xyz", 0), 3);
}

static struct ktest_case cases[] = {
	KTEST_CASE(memcpy_copies_and_returns_dst),
	KTEST_CASE(memmove_overlap),
	KTEST_CASE(memset_fills_low_byte),
	KTEST_CASE(memcmp_sign_and_order),
	KTEST_CASE(strlen_and_strnlen),
	KTEST_CASE(strcmp_and_strncmp),
	KTEST_CASE(strchr_and_strrchr),
	KTEST_CASE(strstr_finds_first),
	KTEST_CASE(strlcpy_truncates),
	KTEST_CASE(strlcat_appends_and_truncates),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
