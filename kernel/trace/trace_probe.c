/*
 * trace_probe.c - what kprobe events and uprobe events share (Linux's
 * kernel/trace/trace_probe.c): the commands of kprobe_events and
 * uprobe_events, the error log, and the record a hit stores.  An
 * event's directory under events/ is trace_events.c's.  trace_kprobe.c and trace_uprobe.c add
 * only what differs: how a probe is registered and armed, and how a
 * hit reaches trace_probe_record().
 *
 * As in Linux: a line that fails changes nothing, an enabled event
 * cannot be removed (EBUSY), and `echo > *_events` removes every event
 * of that file or none.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_array.h"
#include "trace_events.h"
#include "probe_events.h"
#include "pseudofs.h"
#include "sched.h"
#include "mm.h"
#include <asm/processor.h>
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "list.h"
#include "nokprobe.h"

static unsigned int next_event_id = 1;	/* one count for both types */

unsigned int trace_probe_alloc_id(void)
{
	return next_event_id++;
}

static struct trace_probe *find_event(const struct trace_probe_type *type,
				      const char *group, const char *event)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, type->events, list)
		if (strcmp(tp->def->group, group) == 0 && strcmp(tp->def->event, event) == 0)
			return tp;
	return NULL;
}

struct trace_probe *trace_probe_find_id(const struct trace_probe_type *type,
					unsigned int id)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, type->events, list)
		if (tp->id == id)
			return tp;
	return NULL;
}

int trace_probe_init(struct trace_probe *tp, const struct trace_probe_type *type,
		     const struct probe_event_def *parsed)
{
	size_t def_size = offsetof(struct probe_event_def, args) +
			  parsed->nr_args * sizeof(struct probe_arg);
	int n;

	tp->type = type;
	INIT_LIST_HEAD(&tp->siblings);
	tp->leader = NULL;
	n = snprintf(tp->enable_path, sizeof(tp->enable_path), TRACEFS_DIR "/events/%s/%s/enable",
		     parsed->group, parsed->event);
	if (n < 0 || (size_t)n >= sizeof(tp->enable_path))
		return -ENAMETOOLONG;
	tp->def = kmalloc(def_size);
	if (!tp->def)
		return -ENOMEM;
	memcpy(tp->def, parsed, def_size);
	return 0;
}

void trace_probe_cleanup(struct trace_probe *tp)
{
	kfree(tp->def);
}

/* ---- the hit ------------------------------------------------------------------ */

/* A hit's record: who, when, where, and probe tp's arguments. */
void trace_probe_fill(struct trace_entry *e, struct trace_probe *tp, unsigned int id,
		      const struct fetch_ops *fops, struct pt_regs *regs,
		      unsigned long ip, unsigned long ret_ip, int preempt)
{
	int n;

	e->ts = trace_clock();
	e->event_id = id;
	e->pid = task_pid(current);
	trace_record_comm(e->comm, sizeof(e->comm), task_name(current));
	e->flags = (regs->flags & X86_EFLAGS_IF) ? 0 : TRACE_FLAG_IRQS_OFF;
	e->preempt = preempt;
	e->ip = ip;
	e->ret_ip = ret_ip;
	n = probe_args_fetch(tp->def, regs, fops, e->payload, sizeof(e->payload));
	e->len = n < 0 ? 0 : n;
}

/*
 * Inside a kprobe's int3 (or trampoline) handler, or a uprobe's, on any
 * CPU: a record in the top level's buffer if the event is enabled there
 * or a trigger holds it in soft mode (soft-disabled, only the triggers run),
 * and one in each instance's where it is enabled (trace_instances.c).
 */
static void probe_record_top(struct trace_probe *tp, const struct fetch_ops *fops,
			     struct pt_regs *regs, unsigned long ip, unsigned long ret_ip)
{
	int preempt = preempt_count();	/* the probed code's, before our lock adds one */
	struct trace_probe *ev = tp->leader ? tp->leader : tp;	/* the event */
	unsigned long flags;
	struct trace_entry *e;

	if (!trace_event_top_on(ev))	/* soft mode: the triggers still run */
		return;
	e = trace_event_buffer_reserve(ev, &flags);
	trace_probe_fill(e, tp, ev->id, fops, regs, ip, ret_ip, preempt);
	ev->recorded = true;
	trace_event_buffer_commit(ev, e, regs, flags);	/* the filter, the triggers */
	if (trace_array_option_on(&global_trace, TRACE_ITER_STACKTRACE))	/* Linux's ftrace_trace_stack() */
		trace_stack_record(regs);
}

