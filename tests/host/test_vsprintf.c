/*
 * test_vsprintf.c - lib/vsprintf.c checked against the C library.
 *
 * For the conversions C99 defines exactly, the host's snprintf is the
 * oracle: each format/value pair is printed by both and must give the
 * same text and the same return value.  %p and %s of NULL, where we
 * deliberately differ from glibc, are checked against fixed strings.
 */
#include <stdint.h>
#include <limits.h>
#include "ktest_host.h"
#include "vsprintf.h"
#include "kallsyms.h"

/* vsprintf.h renamed ours to ksnprintf/kvsnprintf; get libc's back. */
#undef snprintf
#undef vsnprintf

#define CANARY 0x5a

/*
 * Print fmt with ours and libc's into buffers of `size` bytes and
 * compare text, return value, and that nothing past `size` was touched.
 */
static void __printf(5, 6) check_size(struct ktest *t, int line, size_t size,
				      const char *why, const char *fmt, ...)
{
	char ours[256], libc[256];
	va_list ap, ap2;
	int n_ours, n_libc;

	memset(ours, CANARY, sizeof(ours));
	memset(libc, CANARY, sizeof(libc));
	va_start(ap, fmt);
	va_copy(ap2, ap);
	n_ours = kvsnprintf(size ? ours : NULL, size, fmt, ap);
	n_libc = vsnprintf(size ? libc : NULL, size, fmt, ap2);
	va_end(ap2);
	va_end(ap);

	if (n_ours != n_libc || memcmp(ours, libc, sizeof(ours)) != 0)
		ktest_fail(t, __FILE__, line,
			   "%s \"%s\" size %zu: got \"%.*s\" (%d), libc \"%.*s\" (%d)",
			   why, fmt, size, size ? (int)size : 0, ours, n_ours,
			   size ? (int)size : 0, libc, n_libc);
}

#define CHECK(t, fmt, ...) \
	check_size(t, __LINE__, 256, "format", fmt, __VA_ARGS__)
#define CHECK_TRUNC(t, size, fmt, ...) \
	check_size(t, __LINE__, size, "truncated", fmt, __VA_ARGS__)

/* Ours must print exactly `want` and return its length. */
#define EXPECT_PRINTS(t, want, fmt, ...) do {                            \
	char __buf[64];                                                      \
	int __n = ksnprintf(__buf, sizeof(__buf), fmt, __VA_ARGS__);         \
	KTEST_EXPECT_STREQ(t, __buf, want);                                  \
	KTEST_EXPECT_EQ(t, __n, (int)strlen(want));                          \
} while (0)

static const char *const int_formats[] = {
	"%d", "%i", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+ d", "%.3d",
	"%8.3d", "%-8.3d|", "%08.3d", "%+08d", "%-+8d|", "%.0d", "%5.0d",
	"%u", "%x", "%X", "%#x", "%#X", "%#08x", "%#-8x|", "%#.5x", "%o",
	"%#o", "%#5o", "%#.0o", "%.0x", "%#.0x", "%020u", "%1d", "%-1x",
	"%hd", "%hu", "%hx", "%hhd", "%hhu", "%hhx", "%+hhd",
};

static const int int_values[] = {
	0, 1, -1, 7, -7, 42, -42, 127, 128, 255, 256, 1000000, -1000000,
	0x7fff, 0x8000, 65535, 65536, INT_MAX, INT_MIN, INT_MIN + 1,
};

static void ints_match_libc(struct ktest *t)
{
	for (size_t f = 0; f < ARRAY_SIZE(int_formats); f++)
		for (size_t v = 0; v < ARRAY_SIZE(int_values); v++)
			CHECK(t, int_formats[f], int_values[v]);
}

static const char *const ll_formats[] = {
	"%lld", "%lli", "%llu", "%llx", "%llX", "%llo", "%#llx", "%#llo",
	"%+lld", "% lld", "%25lld", "%-25lld|", "%025lld", "%.20lld",
	"%+.22llo", "%#30.25llx",
};

static const long long ll_values[] = {
	0, 1, -1, 4294967295LL, 4294967296LL, -4294967296LL,
	1234567890123456789LL, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1,
	0x8000000000000000ULL >> 1,
};

static void long_longs_match_libc(struct ktest *t)
{
	for (size_t f = 0; f < ARRAY_SIZE(ll_formats); f++)
		for (size_t v = 0; v < ARRAY_SIZE(ll_values); v++)
			CHECK(t, ll_formats[f], ll_values[v]);
	CHECK(t, "%llu", ULLONG_MAX);
	CHECK(t, "%llo", ULLONG_MAX);
}

