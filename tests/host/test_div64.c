/*
 * test_div64.c - host unit tests for lib/div64.c, the 64-bit division the
 * kernel does itself (it links no libgcc: docs/calling-convention.md).
 * The host's own "/" and "%" are the reference.
 */
#include "ktest_host.h"
#include "div64.h"

/* A small xorshift generator: the same numbers on every run. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* Shifted by a random amount, so every size of operand comes up. */
static uint64_t random_width(uint64_t *state)
{
	uint64_t x = next_random(state);

	return x >> (next_random(state) % 64);
}

/* 64 by 32 bits: both divl steps, high word below and above the divisor. */
static void div_u64_rem_matches_host(struct ktest *t)
{
	static const uint64_t dividends[] = { 0, 1, 0xffffffffULL, 0x100000000ULL,
		0xfffffffffffffffeULL, UINT64_MAX };
	static const uint32_t divisors[] = { 1, 2, 3, 10, 0xffffffffu };
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	uint32_t rem;
	int bad = 0;

	for (size_t i = 0; i < sizeof(dividends) / sizeof(dividends[0]); i++)
		for (size_t j = 0; j < sizeof(divisors) / sizeof(divisors[0]); j++) {
			uint64_t q = div_u64_rem(dividends[i], divisors[j], &rem);
			KTEST_EXPECT_EQ(t, q, dividends[i] / divisors[j]);
			KTEST_EXPECT_EQ(t, rem, dividends[i] % divisors[j]);
		}
	for (int i = 0; i < 100000; i++) {
		uint64_t n = random_width(&state);
		uint32_t d = (uint32_t)random_width(&state) | 1;
		if (div_u64_rem(n, d, &rem) != n / d || rem != n % d)
			bad++;
	}
	KTEST_EXPECT_EQ(t, bad, 0);
}

/* 64 by 64 bits: the shifted estimate and its one correction. */
static void div64_u64_rem_matches_host(struct ktest *t)
{
	uint64_t state = 0x243f6a8885a308d3ULL, rem;
	int bad = 0;

	KTEST_EXPECT_EQ(t, div64_u64_rem(UINT64_MAX, UINT64_MAX, &rem), 1);
	KTEST_EXPECT_EQ(t, rem, 0);
	KTEST_EXPECT_EQ(t, div64_u64_rem(UINT64_MAX, 0x100000000ULL, &rem), 0xffffffffULL);
	KTEST_EXPECT_EQ(t, rem, 0xffffffffULL);
	KTEST_EXPECT_EQ(t, div64_u64_rem(0x8000000000000000ULL, 0x8000000000000001ULL, &rem), 0);
	KTEST_EXPECT_EQ(t, rem, 0x8000000000000000ULL);
	for (int i = 0; i < 100000; i++) {
		uint64_t n = random_width(&state), d = random_width(&state) | 1;
		if (div64_u64_rem(n, d, &rem) != n / d || rem != n % d)
			bad++;
	}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static struct ktest_case cases[] = {
	KTEST_CASE(div_u64_rem_matches_host),
	KTEST_CASE(div64_u64_rem_matches_host),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
