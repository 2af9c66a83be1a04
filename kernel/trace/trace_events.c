/*
 * trace_events.c - the events/ directory of tracefs (Linux's
 * kernel/trace/trace_events.c): the files through which an event,
 * once defined in kprobe_events or uprobe_events, is switched on and
 * off, alone, with its whole group or with every event, and described
 * (id, format) for tools that read the records.
 *
 *   echo 1 > events/kprobes/myfib/enable   arm this event's probe
 *   echo 0 > events/kprobes/enable         disarm every event of the group
 *   cat events/kprobes/enable              0, 1, or X when they differ
 *   echo kprobes:myfib >> set_event        the same as its enable file
 *
 * The event itself (its probe, its record) is trace_probe.c's; here is
 * the directory that names it.  Its filter and trigger files are
 * trace_events_filter.c's and trace_events_trigger.c's.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "probe_events.h"
#include "pseudofs.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "list.h"
#include "kallsyms.h"
#include "kprobes.h"
#include "nokprobe.h"
#include "trace_array.h"

/*
 * Every name the grammar accepts must be reachable at its full path: a
 * path cut short would make an event file no one can name.  "trigger"
 * is the longest name in an event's directory.
 */
#define EVENT_FILE_PATH_LEN \
	(sizeof(TRACEFS_DIR "/events/") - 1 + (PROBE_NAME_LEN - 1) + \
	 sizeof("/") - 1 + (PROBE_NAME_LEN - 1) + sizeof("/trigger") - 1)
_Static_assert(EVENT_FILE_PATH_LEN < PSEUDOFS_PATH_MAX,
	       "the longest event's file path must fit in a pseudofs path");
#define INSTANCE_EVENT_FILE_PATH_LEN \
	(sizeof(TRACE_INSTANCES_DIR "/") - 1 + (TRACE_ARRAY_NAME_LEN - 1) + \
	 sizeof("/events/") - 1 + (PROBE_NAME_LEN - 1) + \
	 sizeof("/") - 1 + (PROBE_NAME_LEN - 1) + sizeof("/trigger") - 1)
_Static_assert(INSTANCE_EVENT_FILE_PATH_LEN < PSEUDOFS_PATH_MAX,
	       "an instance's event files must fit in a pseudofs path");

static bool group_has_events(const struct trace_probe_type *type, const char *group)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, type->events, list)
		if (strcmp(tp->def->group, group) == 0)
			return true;
	return false;
}

/* ---- enable ------------------------------------------------------------------ */

/* Arm or disarm the event's every probe; tp->enabled is Linux's EVENT_FILE_FL_ENABLED. */
static int event_arm(struct trace_probe *tp, bool on)
{
	int ret;

	if (tp->enabled == on)
		return 0;
	ret = trace_probe_set_enabled(tp, on);
	if (ret == 0)
		tp->enabled = on;
	return ret;
}

bool trace_event_enabled_in(const struct trace_probe *tp, int id)
{
	return READ_ONCE(tp->enabled_in) & (1UL << id);
}

static unsigned long enabled_in_with(const struct trace_probe *tp, int id, bool on)
{
	return on ? tp->enabled_in | (1UL << id) : tp->enabled_in & ~(1UL << id);
}

/* The event's file in trace array id: the top level's, or an instance's (NULL: none). */
static struct trace_event_file *event_file_in(const struct trace_probe *tp, int id)
{
	struct trace_event_file *top = tp->event_file;

	return !top || id == TRACE_ARRAY_TOP ? top : top->instance_files[id];
}

/* Linux's find_event_file(tr, system, event): the event's file in tr. */
struct trace_event_file *find_event_file(struct trace_array *tr, const char *group,
					 const char *event)
{
	struct trace_event_file *top = trace_event_file_find(group, event);

	return top ? event_file_in(top->tp, tr->id) : NULL;
}

/*
 * The probe is armed while the event is enabled anywhere - the top level
 * or any instance - or a trigger holds one of its files in soft mode
 * (soft_in: a bit per trace array).  A hit records into each trace array
 * whose bit is set in enabled_in or soft_in (trace_probe_record()).
 */
static int event_arm_in(struct trace_probe *tp, unsigned long want)
{
	unsigned long soft = tp->event_file ? tp->event_file->soft_in : 0;
	int ret = 0;

	if (tp->type->attach_in)	/* an event probe: on its attached event in the same ones */
		ret = tp->type->attach_in(tp, want | soft);
	if (ret == 0)
		ret = event_arm(tp, want != 0 || soft);
	if (ret == 0)
		WRITE_ONCE(tp->enabled_in, want);
	return ret;
}

