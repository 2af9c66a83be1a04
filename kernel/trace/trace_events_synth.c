/*
 * trace_events_synth.c - synthetic events and tracefs' synthetic_events
 * file (Linux's kernel/trace/trace_events_synth.c):
 *
 *   echo 'sort_lat u64 lat; int pid' >> synthetic_events   define one
 *   cat synthetic_events           sort_lat	u64 lat; int pid
 *   echo '!sort_lat' >> synthetic_events                       remove it
 *   echo 's:sort_lat u64 lat' >> dynamic_events     the same, Linux 6.0+:
 *   echo '-:synthetic/sort_lat' >> dynamic_events   "s:[synthetic/]NAME FIELDS"
 *
 * A synthetic event is a struct trace_probe of its own type with no
 * probe behind it: trace_events.c gives it its events/synthetic/NAME
 * directory, trace.c takes its records through the filter and the
 * triggers, and only a hist trigger's action (trace_events_hist.c)
 * fires it, with a value for each field.  Its record is laid out as a
 * probe's, one struct fetch_value per field and a string's bytes after
 * them, so filters and hist triggers read its fields as they read a
 * probe's arguments; format shows Linux's layout.
 *
 * Linux's numeric field types are taken, and its strings: "char
 * comm[16]" (a char[16] the record keeps STR_VAR_LEN_MAX bytes for, in
 * Linux's layout) and "char name[]" (a __data_loc char[]: as long as
 * the string).  long[] stacks (Linux 6.5) and gfp_t flags (no GFP
 * flags here) are "Invalid type".
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_synth.h"
#include "probe_events.h"
#include "pseudofs.h"
#include "smp.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include <asm/irqflags.h>

/* Linux's SYNTH_ERR_* messages, with our codes. */
#define SYNTH_ERRORS                                                                   \
	E(BAD_NAME,          "Illegal name")                                           \
	E(INVALID_CMD,       "Command must be of the form: <name> field[;field] ...")  \
	E(EVENT_EXISTS,      "Event already exists")                                   \
	E(TOO_MANY_FIELDS,   "Too many fields")                                        \
	E(INCOMPLETE_TYPE,   "Incomplete type")                                        \
	E(INVALID_TYPE,      "Invalid type")                                           \
	E(INVALID_FIELD,     "Invalid field")                                          \
	E(INVALID_ARRAY_SPEC, "Invalid array specification")                           \
	E(INVALID_DYN_CMD,   "Command must be of the form: s or -:[synthetic/]<name> field[;field] ...")

#define E(code, msg) SYNTH_ERR_##code,
enum synth_err { SYNTH_ERRORS };
#undef E
#define E(code, msg) msg,
static const char *const synth_err_text[] = { SYNTH_ERRORS };
#undef E

static LIST_HEAD(synth_events);

#define DATA_LOC "__data_loc "	/* a char[] field's type in format: where its bytes are */

/* The types Linux's synth_field_size() knows that this kernel can hold. */
static const struct { const char *name; unsigned char size; } synth_types[] = {
	{ "s64", 8 }, { "u64", 8 }, { "s32", 4 }, { "u32", 4 }, { "s16", 2 }, { "u16", 2 },
	{ "s8", 1 }, { "u8", 1 }, { "char", 1 }, { "unsigned char", 1 }, { "int", 4 },
	{ "unsigned int", 4 }, { "long", sizeof(long) }, { "unsigned long", sizeof(long) },
	{ "bool", 1 }, { "pid_t", 4 },
};

static int synth_set_enabled(struct trace_probe *tp, bool on)
{
	return 0;			/* no probe to arm: the enable file is the whole switch */
}

static void synth_destroy(struct trace_probe *tp)
{
	trace_probe_cleanup(tp);
	kfree(container_of(tp, struct synth_event, tp));
}

static void synth_show_format(struct seq_buf *s, const struct trace_probe *tp);
static int synth_raw_record(const struct trace_probe *tp, const struct trace_entry *e,
			    unsigned char *buf, size_t size);

