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
 * As in Linux: a line that fails changes nothing, an enabled event
 * cannot be removed (EBUSY), and `echo > kprobe_events` removes every
 * event or none.
 */
#include "kernel.h"
#include "uaccess.h"
#include "trace.h"
#include "kprobes.h"
#include "probe_events.h"
#include "trace_probe.h"
#include "pseudofs.h"
#include "kallsyms.h"
#include "extable.h"
#include "sched.h"
#include "mm.h"
#include "irqflags.h"
#include "processor.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "list.h"
#include "nokprobe.h"
#include "smp.h"

struct trace_kprobe {
	struct list_head list;
	unsigned int id;		/* what records carry */
	bool enabled;
	bool recorded;			/* some record of ours may be in the buffer */
	struct kretprobe rp;		/* rp.kp is the kprobe, for 'p' events too */
	char enable_path[PSEUDOFS_PATH_MAX];
	struct probe_event_def *def;	/* trimmed to def->nr_args arguments */
};

static LIST_HEAD(trace_kprobes);
static unsigned int next_event_id = 1;

/* Records carry an event id; kprobe and uprobe events take theirs from one count. */
unsigned int trace_probe_next_id(void)
{
	return next_event_id++;
}

static struct trace_kprobe *find_event(const char *group, const char *event)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (strcmp(tk->def->group, group) == 0 && strcmp(tk->def->event, event) == 0)
			return tk;
	return NULL;
}

static struct trace_kprobe *find_event_id(unsigned int id)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (tk->id == id)
			return tk;
	return NULL;
}

static bool group_has_events(const char *group)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (strcmp(tk->def->group, group) == 0)
			return true;
	return false;
}

/* ---- the hit ------------------------------------------------------------------ */

static const char *current_comm(void)
{
	return task_name(current);
}

static const struct fetch_ops fetch_ops = {
	.read_mem = copy_from_kernel_nofault,
	.read_user = copy_from_user_nofault,	/* :ustring */
	.comm = current_comm,
};

/*
 * One record of event id, its arguments fetched through fops: inside a
 * kprobe's int3 (or trampoline) handler, or a uprobe's, on any CPU.
 */
void trace_probe_record(unsigned int id, const struct probe_event_def *def,
			const struct fetch_ops *fops, struct pt_regs *regs,
			unsigned long ip, unsigned long ret_ip)
{
	int preempt = preempt_count();	/* the probed code's, before our lock adds one */
	unsigned long flags;
	struct trace_entry *e = trace_buffer_lock_reserve(&flags);
	int n;

	e->ts = trace_clock();
	e->event_id = id;
	e->pid = task_pid(current);
	strlcpy(e->comm, task_name(current), sizeof(e->comm));
	e->flags = (regs->flags & X86_EFLAGS_IF) ? 0 : TRACE_FLAG_IRQS_OFF;
	e->preempt = preempt;
	e->ip = ip;
	e->ret_ip = ret_ip;
	n = probe_args_fetch(def, regs, fops, e->payload, sizeof(e->payload));
	e->len = n < 0 ? 0 : n;
	trace_buffer_unlock_commit(flags);
}

static void record_hit(struct trace_kprobe *tk, struct pt_regs *regs,
		       unsigned long ip, unsigned long ret_ip)
{
	tk->recorded = true;
	trace_probe_record(tk->id, tk->def, &fetch_ops, regs, ip, ret_ip);
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
NOKPROBE_SYMBOL(current_comm);
NOKPROBE_SYMBOL(trace_probe_record);
NOKPROBE_SYMBOL(record_hit);
NOKPROBE_SYMBOL(kprobe_dispatcher);
NOKPROBE_SYMBOL(kretprobe_dispatcher);

/* ---- error_log ---------------------------------------------------------------- */

#define ERROR_LOG_ENTRIES 8	/* Linux keeps the last 8 too */
#define ERROR_LOG_TEXT    1536	/* header + a console line twice (command, caret) */

static char error_log[ERROR_LOG_ENTRIES][ERROR_LOG_TEXT];
static unsigned int error_log_next;	/* entries ever logged */

/*
 * Log a refused line, Linux's way:
 *   [   12.345678] trace_kprobe: error: Invalid register name
 *     Command: p:bad fib x=%zz
 *                          ^
 * The same text becomes the shell's explanation under "write error".
 */
void trace_probe_log_error(const char *subsys, const char *line, size_t len, int pos,
			   const char *msg)
{
	struct probe_parse_error err = { .code = PROBE_ERR_NONE, .pos = pos };
	char *entry = error_log[error_log_next++ % ERROR_LOG_ENTRIES];
	char ts[24];
	int n;

	trace_sprint_ts(ts, sizeof(ts), trace_clock());
	n = snprintf(entry, ERROR_LOG_TEXT, "[%s] %s: error: %s\n", ts, subsys, msg);
	if (n < ERROR_LOG_TEXT)
		probe_err_format(entry + n, ERROR_LOG_TEXT - n, line, len, &err);
	pseudofs_error("%s", entry);
}

static void log_error(const char *line, size_t len, int pos, const char *msg)
{
	trace_probe_log_error("trace_kprobe", line, len, pos, msg);
}

static int error_log_show(struct seq_buf *s, void *data)
{
	unsigned int first = error_log_next > ERROR_LOG_ENTRIES ?
			     error_log_next - ERROR_LOG_ENTRIES : 0;

	for (unsigned int i = first; i < error_log_next; i++)
		seq_puts(s, error_log[i % ERROR_LOG_ENTRIES]);
	return 0;
}

static int error_log_write(const char *text, size_t len, bool trunc, void *data)
{
	if (!trunc)
		return -EINVAL;		/* only `echo > error_log` (clear) */
	error_log_next = 0;
	return 0;
}

/* Byte offset of word number `nr` (0-based) of line, for the caret. */
int trace_probe_word_pos(const char *line, size_t len, int nr)
{
	size_t i = 0;

	for (int w = 0; ; w++) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (w == nr || i >= len)
			return i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
	}
}

