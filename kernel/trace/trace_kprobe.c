/*
 * trace_kprobe.c - kprobe events: Linux's kprobe_events interface.
 *
 * One line written to /sys/kernel/tracing/kprobe_events defines an event
 * (lib/probe_events_parse.c does the parsing); we register a kprobe (or a
 * kretprobe for 'r') for it, DISABLED, and create its
 * events/GROUP/EVENT/enable file.  Writing 1 there arms it.  At each hit
 * kprobe_dispatcher() runs the event's fetch programs against the
 * trapped registers and stores one record in the ring buffer
 * (trace_buffer.c); reading `trace` prints the records.
 *
 *   kprobe_events   the definitions (read) / define or remove (write)
 *   events/G/E/enable, events/G/enable   per event / per group on-off
 *   trace           the records, Linux's format, every CPU's merged by time
 *   trace_pipe      the same, each record taken out as it is read
 *   per_cpu/cpuN/   trace, trace_pipe and stats of CPU N's buffer alone
 *   kprobe_profile  hits and misses per event
 *   error_log       why the last bad lines were refused, with a caret
 *
 * The commands, the enable files and the error log are shared with
 * uprobe events (trace_probe.c); here is what is a kprobe's own.
 */
#include "kernel.h"
#include "uaccess.h"
#include "trace.h"
#include "signal.h"
#include "kprobes.h"
#include "probe_events.h"
#include "trace_probe.h"
#include "trace_synth.h"
#include "trace_events.h"
#include "pseudofs.h"
#include "hw_breakpoint.h"
#include "kallsyms.h"
#include <asm/extable.h>
#include "sched.h"
#include "mm.h"
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "list.h"
#include "nokprobe.h"
#include "smp.h"
#include "module.h"
#include "linux/limits.h"
#include "ftrace.h"
#include <asm/pgfault.h>
#include <asm/sysenter.h>

struct trace_kprobe {
	struct trace_probe tp;
	struct kretprobe rp;		/* rp.kp is the kprobe, for 'p' events too */
	/* rp is registered (armed, disabled or [GONE]); false only when
	 * a module came back and its probe could not be placed again. */
	bool registered;
};

static LIST_HEAD(trace_kprobes);
static const struct trace_probe_type kprobe_type;

static struct trace_kprobe *find_event_id(unsigned int id)
{
	struct trace_probe *tp = trace_probe_find_id(&kprobe_type, id);

	return tp ? container_of(tp, struct trace_kprobe, tp) : NULL;
}

/* ---- the hit ------------------------------------------------------------------ */

/* $comm: the name of the task a hit interrupts (one function for every kind of event). */
const char *trace_current_comm(void)
{
	return task_name(current);
}

static const struct fetch_ops fetch_ops = {
	.read_mem = copy_from_kernel_nofault,
	.read_user = copy_from_user_nofault,	/* :ustring */
	.comm = trace_current_comm,
	.sprint_symbol = trace_sprint_sym,	/* :symstr */
};

static void record_hit(struct trace_kprobe *tk, struct pt_regs *regs,
		       unsigned long ip, unsigned long ret_ip)
{
	trace_probe_record(&tk->tp, &fetch_ops, regs, ip, ret_ip);
}

static int kprobe_dispatcher(struct kprobe *kp, struct pt_regs *regs)
{
	struct trace_kprobe *tk = container_of(kp, struct trace_kprobe, rp.kp);

	record_hit(tk, regs, (unsigned long)kp->addr, 0);
	return 0;	/* go on and single-step the instruction */
}

static int kretprobe_dispatcher(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct trace_kprobe *tk;

	if (!rp)
		return 0;	/* the event went away while the call was running */
	tk = container_of(rp, struct trace_kprobe, rp);
	record_hit(tk, regs, (unsigned long)rp->kp.addr, (unsigned long)ri->ret_addr);
	return 0;
}
NOKPROBE_SYMBOL(trace_current_comm);
NOKPROBE_SYMBOL(record_hit);
NOKPROBE_SYMBOL(kprobe_dispatcher);
NOKPROBE_SYMBOL(kretprobe_dispatcher);

