/*
 * div64.h - 64-bit division on a 32-bit CPU (Linux's <linux/math64.h>).
 *
 * i386 has no instruction that divides one 64-bit number by another:
 * divl divides the 64 bits in %edx:%eax by 32 bits, and faults (#DE)
 * when the quotient does not fit 32.  gcc turns a C "/" on 64-bit
 * numbers into a call to a helper, __udivdi3 and its kin, which the
 * kernel defines itself from these two (lib/div64.c): the helpers gcc
 * would take from libgcc are compiled for the stack-argument
 * convention, and the kernel is built with -mregparm=3.
 */
#ifndef DIV64_H
#define DIV64_H

#include <stdint.h>

/* dividend / divisor, the remainder in *remainder (divisor != 0). */
uint64_t div_u64_rem(uint64_t dividend, uint32_t divisor, uint32_t *remainder);

/* The same with a 64-bit divisor. */
uint64_t div64_u64_rem(uint64_t dividend, uint64_t divisor, uint64_t *remainder);

#endif