static void longs_size_t_ptrdiff(struct ktest *t)
{
	CHECK(t, "%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
	CHECK(t, "%ld %li", LONG_MAX, -1L);
	CHECK(t, "%zu %zx %zd", SIZE_MAX, (size_t)0x1234, (size_t)77);
	CHECK(t, "%zd", (size_t)-5);
	CHECK(t, "%td %tu %tx", (ptrdiff_t)-3, (ptrdiff_t)3, (ptrdiff_t)-1);
	CHECK(t, "%td", PTRDIFF_MIN);
	/* The argument after a 64-bit one must still line up. */
	CHECK(t, "%lld %d %llx %s", -5LL, 6, 7ULL, "end");
}

static void star_width_and_precision(struct ktest *t)
{
	CHECK(t, "%*d|", 6, 42);
	CHECK(t, "%*d|", -6, 42);          /* negative width: left-justify */
	CHECK(t, "%.*d|", 4, 42);
	CHECK(t, "%.*d|", -4, 42);         /* negative precision: ignored */
	CHECK(t, "%0*d|", 6, -42);
	CHECK(t, "%*.*x|", 10, 6, 0xbeef);
	CHECK(t, "%-*.*s|", 8, 3, "kprobes");
	CHECK(t, "%*s|%*c|", 5, "ab", 3, 'z');
	CHECK(t, "%.*s|", 0, "gone");
}

static void strings_and_chars(struct ktest *t)
{
	static const char unterminated[3] = { 'a', 'b', 'c' };

	CHECK(t, "%s", "");
	CHECK(t, "%s|%s", "kprobe", "jprobe");
	CHECK(t, "%10s|%-10s|", "right", "left");
	CHECK(t, "%.3s|%10.2s|%-6.4s|", "abcdef", "abcdef", "ab");
	CHECK(t, "%.3s", unterminated);    /* precision: read only 3 (ASan) */
	CHECK(t, "%c%c%c", 'k', 'p', '!');
	CHECK(t, "%3c|%-3c|", 'x', 'y');
	CHECK(t, "%c", 0xe9);
	CHECK(t, "%%|%5d%%|%s", 1, "%d");
	CHECK(t, "no conversions at all %s", "");
}

static void null_string_and_pointers(struct ktest *t)
{
	/* volatile: keep gcc from seeing (and warning about) the NULL. */
	const char *volatile null = NULL;

	EXPECT_PRINTS(t, "(null)", "%s", null);
	EXPECT_PRINTS(t, "[  (null)]", "[%8s]", null);
	EXPECT_PRINTS(t, "0x00000000", "%p", (void *)0);
	EXPECT_PRINTS(t, "0x00001234", "%p", (void *)0x1234);
	EXPECT_PRINTS(t, "0xc0100000", "%p", (void *)0xc0100000UL);
	EXPECT_PRINTS(t, "0xdeadbeef", "%p", (void *)0xdeadbeefUL);
	EXPECT_PRINTS(t, "[  0x0000abcd]", "[%12p]", (void *)0xabcd);
	EXPECT_PRINTS(t, "[0x0000abcd  ]", "[%-12p]", (void *)0xabcd);
	/* Linux's %px: the raw address, no prefix; "0x%px" reads as in Linux. */
	EXPECT_PRINTS(t, "00001234", "%px", (void *)0x1234);
	EXPECT_PRINTS(t, "0xc0100000.", "0x%px.", (void *)0xc0100000UL);
}

/*
 * The kernel's kallsyms printers, for %pS/%ps/%pB: one fake function,
 * "fib" at 0x1000, 0x3b bytes long.  What the text looks like for real
 * symbols is checked in the kernel (the backtrace suite); here: which
 * extension calls which printer, with what address, and field widths.
 */
#define FAKE_FIB 0x1000UL
#define FAKE_FIB_SIZE 0x3bUL

static int fake_symbol(char *buf, size_t len, unsigned long addr, unsigned long delta,
		       bool offset)
{
	unsigned long look = addr - delta;

	if (look < FAKE_FIB || look >= FAKE_FIB + FAKE_FIB_SIZE)
		return ksnprintf(buf, len, "%#lx", addr);
	if (!offset)
		return ksnprintf(buf, len, "fib");
	return ksnprintf(buf, len, "fib+0x%lx/0x%lx", addr - FAKE_FIB, FAKE_FIB_SIZE);
}

int sprint_symbol(char *buf, size_t len, unsigned long addr)
{
	return fake_symbol(buf, len, addr, 0, true);
}

int sprint_symbol_no_offset(char *buf, size_t len, unsigned long addr)
{
	return fake_symbol(buf, len, addr, 0, false);
}

int sprint_backtrace(char *buf, size_t len, unsigned long addr)
{
	return fake_symbol(buf, len, addr, 1, true);
}

static void symbol_extensions(struct ktest *t)
{
	void *in_fib = (void *)(FAKE_FIB + 0x1d);
	void *past_fib = (void *)(FAKE_FIB + FAKE_FIB_SIZE);

	EXPECT_PRINTS(t, "at fib+0x1d/0x3b.", "at %pS.", in_fib);
	EXPECT_PRINTS(t, "at fib.", "at %ps.", in_fib);
	EXPECT_PRINTS(t, "fib+0x0/0x3b", "%pS", (void *)FAKE_FIB);
	/* %pB: a return address just past fib still names fib (the call before it). */
	EXPECT_PRINTS(t, "fib+0x3b/0x3b", "%pB", past_fib);
	EXPECT_PRINTS(t, "0x103b", "%pS", past_fib);
	EXPECT_PRINTS(t, "[     fib]", "[%8ps]", in_fib);
	EXPECT_PRINTS(t, "[fib     ]", "[%-8ps]", in_fib);
	/* The extension ends at the first non-alphanumeric character. */
	EXPECT_PRINTS(t, "fib+0x1d/0x3b: fib", "%pS: %ps", in_fib, in_fib);
}

/* Letters after %p that mean nothing here: the address, then a marker. */
static void unknown_pointer_extensions(struct ktest *t)
{
	void *p = (void *)0x10bf23;

	EXPECT_PRINTS(t, "0x0010bf23(%pZ?) end", "%pZ end", p);
	EXPECT_PRINTS(t, "0x0010bf23(%pI4?)", "%pI4", p);
	EXPECT_PRINTS(t, "0x0010bf23(%pSR?)", "%pSR", p);
	EXPECT_PRINTS(t, "0x0010bf23.", "%p.", p);
}

/* Small buffers: truncated text, NUL at size-1, C99 return value. */
static void truncation_and_return_value(struct ktest *t)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 8, 9, 10 };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		CHECK_TRUNC(t, sizes[i], "%s", "kprobes!");
		CHECK_TRUNC(t, sizes[i], "%d:%x", -123456, 0xabc);
		CHECK_TRUNC(t, sizes[i], "%-12s|", "pad");
		CHECK_TRUNC(t, sizes[i], "%lld", LLONG_MIN);
		CHECK_TRUNC(t, sizes[i], "abc%c", 'd');
	}
}