/* A trace array's bit is its enable file, which soft mode has a say in. */
int trace_event_enable_in(struct trace_probe *tp, int id, bool on)
{
	struct trace_event_file *file = event_file_in(tp, id);

	if (file)
		return trace_event_enable_disable(file, on, false);
	return event_arm_in(tp, enabled_in_with(tp, id, on));
}

static void soft_in_set(struct trace_event_file *file, bool on)
{
	struct trace_event_file *top = file->tp->event_file;
	unsigned long bit = 1UL << file->tr->id;

	WRITE_ONCE(top->soft_in, on ? top->soft_in | bit : top->soft_in & ~bit);
}

/*
 * Linux's __ftrace_event_enable_disable(), for file in its trace array:
 * in soft mode the probe stays armed whatever the enable file says, and
 * the enable file only decides soft_disabled; the last soft reference
 * gone, the file keeps what the triggers left it (Linux: disabled only
 * if soft-disabled), and the probe is disarmed unless the event is
 * enabled somewhere.
 */
int trace_event_enable_disable(struct trace_event_file *file, bool enable, bool soft)
{
	struct trace_probe *tp = file->tp;
	int id = file->tr->id;
	unsigned long want;
	int ret;

	if (!soft) {
		ret = event_arm_in(tp, enabled_in_with(tp, id, enable));
		if (ret == 0)
			file->soft_disabled = !enable && file->sm_ref > 0;
		return ret;
	}
	if (enable) {
		if (file->sm_ref++ > 0)
			return 0;
		file->soft_disabled = !trace_event_enabled_in(tp, id);
		soft_in_set(file, true);
		ret = event_arm_in(tp, tp->enabled_in);
		if (ret) {
			file->sm_ref--;
			file->soft_disabled = false;
			soft_in_set(file, false);
		}
		return ret;
	}
	if (--file->sm_ref > 0)
		return 0;
	want = enabled_in_with(tp, id, !file->soft_disabled);
	file->soft_disabled = false;
	soft_in_set(file, false);
	return event_arm_in(tp, want);
}

/* Whether a hit records at the top level: its bit, or a trigger's soft mode. */
bool trace_event_top_on(const struct trace_probe *tp)
{
	return trace_event_enabled_in(tp, TRACE_ARRAY_TOP) ||
	       (tp->event_file && READ_ONCE(tp->event_file->sm_ref) > 0);
}

/* The instances a hit records in: enabled there, or in soft mode there. */
unsigned long trace_event_instances_on(const struct trace_probe *tp)
{
	const struct trace_event_file *top = READ_ONCE(tp->event_file);

	return (READ_ONCE(tp->enabled_in) | (top ? READ_ONCE(top->soft_in) : 0)) &
	       ~(1UL << TRACE_ARRAY_TOP);
}
NOKPROBE_SYMBOL(trace_event_enabled_in);
NOKPROBE_SYMBOL(trace_event_top_on);
NOKPROBE_SYMBOL(trace_event_instances_on);

int trace_event_set_enabled(struct trace_probe *tp, bool on)
{
	return trace_event_enable_in(tp, TRACE_ARRAY_TOP, on);
}

int trace_parse_bool(const char *text, size_t len, bool *on)
{
	if (len == 0 || len > 2 || (len == 2 && text[1] != '\n'))
		return -EINVAL;
	if (text[0] != '0' && text[0] != '1')
		return -EINVAL;
	*on = text[0] == '1';
	return 0;
}

/*
 * Linux's event_enable_read(): "1" only when records are made, a '*' in
 * soft mode; the file's own trace array's (the top level's or an instance's).
 */
static int enable_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file = data;
	bool on = trace_event_enabled_in(file->tp, file->tr->id) || file->sm_ref > 0;

	seq_buf_printf(s, "%d%s\n", on && !file->soft_disabled,
		       file->sm_ref || file->soft_disabled ? "*" : "");
	return 0;
}

static int enable_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	return trace_event_enable_disable(data, on, false);
}

/* ---- the group's directory ------------------------------------------------------ */

/* events/GROUP/enable and filter: their data says which group of which type. */
#define group_file trace_group_file

static int group_enable_show(struct seq_buf *s, void *data)
{
	struct group_file *g = data;
	struct trace_probe *tp;
	bool some_on = false, some_off = false;

	list_for_each_entry(tp, g->type->events, list)
		if (strcmp(tp->def->group, g->name) == 0) {
			some_on |= trace_event_enabled_in(tp, g->instance);
			some_off |= !trace_event_enabled_in(tp, g->instance);
		}
	seq_buf_puts(s, some_on && some_off ? "X\n" : some_on ? "1\n" : "0\n");
	return 0;
}

