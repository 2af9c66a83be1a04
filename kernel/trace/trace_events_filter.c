/*
 * trace_events_filter.c - an event's filter file (Linux's
 * kernel/trace/trace_events_filter.c): which hits are recorded.
 *
 *   echo 'n > 3' > events/kprobes/myfib/filter   only hits with n > 3
 *   echo 0 > events/kprobes/myfib/filter         every hit again
 *   echo 'common_pid != 0' > events/kprobes/filter   every event of the group
 *
 * The language is lib/trace_events_filter.c's; here are an event's
 * fields (the ones its format file lists, and Linux's generic CPU and
 * COMM) and how a record gives their values.  A refused filter leaves
 * the event unfiltered and the file showing the error, as Linux does,
 * and the error goes to error_log too.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_events_filter.h"
#include "probe_events.h"
#include "pseudofs.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include "kprobes.h"

/* The fields every event has, in Linux's order of lookup. */
enum { F_TYPE, F_FLAGS, F_PREEMPT, F_PID, F_CPU_UPPER, F_CPU, F_COMM_UPPER, F_COMM,
       F_NR_COMMON };

static const struct filter_field common_fields[F_NR_COMMON] = {
	[F_TYPE]       = { "common_type",          false, 2, false },
	[F_FLAGS]      = { "common_flags",         false, 1, false },
	[F_PREEMPT]    = { "common_preempt_count", false, 1, false },
	[F_PID]        = { "common_pid",           false, 4, true },
	[F_CPU_UPPER]  = { "CPU",                  false, 4, true },
	[F_CPU]        = { "cpu",                  false, 4, true },
	[F_COMM_UPPER] = { "COMM",                 true,  0, false },
	[F_COMM]       = { "comm",                 true,  0, false },
};

/* After the common ones: the probe's addresses (none for a syscall, an eprobe or a synthetic event), then the arguments. */
static int nr_probe_fields(const struct trace_probe *tp)
{
	return tp->type->no_probe_addr ? 0 : tp->def->is_return ? 2 : 1;
}

int trace_event_arg_field(const struct trace_event_file *file)
{
	return F_NR_COMMON + nr_probe_fields(file->tp);
}

int trace_event_fields(const struct trace_event_file *file, struct filter_field *fields,
		       int max)
{
	const struct probe_event_def *def = file->tp->def;
	int n = 0, i;

	for (i = 0; i < F_NR_COMMON && n < max; i++)
		fields[n++] = common_fields[i];
	if (file->tp->type->no_probe_addr) {
		/* common fields, then the arguments */
	} else if (def->is_return && n + 2 <= max) {
		fields[n++] = (struct filter_field){ "__probe_func", false, 4, false };
		fields[n++] = (struct filter_field){ "__probe_ret_ip", false, 4, false };
	} else if (nr_probe_fields(file->tp) == 1 && n < max) {
		fields[n++] = (struct filter_field){ "__probe_ip", false, 4, false };
	}
	for (i = 0; i < def->nr_args && n < max; i++, n++) {
		fields[n].name = def->args[i].name;
		trace_arg_type(def->args[i].type, &fields[n].size, &fields[n].is_signed,
			       &fields[n].is_string);
	}
	return n;
}

/* The C type of field number field, as format shows it: "u32", "int". */
const char *trace_event_field_type(const struct trace_event_file *file, int field)
{
	static const char *const common_types[F_NR_COMMON] = {
		[F_TYPE] = "unsigned short", [F_FLAGS] = "unsigned char",
		[F_PREEMPT] = "unsigned char", [F_PID] = "int", [F_CPU_UPPER] = "int",
		[F_CPU] = "int", [F_COMM_UPPER] = "char *", [F_COMM] = "char *",
	};
	const struct probe_event_def *def = file->tp->def;
	int arg = field - F_NR_COMMON - nr_probe_fields(file->tp);

	if (field < F_NR_COMMON)
		return common_types[field];
	if (arg < 0)
		return "unsigned long";		/* the probe's addresses */
	/* a synthetic event keeps each field's C type where a probe keeps its FETCHARG */
	return nr_probe_fields(file->tp) ? trace_arg_type_name(def->args[arg].type) :
					   def->args[arg].comm;
}

/* ---- a record's values ------------------------------------------------------------ */

/* What the record ops are given: the record and its event's layout. */
struct filter_rec {
	const struct trace_probe *tp;
	unsigned int id;
	const struct trace_entry *e;
};

static struct fetch_value arg_value(const struct filter_rec *r, int arg)
{
	struct fetch_value v = { 0 };

