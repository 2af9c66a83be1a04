/*
 * fprobe.h - one callback on many functions' entries and exits, through
 * ftrace and rethook (Linux 5.18+'s include/linux/fprobe.h, 6.1's API).
 *
 *   static struct fprobe fp = { .entry_handler = on_entry, .exit_handler = on_exit };
 *   register_fprobe(&fp, "crc32_* fib", "crc32_le");
 *
 * Each function the filter names (globs, as set_ftrace_filter) minus the
 * notfilter becomes a site of fp's ftrace_ops: its entry calls
 * entry_handler with no exception; with an exit_handler the entry also
 * hooks the return through fp's rethook.  Calls that find no free rethook
 * node are counted in nmissed.
 */
#ifndef FPROBE_H
#define FPROBE_H

#include "kernel.h"
#include <asm/ptrace.h>
#include "ftrace.h"

struct rethook;

struct fprobe {
	struct ftrace_ops ops;
	unsigned long nmissed;
	unsigned int flags;		/* FPROBE_FL_* */
	struct rethook *rethook;
	int nr_maxactive;		/* rethook nodes; 0: 2 per function per CPU */
	void (*entry_handler)(struct fprobe *fp, unsigned long entry_ip, struct pt_regs *regs);
	void (*exit_handler)(struct fprobe *fp, unsigned long entry_ip, struct pt_regs *regs);
};

#define FPROBE_FL_DISABLED	1	/* registered, but the handlers are skipped */

static inline bool fprobe_disabled(const struct fprobe *fp)
{
	return fp->flags & FPROBE_FL_DISABLED;
}

int register_fprobe(struct fprobe *fp, const char *filter, const char *notfilter);
int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num);
int unregister_fprobe(struct fprobe *fp);

#endif