static const struct trace_probe_type synth_type = {
	.subsys = "synthetic_events",
	.events_file = "synthetic_events",
	.events = &synth_events,
	.set_enabled = synth_set_enabled,
	.destroy = synth_destroy,
	.show_format = synth_show_format,
	.no_probe_addr = true,
	.raw_record = synth_raw_record,
};

struct synth_event *synth_event_find(const char *name)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, &synth_events, list)
		if (strcmp(tp->def->event, name) == 0)
			return container_of(tp, struct synth_event, tp);
	return NULL;
}

/* ---- a record --------------------------------------------------------------------- */

#define SYNTH_NEST_MAX 2	/* a synthetic event's trigger may fire one more */

static struct trace_entry synth_records[NR_CPUS][SYNTH_NEST_MAX];
static int synth_depth[NR_CPUS];

static uint64_t synth_field_value(const struct synth_field *f, uint64_t v)
{
	int shift = 64 - f->size * 8;

	if (f->size >= 8)
		return v;
	v &= (1ULL << (f->size * 8)) - 1;	/* stored at its size, as Linux's */
	return f->is_signed ? (uint64_t)((int64_t)(v << shift) >> shift) : v;
}

/*
 * A string field: the bytes after the values, as a probe's :string
 * (str_off, str_len), cut short where the record ends.  *used: bytes
 * of the payload taken so far.
 */
static void synth_store_string(struct trace_entry *e, struct fetch_value *fv, const char *str,
			       size_t *used)
{
	size_t len = str ? strnlen(str, STR_VAR_LEN_MAX - 1) : 0;

	if (len > TRACE_PAYLOAD_MAX - *used)
		len = TRACE_PAYLOAD_MAX - *used;
	memcpy(e->payload + *used, str, len);
	*fv = (struct fetch_value){ .str_off = *used, .str_len = len };
	*used += len;
}

void synth_event_trace(struct synth_event *se, const uint64_t *vals, struct pt_regs *regs)
{
	int cpu = smp_processor_id(), depth = synth_depth[cpu];
	struct fetch_value *fv, v;
	struct trace_entry *e;
	size_t used;

	if (!READ_ONCE(se->tp.enabled) || depth == SYNTH_NEST_MAX)
		return;
	synth_depth[cpu]++;
	e = &synth_records[cpu][depth];
	e->ts = trace_clock();
	e->event_id = se->tp.id;
	e->cpu = cpu;
	e->pid = task_pid(current);
	strlcpy(e->comm, task_name(current), sizeof(e->comm));
	e->flags = 0;
	e->preempt = preempt_count();
	e->ip = e->ret_ip = 0;
	fv = (struct fetch_value *)e->payload;
	used = se->nr_fields * sizeof(*fv);
	for (int i = 0; i < se->nr_fields; i++) {
		if (se->fields[i].is_string)
			synth_store_string(e, &v, (const char *)(uintptr_t)vals[i], &used);
		else
			v = (struct fetch_value){ .raw = synth_field_value(&se->fields[i], vals[i]) };
		memcpy(&fv[i], &v, sizeof(v));
	}
	e->len = used;
	se->tp.recorded = true;
	/* every trace array where it is on: Linux's trace_synth() */
	if (trace_event_top_on(&se->tp))
		trace_event_commit(&se->tp, e, regs);
	if (trace_event_instances_on(&se->tp))
		trace_instances_commit(&se->tp, e, regs);
	synth_depth[cpu]--;
}
NOKPROBE_SYMBOL(synth_field_value);
NOKPROBE_SYMBOL(synth_store_string);
NOKPROBE_SYMBOL(synth_event_trace);