/* ---- defining and removing events ---------------------------------------------- */

static int register_event(struct trace_kprobe *tk)
{
	struct probe_event_def *def = tk->tp.def;
	int ret;

	tk->rp.kp.addr = (kprobe_opcode_t *)def->addr;
	tk->rp.kp.flags = KPROBE_FLAG_DISABLED;	/* enable arms it */
	if (!def->is_return) {
		tk->rp.kp.pre_handler = kprobe_dispatcher;
		return register_kprobe(&tk->rp.kp);
	}
	tk->rp.handler = kretprobe_dispatcher;
	tk->rp.maxactive = def->maxactive;
	ret = register_kretprobe(&tk->rp);
	/* As Linux's trace_kprobe_show(): "r10:" for the default register_kretprobe() chose. */
	if (ret == 0)
		def->maxactive = tk->rp.maxactive;
	return ret;
}

/* How long the word at line[at] is: the probe point of a definition. */
static int probe_point_len(const char *line, size_t len, size_t at)
{
	size_t end = at;

	while (end < len && line[end] != ' ' && line[end] != '\t' && line[end] != '\n')
		end++;
	return end - at;
}

static struct trace_probe *create_trace_kprobe(const struct probe_event_def *parsed,
					const char *line, size_t len, int *err)
{
	struct trace_kprobe *tk = kzalloc(sizeof(*tk));
	size_t at = trace_probe_word_pos(line, len, 1);
	char msg[200];

	*err = -ENOMEM;
	if (!tk)
		return NULL;
	*err = trace_probe_init(&tk->tp, &kprobe_type, parsed);
	if (*err)
		goto free;
	*err = register_event(tk);
	tk->registered = *err == 0;
	if (*err == 0)
		return &tk->tp;
	/* The probe point as written ("fib+0x3b", "0x100"), as Linux's
	 * error_log shows the command: not re-spelled in another format. */
	snprintf(msg, sizeof(msg), "Could not probe %.*s: %s: %s",
		 probe_point_len(line, len, at), line + at,
		 errno_name(*err), kprobe_refusal_reason(*err, parsed->addr));
	trace_probe_log_error(&kprobe_type, line, len, at, msg);
	trace_probe_cleanup(&tk->tp);
free:
	kfree(tk);
	return NULL;
}

