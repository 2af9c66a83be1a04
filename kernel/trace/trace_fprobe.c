/*
 * trace_fprobe.c - fprobe events: Linux 6.7+'s f: lines of dynamic_events
 * (Linux 6.1 has none).
 *
 *   echo 'f:myfib fib n=$arg1' >> /sys/kernel/tracing/dynamic_events
 *   echo 'f fib%return ret=$retval' >> /sys/kernel/tracing/dynamic_events
 *   echo 1 > /sys/kernel/tracing/events/fprobes/myfib/enable
 *
 * The line is Linux's grammar, f[MAXACTIVE][:[GRP/][EVENT]]
 * FUNCTION[%return] [FETCHARGS] (lib/probe_events_parse.c,
 * fprobe_event_parse()); the group is "fprobes" and the event
 * FUNCTION__entry or FUNCTION__exit unless named.  Each event is one
 * fprobe (kernel/trace/fprobe.c) on the function's call site: its entry
 * handler or, for %return, its exit handler through rethook stores the
 * record, so neither takes an exception.  As in Linux the function must
 * be one ftrace can trace (available_filter_functions), and the fprobe
 * is registered only while the event is enabled.  There is no
 * fprobe_events file: dynamic_events is the way in, and out
 * (trace_dynevent.c); the events/ files (enable, filter, format, id,
 * trigger) are every probe event's (trace_events.c).
 */
#include "kernel.h"
#include "uaccess.h"
#include <asm/extable.h>
#include "trace.h"
#include "trace_probe.h"
#include "probe_events.h"
#include "fprobe.h"
#include "ftrace.h"
#include "kallsyms.h"
#include "sched.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "list.h"
#include "nokprobe.h"

struct trace_fprobe {
	struct trace_probe tp;
	struct fprobe fp;
	unsigned long addr;		/* the function: its call site */
};

static LIST_HEAD(trace_fprobes);
const struct trace_probe_type fprobe_type;

/* ---- the hit ------------------------------------------------------------------ */

static const char *fprobe_comm(void)
{
	return task_name(current);
}
NOKPROBE_SYMBOL(fprobe_comm);

static const struct fetch_ops fprobe_fetch_ops = {
	.read_mem = copy_from_kernel_nofault,
	.read_user = copy_from_user_nofault,	/* :ustring */
	.comm = fprobe_comm,
	.sprint_symbol = trace_sprint_sym,	/* :symstr */
};

/* The entry: regs as a kprobe at the function's first byte has them. */
static void fentry_dispatcher(struct fprobe *fp, unsigned long entry_ip, struct pt_regs *regs)
{
	struct trace_fprobe *tf = container_of(fp, struct trace_fprobe, fp);

	trace_probe_record(&tf->tp, &fprobe_fetch_ops, regs, entry_ip, 0);
}
NOKPROBE_SYMBOL(fentry_dispatcher);

/* The exit: rethook has set regs->ip to where the function returns. */
static void fexit_dispatcher(struct fprobe *fp, unsigned long entry_ip, struct pt_regs *regs)
{
	struct trace_fprobe *tf = container_of(fp, struct trace_fprobe, fp);

	trace_probe_record(&tf->tp, &fprobe_fetch_ops, regs, entry_ip, regs->ip);
}
NOKPROBE_SYMBOL(fexit_dispatcher);

/*
 * Linux's format, a kprobe event's: "fib__entry: (fib+0x0/0x3b) n=0x5",
 * "fib__exit: (run_fib+0x2d/0x9d <- fib) ret=0x5".
 */
bool trace_fprobe_print(struct seq_buf *s, const struct trace_entry *e)
{
	struct trace_probe *tp = trace_probe_find_id(&fprobe_type, e->event_id);
	char where[160];

	if (!tp)
		return false;
	if (e->ret_ip) {
		trace_sprint_sym(where, sizeof(where), e->ret_ip);
		seq_buf_printf(s, "%s: (%s <- %s)", tp->def->event, where, tp->def->symbol);
	} else {
		trace_sprint_sym(where, sizeof(where), e->ip);
		seq_buf_printf(s, "%s: (%s)", tp->def->event, where);
	}
	trace_probe_print_args(s, tp, e);
	return true;
}

/* As in Linux, the fprobe is registered only while the event is enabled. */
static int trace_fprobe_set_enabled(struct trace_probe *tp, bool on)
{
	struct trace_fprobe *tf = container_of(tp, struct trace_fprobe, tp);

	if (!on)
		return unregister_fprobe(&tf->fp);
	tf->fp.nmissed = 0;
	return register_fprobe_ips(&tf->fp, &tf->addr, 1);
}

/* ---- defining and removing events ---------------------------------------------- */

/*
 * Linux's register_trace_fprobe() fails with -ENOENT on a name that is
 * no traceable function: "Invalid probed address or symbol" under the
 * function, checked when the line is written.
 */
static struct trace_probe *create_trace_fprobe(const struct probe_event_def *parsed,
					       const char *line, size_t len, int *err)
{
	struct trace_fprobe *tf;

	if (!parsed->addr || ftrace_location(parsed->addr) != parsed->addr) {
		trace_probe_log_error(&fprobe_type, line, len, trace_probe_word_pos(line, len, 1),
				      probe_err_msg(PROBE_ERR_BAD_PROBE_ADDR));
		*err = -ENOENT;
		return NULL;
	}
	tf = kzalloc(sizeof(*tf));
	*err = -ENOMEM;
	if (!tf)
		return NULL;
	*err = trace_probe_init(&tf->tp, &fprobe_type, parsed);
	if (*err) {
		kfree(tf);
		return NULL;
	}
	tf->addr = parsed->addr;
	tf->fp.nr_maxactive = parsed->maxactive;
	if (parsed->is_return)
		tf->fp.exit_handler = fexit_dispatcher;
	else
		tf->fp.entry_handler = fentry_dispatcher;
	return &tf->tp;
}

/* Only a disabled event is destroyed: nothing is registered. */
static void destroy_trace_fprobe(struct trace_probe *tp)
{
	trace_probe_cleanup(tp);
	kfree(container_of(tp, struct trace_fprobe, tp));
}

static unsigned long fprobe_lookup_name(const char *name)
{
	return kallsyms_lookup_name(name);
}

static int fprobe_line_parse(const char *line, size_t len, struct probe_event_def *def,
			     struct probe_parse_error *err)
{
	static const struct probe_parse_ops ops = { .lookup_name = fprobe_lookup_name };

	return fprobe_event_parse(line, len, &ops, def, err);
}

const struct trace_probe_type fprobe_type = {
	.subsys = "trace_fprobe",
	.events_file = "dynamic_events",
	.events = &trace_fprobes,
	.parse = fprobe_line_parse,
	.create = create_trace_fprobe,
	.set_enabled = trace_fprobe_set_enabled,
	.destroy = destroy_trace_fprobe,
};
