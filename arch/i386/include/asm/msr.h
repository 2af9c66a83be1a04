/*
 * asm/msr.h - model-specific registers (Linux's asm/msr.h and
 * asm/msr-index.h): numbered CPU settings outside the instruction set,
 * read by rdmsr and written by wrmsr (ring 0 only), %ecx the number and
 * %edx:%eax the 64-bit value.  Each CPU has its own.
 */
#ifndef ASM_MSR_H
#define ASM_MSR_H

#include <stdint.h>

/* Where sysenter goes (SDM vol. 3, 5.8.7): %cs (and %ss = %cs + 8), %esp, %eip. */
#define MSR_IA32_SYSENTER_CS	0x00000174
#define MSR_IA32_SYSENTER_ESP	0x00000175
#define MSR_IA32_SYSENTER_EIP	0x00000176

static inline uint64_t rdmsrl(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint32_t lo, uint32_t hi)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "a"(lo), "d"(hi) : "memory");
}

#endif
