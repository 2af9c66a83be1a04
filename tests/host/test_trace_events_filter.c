/*
 * test_trace_events_filter.c - lib/trace_events_filter.c: Linux's event
 * filter language.  Each operator on numbers of each size and sign, the
 * string operators and globs, && || ! and parentheses with C's
 * precedence, and every error with the caret position Linux's filter
 * file shows.  A record here is a small struct the callbacks read.
 */
#include "ktest_host.h"
#include "errno.h"
#include "vsprintf.h"
#include "trace_events_filter.h"

/* The fields of a kprobe event "p:myfib fib n=$arg1 s=$arg2:s8 name=+0($arg3):string". */
static const struct filter_field fields[] = {
	{ "common_pid", false, 4, true },
	{ "n",          false, 4, false },
	{ "s",          false, 1, true },
	{ "big",        false, 8, false },
	{ "name",       true,  0, false },
	{ "comm",       true,  0, false },
};
enum { F_PID, F_N, F_S, F_BIG, F_NAME, F_COMM };

struct rec {
	uint64_t v[4];
	const char *name, *comm;
};

static uint64_t rec_num(int field, const void *r)
{
	return ((const struct rec *)r)->v[field];
}

static const char *rec_str(int field, const void *r, size_t *len)
{
	const struct rec *rec = r;
	const char *s = field == F_NAME ? rec->name : rec->comm;

	*len = strlen(s);
	return s;
}

static const struct filter_record_ops ops = { rec_num, rec_str };
static struct event_filter filter;
static struct filter_parse_error err;

static int parse(const char *text)
{
	return filter_parse(text, fields, sizeof(fields) / sizeof(fields[0]), &filter, &err);
}

/* Does text accept the record?  The text must compile. */
static bool matches(struct ktest *t, const char *text, const struct rec *r)
{
	int ret = parse(text);

	KTEST_EXPECT_EQ(t, ret, 0);
	if (ret)
		printf("# %s: %s at %d\n", text, filter_err_msg(err.code), err.pos);
	return ret == 0 && filter_match(&filter, &ops, r);
}

static const struct rec r5 = { { 7, 5, (uint8_t)-3, 0x100000000ULL }, "fibonacci", "sh" };

static void numbers_each_operator(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, matches(t, "n == 5", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "n != 5", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n < 6", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "n < 5", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n <= 5", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n > 3", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "n > 5", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n >= 5", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n & 4", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "n & 2", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n == 0x5", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n == 05", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n==5", &r5));
}

static void numbers_size_and_sign(struct ktest *t)
{
	/* s is an s8 holding -3: compared signed, at 8 bits. */
	KTEST_EXPECT_TRUE(t, matches(t, "s < 0", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "s == -3", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "s > -4", &r5));
	/* n is unsigned: a negative value is not an integer for it. */
	KTEST_EXPECT_EQ(t, parse("n > -1"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, FILT_ERR_ILLEGAL_INTVAL);
	/* 64-bit fields keep their high half. */
	KTEST_EXPECT_TRUE(t, matches(t, "big == 0x100000000", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "big == 0", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "common_pid == 7", &r5));
}

static void strings_and_globs(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, matches(t, "comm == \"sh\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "comm == 'sh'", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "comm != \"sh\"", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "comm == \"s\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "name ~ \"fib*\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "name ~ \"*acci\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "name ~ \"*bon*\"", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "name ~ \"*xyz*\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "name ~ \"f?b*\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "name ~ \"[a-g]ib*i\"", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "name ~ \"[!f]*\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "name ~ \"fibonacci\"", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "name ~ \"fibonacc\"", &r5));
}

static void logic_and_precedence(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, matches(t, "n == 5 && comm == \"sh\"", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "n == 5 && comm == \"x\"", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "n == 1 || comm == \"sh\"", &r5));
	/* && binds tighter: true || (false && false) */
	KTEST_EXPECT_TRUE(t, matches(t, "n == 5 || n == 1 && n == 2", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "(n == 5 || n == 1) && n == 2", &r5));
	KTEST_EXPECT_FALSE(t, matches(t, "!(n == 5)", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "!n == 4", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "!!(n == 5)", &r5));
	KTEST_EXPECT_TRUE(t, matches(t, "!(n == 1 || n == 2) && ((s < 0))", &r5));
}

/* Refused: the code, the position, and the text the filter file then shows. */
static void expect_error(struct ktest *t, const char *text, enum filter_err code, int pos)
{
	KTEST_EXPECT_EQ(t, parse(text), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, code);
	KTEST_EXPECT_EQ(t, err.pos, pos);
	if (err.code != code || err.pos != pos)
		printf("# '%s': got %s at %d\n", text, filter_err_msg(err.code), err.pos);
}