static int group_enable_write(const char *text, size_t len, bool trunc, void *data)
{
	struct group_file *g = data;
	struct trace_probe *tp;
	int ret = 0;
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	list_for_each_entry(tp, g->type->events, list)
		if (strcmp(tp->def->group, g->name) == 0 && !ret)
			ret = trace_event_enable_in(tp, g->instance, on);
	return ret;
}

static void group_path(char *buf, const char *group, const char *name)
{
	snprintf(buf, PSEUDOFS_PATH_MAX, TRACEFS_DIR "/events/%s/%s", group, name);
}

/*
 * The group's files live while the group has events.  A group belongs
 * to the type that made it: a kprobe event cannot join a uprobe group
 * (-EEXIST), nor the other way round.
 */
static int group_file_get(const struct trace_probe_type *type, const char *group)
{
	char path[PSEUDOFS_PATH_MAX];
	struct group_file *g;
	int ret;

	group_path(path, group, "enable");
	if (pseudofs_lookup(path)) {
		g = pseudofs_data(path);
		return g->type == type ? 0 : -EEXIST;
	}
	g = kzalloc(sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->type = type;
	strlcpy(g->name, group, sizeof(g->name));
	ret = pseudofs_create(path, group_enable_show, group_enable_write, g);
	group_path(path, group, "filter");
	if (ret == 0 && (ret = pseudofs_create(path, trace_group_filter_show,
					       trace_group_filter_write, g)) != 0) {
		group_path(path, group, "enable");
		pseudofs_remove(path);
	}
	if (ret)
		kfree(g);
	return ret;
}

static void group_file_put(const struct trace_probe_type *type, const char *group)
{
	char path[PSEUDOFS_PATH_MAX];
	void *g;

	if (group_has_events(type, group))
		return;
	group_path(path, group, "filter");
	pseudofs_remove(path);
	group_path(path, group, "enable");
	g = pseudofs_data(path);
	if (pseudofs_remove(path) == 0) {
		kfree(((struct group_file *)g)->filter_text);
		kfree(g);
	}
}

/* ---- id and format ------------------------------------------------------------ */

static int id_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%u\n", ((struct trace_event_file *)data)->tp->id);
	return 0;
}

/* How Linux describes each fetch type in format (trace_probe.c's table). */
struct type_desc {
	const char *fmttype;	/* the field's C type */
	const char *fmt;	/* in print fmt */
	unsigned char size;
	bool is_signed;
};

static struct type_desc type_desc(enum fetch_type type)
{
	switch (type) {
	case FETCH_TYPE_U8:  return (struct type_desc){ "u8", "%u", 1, false };
	case FETCH_TYPE_U16: return (struct type_desc){ "u16", "%u", 2, false };
	case FETCH_TYPE_U32: return (struct type_desc){ "u32", "%u", 4, false };
	case FETCH_TYPE_U64: return (struct type_desc){ "u64", "%Lu", 8, false };
	case FETCH_TYPE_S8:  return (struct type_desc){ "s8", "%d", 1, true };
	case FETCH_TYPE_S16: return (struct type_desc){ "s16", "%d", 2, true };
	case FETCH_TYPE_S32: return (struct type_desc){ "s32", "%d", 4, true };
	case FETCH_TYPE_S64: return (struct type_desc){ "s64", "%Ld", 8, true };
	case FETCH_TYPE_X8:  return (struct type_desc){ "u8", "0x%x", 1, false };
	case FETCH_TYPE_X16: return (struct type_desc){ "u16", "0x%x", 2, false };
	case FETCH_TYPE_X64: return (struct type_desc){ "u64", "0x%Lx", 8, false };
	case FETCH_TYPE_STRING:
	case FETCH_TYPE_USTRING:
		return (struct type_desc){ "__data_loc char[]", "\\\"%s\\\"", 4, true };
	case FETCH_TYPE_SYMBOL: return (struct type_desc){ "u32", "%pS", 4, false };
	default:	/* x32, and the default type */
		return (struct type_desc){ "u32", "0x%x", 4, false };
	}
}

static bool type_is_string(enum fetch_type type)
{
	return type == FETCH_TYPE_STRING || type == FETCH_TYPE_USTRING;
}

void trace_arg_type(int type, unsigned char *size, bool *is_signed, bool *is_string)
{
	struct type_desc d = type_desc(type);

	*size = d.size;
	*is_signed = d.is_signed;
	*is_string = type_is_string(type);
}