	if ((arg + 1) * sizeof(v) <= r->e->len)
		memcpy(&v, r->e->payload + arg * sizeof(v), sizeof(v));
	return v;
}

static uint64_t rec_num(int field, const void *rec)
{
	const struct filter_rec *r = rec;
	int probe = field - F_NR_COMMON;

	switch (field) {
	case F_TYPE:      return r->id;
	case F_FLAGS:     return r->e->flags;
	case F_PREEMPT:   return r->e->preempt;
	case F_PID:       return (uint64_t)(int64_t)r->e->pid;
	case F_CPU_UPPER:
	case F_CPU:       return r->e->cpu;
	}
	if (probe < nr_probe_fields(r->tp))
		return probe == 0 ? r->e->ip : r->e->ret_ip;
	return arg_value(r, probe - nr_probe_fields(r->tp)).raw;
}

static const char *rec_str(int field, const void *rec, size_t *len)
{
	const struct filter_rec *r = rec;
	struct fetch_value v;

	if (field == F_COMM || field == F_COMM_UPPER) {
		*len = strnlen(r->e->comm, sizeof(r->e->comm));
		return r->e->comm;
	}
	v = arg_value(r, field - F_NR_COMMON - nr_probe_fields(r->tp));
	if (v.fault || v.str_off + v.str_len > r->e->len) {
		*len = 0;
		return "";
	}
	*len = v.str_len;
	return r->e->payload + v.str_off;
}

const struct filter_record_ops trace_event_record_ops = { rec_num, rec_str };

uint64_t trace_event_field_num(struct trace_event_file *file, int field,
			       const struct trace_entry *e)
{
	struct filter_rec r = { file->tp, file->tp->id, e };

	return rec_num(field, &r);
}

const char *trace_event_field_str(struct trace_event_file *file, int field,
				  const struct trace_entry *e, size_t *len)
{
	struct filter_rec r = { file->tp, file->tp->id, e };

	return rec_str(field, &r, len);
}
NOKPROBE_SYMBOL(trace_event_field_num);
NOKPROBE_SYMBOL(trace_event_field_str);

bool trace_event_filter_match(struct trace_event_file *file, const struct event_filter *f,
			      const struct trace_entry *e)
{
	struct filter_rec r = { file->tp, file->tp->id, e };

	return filter_match(f, &trace_event_record_ops, &r);
}
NOKPROBE_SYMBOL(rec_num);
NOKPROBE_SYMBOL(rec_str);
NOKPROBE_SYMBOL(arg_value);
NOKPROBE_SYMBOL(nr_probe_fields);
NOKPROBE_SYMBOL(trace_event_filter_match);

/* ---- compiling ---------------------------------------------------------------------- */

#define EVENT_FIELDS_MAX (F_NR_COMMON + 2 + PROBE_MAX_ARGS)

/* error_log's entry: Linux's tracing_log_err(tr, "event filter parse error", ...), in file's trace array. */
static void log_filter_error(struct trace_event_file *file, const char *text,
			     const struct filter_parse_error *err)
{
	static const struct trace_probe_type filter_log = { .subsys = "event filter parse error" };

	tracing_log_err(file->tr, &filter_log, text, strlen(text), err->pos,
			err->code == FILT_ERR_NONE ? "Error" : filter_err_msg(err->code));
}

int trace_event_filter_check(struct trace_event_file *file, const char *text)
{
	static struct filter_field fields[EVENT_FIELDS_MAX];
	struct filter_parse_error err;
	struct event_filter *f = kmalloc(sizeof(*f));
	int ret;

	if (!f)
		return -ENOMEM;
	ret = filter_parse(text, fields, trace_event_fields(file, fields, EVENT_FIELDS_MAX),
			   f, &err);
	if (ret)
		log_filter_error(file, text, &err);
	kfree(f);
	return ret;
}

int trace_event_filter_compile(struct trace_event_file *file, const char *text,
			       struct event_filter **out, bool log)
{
	static struct filter_field fields[EVENT_FIELDS_MAX];
	struct filter_parse_error err;
	struct event_filter *f = kmalloc(sizeof(*f));
	int ret;

	*out = NULL;
	if (!f)
		return -ENOMEM;
	ret = filter_parse(text, fields, trace_event_fields(file, fields, EVENT_FIELDS_MAX),
			   f, &err);
	if (ret) {
		kfree(f);
		if (log) {		/* the filter file's write: error_log and the file say why */
			log_filter_error(file, text, &err);
			char *shown = kmalloc(strlen(text) * 2 + 128);

			if (shown)
				filter_format_error(shown, strlen(text) * 2 + 128, text, &err);
			kfree(file->filter_text);
			file->filter_text = shown;
		}
		return ret;
	}
	*out = f;
	return 0;
}