static void errors_with_positions(struct ktest *t)
{
	expect_error(t, "x > 3", FILT_ERR_FIELD_NOT_FOUND, 2);
	expect_error(t, "n = 3", FILT_ERR_INVALID_OP, 3);
	expect_error(t, "(n == 3", FILT_ERR_TOO_MANY_OPEN, 0);
	expect_error(t, "n == 3 && (n == 4", FILT_ERR_TOO_MANY_OPEN, 10);
	expect_error(t, "n == 3)", FILT_ERR_TOO_MANY_CLOSE, 6);
	expect_error(t, "comm == \"sh", FILT_ERR_MISSING_QUOTE, 8);
	expect_error(t, "n == \"sh\"", FILT_ERR_EXPECT_DIGIT, 6);
	expect_error(t, "comm == 3", FILT_ERR_EXPECT_STRING, 9);
	expect_error(t, "n ~ 3", FILT_ERR_ILLEGAL_FIELD_OP, 5);
	expect_error(t, "comm < \"a\"", FILT_ERR_ILLEGAL_FIELD_OP, 8);
	expect_error(t, "n == 3x", FILT_ERR_ILLEGAL_INTVAL, 6);
	expect_error(t, "comm == sh", FILT_ERR_INVALID_VALUE, 9);
	expect_error(t, "n == 3 n == 4", FILT_ERR_TOO_MANY_PREDS, 7);
	expect_error(t, "n == 3 & n == 4", FILT_ERR_TOO_MANY_PREDS, 7);
	expect_error(t, "n == 1234567890123456789012345", FILT_ERR_OPERAND_TOO_LONG, 31);
}

static void nothing_to_filter(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("   "), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, FILT_ERR_NONE);
	KTEST_EXPECT_EQ(t, parse("== 3"), -EPERM);	/* Linux's parse_pred() -1 */
}

static void too_many_terms(struct ktest *t)
{
	char text[FILTER_PRED_MAX * 12 + 16];
	int len = 0;

	for (int k = 0; k <= FILTER_PRED_MAX; k++)
		len += snprintf(text + len, sizeof(text) - len, "%sn == %d", k ? " || " : "", k);
	KTEST_EXPECT_EQ(t, parse(text), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, FILT_ERR_TOO_MANY_PREDS);
}

static void error_text_as_linux_shows_it(struct ktest *t)
{
	char buf[256];

	parse("x > 3");
	filter_format_error(buf, sizeof(buf), "x > 3", &err);
	KTEST_EXPECT_STREQ(t, buf, "x > 3\n  ^\nparse_error: Field not found\n");
	parse("(n == 3");
	filter_format_error(buf, sizeof(buf), "(n == 3", &err);
	KTEST_EXPECT_STREQ(t, buf, "(n == 3\n^\nparse_error: Too many '('\n");
}

/* Random text, quotes, operators and parentheses: refused or compiled, never a crash. */
static void random_text_is_safe(struct ktest *t)
{
	static const char *const bits[] = { "n", "comm", "s", "big", "name", "x", " ", "(", ")",
		"!", "&&", "||", "&", "|", "==", "!=", "<", "<=", ">", ">=", "~", "=", "\"", "'",
		"*", "?", "[", "]", "\\", "-", "0x", "7", "99999999999999999999999", "\"fi*\"" };
	static const struct rec r = { { 1, 2, 3, 4 }, "name", "comm" };
	char text[FILTER_TEXT_MAX];
	uint32_t seed = 12345;
	int compiled = 0;

	for (int i = 0; i < 20000; i++) {
		size_t len = 0;
		int ret;

		for (int w = seed % 12; w >= 0; w--) {
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			len += snprintf(text + len, sizeof(text) - len, "%s",
					bits[seed % (sizeof(bits) / sizeof(bits[0]))]);
		}
		ret = parse(text);
		KTEST_EXPECT_TRUE(t, ret == 0 || ret == -EINVAL || ret == -EPERM);
		if (ret == 0) {
			compiled++;
			filter_match(&filter, &ops, &r);
		}
	}
	printf("# %d of 20000 random texts compiled\n", compiled);
	KTEST_EXPECT_TRUE(t, compiled > 0);
}

static struct ktest_case cases[] = {
	KTEST_CASE(random_text_is_safe),
	KTEST_CASE(numbers_each_operator),
	KTEST_CASE(numbers_size_and_sign),
	KTEST_CASE(strings_and_globs),
	KTEST_CASE(logic_and_precedence),
	KTEST_CASE(errors_with_positions),
	KTEST_CASE(nothing_to_filter),
	KTEST_CASE(too_many_terms),
	KTEST_CASE(error_text_as_linux_shows_it),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