const char *trace_arg_type_name(int type)
{
	return type_desc(type).fmttype;
}

static void format_field(struct seq_buf *s, const char *type, const char *name,
			 unsigned int offset, unsigned int size, bool is_signed)
{
	seq_buf_printf(s, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
		   type, name, offset, size, is_signed);
}

/* An argument's C type in format: "u32", or "u32[4]" for :x32[4] (Linux's parg->fmt). */
static void arg_fmttype(char *buf, size_t size, const struct probe_arg *arg)
{
	const char *type = type_desc(arg->type).fmttype;

	if (arg->count)
		snprintf(buf, size, "%s[%d]", type, arg->count);
	else
		strlcpy(buf, type, size);
}

/* The argument's print fmt: " n=%u", or " a={%u,%u}" for an array. */
static void arg_print_fmt(struct seq_buf *s, const struct probe_arg *arg)
{
	const char *fmt = type_desc(arg->type).fmt;

	if (!arg->count) {
		seq_buf_printf(s, " %s=%s", arg->name, fmt);
		return;
	}
	seq_buf_printf(s, " %s={%s", arg->name, fmt);
	for (int j = 1; j < arg->count; j++)
		seq_buf_printf(s, ",%s", fmt);
	seq_buf_puts(s, "}");
}

/* The argument's values after print fmt: ", REC->n", ", REC->a[0], REC->a[1]". */
static void arg_print_args(struct seq_buf *s, const struct probe_arg *arg)
{
	const char *pat = type_is_string(arg->type) ? "__get_str(%s" : "REC->%s";

	for (int j = 0; j < probe_arg_slots(arg); j++) {
		seq_buf_puts(s, ", ");
		seq_buf_printf(s, pat, arg->name);
		if (arg->count)
			seq_buf_printf(s, "[%d]", j);
		if (type_is_string(arg->type))
			seq_buf_puts(s, ")");
	}
}

/*
 * Linux's layout: struct trace_entry (8 bytes on i386), the probe's
 * addresses, then each argument at the running offset, no padding.
 * trace_event_raw_record() below writes a record this way.
 */
static int format_show(struct seq_buf *s, void *data)
{
	const struct trace_probe *tp = ((struct trace_event_file *)data)->tp;
	const struct probe_event_def *def = tp->def;
	unsigned int off = 8;
	char type[PROBE_ARG_NAME_MAX + 32];
	int i;

	seq_buf_printf(s, "name: %s\nID: %u\nformat:\n", def->event, tp->id);
	format_field(s, "unsigned short", "common_type", 0, 2, false);
	format_field(s, "unsigned char", "common_flags", 2, 1, false);
	format_field(s, "unsigned char", "common_preempt_count", 3, 1, false);
	format_field(s, "int", "common_pid", 4, 4, true);
	seq_buf_puts(s, "\n");
	if (tp->type->show_format) {
		tp->type->show_format(s, tp);
		return 0;
	}
	if (tp->type->no_probe_addr) {
		/* an event probe's: PROBE_PRINT_EVENT, no address */
	} else if (def->is_return) {
		format_field(s, "unsigned long", "__probe_func", off, 4, false);
		format_field(s, "unsigned long", "__probe_ret_ip", off + 4, 4, false);
		off += 8;
	} else {
		format_field(s, "unsigned long", "__probe_ip", off, 4, false);
		off += 4;
	}
	for (i = 0; i < def->nr_args; i++) {
		struct type_desc d = type_desc(def->args[i].type);
		unsigned int size = d.size * probe_arg_slots(&def->args[i]);

		arg_fmttype(type, sizeof(type), &def->args[i]);
		format_field(s, type, def->args[i].name, off, size, d.is_signed);
		off += size;
	}
	seq_buf_printf(s, "\nprint fmt: \"%s", tp->type->no_probe_addr ? "" :
		       def->is_return ? "(%lx <- %lx)" : "(%lx)");
	for (i = 0; i < def->nr_args; i++)
		arg_print_fmt(s, &def->args[i]);
	seq_buf_printf(s, "\"%s", tp->type->no_probe_addr ? "" : def->is_return ?
		       ", REC->__probe_func, REC->__probe_ret_ip" : ", REC->__probe_ip");
	for (i = 0; i < def->nr_args; i++)
		arg_print_args(s, &def->args[i]);
	seq_buf_puts(s, "\n");
	return 0;
}

/* ---- the record as format describes it (trace_pipe_raw) ------------------------ */

