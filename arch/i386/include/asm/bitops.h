/*
 * asm/bitops.h - bits of a word that several CPUs change at once, with
 * Linux's names (arch/x86/include/asm/bitops.h).
 *
 * bts/btr/btc address one bit of a memory operand; with the LOCK prefix
 * the read-modify-write of that word is one indivisible operation (SDM
 * vol. 3, 9.1.2), so CPUs clearing their own bits of one mask lose none
 * of each other's.  The bit number may be a register or an immediate
 * ("Ir"); i386 words are 32 bits, and nr indexes from the word at addr.
 */
#ifndef ASM_BITOPS_H
#define ASM_BITOPS_H

#include <stdbool.h>

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__asm__ __volatile__("lock btsl %1, %0" : "+m" (*addr) : "Ir" (nr) : "memory");
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__asm__ __volatile__("lock btrl %1, %0" : "+m" (*addr) : "Ir" (nr) : "memory");
}

/* Clear the bit; was it set?  btr copies the old bit into CF. */
static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	bool old;

	__asm__ __volatile__("lock btrl %2, %1" : "=@ccc" (old), "+m" (*addr)
			     : "Ir" (nr) : "memory");
	return old;
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (addr[nr / (8 * sizeof(long))] >> (nr % (8 * sizeof(long)))) & 1;
}

#endif
