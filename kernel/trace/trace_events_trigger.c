/*
 * trace_events_trigger.c - an event's trigger file (Linux's
 * kernel/trace/trace_events_trigger.c): what a hit does besides
 * leaving a record.
 *
 *   echo 'traceoff:1 if n == 3' > events/kprobes/myfib/trigger
 *   echo stacktrace >> events/kprobes/myfib/trigger
 *   echo '!traceoff' >> events/kprobes/myfib/trigger     (removes it)
 *   echo 'enable_event:kprobes:myret:1' > events/kprobes/myfib/trigger
 *   cat events/kprobes/myfib/trigger     one line a trigger: newest first,
 *                                        then the hist triggers, oldest first
 *   echo 'disable_hist:kprobes:other' >> events/kprobes/myfib/trigger
 *                                        pause other's hist triggers
 *
 * As in Linux, when no trigger has an "if" and none is a hist, the
 * triggers run before the record is made (a traceoff stops its own
 * hit's record, a stack trace comes before its event); otherwise the
 * record is made first and each trigger tests its filter against it.
 * Triggers are added and removed from the shell while hits on other
 * CPUs walk the list: the list is an RCU list (rculist.h), and a
 * removed trigger is freed after synchronize_kprobes().
 *
 * An event with a trigger is in soft mode for as long as it has one
 * (Linux's trace_event_trigger_enable_disable()): its probe is armed
 * even while its enable file says 0, so that its triggers see every
 * hit - a stacktrace:2 is used up, a hist counts - and only its record
 * is discarded.  So, as in Linux, such an event cannot be removed until
 * its triggers are gone (its probe is armed: EBUSY).
 *
 * enable_event and disable_event put the event they name in soft mode
 * too, for as long as they exist: its probe is armed at once, and a hit
 * of the trigger's event only flips a flag, because arming a probe
 * (patching text, waiting for other CPUs) cannot be done inside another
 * probe's hit.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_events_trigger.h"
#include "trace_events_hist.h"
#include "kprobes.h"
#include "rculist.h"
#include "pseudofs.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include "trace_array.h"

struct event_trigger {
	struct list_head list;
	enum trigger_cmd cmd;
	long count;			/* -1: unlimited */
	char *filter_text;		/* after "if"; NULL when none */
	struct event_filter *filter;
	struct hist_trigger *hist;
	struct trace_event_file *target;	/* enable_event, disable_event; enable_hist, disable_hist */
};

/* Newest first, as Linux's list_add_rcu(): filled in, then published. */
static void trigger_list_add(struct event_trigger *t, struct list_head *head)
{
	t->list.next = head->next;
	t->list.prev = head;
	rcu_assign_pointer(head->next, &t->list);
	t->list.next->prev = &t->list;
}

/* Oldest first, as Linux's hist_trigger_enable() adds a hist trigger (list_add_tail_rcu()). */
static void trigger_list_add_tail(struct event_trigger *t, struct list_head *head)
{
	t->list.next = head;
	t->list.prev = head->prev;
	rcu_assign_pointer(head->prev->next, &t->list);
	head->prev = &t->list;
}

static bool is_enable_event(enum trigger_cmd cmd)
{
	return cmd == TRIGGER_ENABLE_EVENT || cmd == TRIGGER_DISABLE_EVENT;
}

static void trigger_free(struct event_trigger *t)
{
	if (t->hist)
		hist_trigger_free(t->hist);
	if (t->target && is_enable_event(t->cmd))	/* its soft-mode reference */
		trace_event_enable_disable(t->target, false, true);
	kfree(t->filter);
	kfree(t->filter_text);
	kfree(t);
}

/* ---- a hit -------------------------------------------------------------------------------- */

static bool take_count(struct event_trigger *t)
{
	if (t->count == 0)
		return false;
	if (t->count != -1)
		t->count--;
	return true;
}

/*
 * Linux's event_enable_trigger() and event_enable_count_trigger(): a
 * counted trigger counts only the hits that change the event's state.
 */
static void enable_event_run(struct event_trigger *t)
{
	bool enable = t->cmd == TRIGGER_ENABLE_EVENT;

	if (t->count != -1 && enable == !READ_ONCE(t->target->soft_disabled))
		return;
	if (take_count(t))
		WRITE_ONCE(t->target->soft_disabled, !enable);
}

/* enable_hist/disable_hist: every hist trigger of the target continues or pauses. */
static void hist_enable(struct trace_event_file *target, bool enable)
{
	struct event_trigger *t;

	list_for_each_entry_rcu(t, &target->triggers, list)
		if (t->hist)
			hist_trigger_control(t->hist, !enable, enable, false);
}