/* Unregister the event's probe: armed, disabled or [GONE] alike. */
static void destroy_probe(struct trace_kprobe *tk)
{
	if (!tk->registered)
		return;
	tk->registered = false;
	if (tk->tp.def->is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
}

static void destroy_trace_kprobe(struct trace_probe *tp)
{
	struct trace_kprobe *tk = container_of(tp, struct trace_kprobe, tp);

	destroy_probe(tk);
	trace_probe_cleanup(tp);
	kfree(tk);
}

/*
 * A probe whose module went away is registered but [GONE]: it has no
 * int3 to put in or take out, so enabling or disabling its event only
 * records the wish (Linux's __enable_trace_kprobe() skips a gone probe
 * too).  The wish takes effect if the module comes back.
 */
static int trace_kprobe_set_enabled(struct trace_probe *tp, bool on)
{
	struct trace_kprobe *tk = container_of(tp, struct trace_kprobe, tp);

	if (!tk->registered || kprobe_gone(&tk->rp.kp))
		return 0;
	return on ? enable_kprobe(&tk->rp.kp) : disable_kprobe(&tk->rp.kp);
}

/* ---- modules coming back --------------------------------------------------------- */

/*
 * When a module unloads, kernel/module.c kills the probes of events on
 * its code (kill_kprobe(): the byte goes back, the probe stays [GONE]),
 * and the events stay defined, as in Linux.  When a module comes, each
 * gone event whose symbol now resolves inside it is registered again at
 * the new address - the module may load elsewhere - and armed if its
 * event is enabled (Linux's trace_kprobe_module_callback()).  An event
 * given by address (no symbol) cannot be placed again and stays gone.
 */
static bool rearm_address(const struct trace_kprobe *tk, const struct module *mod,
			  unsigned long *addr)
{
	const struct probe_event_def *def = tk->tp.def;
	unsigned long sym;

	if ((tk->registered && !kprobe_gone(&tk->rp.kp)) || !def->symbol[0])
		return false;
	sym = kallsyms_lookup_name(def->symbol);
	if (!sym || def->offset > ULONG_MAX - sym)
		return false;
	*addr = sym + def->offset;
	return *addr >= (unsigned long)mod->base &&
	       *addr - (unsigned long)mod->base < mod->text_size;
}

static void rearm_event(struct trace_kprobe *tk, unsigned long addr)
{
	struct probe_event_def *def = tk->tp.def;
	int ret;

	destroy_probe(tk);		/* forget the [GONE] probe */
	memset(&tk->rp, 0, sizeof(tk->rp));
	def->addr = addr;
	ret = register_event(tk);
	tk->registered = ret == 0;
	if (ret == 0 && (tk->tp.leader ? tk->tp.leader : &tk->tp)->enabled)
		ret = enable_kprobe(&tk->rp.kp);
	if (ret)
		printk("trace_kprobe: %s/%s stays gone: %s at %s+%lu (%s)\n",
		       def->group, def->event, errno_name(ret), def->symbol,
		       def->offset, kprobe_refusal_reason(ret, addr));
}

static void rearm_if_in(struct trace_kprobe *tk, struct module *mod)
{
	unsigned long addr;

	if (rearm_address(tk, mod, &addr))
		rearm_event(tk, addr);
}

void trace_kprobe_module_coming(struct module *mod)
{
	struct trace_kprobe *tk;
	struct trace_probe *sib;

	list_for_each_entry(tk, &trace_kprobes, tp.list) {
		rearm_if_in(tk, mod);
		trace_probe_for_each_sibling(sib, &tk->tp)
			rearm_if_in(container_of(sib, struct trace_kprobe, tp), mod);
	}
}

/* The size kallsyms knows for the symbol at addr (0: none there). */
static unsigned long symbol_size(unsigned long addr)
{
	unsigned long size, offset;

	if (!kallsyms_lookup(addr, &size, &offset) || offset)
		return 0;
	return size;
}

static int kprobe_event_parse(const char *line, size_t len, struct probe_event_def *def,
		      struct probe_parse_error *err)
{
	struct probe_parse_ops pops = { .lookup_name = kallsyms_lookup_name,
					.symbol_size = symbol_size };

	return probe_event_parse(line, len, &pops, def, err);
}

static const struct trace_probe_type kprobe_type = {
	.subsys = "trace_kprobe",
	.events_file = "kprobe_events",
	.events = &trace_kprobes,
	.parse = kprobe_event_parse,
	.create = create_trace_kprobe,
	.set_enabled = trace_kprobe_set_enabled,
	.destroy = destroy_trace_kprobe,
};

/* kprobe_events: the commands are trace_probe.c's. */
static int kprobe_events_show(struct seq_buf *s, void *data)
{
	return trace_probe_events_show(s, (void *)&kprobe_type);
}

static int kprobe_events_write(const char *text, size_t len, bool trunc, void *data)
{
	return trace_probe_events_write(text, len, trunc, (void *)&kprobe_type);
}

/* ---- kprobe_profile ------------------------------------------------------------ */

static void profile_line(struct seq_buf *s, const struct trace_kprobe *tk)
{
	seq_buf_printf(s, "  %-44s %15lu %15lu\n", tk->tp.def->event, tk->rp.kp.nhit,
		   tk->rp.kp.nmissed + tk->rp.nmissed);
}

/* One line per probe, as Linux's: a multi-probe event has several. */
static int kprobe_profile_show(struct seq_buf *s, void *data)
{
	struct trace_kprobe *tk;
	struct trace_probe *sib;

	list_for_each_entry(tk, &trace_kprobes, tp.list) {
		profile_line(s, tk);
		trace_probe_for_each_sibling(sib, &tk->tp)
			profile_line(s, container_of(sib, struct trace_kprobe, tp));
	}
	return 0;
}

/* ---- trace --------------------------------------------------------------------- */

/* "fib+0x0/0x3b", Linux's %pS: always 0x, even for a zero offset. */
int trace_sprint_sym(char *buf, size_t len, unsigned long addr)
{
	unsigned long size, offset;
	const char *name = kallsyms_lookup(addr, &size, &offset);

	if (!name)
		return snprintf(buf, len, "0x%08lx", addr);
	return snprintf(buf, len, "%s+0x%lx/0x%lx", name, offset, size);
}

/*
 * Linux's print_func_help_header_irq(): with record-tgid the columns move
 * right by the TGID column's 10 characters.
 */
static void print_header_irq(struct seq_buf *s, bool tgid)
{
	static const char *const marks[] = {
		"  _-----=> irqs-off/BH-disabled", " / _----=> need-resched",
		"| / _---=> hardirq/softirq", "|| / _--=> preempt-depth",
		"||| / _-=> migrate-disable", "|||| /     delay",
	};
	int prec = tgid ? 12 : 2;

	seq_buf_puts(s, "#\n");
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		seq_buf_printf(s, "#                            %.*s%s\n", prec, "            ",
			       marks[i]);
	seq_buf_printf(s, "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION\n",
		       prec, "     TGID   ");
	seq_buf_printf(s, "#              | |    %.*s   |   |||||     |         |\n",
		       prec, "       |    ");
}

/* The tgid column of a record's line (Linux's trace_print_context()). */
static void print_tgid(struct seq_buf *s, int pid)
{
	int tgid = trace_find_tgid(pid);

	if (tgid)
		seq_buf_printf(s, "(%7d) ", tgid);
	else
		seq_buf_puts(s, "(-------) ");
}

/*
 * One record, Linux's way, [000] the CPU whose buffer it came from:
 *        sh-0       [000] d..1.     3.141592: myfib: (fib+0x0/0x3b) n=0x5
 * A return probe shows where the function returned to and its name:
 *        sh-0       [000] d..1.     3.141593: myret: (run_fib+0x2d/0x9d <- fib) ret=0x5
 */
static int print_entry(const struct trace_entry *e, void *data)
{
	struct seq_buf *s = data;
	struct trace_kprobe *tk = find_event_id(e->event_id);
	char ts[24], where[160], sym[128];
	unsigned long size, offset;
	const char *name;
	char depth = e->preempt ? (e->preempt < 16 ? "0123456789abcdef"[e->preempt] : 'f') : '.';

	trace_sprint_entry_ts(ts, sizeof(ts), e);
	if (trace_option_on(TRACE_ITER_CONTEXT_INFO)) {		/* Linux's trace_print_context() */
		seq_buf_printf(s, "%16s-%-7d ", e->comm[0] ? e->comm : "<...>", e->pid);
		if (trace_option_on(TRACE_ITER_RECORD_TGID))
			print_tgid(s, e->pid);
		seq_buf_printf(s, "[%03d] ", e->cpu);
		if (trace_option_on(TRACE_ITER_IRQ_INFO))
			seq_buf_printf(s, "%c..%c.", e->flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.', depth);
		seq_buf_printf(s, " %s: ", ts);
	}
	if (!tk) {
		if (!trace_uprobe_print(s, e) && !trace_fprobe_print(s, e) &&
		    !trace_print_special(s, e) && !trace_function_print(s, e) &&
		    !trace_event_print(s, e) && !trace_synth_print(s, e))
			seq_buf_printf(s, "Unknown event id %u\n", e->event_id);
		return 0;
	}
	if (e->ret_ip) {
		trace_sprint_sym(where, sizeof(where), e->ret_ip);
		name = kallsyms_lookup(e->ip, &size, &offset);
		if (name)
			strlcpy(sym, name, sizeof(sym));
		else
			snprintf(sym, sizeof(sym), "0x%08lx", e->ip);
		seq_buf_printf(s, "%s: (%s <- %s)", tk->tp.def->event, where, sym);
	} else {
		trace_sprint_sym(where, sizeof(where), e->ip);
		seq_buf_printf(s, "%s: (%s)", tk->tp.def->event, where);
	}
	trace_probe_print_args(s, &tk->tp, e);
	return 0;
}

/* The snapshot file (trace.c) prints the same lines under the same header. */
int print_trace_line(const struct trace_entry *e, struct seq_buf *s)
{
	return print_entry(e, s);
}

/* Without irq-info Linux draws print_func_help_header(); without context-info nothing. */
void print_trace_header(struct seq_buf *s)
{
	bool tgid = trace_option_on(TRACE_ITER_RECORD_TGID);

	if (!trace_option_on(TRACE_ITER_CONTEXT_INFO))
		return;
	if (trace_option_on(TRACE_ITER_IRQ_INFO)) {
		print_header_irq(s, tgid);
		return;
	}
	seq_buf_printf(s, "#\n#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION\n",
		       tgid ? "   TGID   " : "");
	seq_buf_printf(s, "#              | |      %s   |         |         |\n",
		       tgid ? "     |    " : "");
}

/* A per_cpu/cpuN file's data is its CPU number; the top-level files have none. */
static int file_cpu(void *data)
{
	return data ? *(int *)data : TRACE_ALL_CPUS;
}

static unsigned long entries_of(int cpu)
{
	return cpu == TRACE_ALL_CPUS ? trace_buffer_entries() : trace_buffer_entries_cpu(cpu);
}

static unsigned long written_of(int cpu)
{
	return cpu == TRACE_ALL_CPUS ? trace_buffer_written() : trace_buffer_written_cpu(cpu);
}

/* Overwritten records, per CPU: each CPU's buffer fills on its own. */
static void show_lost(struct seq_buf *s, int only)
{
	int cpu;

	for_each_online_cpu(cpu) {
		unsigned long lost = trace_buffer_lost_cpu(cpu);

		if ((only == TRACE_ALL_CPUS || only == cpu) && lost)
			seq_buf_printf(s, "# CPU %d: %lu oldest entries were overwritten and lost "
				   "(each CPU's buffer holds %lu)\n", cpu, lost, trace_buffer_size(cpu));
	}
}

static int trace_show(struct seq_buf *s, void *data)
{
	int cpu = file_cpu(data);

	if (trace_graph_show(s, cpu))	/* function_graph draws its own way */
		return 0;
	seq_buf_printf(s, "# tracer: %s\n#\n", trace_current_tracer_name());
	if (trace_option_on(TRACE_ITER_CONTEXT_INFO)) {	/* else Linux prints no more head */
		seq_buf_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%u\n",
			   entries_of(cpu), written_of(cpu), num_online_cpus());
		show_lost(s, cpu);
		print_trace_header(s);
	}
	trace_buffer_for_each(cpu, print_entry, s);
	return 0;
}

/* `echo > trace` clears every CPU's buffer; per_cpu/cpuN/trace that CPU's. */
static int trace_write(const char *text, size_t len, bool trunc, void *data)
{
	if (trunc)
		trace_buffer_reset(file_cpu(data));	/* whatever was echoed */
	return 0;
}

/*
 * trace_pipe: no header, and each record printed is gone from the
 * buffer.  A record that does not fit the reader's buffer stays for the
 * next read.  (Linux's blocks while the buffer is empty; ours returns.)
 */
static int pipe_entry(const struct trace_entry *e, void *data)
{
	struct seq_buf *s = data;
	size_t len = s->len;

	print_entry(e, s);
	if (!seq_buf_has_overflowed(s))
		return 0;
	s->len = len;		/* take the partial line back */
	s->buffer[len] = '\0';
	return 1;
}

static int trace_pipe_show(struct seq_buf *s, void *data)
{
	trace_buffer_consume_each(file_cpu(data), pipe_entry, s);
	return 0;
}

/* per_cpu/cpuN/stats: Linux's counts for one CPU's buffer. */
static int stats_show(struct seq_buf *s, void *data)
{
	int cpu = file_cpu(data);
	char now[24];

	trace_sprint_ts(now, sizeof(now), trace_clock());
	seq_buf_printf(s, "entries: %lu\n", trace_buffer_entries_cpu(cpu));
	seq_buf_printf(s, "overrun: %lu\n", trace_buffer_lost_cpu(cpu));
	seq_buf_printf(s, "now ts: %s\n", now);
	seq_buf_printf(s, "read events: %lu\n", trace_buffer_read_cpu(cpu));
	return 0;
}

static const struct pseudo_file_spec per_cpu_files[] = {
	{ "trace",      trace_show,      trace_write },
	{ "trace_pipe", trace_pipe_show, NULL },
	{ "stats",      stats_show,      NULL },
};

/* per_cpu/cpuN/ for each CPU that runs: Linux's layout. */
static int per_cpu_files_init(void)
{
	static int cpu_ids[NR_CPUS];
	char path[PSEUDOFS_PATH_MAX];
	int cpu, ret = 0;

	for_each_online_cpu(cpu) {
		cpu_ids[cpu] = cpu;
		for (size_t i = 0; i < ARRAY_SIZE(per_cpu_files) && !ret; i++) {
			snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/%s",
				 cpu, per_cpu_files[i].name);
			ret = pseudofs_create(path, per_cpu_files[i].show,
					      per_cpu_files[i].write, &cpu_ids[cpu]);
		}
	}
	return ret;
}