/* ---- enable ------------------------------------------------------------------ */

static int event_set_enabled(struct trace_kprobe *tk, bool on)
{
	int ret;

	if (tk->enabled == on)
		return 0;
	ret = on ? enable_kprobe(&tk->rp.kp) : disable_kprobe(&tk->rp.kp);
	if (ret == 0)
		tk->enabled = on;
	return ret;
}

/* "0" or "1" and a newline, as echo writes it. */
int trace_parse_bool(const char *text, size_t len, bool *on)
{
	if (len == 0 || len > 2 || (len == 2 && text[1] != '\n'))
		return -EINVAL;
	if (text[0] != '0' && text[0] != '1')
		return -EINVAL;
	*on = text[0] == '1';
	return 0;
}

static int enable_show(struct seq_buf *s, void *data)
{
	struct trace_kprobe *tk = data;

	seq_printf(s, "%d\n", tk->enabled);
	return 0;
}

static int enable_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	return event_set_enabled(data, on);
}

/* events/GROUP/enable: the data is the group name (owned by the file). */
static int group_enable_show(struct seq_buf *s, void *data)
{
	struct trace_kprobe *tk;
	bool some_on = false, some_off = false;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (strcmp(tk->def->group, data) == 0) {
			some_on |= tk->enabled;
			some_off |= !tk->enabled;
		}
	seq_puts(s, some_on && some_off ? "X\n" : some_on ? "1\n" : "0\n");
	return 0;
}

static int group_enable_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_kprobe *tk;
	int ret = 0;
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	list_for_each_entry(tk, &trace_kprobes, list)
		if (strcmp(tk->def->group, data) == 0 && !ret)
			ret = event_set_enabled(tk, on);
	return ret;
}

static void group_path(char *buf, const char *group)
{
	snprintf(buf, PSEUDOFS_PATH_MAX, TRACEFS_DIR "/events/%s/enable", group);
}

/* The group's enable file lives while the group has events. */
int trace_probe_group_get(const char *group, trace_show_fn show, trace_write_fn write)
{
	char path[PSEUDOFS_PATH_MAX];
	char *name;
	int ret;

	group_path(path, group);
	if (pseudofs_lookup(path))
		return 0;
	name = kmalloc(strlen(group) + 1);
	if (!name)
		return -ENOMEM;
	strlcpy(name, group, strlen(group) + 1);
	ret = pseudofs_create(path, show, write, name);
	if (ret)
		kfree(name);
	return ret;
}

void trace_probe_group_put(const char *group)
{
	char path[PSEUDOFS_PATH_MAX];
	void *name;

	group_path(path, group);
	name = pseudofs_data(path);
	if (pseudofs_remove(path) == 0)
		kfree(name);
}

/* ---- defining and removing events ---------------------------------------------- */

static int register_event(struct trace_kprobe *tk)
{
	struct probe_event_def *def = tk->def;

	tk->rp.kp.addr = (kprobe_opcode_t *)def->addr;
	tk->rp.kp.flags = KPROBE_FLAG_DISABLED;	/* enable arms it */
	if (!def->is_return) {
		tk->rp.kp.pre_handler = kprobe_dispatcher;
		return register_kprobe(&tk->rp.kp);
	}
	tk->rp.handler = kretprobe_dispatcher;
	tk->rp.maxactive = def->maxactive;
	return register_kretprobe(&tk->rp);
}