/* Each acts on the trace array of its file: the top level's, or an instance's. */
static void trigger_run(struct trace_event_file *file, struct event_trigger *t,
			const struct trace_entry *e, struct pt_regs *regs)
{
	struct trace_array *tr = file->tr;

	switch (t->cmd) {
	case TRIGGER_TRACEON:
		if (!tracer_tracing_is_on(tr) && take_count(t))
			tracer_tracing_on(tr);
		break;
	case TRIGGER_TRACEOFF:
		if (tracer_tracing_is_on(tr) && take_count(t))
			tracer_tracing_off(tr);
		break;
	case TRIGGER_STACKTRACE:
		if (take_count(t))
			__trace_stack(tr, regs);
		break;
	case TRIGGER_SNAPSHOT:
		if (take_count(t))
			tracing_snapshot_instance(tr);
		break;
	case TRIGGER_ENABLE_EVENT:
	case TRIGGER_DISABLE_EVENT:
		enable_event_run(t);
		break;
	case TRIGGER_ENABLE_HIST:
	case TRIGGER_DISABLE_HIST:
		if (take_count(t))
			hist_enable(t->target, t->cmd == TRIGGER_ENABLE_HIST);
		break;
	case TRIGGER_HIST:
		hist_trigger_update(t->hist, file, e, regs);
		break;
	default:
		break;
	}
}

void trace_event_triggers_run(struct trace_event_file *file, const struct trace_entry *e,
			      struct pt_regs *regs)
{
	struct event_trigger *t;

	list_for_each_entry_rcu(t, &file->triggers, list) {
		struct event_filter *f = READ_ONCE(t->filter);

		if (f && !trace_event_filter_match(file, f, e))
			continue;
		trigger_run(file, t, e, regs);
	}
}

/* Does any trigger need the record (an "if", a hist)?  Then they run after it. */
bool trace_event_triggers_conditional(struct trace_event_file *file)
{
	struct event_trigger *t;

	list_for_each_entry_rcu(t, &file->triggers, list)
		if (t->filter || t->hist)
			return true;
	return false;
}
NOKPROBE_SYMBOL(take_count);
NOKPROBE_SYMBOL(enable_event_run);
NOKPROBE_SYMBOL(hist_enable);
NOKPROBE_SYMBOL(trigger_run);
NOKPROBE_SYMBOL(trace_event_triggers_run);
NOKPROBE_SYMBOL(trace_event_triggers_conditional);

/* ---- the file ------------------------------------------------------------------------------- */

static void trigger_print(struct seq_buf *s, const struct event_trigger *t)
{
	static char line[2048];	/* a hist trigger with its variables and actions */

	if (t->hist) {
		hist_trigger_print(line, sizeof(line), t->hist);
		seq_buf_puts(s, line);
		if (t->filter_text)
			seq_buf_printf(s, " if %s", t->filter_text);
		seq_buf_puts(s, hist_trigger_paused(t->hist) ? " [paused]\n" : " [active]\n");
		return;
	}
	seq_buf_puts(s, trigger_cmd_name(t->cmd));
	if (t->target)
		seq_buf_printf(s, ":%s:%s", t->target->tp->def->group, t->target->tp->def->event);
	if (t->count == -1)
		seq_buf_puts(s, ":unlimited");
	else
		seq_buf_printf(s, ":count=%ld", t->count);
	if (t->filter_text)
		seq_buf_printf(s, " if %s\n", t->filter_text);
	else
		seq_buf_puts(s, "\n");
}

int trace_event_trigger_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file = data;
	struct event_trigger *t;

	if (list_empty(&file->triggers)) {
		seq_buf_puts(s, "# Available triggers:\n#");
		for (int c = 0; c < TRIGGER_NR; c++)
			seq_buf_printf(s, " %s", trigger_cmd_name(c));
		seq_buf_puts(s, "\n");
		return 0;
	}
	list_for_each_entry(t, &file->triggers, list)
		trigger_print(s, t);
	return 0;
}


/*
 * Linux's trigger_type: traceon and traceoff are one kind
 * (ETT_TRACE_ONOFF), enable_event and disable_event another
 * (ETT_EVENT_ENABLE), enable_hist and disable_hist a third
 * (ETT_HIST_ENABLE).  An event has one trigger of a kind (per event
 * switched), and `!` of either name removes it.
 */
