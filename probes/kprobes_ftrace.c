/*
 * kprobes_ftrace.c - kprobes on ftrace (Linux's CONFIG_KPROBES_ON_FTRACE,
 * the ftrace half of kernel/kprobes.c).
 *
 * A probe at a function's first byte sits on its fentry call site (the
 * 5-byte nop).  Linux does not put an int3 there: the probe becomes one
 * more site of kprobe_ftrace_ops, whose callback
 * (arch/i386/kprobes/ftrace.c) runs the handlers with no exception at
 * all.  Such a probe carries KPROBE_FLAG_FTRACE and shows [FTRACE] in
 * /sys/kernel/debug/kprobes/list.
 *
 * The switch: kprobes.ftrace=0 on the command line, or
 * `echo 0 > /sys/kernel/debug/kprobes/ftrace`, makes new probes on call
 * sites int3 probes again (on the nop), to compare the two paths.  An
 * int3 probe cannot go on a site ftrace has made a call (the call and
 * the int3 would fight over the byte): -EBUSY; ftrace in turn leaves a
 * site holding an int3 alone.
 */
#include "kernel.h"
#include "errno.h"
#include "string.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "ftrace.h"

bool kprobes_on_ftrace = true;

#define KPROBES_FTRACE_PARAM	"kprobes.ftrace"
#define KPROBES_FTRACE_LEN	4	/* "0" or "1", and a byte to see "10" */

/* kprobes.ftrace=0: entry probes take the int3 path from boot on. */
int kprobes_ftrace_setup(void)
{
	char word[KPROBES_FTRACE_LEN];

	if (!cmdline_value(KPROBES_FTRACE_PARAM, word, sizeof(word)))
		return 0;
	if (strcmp(word, "0") == 0) {
		kprobes_on_ftrace = false;
		printk("kprobes: %s=0: probes on call sites are int3 probes\n",
		       KPROBES_FTRACE_PARAM);
	} else if (strcmp(word, "1") != 0) {
		printk("kprobes: %s=%s: want 0 or 1; on ftrace they stay\n",
		       KPROBES_FTRACE_PARAM, word);
		return -EINVAL;
	}
	return 0;
}

static struct ftrace_ops kprobe_ftrace_ops = {
	.func = kprobe_ftrace_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};
static int kprobe_ftrace_enabled;	/* armed probes on it; kprobe_mutex */

/* The narration switch (narrate.c): the ops calls the told handler while it is on. */
void kprobe_ftrace_narrate(bool on)
{
	ftrace_ops_set_func(&kprobe_ftrace_ops, on ? kprobe_ftrace_told_handler :
						     kprobe_ftrace_handler);
}

static bool site_is_call(unsigned long addr)
{
	return memcmp((const void *)addr, ftrace_nop_replace(), MCOUNT_INSN_SIZE) &&
	       *(const unsigned char *)addr != BREAKPOINT_INSTRUCTION;
}

/*
 * Linux's check_ftrace_location(): at a call site the probe rides on
 * ftrace, unless the switch is off.  A probe joining others at the same
 * address takes their way.  A jprobe never does: its break int3 needs
 * the int3 path.
 */
int check_ftrace_location(struct kprobe *p, kprobe_opcode_t *addr)
{
	struct kprobe *old = get_kprobe(addr);

	p->flags &= ~KPROBE_FLAG_FTRACE;
	if (ftrace_location((unsigned long)addr) != (unsigned long)addr)
		return 0;
	if (old ? kprobe_ftrace(old) : kprobes_on_ftrace && !p->break_handler) {
		p->flags |= KPROBE_FLAG_FTRACE;
		return 0;
	}
	if (!old && site_is_call((unsigned long)addr))
		return -EBUSY;	/* the function tracer has the site */
	return 0;
}

/* The site joins kprobe_ftrace_ops; the first one registers the ops. */
void arm_kprobe_ftrace(struct kprobe *p)
{
	int ret = ftrace_set_filter_ip(&kprobe_ftrace_ops, (unsigned long)p->addr, 0, 0);

	if (ret) {
		pr_warn("kprobes: cannot arm %pS through ftrace: %d\n", p->addr, ret);
		return;
	}
	if (kprobe_ftrace_enabled++ == 0)
		register_ftrace_function(&kprobe_ftrace_ops);
}

/*
 * The last one unregisters the ops before its filter empties: an empty
 * filter would mean every function.
 */
void disarm_kprobe_ftrace(struct kprobe *p)
{
	if (kprobe_ftrace_enabled == 0)
		return;
	if (--kprobe_ftrace_enabled == 0)
		unregister_ftrace_function(&kprobe_ftrace_ops);
	ftrace_set_filter_ip(&kprobe_ftrace_ops, (unsigned long)p->addr, 1, 0);
}
