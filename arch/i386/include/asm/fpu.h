/*
 * fpu.h - the x87 and SSE registers of a task (arch/i386/fpu.c; Linux's
 * arch/x86/include/asm/fpu/).
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <stdint.h>

#define FXSAVE_SIZE	512	/* fxsave's image: x87, MMX, XMM0-7, MXCSR */

/* A task's floating-point registers while it does not run (fxsave needs 16-byte alignment). */
struct fpu_state {
	uint8_t regs[FXSAVE_SIZE];
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

#endif