static void unregister_event(struct trace_kprobe *tk)
{
	if (tk->def->is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
}

static int add_event(const struct probe_event_def *parsed, const char *line, size_t len)
{
	size_t def_size = offsetof(struct probe_event_def, args) +
			  parsed->nr_args * sizeof(struct probe_arg);
	char msg[200];
	struct trace_kprobe *tk;
	int ret;

	/* Every value must fit in a record (strings may be cut short). */
	if (parsed->nr_args * sizeof(struct fetch_value) > TRACE_PAYLOAD_MAX) {
		snprintf(msg, sizeof(msg), "Too many arguments for one trace record (at most %u)",
			 (unsigned int)(TRACE_PAYLOAD_MAX / sizeof(struct fetch_value)));
		log_error(line, len, trace_probe_word_pos(line, len, 2), msg);
		return -E2BIG;
	}
	if (find_event(parsed->group, parsed->event)) {
		log_error(line, len, 0, "Event already exists (remove it first with -:)");
		return -EEXIST;
	}
	tk = kzalloc(sizeof(*tk));
	if (tk)
		tk->def = kmalloc(def_size);
	if (!tk || !tk->def) {
		if (tk)
			kfree(tk);
		return -ENOMEM;
	}
	memcpy(tk->def, parsed, def_size);
	snprintf(tk->enable_path, sizeof(tk->enable_path), TRACEFS_DIR "/events/%s/%s/enable",
		 parsed->group, parsed->event);

	ret = register_event(tk);
	if (ret) {
		snprintf(msg, sizeof(msg), "Could not probe %s+%lu: %s: %s",
			 parsed->symbol[0] ? parsed->symbol : "address", parsed->offset,
			 errno_name(ret), kprobe_refusal_reason(ret, parsed->addr));
		log_error(line, len, trace_probe_word_pos(line, len, 1), msg);
		goto free;
	}
	ret = trace_probe_group_get(parsed->group, group_enable_show, group_enable_write);
	if (ret == 0)
		ret = pseudofs_create(tk->enable_path, enable_show, enable_write, tk);
	if (ret) {
		unregister_event(tk);
		goto free;
	}
	tk->id = trace_probe_next_id();
	list_add_tail(&tk->list, &trace_kprobes);
	return 0;
free:
	kfree(tk->def);
	kfree(tk);
	return ret;
}

/* Records of a removed event could not be printed: clear the buffer,
 * as Linux does when an event that has written records goes away. */
static void free_event(struct trace_kprobe *tk)
{
	unregister_event(tk);
	pseudofs_remove(tk->enable_path);
	list_del(&tk->list);
	if (!group_has_events(tk->def->group))
		trace_probe_group_put(tk->def->group);
	if (tk->recorded)
		trace_buffer_reset(TRACE_ALL_CPUS);
	kfree(tk->def);
	kfree(tk);
}

static int delete_event(const struct probe_event_def *parsed, const char *line, size_t len)
{
	struct trace_kprobe *tk = find_event(parsed->group, parsed->event);

	if (!tk) {
		log_error(line, len, trace_probe_word_pos(line, len, 0), "Event not found");
		return -ENOENT;
	}
	if (tk->enabled) {
		log_error(line, len, trace_probe_word_pos(line, len, 0),
			  "Event is enabled: write 0 to its enable file first");
		return -EBUSY;
	}
	free_event(tk);
	return 0;
}

/* `echo > kprobe_events`: all or nothing. */
static int remove_all_events(void)
{
	struct trace_kprobe *tk, *n;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (tk->enabled) {
			pseudofs_error("%s/%s is enabled: disable it before clearing kprobe_events",
				       tk->def->group, tk->def->event);
			return -EBUSY;
		}
	list_for_each_entry_safe(tk, n, &trace_kprobes, list)
		free_event(tk);
	return 0;
}

/* One line of kprobe_events. */
static int run_command(const char *line, size_t len)
{
	static struct probe_event_def *parsed;	/* 22 KiB: one, on the heap */
	struct probe_parse_ops pops = { .lookup_name = kallsyms_lookup_name };
	struct probe_parse_error err;

	if (!parsed && !(parsed = kmalloc(sizeof(*parsed))))
		return -ENOMEM;
	if (probe_event_parse(line, len, &pops, parsed, &err) < 0) {
		log_error(line, len, err.pos, probe_err_msg(err.code));
		return -EINVAL;
	}
	switch (parsed->cmd) {
	case PROBE_CMD_ADD:
		return add_event(parsed, line, len);
	case PROBE_CMD_DELETE:
		return delete_event(parsed, line, len);
	default:
		return 0;	/* blank or comment */
	}
}

static const char *memchr_or_end(const char *s, char c, size_t len)
{
	while (len && *s != c) {
		s++;
		len--;
	}
	return s;
}

/* Several lines may come in one write; the first failure stops. */
int trace_probe_write_lines(const char *text, size_t len,
			    int (*run_command)(const char *line, size_t len))
{
	int ret = 0;

	while (len && ret == 0) {
		const char *nl = memchr_or_end(text, '\n', len);
		size_t n = nl - text;

		ret = run_command(text, n);
		if (n < len)
			n++;		/* the newline */
		text += n;
		len -= n;
	}
	return ret;
}

static int kprobe_events_write(const char *text, size_t len, bool trunc, void *data)
{
	int ret;

	if (trunc && (ret = remove_all_events()) != 0)
		return ret;
	return trace_probe_write_lines(text, len, run_command);
}

static int kprobe_events_show(struct seq_buf *s, void *data)
{
	struct trace_kprobe *tk;
	static char line[PROBE_LINE_MAX];

	list_for_each_entry(tk, &trace_kprobes, list) {
		probe_event_show(line, sizeof(line), tk->def);
		seq_puts(s, line);
		seq_puts(s, "\n");
	}
	return 0;
}

/* ---- kprobe_profile ------------------------------------------------------------ */

static int kprobe_profile_show(struct seq_buf *s, void *data)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &trace_kprobes, list)
		seq_printf(s, "  %-44s %15lu %15lu\n", tk->def->event, tk->rp.kp.nhit,
			   tk->rp.kp.nmissed + tk->rp.nmissed);
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

