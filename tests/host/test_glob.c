/*
 * test_glob.c - lib/glob.c, the one wildcard matcher: the corner cases of
 * its grammar, and glob_match() on NUL-terminated names.
 */
#include "ktest_host.h"
#include "glob.h"

static void glob_corner_cases(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, glob_match_len("a*b*c", "aXbYc", 5));
	KTEST_EXPECT_FALSE(t, glob_match_len("a*b*c", "aXbY", 4));
	KTEST_EXPECT_TRUE(t, glob_match_len("\\*x", "*x", 2));
	KTEST_EXPECT_FALSE(t, glob_match_len("\\*x", "ax", 2));
	KTEST_EXPECT_TRUE(t, glob_match_len("[x", "[x", 2));	/* unclosed: literal */
	KTEST_EXPECT_TRUE(t, glob_match_len("[]]", "]", 1));
	KTEST_EXPECT_TRUE(t, glob_match_len("*", "", 0));
	KTEST_EXPECT_FALSE(t, glob_match_len("?", "", 0));
	/* The string is len bytes, not NUL-terminated. */
	KTEST_EXPECT_TRUE(t, glob_match_len("ab", "abc", 2));
}

static void glob_names(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, glob_match("kprobe_*", "kprobe_handler"));
	KTEST_EXPECT_TRUE(t, glob_match("*_handler", "kprobe_handler"));
	KTEST_EXPECT_TRUE(t, glob_match("f?b", "fib"));
	KTEST_EXPECT_FALSE(t, glob_match("f?b", "fb"));
	KTEST_EXPECT_TRUE(t, glob_match("[a-f]ib", "fib"));
	KTEST_EXPECT_FALSE(t, glob_match("[!f]ib", "fib"));
	KTEST_EXPECT_FALSE(t, glob_match("fib", "fibonacci"));
	KTEST_EXPECT_TRUE(t, glob_match("", ""));
	KTEST_EXPECT_FALSE(t, glob_match("", "x"));
	/* Many stars cost no recursion: (pattern x string) steps at most. */
	KTEST_EXPECT_FALSE(t, glob_match("*a*a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
}

static struct ktest_case cases[] = {
	KTEST_CASE(glob_corner_cases),
	KTEST_CASE(glob_names),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