void trace_probe_record(struct trace_probe *tp, const struct fetch_ops *fops,
			struct pt_regs *regs, unsigned long ip, unsigned long ret_ip)
{
	struct trace_probe *ev = tp->leader ? tp->leader : tp;

	if (trace_event_instances_on(ev)) {	/* enabled, or in soft mode, in an instance */
		ev->recorded = true;
		trace_instances_record(tp, fops, regs, ip, ret_ip);
	}
	probe_record_top(tp, fops, regs, ip, ret_ip);
}

/*
 * A hit for trace array id alone: an event probe's, attached to its
 * event's file in that trace array (trace_eprobe.c), as Linux's eprobe
 * trigger writes into the buffer of its own file's trace array.
 */
void trace_probe_record_in(struct trace_probe *tp, const struct fetch_ops *fops,
			   struct pt_regs *regs, int id)
{
	if (id == TRACE_ARRAY_TOP) {
		probe_record_top(tp, fops, regs, 0, 0);
		return;
	}
	(tp->leader ? tp->leader : tp)->recorded = true;
	trace_instance_record(tp, fops, regs, 0, 0, id);
}
NOKPROBE_SYMBOL(trace_probe_fill);
NOKPROBE_SYMBOL(probe_record_top);
NOKPROBE_SYMBOL(trace_probe_record);
NOKPROBE_SYMBOL(trace_probe_record_in);

/*
 * The arguments of one record as `trace` prints them.  Most fit the
 * static buffer; a record full of :symbol or escaped :string values can
 * print several KiB (the payload bounds the values, not their text), and
 * such a line is printed whole from a buffer of its own size rather than
 * cut short.  Reading `trace` runs in a thread, so it may allocate.
 */
void trace_probe_print_args(struct seq_buf *s, const struct trace_probe *tp,
			    const struct trace_entry *e)
{
	static char args[1024];
	char *big;
	int n;

	n = probe_args_format(args, sizeof(args), tp->def, e->payload, e->len,
			      trace_sprint_sym);
	if (n >= (int)sizeof(args) && (big = kmalloc(n + 1)) != NULL) {
		probe_args_format(big, n + 1, tp->def, e->payload, e->len, trace_sprint_sym);
		seq_buf_puts(s, big);
		kfree(big);
	} else {
		seq_buf_puts(s, args);
	}
	seq_buf_puts(s, "\n");
}

/* ---- error_log ---------------------------------------------------------------- */

/*
 * Log a refused line, Linux's way, in tr's error_log:
 *   [   12.345678] trace_kprobe: error: Invalid register name
 *     Command: p:bad fib x=%zz
 *                          ^
 * The same text becomes the shell's explanation under "write error".
 */
void tracing_log_err(struct trace_array *tr, const struct trace_probe_type *type,
		     const char *line, size_t len, int pos, const char *msg)
{
	struct probe_parse_error err = { .code = PROBE_ERR_NONE, .pos = pos };
	struct trace_error_log *log = &tr->err_log;
	char *entry = log->entry[log->next++ % TRACE_ERROR_LOG_ENTRIES];
	char ts[24];
	int n;

	trace_sprint_ts(ts, sizeof(ts), trace_clock_read(TRACE_CLOCK_LOCAL));	/* Linux: local_clock() */
	n = snprintf(entry, TRACE_ERROR_LOG_TEXT, "[%s] %s: error: %s\n", ts, type->subsys, msg);
	if (n < TRACE_ERROR_LOG_TEXT)
		probe_err_format(entry + n, TRACE_ERROR_LOG_TEXT - n, line, len, &err);
	pseudofs_error("%s", entry);
}

void trace_probe_log_error(const struct trace_probe_type *type, const char *line,
			   size_t len, int pos, const char *msg)
{
	tracing_log_err(&global_trace, type, line, len, pos, msg);
}

/* error_log's data is its trace array (NULL: the top level's). */
int trace_error_log_show(struct seq_buf *s, void *data)
{
	struct trace_error_log *log = &((struct trace_array *)(data ? data : &global_trace))->err_log;
	unsigned int first = log->next > TRACE_ERROR_LOG_ENTRIES ?
			     log->next - TRACE_ERROR_LOG_ENTRIES : 0;

	for (unsigned int i = first; i < log->next; i++)
		seq_buf_puts(s, log->entry[i % TRACE_ERROR_LOG_ENTRIES]);
	return 0;
}

