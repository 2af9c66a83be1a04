/*
 * div64.c - 64-bit division for a 32-bit kernel (Linux's lib/math/div64.c
 * and arch/x86/include/asm/div64.h).
 *
 * divl divides %edx:%eax by a 32-bit operand and leaves the quotient in
 * %eax, the remainder in %edx - but the quotient must fit 32 bits, or
 * the CPU raises #DE.  So a 64-by-32 division is two divl: the high word
 * first (its remainder is < divisor), then that remainder and the low
 * word, whose quotient now fits.  A 64-bit divisor is reduced to that
 * case by shifting both numbers right until the divisor fits 32 bits;
 * the quotient of the shifted numbers is the true one or one too big,
 * and one multiplication tells which.
 *
 * gcc calls __udivdi3, __umoddi3, __udivmoddi4, __divdi3 and __moddi3
 * for a C "/" or "%" on 64-bit numbers (and __popcountsi2 for __builtin_popcount).
 * libgcc's copies take their arguments on the stack; this kernel is
 * built with -mregparm=3, and gcc calls the helpers with the kernel's
 * convention, so the kernel defines them here and links no libgcc.
 * They exist in the kernel build only: the host tests have their libc's.
 */
#include "div64.h"

uint64_t div_u64_rem(uint64_t dividend, uint32_t divisor, uint32_t *remainder)
{
	uint32_t high = (uint32_t)(dividend >> 32), low = (uint32_t)dividend;
	uint32_t quot_high = 0, quot_low, rem;

	if (high >= divisor) {			/* else the first quotient is 0 */
		quot_high = high / divisor;
		high %= divisor;
	}
	/* Inline x86 outside arch/: divl divides edx:eax by 32 bits in one
	 * instruction, where C's 64-bit division would call libgcc's __udivdi3,
	 * which the kernel does not link (Linux: asm/div64.h's div_u64_rem). */
	asm("divl %4" : "=a"(quot_low), "=d"(rem) : "a"(low), "d"(high), "rm"(divisor));
	*remainder = rem;
	return ((uint64_t)quot_high << 32) | quot_low;
}

uint64_t div64_u64_rem(uint64_t dividend, uint64_t divisor, uint64_t *remainder)
{
	uint32_t high = (uint32_t)(divisor >> 32), rem32;
	uint64_t quot;
	int shift;

	if (high == 0) {
		quot = div_u64_rem(dividend, (uint32_t)divisor, &rem32);
		*remainder = rem32;
		return quot;
	}
	/* Both shifted until the divisor fits 32 bits (its top bit set). */
	shift = 32 - __builtin_clz(high);
	quot = div_u64_rem(dividend >> shift, (uint32_t)(divisor >> shift), &rem32);
	if (quot != 0)
		quot--;				/* at most one too big: now never */
	if (dividend - quot * divisor >= divisor)
		quot++;
	*remainder = dividend - quot * divisor;
	return quot;
}

#ifndef HOST_BUILD

uint64_t __udivmoddi4(uint64_t a, uint64_t b, uint64_t *rem);
uint64_t __udivdi3(uint64_t a, uint64_t b);
uint64_t __umoddi3(uint64_t a, uint64_t b);
int64_t __divdi3(int64_t a, int64_t b);
int64_t __moddi3(int64_t a, int64_t b);
int __popcountsi2(unsigned int x);

/* Quotient and remainder at once: gcc calls it for a "/" and "%" pair. */
uint64_t __udivmoddi4(uint64_t a, uint64_t b, uint64_t *rem)
{
	uint64_t r, quot = div64_u64_rem(a, b, &r);

	if (rem)
		*rem = r;
	return quot;
}

uint64_t __udivdi3(uint64_t a, uint64_t b)
{
	uint64_t rem;

	return div64_u64_rem(a, b, &rem);
}

uint64_t __umoddi3(uint64_t a, uint64_t b)
{
	uint64_t rem;

	div64_u64_rem(a, b, &rem);
	return rem;
}

/* |x| as unsigned: right for INT64_MIN too, whose negation overflows. */
static uint64_t abs64(int64_t x)
{
	return x < 0 ? -(uint64_t)x : (uint64_t)x;
}

/* C rounds toward zero: the quotient is negative when the signs differ. */
int64_t __divdi3(int64_t a, int64_t b)
{
	uint64_t rem, quot = div64_u64_rem(abs64(a), abs64(b), &rem);

	return (a < 0) != (b < 0) ? -(int64_t)quot : (int64_t)quot;
}

/* ... and the remainder takes the dividend's sign. */
int64_t __moddi3(int64_t a, int64_t b)
{
	uint64_t rem;

	div64_u64_rem(abs64(a), abs64(b), &rem);
	return a < 0 ? -(int64_t)rem : (int64_t)rem;
}

/* Set bits, summed in ever wider fields (2, 4, 8 bits, then all four bytes). */
int __popcountsi2(unsigned int x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (int)((x * 0x01010101u) >> 24);
}
#endif