/* "sort_lat: lat=12 pid=3", Linux's print_synth_event(). */
bool trace_synth_print(struct seq_buf *s, const struct trace_entry *e)
{
	struct synth_event *se = NULL;
	struct trace_probe *tp;
	struct fetch_value v;

	list_for_each_entry(tp, &synth_events, list)
		if (tp->id == e->event_id)
			se = container_of(tp, struct synth_event, tp);
	if (!se)
		return false;
	seq_buf_printf(s, "%s: ", se->tp.def->event);
	for (int i = 0; i < se->nr_fields && (i + 1) * sizeof(v) <= e->len; i++) {
		const char *sep = i == se->nr_fields - 1 ? "" : " ";

		memcpy(&v, e->payload + i * sizeof(v), sizeof(v));
		if (se->fields[i].is_string && v.str_off + v.str_len <= e->len)
			seq_buf_printf(s, "%s=%.*s%s", se->tp.def->args[i].name, v.str_len,
				       e->payload + v.str_off, sep);
		else
			seq_buf_printf(s, se->fields[i].is_signed ? "%s=%lld%s" : "%s=%llu%s",
				       se->tp.def->args[i].name, (long long)v.raw, sep);
	}
	seq_buf_puts(s, "\n");
	return true;
}

/* ---- format --------------------------------------------------------------------------- */

/* printf's conversion Linux's synth_field_fmt() gives the type. */
static const char *field_fmt(const struct synth_field *f)
{
	if (f->is_string)
		return "%s";
	if (f->size == 8)
		return f->is_signed ? "%lld" : "%llu";
	if (strcmp(f->type, "long") == 0)
		return "%ld";
	if (strcmp(f->type, "unsigned long") == 0)
		return "%lu";
	return f->is_signed ? "%d" : "%u";
}

/*
 * "char[16]" and "comm" as format declares them: "char comm[]", its
 * size on the line (what Linux 6.1's synthetic format shows).
 */
static void field_decl(struct seq_buf *s, const char *type, const char *name)
{
	const char *array = strchr(type, '[');

	if (!array || !strncmp(type, DATA_LOC, sizeof(DATA_LOC) - 1))
		seq_buf_printf(s, "%s %s", type, name);
	else
		seq_buf_printf(s, "%.*s %s[]", (int)(array - type), type, name);
}

/*
 * After the common fields: a u64 slot a field, STR_VAR_LEN_MAX bytes a
 * char[N] (Linux's synth_event_define_fields()).
 */
static void synth_show_format(struct seq_buf *s, const struct trace_probe *tp)
{
	const struct synth_event *se = container_of(tp, struct synth_event, tp);
	unsigned int offset = 8;	/* after struct trace_entry on i386 */
	int i;

	for (i = 0; i < se->nr_fields; i++) {
		const struct synth_field *f = &se->fields[i];

		seq_buf_puts(s, "\tfield:");
		field_decl(s, f->type, tp->def->args[i].name);
		seq_buf_printf(s, ";\toffset:%u;\tsize:%u;\tsigned:%d;\n", offset, f->size,
			       f->is_signed);
		offset += f->is_string && !f->is_dynamic ? STR_VAR_LEN_MAX : sizeof(uint64_t);
	}
	seq_buf_puts(s, "\nprint fmt: \"");
	for (i = 0; i < se->nr_fields; i++)
		seq_buf_printf(s, "%s=%s%s", tp->def->args[i].name, field_fmt(&se->fields[i]),
			       i == se->nr_fields - 1 ? "" : ", ");
	seq_buf_puts(s, "\"");
	for (i = 0; i < se->nr_fields; i++)
		seq_buf_printf(s, se->fields[i].is_dynamic ? ", __get_str(%s)" : ", REC->%s",
			       tp->def->args[i].name);
	seq_buf_puts(s, "\n");
}

/*
 * The record as format says (trace_pipe_raw): field i in a u64 slot at
 * 8 * i after the common fields, its size bytes first, the rest zero.
 */