/* Corner cases outside C99, where we define the behaviour ourselves. */
static void odd_formats(struct ktest *t)
{
	char buf[16];
	const char *lone = "abc%";          /* a variable: gcc would warn */
	const char *unknown = "x%qy";

	KTEST_EXPECT_EQ(t, ksnprintf(buf, sizeof(buf), lone, 0), 4);
	KTEST_EXPECT_STREQ(t, buf, "abc%");
	KTEST_EXPECT_EQ(t, ksnprintf(buf, sizeof(buf), unknown, 0), 4);
	KTEST_EXPECT_STREQ(t, buf, "x%qy");
	KTEST_EXPECT_EQ(t, ksnprintf(NULL, 0, "%d", 12345), 5);
}

/* A deterministic fuzz: random flags/width/precision/length/value. */
static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rng(void)
{
	/* xorshift64: good enough to pick test inputs, and reproducible. */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void random_formats_match_libc(struct ktest *t)
{
	static const char convs[] = "diuxXo";
	static const char flags[] = "-0+ #";

	for (int i = 0; i < 20000 && !t->failed; i++) {
		char fmt[32], *p = fmt;
		char conv = convs[rng() % 6];
		uint64_t bits = rng();
		long long v = (long long)rng() >> (rng() % 64);

		bool alt_ok = conv == 'x' || conv == 'X' || conv == 'o';

		*p++ = '%';
		for (int f = 0; f < 5; f++)     /* '#' is undefined for d, i, u */
			if ((bits & (1u << f)) && (flags[f] != '#' || alt_ok))
				*p++ = flags[f];
		if (bits & 0x20)
			p += sprintf(p, "%d", (int)(rng() % 30));
		if (bits & 0x40)
			p += sprintf(p, ".%d", (int)(rng() % 25));
		if (bits & 0x80)
			p += sprintf(p, "ll");
		*p++ = conv;
		*p = '\0';

		if (bits & 0x80)
			CHECK(t, fmt, v);
		else
			CHECK(t, fmt, (int)v);
	}
}

static struct ktest_case cases[] = {
	KTEST_CASE(ints_match_libc),
	KTEST_CASE(long_longs_match_libc),
	KTEST_CASE(longs_size_t_ptrdiff),
	KTEST_CASE(star_width_and_precision),
	KTEST_CASE(strings_and_chars),
	KTEST_CASE(null_string_and_pointers),
	KTEST_CASE(symbol_extensions),
	KTEST_CASE(unknown_pointer_extensions),
	KTEST_CASE(truncation_and_return_value),
	KTEST_CASE(odd_formats),
	KTEST_CASE(random_formats_match_libc),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