int trace_error_log_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_array *tr = data ? data : &global_trace;

	if (!trunc)
		return -EINVAL;		/* only `echo > error_log` (clear) */
	tr->err_log.next = 0;
	return 0;
}

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

/*
 * One probe armed or disarmed.  An event probe has none of its own
 * (NULL): its hits are the attached event's, in the trace arrays it is
 * attached there (its type's attach_in).
 */
static int probe_arm(struct trace_probe *tp, bool on)
{
	return tp->type->set_enabled ? tp->type->set_enabled(tp, on) : 0;
}

int trace_probe_set_enabled(struct trace_probe *tp, bool on)
{
	struct trace_probe *sib, *undo;
	int ret = probe_arm(tp, on);

	if (ret)
		return ret;
	trace_probe_for_each_sibling(sib, tp) {
		ret = probe_arm(sib, on);
		if (ret)
			goto undo;
	}
	return 0;
undo:
	probe_arm(tp, !on);
	trace_probe_for_each_sibling(undo, tp) {
		if (undo == sib)
			break;
		probe_arm(undo, !on);
	}
	return ret;
}

/* ---- defining and removing events ---------------------------------------------- */

/* Linux's trace_probe_compare_arg_type(): 0, or 1 + the first argument that differs. */
static int compare_arg_types(const struct probe_event_def *a, const struct probe_event_def *b)
{
	if (a->nr_args != b->nr_args)
		return (a->nr_args < b->nr_args ? a->nr_args : b->nr_args) + 1;
	for (int i = 0; i < a->nr_args; i++)
		if (a->args[i].type != b->args[i].type || a->args[i].count != b->args[i].count ||
		    strcmp(a->args[i].name, b->args[i].name))
			return i + 1;
	return 0;
}

/* The same probe point and the same fetch programs, written the same way. */
static bool same_probe(const struct probe_event_def *a, const struct probe_event_def *b)
{
	if (strcmp(a->symbol, b->symbol) || a->offset != b->offset ||
	    (!a->symbol[0] && a->addr != b->addr))
		return false;
	for (int i = 0; i < a->nr_args; i++)
		if (strcmp(a->args[i].comm, b->args[i].comm))
			return false;
	return true;
}

/* Log error code at word `word` of the line, Linux's way: Linux's message. */
static void log_probe_error(const struct trace_probe_type *type, const char *line, size_t len,
			    int word, enum probe_err code)
{
	trace_probe_log_error(type, line, len, trace_probe_word_pos(line, len, word),
			      probe_err_msg(code));
}

/*
 * A line naming an existing event adds a probe to it (Linux's
 * append_trace_kprobe()): same kind of probe, same arguments (names,
 * types, array sizes) so that every record of the event has one layout,
 * and not a copy of a probe the event has.  The new probe is armed at
 * once if the event is enabled.
 */
static int append_event(struct trace_probe *ev, const struct probe_event_def *parsed,
			const char *line, size_t len)
{
	const struct trace_probe_type *type = ev->type;
	struct trace_probe *tp;
	int ret, diff;

	if (ev->def->is_return != parsed->is_return) {
		log_probe_error(type, line, len, 0, PROBE_ERR_DIFF_PROBE_TYPE);
		return -EEXIST;
	}
	diff = compare_arg_types(parsed, ev->def);
	if (diff) {
		log_probe_error(type, line, len, diff + 1, PROBE_ERR_DIFF_ARG_TYPE);
		return -EEXIST;
	}
	ret = same_probe(ev->def, parsed);
	trace_probe_for_each_sibling(tp, ev)
		ret |= same_probe(tp->def, parsed);
	if (ret) {
		log_probe_error(type, line, len, 0, PROBE_ERR_SAME_PROBE);
		return -EEXIST;
	}
	tp = type->create(parsed, line, len, &ret);
	if (!tp)
		return ret;
	ret = ev->enabled ? probe_arm(tp, true) : 0;
	if (ret) {
		type->destroy(tp);
		return ret;
	}
	tp->leader = ev;
	tp->id = ev->id;
	list_add_tail(&tp->siblings, &ev->siblings);
	return 0;
}

