/*
 * fpu_signal.c - the x87 and SSE registers in a signal frame (Linux's
 * arch/x86/kernel/fpu/signal.c, and the format conversions of its
 * fpu/regset.c; docs/signals.md, "The FPU in the frame").
 *
 * A signal handler is ordinary C: it may compute in floating point,
 * and glibc's memcpy or strlen use the XMM registers.  But the
 * interrupted code was using those registers too - a value in xmm0, a
 * half-finished sum on the x87 stack - and nothing else will save them:
 * the context switch saves a task's registers only when it stops
 * running, and the handler is the same task.  So, as Linux does, the
 * kernel stores them in the frame when it delivers the signal and
 * loads them back at sigreturn: struct _fpstate_32, above the frame,
 * its address in sc.fpstate.
 *
 * Its layout is history (asm/sigcontext.h): fnsave's 108-byte image
 * first, then fxsave's 512 bytes, 64-byte aligned.  The kernel writes
 * both, translating fxsave's x87 part into fnsave's format, and at
 * sigreturn takes the x87 registers from the first and the SSE ones
 * from the second - Linux's rule, which keeps a handler from 1995 that
 * edits the fnsave image working.  MXCSR comes from the user's stack,
 * so its reserved bits are cleared first: fxrstor raises #GP on one.
 *
 * This kernel uses fxsave, not xsave (no AVX state), so the frame is
 * what Linux writes on a CPU without XSAVE: sw_reserved says
 * FP_XSTATE_MAGIC1 and x87|SSE, and no FP_XSTATE_MAGIC2 follows.
 */
#include "kernel.h"
#include "sched.h"
#include "string.h"
#include "errno.h"
#include "uaccess.h"
#include <asm/fpu.h>
#include <asm/sigcontext.h>

/* fnsave's image and the status word after it (Linux's struct fregs_state). */
#define FSAVE_HEADER_BYTES	offsetof(struct _fpstate_32, _fxsr_env)
#define FPSTATE_ALIGN		64	/* Linux's: xsave's alignment */
#define FP_XSTATE_MAGIC2_SIZE	sizeof(uint32_t)
#define X87_REGS		8
#define X87_TOP(swd)		(((swd) >> 11) & 7)	/* the status word's TOP: which is st(0) */
#define X87_EXP_MASK		0x7fff
#define X87_SIGN_INT_BIT	0x8000	/* the explicit integer bit of a normal number */
#define HIGH_HALF_ONES		0xffff0000u

/* The full tag word's two bits per register (fnsave's). */
enum { FP_EXP_TAG_VALID, FP_EXP_TAG_ZERO, FP_EXP_TAG_SPECIAL, FP_EXP_TAG_EMPTY };

/*
 * fxsave keeps one bit per register (empty or not); fnsave's tag word
 * two, classifying the value: so a non-empty register's tag is computed
 * from its exponent and significand, as the 80387 did.  fxsave's bit i
 * is physical register i; st(i - TOP) is where its value sits.
 */
static unsigned int fpu_tag_of(const struct _fpxreg *st)
{
	switch (st->exponent & X87_EXP_MASK) {
	case X87_EXP_MASK:
		return FP_EXP_TAG_SPECIAL;		/* infinity, NaN */
	case 0:
		if (!st->significand[0] && !st->significand[1] &&
		    !st->significand[2] && !st->significand[3])
			return FP_EXP_TAG_ZERO;
		return FP_EXP_TAG_SPECIAL;		/* denormal */
	default:
		return (st->significand[3] & X87_SIGN_INT_BIT) ? FP_EXP_TAG_VALID
							     : FP_EXP_TAG_SPECIAL;
	}
}

static uint32_t twd_fxsr_to_i387(const struct fxregs_state *fx)
{
	const struct _fpxreg *st = (const struct _fpxreg *)fx->st_space;
	unsigned int top = X87_TOP(fx->swd), i, tag;
	uint32_t twd = HIGH_HALF_ONES;

	for (i = 0; i < X87_REGS; i++) {
		tag = (fx->twd & (1u << i)) ? fpu_tag_of(&st[(i - top) & 7]) : FP_EXP_TAG_EMPTY;
		twd |= tag << (2 * i);
	}
	return twd;
}

/* ... and back: a register is valid (1) unless its two bits say empty (11). */
static uint16_t twd_i387_to_fxsr(uint32_t twd)
{
	uint16_t fx = 0;
	unsigned int i;

	for (i = 0; i < X87_REGS; i++)
		if (((twd >> (2 * i)) & 3) != FP_EXP_TAG_EMPTY)
			fx |= 1u << i;
	return fx;
}

/* Linux's convert_from_fxsr(): fxsave's x87 part as fnsave's image. */
static void fpu_convert_from_fxsr(struct _fpstate_32 *fp, const struct fxregs_state *fx)
{
	const struct _fpxreg *from = (const struct _fpxreg *)fx->st_space;
	unsigned int i;

	fp->cw = fx->cwd | HIGH_HALF_ONES;
	fp->sw = fx->swd | HIGH_HALF_ONES;
	fp->tag = twd_fxsr_to_i387(fx);
	fp->ipoff = fx->fip;
	fp->cssel = (uint16_t)fx->fcs | ((uint32_t)fx->fop << 16);
	fp->dataoff = fx->foo;
	fp->datasel = fx->fos;
	for (i = 0; i < X87_REGS; i++)
		memcpy(&fp->_st[i], &from[i], sizeof(fp->_st[i]));
}