/* size bytes of v at dst, least significant first: how i386 stores a number. */
static void raw_put(unsigned char *dst, uint64_t v, unsigned int size)
{
	for (unsigned int i = 0; i < size; i++, v >>= 8)
		dst[i] = (unsigned char)v;
}

/* Linux's struct trace_entry: type, flags, preempt count, pid (8 bytes). */
static void raw_put_common(unsigned char *dst, const struct trace_entry *e)
{
	raw_put(dst, e->event_id, 2);
	raw_put(dst + 2, e->flags & TRACE_FLAG_IRQS_OFF, 1);	/* Linux's bit too */
	raw_put(dst + 3, e->preempt, 1);
	raw_put(dst + 4, (uint32_t)e->pid, 4);
}

/* Bytes before the strings: what format's offsets add up to. */
static unsigned int raw_fixed_size(const struct trace_probe *tp)
{
	const struct probe_event_def *def = tp->def;
	unsigned int off = TRACE_ENTRY_RAW_SIZE;

	if (!tp->type->no_probe_addr)
		off += def->is_return ? 2 * sizeof(uint32_t) : sizeof(uint32_t);
	for (int i = 0; i < def->nr_args; i++)
		off += type_desc(def->args[i].type).size * probe_arg_slots(&def->args[i]);
	return off;
}

/*
 * One value: a number in its type's size, a string as Linux's
 * __data_loc (length with the NUL in the upper 16 bits, the offset from
 * the record's start in the lower) pointing at its bytes after the
 * fixed fields.  A string that faulted has length 0: "(fault)".
 * Returns the string bytes added at *dyn, or -ENOSPC.
 */
static int raw_put_value(unsigned char *rec, size_t size, unsigned int off, unsigned int dyn,
			 const struct trace_entry *e, const struct probe_arg *arg,
			 const struct fetch_value *v)
{
	unsigned int len = v->fault ? 0 : v->str_len + 1;

	if (!type_is_string(arg->type)) {
		raw_put(rec + off, v->raw, type_desc(arg->type).size);
		return 0;
	}
	if (dyn + len > size || (len && v->str_off + v->str_len > e->len))
		return -ENOSPC;
	raw_put(rec + off, (uint32_t)len << 16 | dyn, 4);
	if (len) {
		memcpy(rec + dyn, e->payload + v->str_off, v->str_len);
		rec[dyn + v->str_len] = '\0';
	}
	return len;
}

/*
 * Write record e as Linux lays it out, as the event's format file says,
 * into rec[0..size): its length, 0 if its event has no such layout here
 * (the function tracers' records, trace_marker's), or -ENOSPC.
 */
int trace_event_raw_record(const struct trace_entry *e, void *buf, size_t size)
{
	const struct trace_event_file *file = trace_event_file_by_id(e->event_id);
	const struct probe_event_def *def;
	unsigned int off, dyn, slot = 0;
	unsigned char *rec = buf;
	struct fetch_value v;

	if (!file)
		return 0;
	if (file->tp->type->show_format) {	/* a layout of its own: the type writes it */
		int n;

		if (!file->tp->type->raw_record)
			return 0;
		if (size < TRACE_ENTRY_RAW_SIZE)
			return -ENOSPC;
		n = file->tp->type->raw_record(file->tp, e, rec + TRACE_ENTRY_RAW_SIZE,
					       size - TRACE_ENTRY_RAW_SIZE);
		if (n >= 0)
			raw_put_common(rec, e);
		return n < 0 ? n : TRACE_ENTRY_RAW_SIZE + n;
	}
	def = file->tp->def;
	off = TRACE_ENTRY_RAW_SIZE;
	dyn = raw_fixed_size(file->tp);
	if (dyn > size)
		return -ENOSPC;
	raw_put_common(rec, e);
	if (!file->tp->type->no_probe_addr) {
		raw_put(rec + off, e->ip, sizeof(uint32_t));	/* __probe_ip, __probe_func */
		off += sizeof(uint32_t);
		if (def->is_return) {
			raw_put(rec + off, e->ret_ip, sizeof(uint32_t));
			off += sizeof(uint32_t);
		}
	}
	for (int i = 0; i < def->nr_args; i++)
		for (int j = 0; j < probe_arg_slots(&def->args[i]); j++, slot++) {
			int n;

			if ((slot + 1) * sizeof(v) > e->len)
				return -ENOSPC;
			memcpy(&v, e->payload + slot * sizeof(v), sizeof(v));
			n = raw_put_value(rec, size, off, dyn, e, &def->args[i], &v);
			if (n < 0)
				return n;
			dyn += n;
			off += type_desc(def->args[i].type).size;
		}
	return dyn;
}