static int add_event(const struct trace_probe_type *type,
		     const struct probe_event_def *parsed, const char *line, size_t len)
{
	char msg[200];
	struct trace_probe *tp;
	int ret;

	/* Every value must fit in a record (strings may be cut short). */
	if (probe_args_slots(parsed) * sizeof(struct fetch_value) > TRACE_PAYLOAD_MAX) {
		snprintf(msg, sizeof(msg), "Too many arguments for one trace record (at most %u)",
			 (unsigned int)(TRACE_PAYLOAD_MAX / sizeof(struct fetch_value)));
		trace_probe_log_error(type, line, len, trace_probe_word_pos(line, len, 2), msg);
		return -E2BIG;
	}
	tp = find_event(type, parsed->group, parsed->event);
	if (tp && type->single_probe) {
		log_probe_error(type, line, len, 0, PROBE_ERR_EVENT_EXIST);
		return -EEXIST;
	}
	if (tp)
		return append_event(tp, parsed, line, len);
	tp = type->create(parsed, line, len, &ret);
	if (!tp)
		return ret;
	ret = trace_event_dir_add(tp);
	if (ret) {
		if (ret == -EEXIST)
			trace_probe_log_error(type, line, len, 0,
					      "Group is used by the other kind of probe event");
		type->destroy(tp);
		return ret;
	}
	tp->id = trace_probe_alloc_id();
	list_add_tail(&tp->list, type->events);
	return 0;
}

/* Records of a removed event could not be printed: clear the buffer,
 * as Linux does when an event that has written records goes away. */
static void free_event(struct trace_probe *tp)
{
	bool recorded = tp->recorded;
	struct trace_probe *sib, *n;

	list_for_each_entry_safe(sib, n, &tp->siblings, siblings) {
		list_del(&sib->siblings);
		tp->type->destroy(sib);
	}
	list_del(&tp->list);
	trace_event_dir_remove(tp);
	tp->type->destroy(tp);
	if (recorded) {
		trace_buffer_reset(TRACE_ALL_CPUS);
		trace_instances_reset();
	}
}

/* Does the delete line name tp, or one of the probes appended to it? */
static bool names_a_probe(struct trace_probe *tp, const char *line, size_t len)
{
	struct trace_probe *sib;

	if (probe_event_match(tp->def, line, len))
		return true;
	trace_probe_for_each_sibling(sib, tp)
		if (probe_event_match(sib->def, line, len))
			return true;
	return false;
}

/* "-:GRP/EVENT [PROBE [ARGS]]" names tp ("-:GRP/" every event of GRP). */
static bool delete_names(struct trace_probe *tp, const struct probe_event_def *parsed,
			 const char *line, size_t len)
{
	return strcmp(tp->def->group, parsed->group) == 0 &&
	       (!parsed->event[0] || strcmp(tp->def->event, parsed->event) == 0) &&
	       names_a_probe(tp, line, len);
}

/* Every event of a group: all or (one enabled: EBUSY) none, as `echo > *_events`. */
static int delete_group(const struct trace_probe_type *type,
			const struct probe_event_def *parsed, const char *line, size_t len)
{
	struct trace_probe *tp, *n;
	int found = 0;

	list_for_each_entry(tp, type->events, list) {
		if (!delete_names(tp, parsed, line, len))
			continue;
		if (tp->enabled || trace_event_busy(tp->event_file))
			return -EBUSY;
		found++;
	}
	list_for_each_entry_safe(tp, n, type->events, list)
		if (delete_names(tp, parsed, line, len))
			free_event(tp);
	return found ? 0 : -ENOENT;
}

/*
 * The event's first probe goes while others stay: the next one becomes
 * the event, with its id, its place in the list and its events/ directory.
 */
static int promote_sibling(struct trace_probe *ev)
{
	struct trace_probe *next = list_first_entry(&ev->siblings, struct trace_probe, siblings);
	struct trace_probe *sib, *n;

	list_del(&next->siblings);
	INIT_LIST_HEAD(&next->siblings);
	list_for_each_entry_safe(sib, n, &ev->siblings, siblings) {
		list_del(&sib->siblings);
		list_add_tail(&sib->siblings, &next->siblings);
		sib->leader = next;
	}
	next->leader = NULL;
	next->id = ev->id;
	next->recorded = ev->recorded;
	list_add(&next->list, &ev->list);
	list_del(&ev->list);
	/* The event's directory, with its filter and triggers, now speaks of next. */
	next->event_file = ev->event_file;
	trace_event_file_set_tp(next->event_file, next);
	ev->event_file = NULL;
	ev->type->destroy(ev);
	return 0;
}

/* Remove each probe of (disabled) event ev the line names; the event too if none is left. */
static int delete_probes(struct trace_probe *ev, const char *line, size_t len)
{
	struct trace_probe *sib, *n;

	list_for_each_entry_safe(sib, n, &ev->siblings, siblings)
		if (probe_event_match(sib->def, line, len)) {
			list_del(&sib->siblings);
			sib->type->destroy(sib);
		}
	if (!probe_event_match(ev->def, line, len))
		return 0;
	if (list_empty(&ev->siblings)) {
		free_event(ev);
		return 0;
	}
	return promote_sibling(ev);
}

