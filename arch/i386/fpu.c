/*
 * fpu.c - the floating-point and SSE registers, one set per task
 * (Linux's arch/x86/kernel/fpu/core.c and init.c, eager switching).
 *
 * The kernel itself never computes in floating point (it is built with
 * -mno-sse, and uses no float), so the x87 stack, the XMM registers and
 * MXCSR hold the user's values only - but there is one set of them per
 * CPU and many processes.  A C library uses them freely: glibc's
 * strlen and memchr pick SSE2 versions when CPUID says the CPU has
 * SSE2.  So at every context switch the old task's registers are saved
 * (fxsave: 512 bytes) and the new one's loaded (fxrstor), as Linux has
 * done eagerly since 4.2.  Lazy switching - CR0.TS and a #NM trap at a
 * task's first FPU instruction - saves the copy when few tasks use the
 * FPU; Linux gave it up when every task did.
 *
 * SSE instructions fault (#UD) until the kernel says it saves their
 * registers: CR4.OSFXSR.  CR4.OSXMMEXCPT routes SSE exceptions to
 * #XM, CR0.NE x87 ones to #MF instead of the PC's old IRQ 13.  A CPU
 * without fxsave (before the Pentium II) gets fnsave's 108 bytes, and
 * no SSE.
 */
#include "kernel.h"
#include "sched.h"
#include "string.h"
#include <asm/processor.h>
#include <asm/fpu.h>

#define X86_CR0_MP	0x00000002	/* wait/fwait honour TS */
#define X86_CR0_EM	0x00000004	/* no FPU: every FPU instruction traps */
#define X86_CR0_TS	0x00000008	/* task switched: the next FPU instruction traps */
#define X86_CR0_NE	0x00000020	/* x87 errors as #MF, not IRQ 13 */
#define X86_CR4_OSFXSR	0x00000200	/* the OS saves XMM with fxsave: SSE allowed */
#define X86_CR4_OSXMMEXCPT 0x00000400	/* SSE exceptions as #XM */
#define CPUID_FXSR	(1u << 24)
#define CPUID_SSE	(1u << 25)
#define MXCSR_DEFAULT	0x1f80		/* every SSE exception masked, round to nearest */
#define MXCSR_MASK_DEFAULT 0x0000ffbf	/* what mxcsr_mask 0 means: all but DAZ (SDM 10.5.1.2) */

static bool have_fxsr, fpu_clean_saved;
static uint32_t mxcsr_feature_mask;	/* the bits fxrstor accepts; any other one is #GP */
static struct fpu_state fpu_clean;	/* the registers after fninit: what exec gives */

static inline void write_cr4(unsigned long v)
{
	__asm__ __volatile__("movl %0, %%cr4" : : "r"(v) : "memory");
}

static void fpu_save(struct fpu_state *s)
{
	if (have_fxsr)
		__asm__ __volatile__("fxsave %0" : "=m"(*s));
	else	/* fnsave also re-initialises the x87: put the state back */
		__asm__ __volatile__("fnsave %0; frstor %0" : "+m"(*s));
}

static void fpu_restore(const struct fpu_state *s)
{
	if (have_fxsr)
		__asm__ __volatile__("fxrstor %0" : : "m"(*s));
	else
		__asm__ __volatile__("frstor %0" : : "m"(*s));
}

void fpu_init_cpu(void)
{
	uint32_t features = cpuid_features_edx();
	uint32_t mxcsr = MXCSR_DEFAULT;

	write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP | X86_CR0_NE);
	have_fxsr = features & CPUID_FXSR;
	if (have_fxsr)
		write_cr4(read_cr4() | X86_CR4_OSFXSR |
			  ((features & CPUID_SSE) ? X86_CR4_OSXMMEXCPT : 0));
	__asm__ __volatile__("fninit");
	if (features & CPUID_SSE)
		__asm__ __volatile__("ldmxcsr %0" : : "m"(mxcsr));
	if (!fpu_clean_saved) {		/* the boot CPU's: the same on every CPU */
		fpu_save(&fpu_clean);
		fpu_clean_saved = true;
		mxcsr_feature_mask = fpu_clean.fxsave.mxcsr_mask ?
				     fpu_clean.fxsave.mxcsr_mask : MXCSR_MASK_DEFAULT;
	}
}

/*
 * clts first: every hardware task switch sets CR0.TS, and the #DF task
 * gate is one (arch/i386/doublefault.c); with TS set, fxsave itself
 * would trap (#NM, "device not available").
 */
void fpu_switch(struct task_struct *prev, struct task_struct *next)
{
	__asm__ __volatile__("clts");
	fpu_save(&prev->fpu);
	fpu_restore(&next->fpu);
}

/* Called by the creator: its live registers are the ones to copy. */
void fpu_clone(struct task_struct *p)
{
	fpu_save(&p->fpu);
}

void fpu_flush_thread(void)
{
	fpu_restore(&fpu_clean);
}

bool fpu_uses_fxsr(void)
{
	return have_fxsr;
}

/*
 * The current task's registers are the live ones (eager switching):
 * stored here, or loaded from here.  A preemption in between saves and
 * loads the same registers again, so no lock is needed.
 */
void fpu_save_current(struct fpu_state *s)
{
	__asm__ __volatile__("clts");	/* as fpu_switch(): TS would make this trap */
	fpu_save(s);
}

void fpu_load_current(const struct fpu_state *s)
{
	__asm__ __volatile__("clts");
	fpu_restore(s);
}

const struct fpu_state *fpu_init_state(void)
{
	return &fpu_clean;
}

uint32_t fpu_mxcsr_feature_mask(void)
{
	return mxcsr_feature_mask;
}