/* ---- the event's directory ------------------------------------------------------ */

LIST_HEAD(trace_event_files);

/* Linux's files, in its order (ls sorts them so). */
static const struct pseudo_file_spec event_files[] = {
	{ "enable",  enable_show,              enable_write },
	{ "filter",  trace_event_filter_show,  trace_event_filter_write },
	{ "format",  format_show,              NULL },
	{ "hist",    trace_event_hist_show,    NULL },
	{ "id",      id_show,                  NULL },
	{ "trigger", trace_event_trigger_show, trace_event_trigger_write },
};

static void remove_event_files(struct trace_event_file *file)
{
	char path[PSEUDOFS_PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(event_files); i++) {
		snprintf(path, sizeof(path), "%s/%s", file->dir, event_files[i].name);
		pseudofs_remove(path);
	}
}

static int create_event_files(struct trace_event_file *file)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(event_files) && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", file->dir, event_files[i].name);
		ret = pseudofs_create(path, event_files[i].show, event_files[i].write, file);
	}
	if (ret)
		remove_event_files(file);
	return ret;
}

int trace_event_dir_add(struct trace_probe *tp)
{
	struct trace_event_file *file = kzalloc(sizeof(*file));
	int ret;

	if (!file)
		return -ENOMEM;
	file->tp = tp;
	file->tr = &global_trace;
	INIT_LIST_HEAD(&file->triggers);
	INIT_LIST_HEAD(&file->eprobes);
	snprintf(file->dir, sizeof(file->dir), TRACEFS_DIR "/events/%s/%s",
		 tp->def->group, tp->def->event);
	ret = group_file_get(tp->type, tp->def->group);
	if (ret == 0 && (ret = create_event_files(file)) != 0)
		group_file_put(tp->type, tp->def->group);
	if (ret) {
		kfree(file);
		return ret;
	}
	tp->event_file = file;
	list_add_tail(&file->list, &trace_event_files);
	ret = trace_instances_event_add(tp);
	if (ret)
		trace_event_dir_remove(tp);
	return ret;
}

void trace_event_dir_remove(struct trace_probe *tp)
{
	struct trace_event_file *file = tp->event_file;

	trace_instances_event_remove(tp);
	remove_event_files(file);
	group_file_put(tp->type, tp->def->group);
	list_del(&file->list);
	WRITE_ONCE(tp->event_file, NULL);
	synchronize_kprobes();		/* a hit on another CPU may still hold file */
	trace_event_triggers_free(file);
	trace_event_filter_free(file);
	kfree(file);
}

struct trace_event_file *trace_event_file_find(const char *group, const char *event)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &trace_event_files, list)
		if ((!group || strcmp(file->tp->def->group, group) == 0) &&
		    strcmp(file->tp->def->event, event) == 0)
			return file;
	return NULL;
}

/* The top level's file of the event whose records have this id, or NULL. */
const struct trace_event_file *trace_event_file_by_id(unsigned int id)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &trace_event_files, list)
		if (file->tp->id == id)
			return file;
	return NULL;
}

/* A record of an event whose type prints its own (syscalls, eprobes); false if none. */
bool trace_event_print(struct seq_buf *s, const struct trace_entry *e)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &trace_event_files, list)
		if (file->tp->id == e->event_id && file->tp->type->print) {
			file->tp->type->print(s, file->tp, e);
			return true;
		}
	return false;
}

/* ---- an instance's events/ (instances/NAME/events) -------------------------------- */

/*
 * An instance's event directory is a trace_event_file of its own (Linux
 * gives each trace array one per event): its filter, its triggers and
 * hists, its soft mode, with file->tr the instance.  The top level's
 * file finds it by the instance's id (instance_files[]), as a hit does.
 */
/* The event's first probe went: the top level's file and every instance's speak of tp. */
void trace_event_file_set_tp(struct trace_event_file *file, struct trace_probe *tp)
{
	file->tp = tp;
	for (int id = 0; id < TRACE_ARRAY_MAX; id++)
		if (file->instance_files[id])
			file->instance_files[id]->tp = tp;
}

/* root/events/GROUP/EVENT/name, or root/events/GROUP/name when event is NULL. */
static void instance_path(char *buf, const char *root, const struct trace_probe *tp,
			  const char *event, const char *name)
{
	if (event)
		snprintf(buf, PSEUDOFS_PATH_MAX, "%s/events/%s/%s/%s", root, tp->def->group,
			 event, name);
	else
		snprintf(buf, PSEUDOFS_PATH_MAX, "%s/events/%s/%s", root, tp->def->group, name);
}

