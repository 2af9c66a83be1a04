/*
 * processor.h - names for EFLAGS and control-register bits, and the
 * tiny inline wrappers for instructions C cannot express.
 */
#ifndef PROCESSOR_H
#define PROCESSOR_H

#ifndef __ASSEMBLER__
#include <stdint.h>
#endif

/* EFLAGS bits (Intel SDM vol. 1, 3.4.3) */
#define X86_EFLAGS_CF   0x00000001
#define X86_EFLAGS_FIXED 0x00000002   /* bit 1 always reads as 1 */
#define X86_EFLAGS_PF   0x00000004
#define X86_EFLAGS_AF   0x00000010
#define X86_EFLAGS_ZF   0x00000040
#define X86_EFLAGS_SF   0x00000080
#define X86_EFLAGS_TF   0x00000100   /* trap flag: #DB after each insn */
#define X86_EFLAGS_IF   0x00000200   /* interrupts enabled */
#define X86_EFLAGS_DF   0x00000400
#define X86_EFLAGS_OF   0x00000800
#define X86_EFLAGS_IOPL 0x00003000
#define X86_EFLAGS_NT   0x00004000   /* nested task: iret switches back */
#define X86_EFLAGS_RF   0x00010000   /* resume: suppress instr. breakpoints */
#define X86_EFLAGS_VM   0x00020000   /* virtual-8086 mode */
#define X86_EFLAGS_AC   0x00040000   /* alignment check (CR0.AM too) */
#define X86_EFLAGS_ID   0x00200000   /* CPUID present: software may flip it */

/* CR0 bits */
#define X86_CR0_PE      0x00000001   /* protected mode */
#define X86_CR0_WP      0x00010000   /* ring 0 honours read-only pages */
#define X86_CR0_AM      0x00040000   /* EFLAGS.AC checks alignment, in ring 3 only */
#define X86_CR0_PG      0x80000000   /* paging */

#ifndef __ASSEMBLER__
static inline unsigned long read_eflags(void)
{
	unsigned long f;
	__asm__ __volatile__("pushfl; popl %0" : "=r"(f));
	return f;
}

/*
 * Write the whole of EFLAGS (Linux's native_restore_fl(), before 5.11):
 * IF and TF and the arithmetic flags at once, which no single other
 * instruction can do - the scheduler puts a thread's own TF back with it.
 */
static inline void native_restore_fl(unsigned long flags)
{
	__asm__ __volatile__("pushl %0; popfl" :: "g" (flags) : "memory", "cc");
}

static inline unsigned long read_cr0(void)
{
	unsigned long v;
	__asm__ __volatile__("movl %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(unsigned long v)
{
	__asm__ __volatile__("movl %0, %%cr0" : : "r"(v) : "memory");
}

static inline unsigned long read_cr2(void)
{
	unsigned long v;
	__asm__ __volatile__("movl %%cr2, %0" : "=r"(v));
	return v;
}

static inline unsigned long read_cr3(void)
{
	unsigned long v;
	__asm__ __volatile__("movl %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(unsigned long v)
{
	__asm__ __volatile__("movl %0, %%cr3" : : "r"(v) : "memory");
}

static inline unsigned long read_cr4(void)
{
	unsigned long v;
	__asm__ __volatile__("movl %%cr4, %0" : "=r"(v));
	return v;
}

static inline void invlpg(unsigned long addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/*
 * cpuid is a serialising instruction: the CPU finishes everything before
 * it and refetches everything after it.  text_poke() uses it so that a
 * freshly written instruction byte is what the CPU executes next.
 */
static inline void sync_core(void)
{
	uint32_t a = 0, b, c = 0, d;
	__asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}

/* CPUID leaf op (subleaf 0): what the CPU says it is and has (Linux's cpuid()). */
static inline void cpuid(uint32_t op, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	*a = op;
	*c = 0;
	__asm__ __volatile__("cpuid" : "+a"(*a), "=b"(*b), "+c"(*c), "=d"(*d));
}

/* CPUID leaf 1's %edx: the feature flags (fpu, tsc, cmov, sse, ...), Linux's ELF_HWCAP. */
#define CPUID_LEAF_FEATURES	1
static inline uint32_t cpuid_features_edx(void)
{
	uint32_t a, b, c, d;

	cpuid(CPUID_LEAF_FEATURES, &a, &b, &c, &d);
	return d;
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

#endif /* __ASSEMBLER__ */

#endif
