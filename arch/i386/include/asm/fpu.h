/*
 * fpu.h - the x87 and SSE registers of a task (arch/i386/fpu.c; Linux's
 * arch/x86/include/asm/fpu/).
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <stdint.h>
#include <stdbool.h>

#define FXSAVE_SIZE	512	/* fxsave's image: x87, MMX, XMM0-7, MXCSR */

#define FSAVE_SIZE	108	/* fnsave's image: the x87 environment and stack */

/* fxsave's image, field by field (Linux's struct fxregs_state, 32-bit). */
struct fxregs_state {
	uint16_t cwd, swd;	/* control and status words */
	uint16_t twd, fop;	/* abridged tag (a bit per register: not empty), last opcode */
	uint32_t fip, fcs;	/* the last x87 instruction's ip and cs */
	uint32_t foo, fos;	/* its operand's offset and selector */
	uint32_t mxcsr, mxcsr_mask;
	uint32_t st_space[32];	/* st(0)..st(7), 16 bytes each (10 used) */
	uint32_t xmm_space[64];	/* xmm0..xmm7 in 32-bit mode (the rest: 64-bit's) */
	uint32_t padding[12];
	uint32_t sw_reserved[12];	/* never written by the CPU: Linux's signal frame marks */
};

/* A task's floating-point registers while it does not run (fxsave needs 16-byte alignment). */
struct fpu_state {
	union {
		uint8_t regs[FXSAVE_SIZE];
		struct fxregs_state fxsave;
	};
} __attribute__((aligned(16)));

struct task_struct;

/* On each CPU at boot: the FPU on, SSE allowed (CR0, CR4), the registers clean. */
void fpu_init_cpu(void);
/* At a context switch: prev's registers saved, next's loaded. */
void fpu_switch(struct task_struct *prev, struct task_struct *next);
/* A new task starts with its creator's registers (fork: Linux's fpu_clone()). */
void fpu_clone(struct task_struct *p);
/* execve: the new program starts with clean registers (Linux's fpu_flush_thread()). */
void fpu_flush_thread(void);

/* For the signal frames (arch/i386/fpu_signal.c): */
bool fpu_uses_fxsr(void);			/* fxsave's image, or fnsave's */
void fpu_save_current(struct fpu_state *s);	/* the live registers, stored */
void fpu_load_current(const struct fpu_state *s);	/* ... and loaded */
const struct fpu_state *fpu_init_state(void);	/* the registers after fninit */
uint32_t fpu_mxcsr_feature_mask(void);		/* the MXCSR bits this CPU has */

/*
 * The signal frame's FPU part (Linux's fpu__alloc_mathframe(),
 * copy_fpstate_to_sigframe(), fpu__restore_sig()).  The room below sp:
 * the new sp, which is where the _fpstate_32 goes (*buf_fx: the
 * fxsave image in it, 64-byte aligned).
 */
unsigned long fpu__alloc_mathframe(unsigned long sp, unsigned long *buf_fx);
int copy_fpstate_to_sigframe(unsigned long buf);	/* 0 or -EFAULT */
/* sigreturn's two halves: read and check the frame's state (0: none), then load it. */
int fpu__read_sig(unsigned long buf, struct fpu_state *st);	/* 0 or -EFAULT */
void fpu__restore_sig(const struct fpu_state *st);

#endif