/* The instance's events/GROUP/enable and filter, made with the group's first event there. */
static int instance_group_get(const char *root, int id, struct trace_probe *tp)
{
	char path[PSEUDOFS_PATH_MAX];
	struct group_file *g;
	int ret;

	instance_path(path, root, tp, NULL, "enable");
	if (pseudofs_lookup(path))
		return 0;
	g = kzalloc(sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->type = tp->type;
	g->instance = id;
	strlcpy(g->name, tp->def->group, sizeof(g->name));
	ret = pseudofs_create(path, group_enable_show, group_enable_write, g);
	instance_path(path, root, tp, NULL, "filter");
	if (ret == 0 && (ret = pseudofs_create(path, trace_group_filter_show,
					       trace_group_filter_write, g)) != 0) {
		instance_path(path, root, tp, NULL, "enable");
		pseudofs_remove(path);
	}
	if (ret)
		kfree(g);
	return ret;
}

/* ...and gone with the last event of the group that has files there. */
static void instance_group_put(const char *root, struct trace_probe *tp)
{
	char path[PSEUDOFS_PATH_MAX];
	struct trace_event_file *file;
	void *g;

	list_for_each_entry(file, &trace_event_files, list) {
		if (file->tp == tp || file->tp->type != tp->type ||
		    strcmp(file->tp->def->group, tp->def->group) != 0)
			continue;
		instance_path(path, root, tp, file->tp->def->event, "enable");
		if (pseudofs_lookup(path))
			return;
	}
	instance_path(path, root, tp, NULL, "filter");
	pseudofs_remove(path);
	instance_path(path, root, tp, NULL, "enable");
	g = pseudofs_data(path);
	if (pseudofs_remove(path) == 0) {
		kfree(((struct group_file *)g)->filter_text);
		kfree(g);
	}
}

/* Linux's instance event directory: the top level's files (event_files), on the instance's file. */
void trace_event_instance_remove(struct trace_array *tr, struct trace_probe *tp)
{
	struct trace_event_file *top = tp->event_file, *file = top->instance_files[tr->id];
	char path[PSEUDOFS_PATH_MAX];

	if (!file)
		return;
	trace_event_enable_in(tp, tr->id, false);
	for (size_t i = 0; i < ARRAY_SIZE(event_files); i++) {
		instance_path(path, tr->dir, tp, tp->def->event, event_files[i].name);
		pseudofs_remove(path);
	}
	instance_group_put(tr->dir, tp);
	WRITE_ONCE(top->instance_files[tr->id], NULL);
	synchronize_kprobes();		/* a hit on another CPU may still hold file */
	trace_event_triggers_free(file);
	trace_event_filter_free(file);
	kfree(file);
}

int trace_event_instance_add(struct trace_array *tr, struct trace_probe *tp)
{
	struct trace_event_file *file = kzalloc(sizeof(*file));
	char path[PSEUDOFS_PATH_MAX];
	int ret = file ? instance_group_get(tr->dir, tr->id, tp) : -ENOMEM;

	if (ret) {
		kfree(file);
		return ret;
	}
	file->tp = tp;
	file->tr = tr;
	INIT_LIST_HEAD(&file->triggers);
	INIT_LIST_HEAD(&file->eprobes);
	instance_path(file->dir, tr->dir, tp, tp->def->event, "");
	file->dir[strlen(file->dir) - 1] = '\0';	/* no trailing '/' */
	tp->event_file->instance_files[tr->id] = file;
	for (size_t i = 0; i < ARRAY_SIZE(event_files) && !ret; i++) {
		instance_path(path, tr->dir, tp, tp->def->event, event_files[i].name);
		ret = pseudofs_create(path, event_files[i].show,
				      event_files[i].write, file);
	}
	if (ret)
		trace_event_instance_remove(tr, tp);
	return ret;
}

/* ---- every event: events/enable, set_event, available_events --------------------- */

/* The top level's files have no data; an instance's have its trace_array. */
static int data_instance(void *data)
{
	return data ? ((struct trace_array *)data)->id : TRACE_ARRAY_TOP;
}

static int all_enable_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file;
	bool some_on = false, some_off = false;

	list_for_each_entry(file, &trace_event_files, list) {
		some_on |= trace_event_enabled_in(file->tp, data_instance(data));
		some_off |= !trace_event_enabled_in(file->tp, data_instance(data));
	}
	seq_buf_puts(s, some_on && some_off ? "X\n" : some_on ? "1\n" : "0\n");
	return 0;
}