/*
 * "-:EVENT" removes the event; "-:EVENT PROBE [ARGS]" only the probes of
 * the event that are that one (Linux's dyn_event_release() with the
 * words after the name); "-:GRP/" every event of the group.
 */
static int delete_event(const struct trace_probe_type *type,
			const struct probe_event_def *parsed, const char *line, size_t len)
{
	struct trace_probe *tp;

	if (!parsed->event[0])
		return delete_group(type, parsed, line, len);
	tp = find_event(type, parsed->group, parsed->event);
	if (!tp || !names_a_probe(tp, line, len)) {
		trace_probe_log_error(type, line, len, trace_probe_word_pos(line, len, 0),
				      "Event not found");
		return -ENOENT;
	}
	if (tp->enabled) {
		trace_probe_log_error(type, line, len, trace_probe_word_pos(line, len, 0),
				      "Event is enabled: write 0 to its enable file first");
		return -EBUSY;
	}
	if (trace_event_busy(tp->event_file))	/* a hist variable or enable_hist uses it */
		return -EBUSY;
	return delete_probes(tp, line, len);
}

/* `echo > *_events`: all or nothing. */
static int remove_all_events(const struct trace_probe_type *type)
{
	struct trace_probe *tp, *n;

	list_for_each_entry(tp, type->events, list)
		if (tp->enabled || trace_event_busy(tp->event_file)) {
			pseudofs_error("%s/%s is enabled: disable it before clearing %s",
				       tp->def->group, tp->def->event, type->events_file);
			return -EBUSY;
		}
	list_for_each_entry_safe(tp, n, type->events, list)
		free_event(tp);
	return 0;
}

/* One line of a *_events file. */
static int run_command(const struct trace_probe_type *type, const char *line, size_t len)
{
	static struct probe_event_def *parsed;	/* 22 KiB: one, on the heap */
	struct probe_parse_error err;

	if (!parsed && !(parsed = kmalloc(sizeof(*parsed))))
		return -ENOMEM;
	if (type->parse(line, len, parsed, &err) < 0) {
		if (err.code != PROBE_ERR_NONE)		/* NONE: logged already, or nothing to say */
			trace_probe_log_error(type, line, len, err.pos, probe_err_msg(err.code));
		/* Linux returns kern_path()'s error for a file not found,
		 * validate_probe_symbol()'s for a symbol not found, and
		 * for an event probe -ENODEV (no such event) or -ENOENT (no such field). */
		if (err.errnum)
			return err.errnum;
		return err.code == PROBE_ERR_FILE_NOT_FOUND ? -ENOENT :
		       err.code == PROBE_ERR_NO_SUCH_SYMBOL ? -ENOENT :
		       err.code == PROBE_ERR_BAD_ATTACH_EVENT ? -ENODEV :
		       err.code == PROBE_ERR_BAD_ATTACH_ARG ? -ENOENT : -EINVAL;
	}
	switch (parsed->cmd) {
	case PROBE_CMD_ADD:
		return add_event(type, parsed, line, len);
	case PROBE_CMD_DELETE:
		return delete_event(type, parsed, line, len);
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
int trace_probe_events_write(const char *text, size_t len, bool trunc, void *data)
{
	const struct trace_probe_type *type = data;
	int ret = 0;

	if (trunc && (ret = remove_all_events(type)) != 0)
		return ret;
	while (len && ret == 0) {
		const char *nl = memchr_or_end(text, '\n', len);
		size_t n = nl - text;

		ret = run_command(type, text, n);
		if (n < len)
			n++;		/* the newline */
		text += n;
		len -= n;
	}
	return ret;
}

int trace_probe_events_show(struct seq_buf *s, void *data)
{
	const struct trace_probe_type *type = data;
	static char line[PROBE_LINE_MAX];
	struct trace_probe *tp;

	struct trace_probe *sib;

	list_for_each_entry(tp, type->events, list) {
		probe_event_show(line, sizeof(line), tp->def);
		seq_buf_puts(s, line);
		seq_buf_puts(s, "\n");
		trace_probe_for_each_sibling(sib, tp) {
			probe_event_show(line, sizeof(line), sib->def);
			seq_buf_puts(s, line);
			seq_buf_puts(s, "\n");
		}
	}
	return 0;
}