static int synth_raw_record(const struct trace_probe *tp, const struct trace_entry *e,
			    unsigned char *buf, size_t size)
{
	const struct synth_event *se = container_of(tp, struct synth_event, tp);
	size_t len = se->nr_fields * sizeof(uint64_t);

	if (len > size || len > e->len / sizeof(struct fetch_value) * sizeof(uint64_t))
		return -ENOSPC;
	memset(buf, 0, len);
	for (int i = 0; i < se->nr_fields; i++) {
		struct fetch_value v;

		memcpy(&v, e->payload + i * sizeof(v), sizeof(v));
		memcpy(buf + i * sizeof(uint64_t), &v.raw,	/* little-endian */
		       se->fields[i].size < sizeof(uint64_t) ? se->fields[i].size : sizeof(uint64_t));
	}
	return len;
}

/* ---- synthetic_events: defining and removing ---------------------------------------- */

static char *skip_blanks(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void synth_err(enum synth_err code, const char *cmd, const char *token)
{
	const char *at = token && *token ? strstr(cmd, token) : NULL;	/* Linux's errpos() */

	trace_probe_log_error(&synth_type, cmd, strlen(cmd), at ? at - cmd : 0,
			      synth_err_text[code]);
}

/* Linux's is_good_name(): a C identifier. */
static bool is_good_name(const char *name, size_t max)
{
	if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') || *name == '_'))
		return false;
	for (size_t i = 1; name[i]; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return strlen(name) < max;
}

#define SYNTH_WORDS_MAX (3 * SYNTH_FIELDS_MAX)

/* Split s (changed) at blanks, as Linux's argv_split(): the number of words. */
static int split_words(char *s, char **w, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s || n == max)
			return n;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
}

/*
 * "char[N]": N, 1 to STR_VAR_LEN_MAX; "char[]": 0, a dynamic string;
 * anything else -1 (Linux's synth_field_string_size()).
 */
static int string_size(const char *type)
{
	const char *start = type + 5, *end = strchr(type, ']');
	unsigned long n;

	if (strncmp(type, "char[", 5) || !end || end[1] || end - start > 3)
		return -1;
	if (end == start)
		return 0;
	if (kstrntoul(start, end - start, 0, &n) || n == 0 || n > STR_VAR_LEN_MAX)
		return -1;
	return n;
}

static int type_size(const char *type)
{
	for (size_t i = 0; i < ARRAY_SIZE(synth_types); i++)
		if (strcmp(type, synth_types[i].name) == 0)
			return synth_types[i].size;
	return 0;
}

/* A record's field as a fetch type: how filters and hist triggers read it. */
static uint8_t fetch_type_of(const struct synth_field *f)
{
	if (f->is_string)
		return FETCH_TYPE_STRING;
	static const uint8_t types[2][9] = {
		{ [1] = FETCH_TYPE_U8, [2] = FETCH_TYPE_U16, [4] = FETCH_TYPE_U32, [8] = FETCH_TYPE_U64 },
		{ [1] = FETCH_TYPE_S8, [2] = FETCH_TYPE_S16, [4] = FETCH_TYPE_S32, [8] = FETCH_TYPE_S64 },
	};

	return types[f->is_signed][f->size];
}

/*
 * "comm[16]": the name is "comm", and "[16]" goes to the type, which
 * becomes "char[16]", as Linux's parse_synth_field() does.  The name
 * is checked here.
 */
static int split_array(char *type, size_t size, char *name, const char *cmd)
{
	char *array = strchr(name, '[');

	if (array && strlen(type) + strlen(array) >= SYNTH_TYPE_LEN) {
		synth_err(SYNTH_ERR_INVALID_TYPE, cmd, name);
		return -EINVAL;
	}
	if (array) {
		strlcat(type, array, size);
		*array = '\0';
	}
	if (!is_good_name(name, PROBE_ARG_NAME_MAX + 1)) {
		synth_err(SYNTH_ERR_BAD_NAME, cmd, name);
		return -EINVAL;
	}
	return 0;
}

/* A number's size and sign, or a string's (Linux's synth_field_size() and the rest). */
static int set_field_type(struct synth_field *f, const char *type, const char *word,
			  const char *array_name, const char *cmd)
{
	int size = strchr(type, '[') ? string_size(type) : type_size(type);

	if (size < 0 && array_name && !strncmp(type, "char[", 5)) {
		synth_err(SYNTH_ERR_INVALID_ARRAY_SPEC, cmd, array_name);	/* "who[300]" */
		return -EINVAL;
	}
	if (size < 0 || (size == 0 && !strchr(type, '['))) {
		synth_err(SYNTH_ERR_INVALID_TYPE, cmd, word);	/* the type as written */
		return -EINVAL;
	}
	memset(f, 0, sizeof(*f));
	f->is_string = strchr(type, '[') != NULL;
	f->is_dynamic = f->is_string && size == 0;
	snprintf(f->type, sizeof(f->type), "%s%s", f->is_dynamic ? DATA_LOC : "", type);
	f->size = f->is_dynamic ? (int)sizeof(uint64_t) : size;
	f->is_signed = type[0] != 'u';		/* Linux's synth_field_signed() */
	return 0;
}

/* "TYPE NAME" or "unsigned TYPE NAME" at w[*i]: one field of def, Linux's parse_synth_field(). */
static int parse_field(const char *cmd, char **w, int argc, int *i, struct probe_event_def *def,
		       struct synth_field *f)
{
	char type[SYNTH_TYPE_LEN + 8], array_name[PROBE_ARG_NAME_MAX + 8], *name;

	if (strcmp(w[*i], "unsigned") == 0) {
		if (argc - *i < 3) {
			synth_err(SYNTH_ERR_INCOMPLETE_TYPE, cmd, w[*i]);
			return -EINVAL;
		}
		snprintf(type, sizeof(type), "unsigned %s", w[*i + 1]);
		name = w[*i + 2];
		*i += 3;
	} else {
		if (argc - *i < 2) {
			synth_err(SYNTH_ERR_INVALID_FIELD, cmd, w[*i]);
			return -EINVAL;
		}
		strlcpy(type, w[*i], sizeof(type));
		name = w[*i + 1];
		*i += 2;
	}
	strlcpy(array_name, name, sizeof(array_name));
	if (split_array(type, sizeof(type), name, cmd) ||
	    set_field_type(f, type, w[*i - 2], strchr(array_name, '[') ? array_name : NULL, cmd))
		return -EINVAL;
	if (def->nr_args == SYNTH_FIELDS_MAX) {
		synth_err(SYNTH_ERR_TOO_MANY_FIELDS, cmd, NULL);
		return -EINVAL;
	}
	strlcpy(def->args[def->nr_args].name, name, sizeof(def->args[0].name));
	strlcpy(def->args[def->nr_args].comm, f->type, sizeof(def->args[0].comm));	/* its C type */
	def->args[def->nr_args].type = fetch_type_of(f);
	def->nr_args++;
	return 0;
}

/* "u64 lat; int pid": fields separated by ';' (Linux's older blank-only form too). */
static int parse_fields(const char *cmd, char *fields, struct probe_event_def *def,
			struct synth_field *f)
{
	char *w[SYNTH_WORDS_MAX], *seg, *next;
	int argc, ret;

	for (seg = fields; seg; seg = next) {
		next = strchr(seg, ';');
		if (next)
			*next++ = '\0';
		argc = split_words(seg, w, SYNTH_WORDS_MAX);
		for (int i = 0; i < argc; )
			if ((ret = parse_field(cmd, w, argc, &i, def, &f[def->nr_args])) != 0)
				return ret;
	}
	if (def->nr_args == 0) {
		synth_err(SYNTH_ERR_INVALID_CMD, cmd, NULL);
		return -EINVAL;
	}
	return 0;
}

static int register_synth(struct probe_event_def *def, const struct synth_field *fields)
{
	struct synth_event *se = kzalloc(sizeof(*se));
	int ret;

	if (!se)
		return -ENOMEM;
	se->nr_fields = def->nr_args;
	memcpy(se->fields, fields, sizeof(se->fields));
	ret = trace_probe_init(&se->tp, &synth_type, def);
	if (ret == 0 && (ret = trace_event_dir_add(&se->tp)) != 0)
		trace_probe_cleanup(&se->tp);
	if (ret) {
		kfree(se);
		return ret;
	}
	se->tp.id = trace_probe_alloc_id();
	list_add_tail(&se->tp.list, &synth_events);
	return 0;
}

/* Linux's __create_synth_event(): name first, then each field. */
static int create_synth(const char *cmd, const char *name, char *fields)
{
	static struct probe_event_def *def;	/* 22 KiB: one, on the heap */
	static struct synth_field f[SYNTH_FIELDS_MAX];
	int ret;

	if (!def && !(def = kmalloc(sizeof(*def))))
		return -ENOMEM;
	if (!is_good_name(name, PROBE_NAME_LEN)) {
		synth_err(SYNTH_ERR_BAD_NAME, cmd, name);
		return -EINVAL;
	}
	if (synth_event_find(name)) {
		synth_err(SYNTH_ERR_EVENT_EXISTS, cmd, name);
		return -EEXIST;
	}
	memset(def, 0, offsetof(struct probe_event_def, args));
	def->cmd = PROBE_CMD_ADD;
	strlcpy(def->group, SYNTH_SYSTEM, sizeof(def->group));
	strlcpy(def->event, name, sizeof(def->event));
	ret = parse_fields(cmd, fields, def, f);
	return ret ? ret : register_synth(def, f);
}

/* Can se go?  Not while an action traces it, it is enabled, or its variables are used. */
static bool synth_busy(struct synth_event *se)
{
	return se->ref || se->tp.enabled || trace_event_busy(se->tp.event_file);
}

static void free_synth(struct synth_event *se)
{
	bool recorded = se->tp.recorded;

	list_del(&se->tp.list);
	trace_event_dir_remove(&se->tp);
	synth_destroy(&se->tp);
	if (recorded)		/* its records could no longer be printed */
		trace_buffer_reset(TRACE_ALL_CPUS);
}

static int delete_synth(const char *name)
{
	struct synth_event *se = synth_event_find(name);

	if (!se)
		return -ENOENT;
	if (synth_busy(se))
		return -EBUSY;
	free_synth(se);
	return 0;
}

/*
 * "NAME FIELDS" (text, changed) of the command cmd, kept for error_log:
 * Linux's check_command() - a name and a field before the first ';' -
 * then the event.
 */
static int synth_define(const char *cmd, char *text)
{
	static char first[PROBE_LINE_MAX];
	char *w[3], *p;

	strlcpy(first, text, sizeof(first));
	if ((p = strchr(first, ';')) != NULL)
		*p = '\0';
	for (p = text; *p && *p != ' ' && *p != '\t'; p++)
		;
	if (split_words(first, w, 3) < 3 || !*p) {
		synth_err(SYNTH_ERR_INVALID_CMD, cmd, NULL);
		return -EINVAL;
	}
	*p++ = '\0';
	return create_synth(cmd, text, p);
}

/* One line (Linux's create_or_delete_synth_event()); cmd is kept for error_log. */
static int synth_command(const char *cmd)
{
	static char work[PROBE_LINE_MAX];
	char *p;

	if (!*cmd)
		return 0;
	strlcpy(work, cmd, sizeof(work));
	if (work[0] != '!')
		return synth_define(cmd, work);
	for (p = work; *p && *p != ' ' && *p != '\t'; p++)
		;
	*p = '\0';
	return delete_synth(work + 1);
}

/* `echo > synthetic_events`: every event, or none if one is busy. */
static int release_all(void)
{
	struct trace_probe *tp, *n;

	list_for_each_entry(tp, &synth_events, list)
		if (synth_busy(container_of(tp, struct synth_event, tp)))
			return -EBUSY;
	list_for_each_entry_safe(tp, n, &synth_events, list)
		free_synth(container_of(tp, struct synth_event, tp));
	return 0;
}

static int synthetic_events_write(const char *text, size_t len, bool trunc, void *data)
{
	static char line[PROBE_LINE_MAX];
	int ret = trunc ? release_all() : 0;
	size_t n;

	while (len && ret == 0) {
		for (n = 0; n < len && text[n] != '\n'; n++)
			;
		if (n >= sizeof(line))
			return -E2BIG;
		memcpy(line, text, n);
		line[n] = '\0';
		if (strchr(line, '#'))		/* a comment runs to the end of the line */
			*strchr(line, '#') = '\0';
		ret = synth_command(skip_blanks(line));
		n += n < len;
		text += n;
		len -= n;
	}
	return ret;
}

/* "u64 lat; int pid": the fields as Linux's __synth_event_show() prints them. */
static void synth_fields_show(struct seq_buf *s, const struct synth_event *se)
{
	for (int i = 0; i < se->nr_fields; i++)		/* __data_loc belongs in format only */
		seq_buf_printf(s, "%s %s%s", se->fields[i].type +
			       (se->fields[i].is_dynamic ? sizeof(DATA_LOC) - 1 : 0),
			       se->tp.def->args[i].name, i == se->nr_fields - 1 ? "" : "; ");
	seq_buf_puts(s, "\n");
}

/* "sort_lat\tu64 lat; int pid", Linux's synth_events_seq_show(). */
static int synthetic_events_show(struct seq_buf *s, void *data)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, &synth_events, list) {
		seq_buf_printf(s, "%s\t", tp->def->event);
		synth_fields_show(s, container_of(tp, struct synth_event, tp));
	}
	return 0;
}