static int all_enable_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_event_file *file;
	int ret = 0;
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	list_for_each_entry(file, &trace_event_files, list)
		if (!ret)
			ret = trace_event_enable_in(file->tp, data_instance(data), on);
	return ret;
}

static int available_events_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &trace_event_files, list)
		seq_buf_printf(s, "%s:%s\n", file->tp->def->group, file->tp->def->event);
	return 0;
}

int trace_set_event_show(struct seq_buf *s, void *data)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &trace_event_files, list)
		if (trace_event_enabled_in(file->tp, data_instance(data)))
			seq_buf_printf(s, "%s:%s\n", file->tp->def->group, file->tp->def->event);
	return 0;
}

/* Does a set_event pattern part ("", "*" or a name) take this name? */
static bool name_matches(const char *pat, size_t len, const char *name)
{
	if (len == 0 || (len == 1 && pat[0] == '*'))
		return true;
	return strlen(name) == len && strncmp(pat, name, len) == 0;
}

/*
 * One word of set_event, Linux's forms: GROUP:EVENT, GROUP:* (or
 * GROUP:), *:EVENT (or :EVENT), and NAME alone for a group or an event
 * of that name; '!' in front disables.  -EINVAL when nothing matches.
 */
static int set_event_word(const char *w, size_t len, int id)
{
	bool on = true, found = false;
	const char *colon;
	struct trace_event_file *file;
	int ret = 0;

	if (len && w[0] == '!') {
		on = false;
		w++;
		len--;
	}
	for (colon = w; colon < w + len && *colon != ':'; colon++)
		;
	if (colon == w + len)
		colon = NULL;
	list_for_each_entry(file, &trace_event_files, list) {
		const struct probe_event_def *def = file->tp->def;
		bool match = colon ?
			name_matches(w, colon - w, def->group) &&
			name_matches(colon + 1, len - (colon + 1 - w), def->event) :
			name_matches(w, len, def->group) || name_matches(w, len, def->event);

		if (match && len) {
			found = true;
			if (!ret)
				ret = trace_event_enable_in(file->tp, id, on);
		}
	}
	return ret ? ret : found ? 0 : -EINVAL;
}

/* `>` disables every event first, as Linux's open with O_TRUNC does. */
int trace_set_event_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_event_file *file;
	size_t i = 0, start;
	int ret = 0;

	if (trunc)
		list_for_each_entry(file, &trace_event_files, list)
			trace_event_enable_in(file->tp, data_instance(data), false);
	while (i < len && !ret) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'))
			i++;
		start = i;
		while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '\n')
			i++;
		if (i > start)
			ret = set_event_word(text + start, i - start, data_instance(data));
	}
	return ret;
}

/*
 * Linux's ring buffer page and record header, as tools (trace-cmd,
 * libtraceevent) read them to decode trace_pipe_raw, for i386: an 8-byte
 * timestamp, a 4-byte commit count, then 4084 bytes of data.  This
 * kernel has no raw page files (docs/tracing.md): the text is Linux's,
 * for scripts that read it.
 */
static int header_page_show(struct seq_buf *s, void *data)
{
	seq_buf_puts(s, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		     "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
		     "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		     "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n");
	return 0;
}

static int header_event_show(struct seq_buf *s, void *data)
{
	seq_buf_puts(s, "# compressed entry header\n"
		     "\ttype_len    :    5 bits\n"
		     "\ttime_delta  :   27 bits\n"
		     "\tarray       :   32 bits\n"
		     "\n"
		     "\tpadding     : type == 29\n"
		     "\ttime_extend : type == 30\n"
		     "\ttime_stamp : type == 31\n"
		     "\tdata max type_len  == 28\n");
	return 0;
}

static const struct pseudo_file_spec events_files[] = {
	{ "events/enable",    all_enable_show,       all_enable_write },
	{ "events/header_event", header_event_show,  NULL },
	{ "events/header_page", header_page_show,    NULL },
	{ "set_event",        trace_set_event_show,  trace_set_event_write },
	{ "available_events", available_events_show, NULL },
};

int trace_events_init(void)
{
	return pseudofs_create_files(TRACEFS_DIR, events_files, ARRAY_SIZE(events_files));
}

/* An instance's events/enable, then every event's directory. */
int trace_event_instance_init(const char *root, struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	struct trace_event_file *file;
	int ret;

	snprintf(path, sizeof(path), "%s/events/enable", root);
	ret = pseudofs_create(path, all_enable_show, all_enable_write, tr);
	list_for_each_entry(file, &trace_event_files, list)
		if (!ret)
			ret = trace_event_instance_add(tr, file->tp);
	return ret;
}