/* The text of a write, without the newline echo adds and blanks around it. */
static char *filter_text_dup(const char *text, size_t len)
{
	char *copy;

	while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	while (len && (text[0] == ' ' || text[0] == '\t')) {
		text++;
		len--;
	}
	copy = kmalloc(len + 1);
	if (copy) {
		memcpy(copy, text, len);
		copy[len] = '\0';
	}
	return copy;
}

/*
 * Swap in a new filter.  A probe hit on another CPU may be reading the
 * old one: it is freed only after every CPU has been through an
 * interrupt (synchronize_kprobes(), our synchronize_rcu()).
 */
static void set_filter(struct trace_event_file *file, struct event_filter *f, char *text)
{
	struct event_filter *old = file->filter;

	WRITE_ONCE(file->filter, f);
	if (old) {
		synchronize_kprobes();
		kfree(old);
	}
	kfree(file->filter_text);
	file->filter_text = text;
}

void trace_event_filter_free(struct trace_event_file *file)
{
	set_filter(file, NULL, NULL);
}

/* One event's filter from text (a copy the file keeps): 0 or Linux's errno. */
static int apply_filter(struct trace_event_file *file, char *text, bool log)
{
	struct event_filter *f;
	int ret;

	if (strcmp(text, "0") == 0) {
		kfree(text);
		set_filter(file, NULL, NULL);
		return 0;
	}
	set_filter(file, NULL, NULL);
	ret = trace_event_filter_compile(file, text, &f, log);
	if (ret) {
		kfree(text);		/* the file shows the error instead */
		return ret;
	}
	set_filter(file, f, text);
	return 0;
}

int trace_event_filter_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file = data;
	const char *text = file->filter_text;

	if (!text)
		seq_buf_puts(s, "none\n");
	else
		seq_buf_printf(s, text[0] && text[strlen(text) - 1] == '\n' ? "%s" : "%s\n", text);
	return 0;
}

int trace_event_filter_write(const char *text, size_t len, bool trunc, void *data)
{
	char *copy = filter_text_dup(text, len);

	if (!copy)
		return -ENOMEM;
	return apply_filter(data, copy, true);
}

/* ---- the group's filter --------------------------------------------------------------- */

#define DEFAULT_SYS_FILTER_MESSAGE \
	"### global filter ###\n" \
	"# Use this to set filters for multiple events.\n" \
	"# Only events with the given fields will be affected.\n" \
	"# If no events are modified, an error message will be displayed here\n"

int trace_group_filter_show(struct seq_buf *s, void *data)
{
	struct trace_group_file *g = data;

	seq_buf_puts(s, g->filter_text ? g->filter_text : DEFAULT_SYS_FILTER_MESSAGE);
	return 0;
}

/* Linux's message when no event of the group took the filter. */
static char *subsys_error(const char *text)
{
	struct filter_parse_error err = { FILT_ERR_BAD_SUBSYS_FILTER, 0 };
	size_t size = strlen(text) + 128;
	char *shown = kmalloc(size);

	if (shown)
		filter_format_error(shown, size, text, &err);
	return shown;
}

/*
 * Each event of the group gets the filter, or shows why not; the write
 * fails only if no event took it.  "0" clears them all.
 */
int trace_group_filter_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_group_file *g = data;
	struct trace_event_file *file;
	char *copy = filter_text_dup(text, len), *each;
	bool any = false;

	if (!copy)
		return -ENOMEM;
	list_for_each_entry(file, &trace_event_files, list) {
		/* an instance's group filter: the instance's file of each event */
		struct trace_event_file *target = g->instance ? file->instance_files[g->instance] : file;

		if (!target || file->tp->type != g->type || strcmp(file->tp->def->group, g->name) != 0)
			continue;
		each = kmalloc(strlen(copy) + 1);
		if (!each)
			break;
		strlcpy(each, copy, strlen(copy) + 1);
		if (apply_filter(target, each, false) == 0)
			any = true;
	}
	kfree(g->filter_text);
	g->filter_text = NULL;
	if (!any && strcmp(copy, "0") != 0) {
		g->filter_text = subsys_error(copy);
		kfree(copy);
		return -EINVAL;
	}
	kfree(copy);
	return 0;
}