/* ---- dynamic_events' "s:" lines (Linux 6.0+'s synth_event_ops) ---------------------------- */

/*
 * "s:[synthetic/]NAME FIELDS" (Linux's create_synth_event()): the
 * same event as "NAME FIELDS" written to synthetic_events; another
 * group than "synthetic" is refused, and error_log shows the whole line.
 */
int synth_dyn_create(const char *line, size_t len)
{
	static char cmd[PROBE_LINE_MAX], work[PROBE_LINE_MAX];
	static const char prefix[] = SYNTH_SYSTEM "/";
	char *name, *blank, *slash;

	if (len >= sizeof(cmd))
		return -E2BIG;
	memcpy(cmd, line, len);
	cmd[len] = '\0';
	strlcpy(work, cmd, sizeof(work));
	name = work + 2;			/* after "s:" */
	for (blank = name; *blank && *blank != ' ' && *blank != '\t'; blank++)
		;
	if (!*blank) {
		synth_err(SYNTH_ERR_INVALID_CMD, cmd, NULL);
		return -EINVAL;
	}
	slash = strchr(name, '/');		/* anywhere in the line, as Linux looks */
	if (slash) {
		if (strncmp(name, prefix, sizeof(prefix) - 1) != 0) {
			synth_err(SYNTH_ERR_INVALID_DYN_CMD, cmd, NULL);
			return -EINVAL;
		}
		name += sizeof(prefix) - 1;
	}
	return synth_define(cmd, name);
}

/* Each one as "s:synthetic/NAME\tFIELDS" (Linux's synth_event_show()). */
void synth_dyn_show(struct seq_buf *s)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, &synth_events, list) {
		seq_buf_printf(s, "s:%s/%s\t", SYNTH_SYSTEM, tp->def->event);
		synth_fields_show(s, container_of(tp, struct synth_event, tp));
	}
}

bool synth_event_is(const struct trace_probe *tp)
{
	return tp->type == &synth_type;
}

/* "-:[synthetic/]NAME": EBUSY while it is in use, as the '!' of synthetic_events. */
int synth_dyn_release(struct trace_probe *tp)
{
	return delete_synth(tp->def->event);
}

int synth_dyn_release_all(void)
{
	return release_all();
}

static const struct pseudo_file_spec synth_files[] = {
	{ "synthetic_events", synthetic_events_show, synthetic_events_write },
};

int trace_synth_init(void)
{
	return pseudofs_create_files(TRACEFS_DIR, synth_files, ARRAY_SIZE(synth_files));
}
