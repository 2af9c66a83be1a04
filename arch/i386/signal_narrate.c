/*
 * signal_narrate.c - a signal delivery and its return, told step by
 * step on the console, as the kprobes narration tells a probe hit:
 *
 *   echo 1 > /sys/kernel/debug/signals/narrate
 *
 * Each delivery prints the frame arch/i386/signal.c drew on the user
 * stack, word by word with its address, then the registers iret hands
 * the handler; each sigreturn prints what it checked and where iret
 * goes - or why it refused the frame.  It only watches: it reads the
 * frame back from the user stack and changes nothing.
 */
#include "kernel.h"
#include "signal.h"
#include "process.h"
#include "sched.h"
#include "uaccess.h"
#include "pseudofs.h"
#include "errno.h"
#include <asm/sigframe.h>
#include <asm/vdso.h>

#define SIGNALS_DEBUG_DIR "/sys/kernel/debug/signals"

bool signal_narrate_enabled;

static void narrate_sigcontext(unsigned long at, const struct sigcontext *sc)
{
	printk("  %08lx sigcontext  ip %08lx cs %04x flags %08lx sp %08lx ss %04x\n",
	       at, sc->ip, sc->cs, sc->flags, sc->sp, sc->ss);
	printk("                        ax %08lx bx %08lx cx %08lx dx %08lx si %08lx di %08lx bp %08lx\n",
	       sc->ax, sc->bx, sc->cx, sc->dx, sc->si, sc->di, sc->bp);
	printk("                        ds %04x es %04x fs %04x gs %04x trapno %lu err %lx cr2 %08lx oldmask %08lx\n",
	       sc->ds, sc->es, sc->fs, sc->gs, sc->trapno, sc->err, sc->cr2, sc->oldmask);
}

static void narrate_retcode(unsigned long at, const unsigned char *rc, unsigned long restorer)
{
	printk("  %08lx retcode     %02x %02x %02x %02x %02x %02x %02x %02x%s\n", at,
	       rc[0], rc[1], rc[2], rc[3], rc[4], rc[5], rc[6], rc[7],
	       restorer == at ? "  <- the handler returns here (no SA_RESTORER, no vDSO)" : "");
}

/* Where the handler returns: the frame's retcode, the vDSO's trampoline, or the program's. */
static const char *pretcode_name(unsigned long pretcode, unsigned long retcode)
{
	const struct vdso_image *image = vdso_image();

	if (pretcode == retcode)
		return "retcode, below";
	if (pretcode == vdso_symbol(current->mm, image->sym___kernel_rt_sigreturn))
		return "__kernel_rt_sigreturn in the vDSO";
	if (pretcode == vdso_symbol(current->mm, image->sym___kernel_sigreturn))
		return "__kernel_sigreturn in the vDSO";
	return "the program's SA_RESTORER";
}

static void narrate_rt_frame(unsigned long addr, unsigned long restorer)
{
	struct rt_sigframe f;
	const struct rt_sigframe *u = (const struct rt_sigframe *)addr;

	if (copy_from_user_nofault(&f, u, sizeof(f)))
		return;
	printk("  %08lx pretcode    %08lx  the handler's return address: %s\n", addr,
	       f.pretcode, pretcode_name(f.pretcode, (unsigned long)u->retcode));
	printk("  %08lx sig         %d\n", (unsigned long)&u->sig, f.sig);
	printk("  %08lx pinfo       %08lx\n", (unsigned long)&u->pinfo, f.pinfo);
	printk("  %08lx puc         %08lx\n", (unsigned long)&u->puc, f.puc);
	printk("  %08lx siginfo     si_signo %d si_code %d si_addr/si_pid %08lx\n",
	       (unsigned long)&u->info, f.info.si_signo, f.info.si_code,
	       (unsigned long)f.info.si_addr);
	printk("  %08lx ucontext    uc_flags %lx uc_link %08lx uc_sigmask %08lx %08lx\n",
	       (unsigned long)&u->uc, f.uc.uc_flags, (unsigned long)f.uc.uc_link,
	       f.uc.uc_sigmask.sig[0], f.uc.uc_sigmask.sig[1]);
	narrate_sigcontext((unsigned long)&u->uc.uc_mcontext, &f.uc.uc_mcontext);
	narrate_retcode((unsigned long)u->retcode, f.retcode, restorer);
}