/* ---- the files ------------------------------------------------------------------ */

int kprobes_debugfs_init(void);	/* kernel/trace/kprobes_debugfs.c */

static const struct pseudo_file_spec tracefs_files[] = {
	{ "kprobe_events",  kprobe_events_show,  kprobe_events_write },
	{ "trace",          trace_show,          trace_write },
	{ "trace_pipe",     trace_pipe_show,     NULL },
	{ "kprobe_profile", kprobe_profile_show, NULL },
	{ "error_log",      trace_error_log_show, trace_error_log_write },
};

int tracefs_init(void)
{
	static bool done;
	int ret;

	if (done)
		return 0;
	done = true;
	trace_clock_init();
	ret = pseudofs_create_files(TRACEFS_DIR, tracefs_files,
				    ARRAY_SIZE(tracefs_files));
	if (!ret)
		ret = per_cpu_files_init();
	if (!ret)
		ret = kprobes_debugfs_init();
	if (!ret)
		ret = hw_breakpoint_debugfs_init();	/* arch/i386/hw_breakpoint.c */
	if (!ret)
		ret = trace_uprobe_init();
	if (!ret)
		ret = trace_files_init();	/* trace.c: tracing_on, events/, ... */
	if (!ret)
		ret = ftrace_tracefs_init();	/* current_tracer, set_ftrace_filter... */
	if (!ret)
		ret = page_fault_debugfs_init();	/* arch/i386/fault.c */
	if (!ret)
		ret = signal_narrate_init();	/* arch/i386/signal_narrate.c */
	if (!ret)
		ret = sysenter_debugfs_init();	/* arch/i386/sysenter.c */
	return ret;
}