/* Linux's convert_to_fxsr(): the fnsave image's x87 part into fxsave's. */
static void fpu_convert_to_fxsr(struct fxregs_state *fx, const struct _fpstate_32 *fp)
{
	struct _fpxreg *to = (struct _fpxreg *)fx->st_space;
	unsigned int i;

	fx->cwd = fp->cw;
	fx->swd = fp->sw;
	fx->twd = twd_i387_to_fxsr(fp->tag);
	fx->fop = fp->cssel >> 16;
	fx->fip = fp->ipoff;
	fx->fcs = (uint16_t)fp->cssel;
	fx->foo = fp->dataoff;
	fx->fos = fp->datasel;
	for (i = 0; i < X87_REGS; i++)
		memcpy(&to[i], &fp->_st[i], sizeof(fp->_st[i]));
}

/* fxsave's image, or fnsave's alone on a CPU before the Pentium II. */
static size_t fpu_image_size(void)
{
	return fpu_uses_fxsr() ? FXSAVE_SIZE : FSAVE_HEADER_BYTES;
}

/*
 * Below sp: the image 64-byte aligned, and with fxsave the fnsave
 * header right below it.  The frame goes below that.
 */
unsigned long fpu__alloc_mathframe(unsigned long sp, unsigned long *buf_fx)
{
	*buf_fx = sp = ALIGN_DOWN(sp - fpu_image_size(), FPSTATE_ALIGN);
	if (fpu_uses_fxsr())
		sp -= FSAVE_HEADER_BYTES;
	return sp;
}

/* Linux's save_sw_bytes(): what follows the fxsave image (nothing: no xsave). */
static void fpu_save_sw_bytes(struct _fpx_sw_bytes *sw)
{
	sw->magic1 = FP_XSTATE_MAGIC1;
	sw->extended_size = FXSAVE_SIZE + FP_XSTATE_MAGIC2_SIZE + FSAVE_HEADER_BYTES;
	sw->xfeatures = XFEATURE_MASK_FPSSE;
	sw->xstate_size = FXSAVE_SIZE;
}

/*
 * Linux's copy_fpstate_to_sigframe(): the live registers, as the
 * interrupted code left them, into the _fpstate_32 at buf.  They are
 * stored in the task's own save area first (a page fault on the user
 * stack may sleep; the area is where a switch would store them anyway).
 */
int copy_fpstate_to_sigframe(unsigned long buf)
{
	struct fpu_state *live = &current->fpu;
	struct _fpstate_32 fp;

	fpu_save_current(live);
	memset(&fp, 0, sizeof(fp));
	if (!fpu_uses_fxsr()) {
		memcpy(&fp, live->regs, FSAVE_SIZE);
		fp.status = fp.sw;
		fp.magic = X86_FSAVE_MAGIC;
		return copy_to_user((void __user *)buf, &fp, FSAVE_HEADER_BYTES) ? -EFAULT : 0;
	}
	fpu_convert_from_fxsr(&fp, &live->fxsave);
	fp.status = live->fxsave.swd;
	fp.magic = X86_FXSR_MAGIC;
	memcpy(fp._fxsr_env, live->regs, FXSAVE_SIZE - sizeof(fp.sw_reserved));
	fpu_save_sw_bytes(&fp.sw_reserved);
	return copy_to_user((void __user *)buf, &fp, sizeof(fp)) ? -EFAULT : 0;
}

/*
 * sigreturn's first half: the frame's state, read and made safe to
 * load, into st.  sc.fpstate 0 means none was saved: the registers
 * start clean, as Linux's fpu__clear_user_states().  A frame that
 * cannot be read is the caller's bad frame (SIGSEGV), nothing loaded.
 */
int fpu__read_sig(unsigned long buf, struct fpu_state *st)
{
	struct _fpstate_32 fp;

	if (!buf) {
		*st = *fpu_init_state();
		return 0;
	}
	if (!fpu_uses_fxsr()) {
		memset(st, 0, sizeof(*st));
		return copy_from_user(st->regs, (const void __user *)buf, FSAVE_SIZE) ? -EFAULT : 0;
	}
	if (copy_from_user(&fp, (const void __user *)buf, sizeof(fp)))
		return -EFAULT;
	memcpy(st->regs, fp._fxsr_env, FXSAVE_SIZE);
	st->fxsave.mxcsr &= fpu_mxcsr_feature_mask();
	fpu_convert_to_fxsr(&st->fxsave, &fp);		/* the x87 part from the old image */
	return 0;
}

/* ... and its second: into the registers, which are the current task's. */
void fpu__restore_sig(const struct fpu_state *st)
{
	fpu_load_current(st);
}
