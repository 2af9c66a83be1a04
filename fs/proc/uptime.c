/*
 * uptime.c - /proc/uptime, /proc/version and /proc/loadavg (Linux's
 * fs/proc/uptime.c, version.c and loadavg.c): three one-line files.
 *
 * uptime is seconds since boot with two decimals, then the seconds the
 * CPUs were idle: this kernel does not count idle time, so that one is
 * 0.00.  loadavg's three averages are not kept either (0.00); its
 * fourth field, running/total tasks, and the last pid are real.
 */
#include "kernel.h"
#include "proc_fs.h"
#include "ktime.h"
#include "sched.h"
#include "vsprintf.h"
#include "div64.h"

#define NSEC_PER_CENTI	10000000U	/* a hundredth of a second */
#define CENTI_PER_SEC	100

int uptime_proc_show(struct seq_buf *s, void *data)
{
	uint32_t rem;
	unsigned long centi = div_u64_rem(ktime_get_ns(), NSEC_PER_CENTI, &rem);

	seq_buf_printf(s, "%lu.%02lu 0.00\n", centi / CENTI_PER_SEC, centi % CENTI_PER_SEC);
	return 0;
}

/* The name uname(2) gives, the compiler that built the kernel. */
int version_proc_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "Linux version %s (kprobes-i386) (gcc %s) #1 SMP\n",
		       PROC_UTS_RELEASE, __VERSION__);
	return 0;
}

struct loadavg_count {
	int running, total, last_pid;
};

static void loadavg_count_one(struct task_struct *t, void *arg)
{
	struct loadavg_count *c = arg;

	c->total++;
	c->running += t->state == TASK_RUNNABLE;
	if (t->pid > c->last_pid)
		c->last_pid = t->pid;
}

int loadavg_proc_show(struct seq_buf *s, void *data)
{
	struct loadavg_count c = { 0 };

	for_each_task(loadavg_count_one, &c);
	seq_buf_printf(s, "0.00 0.00 0.00 %d/%d %d\n", c.running, c.total, c.last_pid);
	return 0;
}