static enum trigger_cmd trigger_kind(enum trigger_cmd cmd)
{
	switch (cmd) {
	case TRIGGER_TRACEOFF:      return TRIGGER_TRACEON;
	case TRIGGER_DISABLE_EVENT: return TRIGGER_ENABLE_EVENT;
	case TRIGGER_DISABLE_HIST:  return TRIGGER_ENABLE_HIST;
	default:                    return cmd;
	}
}

/* The trigger spec names. */
static struct event_trigger *find_trigger(struct trace_event_file *file,
					  const struct trigger_spec *spec)
{
	struct event_trigger *t;

	list_for_each_entry(t, &file->triggers, list) {
		if (trigger_kind(t->cmd) != trigger_kind(spec->cmd))
			continue;
		if (is_enable_event(spec->cmd)) {
			if (t->target == find_event_file(file->tr, spec->system, spec->event))
				return t;
		} else if ((!t->hist || hist_trigger_matches(t->hist, &spec->hist, spec->filter)) &&
			   (!t->target || (!strcmp(t->target->tp->def->group, spec->target_system) &&
					   !strcmp(t->target->tp->def->event, spec->target_event)))) {
			return t;
		}
	}
	return NULL;
}

/*
 * Not a hist trigger whose variables another reads (Linux: EBUSY).
 * The event's last trigger gone, its soft mode goes with it.
 */
static int remove_trigger(struct trace_event_file *file, struct event_trigger *t)
{
	if (t->hist && hist_trigger_busy(t->hist))
		return -EBUSY;
	list_del_rcu(&t->list);
	synchronize_kprobes();		/* no hit is still running it */
	trigger_free(t);
	return trace_event_enable_disable(file, false, true);
}

/* hist:pause / :continue / :clear on an existing hist trigger. */
static int hist_control(struct trace_event_file *file, struct trigger_spec *spec,
			const char *text)
{
	struct event_trigger *t = find_trigger(file, spec);

	if (!t) {
		hist_log_error(file, text, HIST_ERR_TRIGGER_ENOENT_CLEAR, 0);
		return -ENOENT;
	}
	hist_trigger_control(t->hist, spec->hist.pause, spec->hist.cont, spec->hist.clear);
	return 0;
}

/* The event enable_event names, now in soft mode: its probe armed. */
static int enable_event_target(struct trace_array *tr, const struct trigger_spec *spec,
			       struct trace_event_file **target)
{
	struct trace_event_file *file = find_event_file(tr, spec->system, spec->event);
	int ret;

	if (!file)
		return -EINVAL;		/* Linux: find_event_file() found none */
	ret = trace_event_enable_disable(file, true, true);
	if (ret == 0)
		*target = file;
	return ret;
}

static int add_trigger(struct trace_event_file *file, struct trigger_spec *spec,
		       const char *text)
{
	struct event_trigger *t;
	int ret;

	if (find_trigger(file, spec)) {
		if (spec->cmd == TRIGGER_HIST)
			hist_log_error(file, text, HIST_ERR_TRIGGER_EEXIST, 0);
		return -EEXIST;
	}
	t = kzalloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->cmd = spec->cmd;
	t->count = spec->count;
	if (is_enable_event(spec->cmd) &&
	    (ret = enable_event_target(file->tr, spec, &t->target)) != 0) {
		trigger_free(t);
		return ret;
	}
	if (spec->target_event[0] &&
	    !(t->target = find_event_file(file->tr, spec->target_system, spec->target_event))) {
		trigger_free(t);
		return -EINVAL;
	}
	if (spec->filter[0]) {
		t->filter_text = kmalloc(strlen(spec->filter) + 1);
		if (!t->filter_text) {
			trigger_free(t);
			return -ENOMEM;
		}
		strlcpy(t->filter_text, spec->filter, strlen(spec->filter) + 1);
		ret = trace_event_filter_compile(file, spec->filter, &t->filter, false);
		if (ret) {
			trigger_free(t);
			return -EINVAL;
		}
	}
	if (spec->cmd == TRIGGER_HIST &&
	    (ret = hist_trigger_create(file, &spec->hist, spec->filter, text, &t->hist)) != 0) {
		trigger_free(t);
		return ret;
	}
	if (spec->cmd == TRIGGER_SNAPSHOT && (ret = tracing_alloc_snapshot_instance(file->tr)) != 0) {
		trigger_free(t);
		return ret;
	}
	ret = trace_event_enable_disable(file, true, true);	/* soft mode: armed */
	if (ret) {
		trigger_free(t);
		return ret;
	}
	if (t->hist)
		trigger_list_add_tail(t, &file->triggers);
	else
		trigger_list_add(t, &file->triggers);
	return 0;
}