static void narrate_frame(unsigned long addr, unsigned long restorer)
{
	struct sigframe f;
	const struct sigframe *u = (const struct sigframe *)addr;

	if (copy_from_user_nofault(&f, u, sizeof(f)))
		return;
	printk("  %08lx pretcode    %08lx  the handler's return address: %s\n", addr,
	       f.pretcode, pretcode_name(f.pretcode, (unsigned long)u->retcode));
	printk("  %08lx sig         %d\n", (unsigned long)&u->sig, f.sig);
	narrate_sigcontext((unsigned long)&u->sc, &f.sc);
	printk("  %08lx extramask   %08lx\n", (unsigned long)u->extramask, f.extramask[0]);
	narrate_retcode((unsigned long)u->retcode, f.retcode, restorer);
}

void signal_narrate_frame(int sig, const struct sigaction *ka, unsigned long frame,
			  unsigned long size, const struct pt_regs *regs,
			  unsigned long restorer)
{
	bool rt = ka->sa_flags & SA_SIGINFO;

	if (!READ_ONCE(signal_narrate_enabled))
		return;
	printk("signal: %s to %s[%d], interrupted at ip %08lx sp %08lx; handler %08lx, sa_flags %08lx\n",
	       signal_name(sig), current->comm, current->pid, regs->ip, regs->sp,
	       (unsigned long)ka->sa_handler, ka->sa_flags);
	printk("signal: %s (%lu bytes) written on the user stack at %08lx, below sp:\n",
	       rt ? "struct rt_sigframe" : "struct sigframe", size, frame);
	if (rt)
		narrate_rt_frame(frame, restorer);
	else
		narrate_frame(frame, restorer);
}

void signal_narrate_entry(const struct pt_regs *regs)
{
	const sigset_t *b = &current->signal.blocked;

	if (!READ_ONCE(signal_narrate_enabled))
		return;
	printk("signal: iret to the handler: ip %08lx sp %08lx (pretcode on top) ax %08lx dx %08lx cx %08lx flags %08lx (TF, DF, RF cleared); blocked now %08lx %08lx\n",
	       regs->ip, regs->sp, regs->ax, regs->dx, regs->cx, regs->flags,
	       b->sig[0], b->sig[1]);
}

void signal_narrate_return(const char *call, unsigned long frame,
			   const struct pt_regs *regs, const char *refused)
{
	const sigset_t *b = &current->signal.blocked;

	if (!READ_ONCE(signal_narrate_enabled))
		return;
	if (refused) {
		printk("signal: %s from %s[%d] refused the frame at %08lx: %s; nothing restored, SIGSEGV\n",
		       call, current->comm, current->pid, frame, refused);
		return;
	}
	printk("signal: %s from %s[%d], frame at %08lx: cs %04x ss %04x ds %04x es %04x fs %04x gs %04x are ring 3's; flags %08lx (only the user's bits taken); blocked %08lx %08lx\n",
	       call, current->comm, current->pid, frame, regs->cs, regs->ss, regs->ds,
	       regs->es, regs->fs, regs->gs, regs->flags, b->sig[0], b->sig[1]);
	printk("signal: iret back to ip %08lx sp %08lx ax %08lx\n", regs->ip, regs->sp, regs->ax);
}

static int signal_narrate_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(signal_narrate_enabled));
	return 0;
}

static int signal_narrate_write(const char *text, size_t len, bool trunc, void *data)
{
	if (len < 1 || (len > 1 && text[1] != '\n') || (text[0] != '0' && text[0] != '1'))
		return -EINVAL;
	WRITE_ONCE(signal_narrate_enabled, text[0] == '1');
	return 0;
}

static const struct pseudo_file_spec signals_debug_files[] = {
	{ "narrate", signal_narrate_show, signal_narrate_write },
};

int signal_narrate_init(void)
{
	return pseudofs_create_files(SIGNALS_DEBUG_DIR, signals_debug_files,
				     ARRAY_SIZE(signals_debug_files));
}