static const char trace_header[] =
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

/*
 * One record, Linux's way, [000] the CPU whose buffer it came from:
 *        sh-0       [000] d..1.     3.141592: myfib: (fib+0x0/0x3b) n=0x5
 * A return probe shows where the function returned to and its name:
 *        sh-0       [000] d..1.     3.141593: myret: (run_fib+0x2d/0x9d <- fib) ret=0x5
 */
static int print_entry(const struct trace_entry *e, void *data)
{
	static char args[1024];
	struct seq_buf *s = data;
	struct trace_kprobe *tk = find_event_id(e->event_id);
	char ts[24], where[160], sym[128];
	unsigned long size, offset;
	const char *name;
	char depth = e->preempt ? (e->preempt < 16 ? "0123456789abcdef"[e->preempt] : 'f') : '.';

	trace_sprint_ts(ts, sizeof(ts), e->ts);
	seq_printf(s, "%16s-%-7d [%03d] %c..%c. %s: ", e->comm, e->pid, e->cpu,
		   e->flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.', depth, ts);
	if (!tk) {
		if (!trace_uprobe_print(s, e))
			seq_printf(s, "Unknown event id %u\n", e->event_id);
		return 0;
	}
	if (e->ret_ip) {
		trace_sprint_sym(where, sizeof(where), e->ret_ip);
		name = kallsyms_lookup(e->ip, &size, &offset);
		if (name)
			strlcpy(sym, name, sizeof(sym));
		else
			snprintf(sym, sizeof(sym), "0x%08lx", e->ip);
		seq_printf(s, "%s: (%s <- %s)", tk->def->event, where, sym);
	} else {
		trace_sprint_sym(where, sizeof(where), e->ip);
		seq_printf(s, "%s: (%s)", tk->def->event, where);
	}
	probe_args_format(args, sizeof(args), tk->def, e->payload, e->len, trace_sprint_sym);
	seq_puts(s, args);
	seq_puts(s, "\n");
	return 0;
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
			seq_printf(s, "# CPU %d: %lu oldest entries were overwritten and lost "
				   "(each CPU's buffer holds %d)\n", cpu, lost, TRACE_BUF_ENTRIES);
	}
}

static int trace_show(struct seq_buf *s, void *data)
{
	int cpu = file_cpu(data);

	seq_puts(s, "# tracer: nop\n");
	seq_printf(s, "#\n# entries-in-buffer/entries-written: %lu/%lu   #P:%u\n",
		   entries_of(cpu), written_of(cpu), num_online_cpus());
	show_lost(s, cpu);
	seq_puts(s, trace_header);
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
	if (!s->overflow)
		return 0;
	s->len = len;		/* take the partial line back */
	s->buf[len] = '\0';
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
	seq_printf(s, "entries: %lu\n", trace_buffer_entries_cpu(cpu));
	seq_printf(s, "overrun: %lu\n", trace_buffer_lost_cpu(cpu));
	seq_printf(s, "now ts: %s\n", now);
	seq_printf(s, "read events: %lu\n", trace_buffer_read_cpu(cpu));
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
	{ "error_log",      error_log_show,      error_log_write },
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
		ret = trace_uprobe_init();
	return ret;
}