/*
 * `>` takes the hist triggers away first, as Linux's open with O_TRUNC
 * does - none of them while another trigger reads one's variables.
 */
static void remove_hist_triggers(struct trace_event_file *file)
{
	struct event_trigger *t, *n;

	list_for_each_entry(t, &file->triggers, list)
		if (t->hist && hist_trigger_busy(t->hist))
			return;
	list_for_each_entry_safe(t, n, &file->triggers, list)
		if (t->hist)
			remove_trigger(file, t);
}

/* Does a trigger of f hold event tp: a hist of tp's whose variables another reads, or names tp? */
static bool triggers_hold_event(struct trace_event_file *f, const struct trace_probe *tp)
{
	struct event_trigger *t;

	list_for_each_entry(t, &f->triggers, list)
		if ((f->tp == tp && t->hist && hist_trigger_busy(t->hist)) ||
		    (f->tp != tp && t->target && t->target->tp == tp))
			return true;
	return false;
}

/* In every trace array: the top level's files and each instance's. */
bool trace_event_busy(struct trace_event_file *file)
{
	struct trace_event_file *top;

	if (!file)
		return false;
	list_for_each_entry(top, &trace_event_files, list)
		for (int id = 0; id < TRACE_ARRAY_MAX; id++) {
			struct trace_event_file *f = id ? top->instance_files[id] : top;

			if (f && triggers_hold_event(f, file->tp))
				return true;
		}
	return false;
}

int trace_event_trigger_write(const char *text, size_t len, bool trunc, void *data)
{
	static struct trigger_spec spec;
	static char cmd[FILTER_TEXT_MAX + 512];
	struct trace_event_file *file = data;
	struct event_trigger *t;
	enum hist_err herr;
	int ret;

	if (trunc)
		remove_hist_triggers(file);
	if (len >= sizeof(cmd))
		return -EINVAL;
	memcpy(cmd, text, len);
	cmd[len] = '\0';
	ret = trigger_parse(cmd, &spec, &herr);
	if (ret) {
		if (herr != HIST_ERR_NONE)
			hist_log_error(file, cmd, herr, spec.bad ? spec.bad : "");
		return ret;
	}
	if (is_enable_event(spec.cmd) && !find_event_file(file->tr, spec.system, spec.event))
		return -EINVAL;			/* even to remove one, as Linux */
	if (spec.remove) {
		t = find_trigger(file, &spec);
		return t ? remove_trigger(file, t) : 0;	/* Linux: removing none is no error */
	}
	if (spec.cmd == TRIGGER_HIST && (spec.hist.pause || spec.hist.cont || spec.hist.clear) &&
	    find_trigger(file, &spec))
		return hist_control(file, &spec, cmd);
	if (spec.cmd == TRIGGER_HIST && (spec.hist.cont || spec.hist.clear))
		return hist_control(file, &spec, cmd);
	return add_trigger(file, &spec, cmd);
}

/*
 * Each trigger of tr's events away.  A hist trigger whose variables
 * another reads goes after its readers: sweep until a sweep removes
 * nothing (what is left is read from another trace array).
 */
void clear_event_triggers(struct trace_array *tr)
{
	struct trace_event_file *top, *file;
	struct event_trigger *t, *n;
	bool removed = true;

	while (removed) {
		removed = false;
		list_for_each_entry(top, &trace_event_files, list) {
			file = tr->id == TRACE_ARRAY_TOP ? top : top->instance_files[tr->id];
			if (!file)
				continue;
			list_for_each_entry_safe(t, n, &file->triggers, list)
				if (!(t->hist && hist_trigger_busy(t->hist))) {
					remove_trigger(file, t);
					removed = true;
				}
		}
	}
}

/* The event is going away: nothing can hit it any more. */
void trace_event_triggers_free(struct trace_event_file *file)
{
	struct event_trigger *t, *n;

	list_for_each_entry_safe(t, n, &file->triggers, list) {
		list_del(&t->list);
		trigger_free(t);
	}
}

/* events/G/E/hist: every hist trigger's table. */
int trace_event_hist_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file = data;
	struct event_trigger *t;
	int n = 0;

	list_for_each_entry(t, &file->triggers, list)
		if (t->hist)
			hist_trigger_show(s, t->hist, file, t->filter_text, n++);
	return 0;
}
