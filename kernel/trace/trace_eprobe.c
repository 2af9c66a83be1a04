/*
 * trace_eprobe.c - event probes (Linux 5.15+'s kernel/trace/trace_eprobe.c):
 * an event made from another event's records.
 *
 *   echo 'e:myopen syscalls.sys_enter_open file=+0($filename):ustring' >> dynamic_events
 *   echo 1 > events/eprobes/myopen/enable
 *   exec hello
 *   cat trace        ... myopen: (syscalls.sys_enter_open) file="/dev/console"
 *
 * The line is written to dynamic_events only (Linux has no eprobe_events
 * file); lib/probe_events_parse.c's eprobe_event_parse() reads it.  A
 * fetcharg's $NAME is the attached event's field NAME, and the rest of
 * the fetcharg grammar works on it: +0($filename):ustring reads the
 * string the field points at.  "if FILTER" after the arguments chooses
 * the attached event's records an event probe takes.
 *
 * An event probe attaches, as in Linux 6.1, to the static events only
 * (here the syscalls/ events, trace_syscalls.c): not to a kprobe,
 * uprobe or event probe event ("Attached event does not exist").
 *
 * Enabling an event probe in a trace array - the top level or an
 * instance - attaches it to the attached event's file in that same trace
 * array and puts that file in soft mode (trace_event_enable_disable(),
 * as Linux's enable_eprobe() adds its trigger to find_event_file(tr,
 * ...)): the event's hits are made there, its own records only if it is
 * enabled there too.  Each hit of it in that trace array, once its
 * record is made (through that trace array's filter of it), reaches
 * trace_eprobes_run(), which makes the event probe's record in the same
 * trace array.
 */
#include "kernel.h"
#include "uaccess.h"
#include <asm/extable.h>
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_events_filter.h"
#include "probe_events.h"
#include "kprobes.h"
#include "rculist.h"
#include "smp.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"

#define EPROBE_FIELDS_MAX 160	/* the common fields, the addresses, PROBE_MAX_ARGS */

struct trace_eprobe;

/* An event probe on its attached event's file in one trace array (Linux's eprobe trigger). */
struct eprobe_link {
	struct list_head node;			/* on file->eprobes */
	struct trace_eprobe *ep;
	struct trace_event_file *file;		/* the attached event's, in that trace array */
	int id;					/* the trace array's */
};

struct trace_eprobe {
	struct trace_probe tp;
	struct trace_event_file *target;	/* the attached event (the top level's file) */
	struct event_filter *filter;		/* on the attached event's records; NULL: all */
	unsigned long attached;			/* the trace arrays (bits) it is attached in */
	struct eprobe_link links[TRACE_ARRAY_MAX];	/* by trace array id */
	bool string_field[EPROBE_FIELDS_MAX];	/* which target fields are text */
};

static LIST_HEAD(trace_eprobes);
static const struct trace_probe_type eprobe_type;

/* ---- the attached event ------------------------------------------------------------------ */

/* SYSTEM.EVENT, if an event probe may attach to it: a static event, no probe's. */
static struct trace_event_file *find_target(const char *system, const char *event)
{
	struct trace_event_file *file = trace_event_file_find(system, event);

	return file && file->tp->type->eprobe_target ? file : NULL;
}

static bool target_exists(const char *system, const char *event)
{
	return find_target(system, event) != NULL;
}

/* The attached event's own field NAME (not a common one, as Linux's trace_get_fields()). */
static int target_field(const char *system, const char *event, const char *name)
{
	static struct filter_field fields[EPROBE_FIELDS_MAX];
	struct trace_event_file *file = find_target(system, event);
	int n;

	if (!file)
		return -1;
	n = trace_event_fields(file, fields, EPROBE_FIELDS_MAX);
	for (int i = trace_event_arg_field(file); i < n; i++)
		if (strcmp(fields[i].name, name) == 0)
			return i;
	return -1;
}

/* Linux checks the filter once, when the line is written: error_log says why not. */
static bool target_filter_ok(const char *system, const char *event, const char *filter)
{
	struct trace_event_file *file = find_target(system, event);

	return file && trace_event_filter_check(file, filter) == 0;
}

static int eprobe_line_parse(const char *line, size_t len, struct probe_event_def *def,
			     struct probe_parse_error *err)
{
	static const struct probe_parse_ops ops = {
		.event_exists = target_exists,
		.event_field = target_field,
		.filter_ok = target_filter_ok,
	};

	return eprobe_event_parse(line, len, &ops, def, err);
}

/* ---- a hit of the attached event ---------------------------------------------------------- */

/*
 * What $FIELD reads: the attached record.  A string field is copied,
 * NUL-terminated, into this CPU's text buffer, for the :string fetch
 * reads up to a NUL and the record's strings have none.
 */
struct eprobe_hit {
	struct trace_eprobe *ep;
	const struct trace_entry *rec;
	size_t text_used;
};

#define EPROBE_TEXT_MAX (2 * TRACE_PAYLOAD_MAX)
static char eprobe_text[NR_CPUS][EPROBE_TEXT_MAX];

static unsigned long field_text(struct eprobe_hit *hit, int field)
{
	char *buf = eprobe_text[smp_processor_id()];
	size_t len;
	const char *s = trace_event_field_str(hit->ep->target, field, hit->rec, &len);

	if (hit->text_used + len + 1 > EPROBE_TEXT_MAX)
		return (unsigned long)"";	/* full: an empty string, never a stray read */
	memcpy(buf + hit->text_used, s, len);
	buf[hit->text_used + len] = '\0';
	hit->text_used += len + 1;
	return (unsigned long)(buf + hit->text_used - len - 1);
}

static unsigned long eprobe_field(const void *ctx, unsigned long field)
{
	struct eprobe_hit *hit = (struct eprobe_hit *)ctx;

	if (field < EPROBE_FIELDS_MAX && hit->ep->string_field[field])
		return field_text(hit, field);
	return (unsigned long)trace_event_field_num(hit->ep->target, field, hit->rec);
}

/* A hit of file's event: each event probe attached to file records in file's trace array. */
void trace_eprobes_run(struct trace_event_file *file, const struct trace_entry *rec,
		       struct pt_regs *regs)
{
	struct eprobe_link *link;

	list_for_each_entry_rcu(link, &file->eprobes, node) {
		struct trace_eprobe *ep = link->ep;
		struct eprobe_hit hit = { ep, rec, 0 };
		struct event_filter *f = READ_ONCE(ep->filter);
		struct fetch_ops ops = {
			.read_mem = copy_from_kernel_nofault,
			.read_user = copy_from_user_nofault,
			.comm = trace_current_comm,
			.sprint_symbol = trace_sprint_sym,
			.event_field = eprobe_field,
			.ctx = &hit,
		};

		if (f && !trace_event_filter_match(file, f, rec))
			continue;
		trace_probe_record_in(&ep->tp, &ops, regs, link->id);
	}
}
NOKPROBE_SYMBOL(field_text);
NOKPROBE_SYMBOL(eprobe_field);
NOKPROBE_SYMBOL(trace_eprobes_run);

/*
 * Attach in trace array id, or detach: the attached event's file there
 * is in soft mode while one is attached (Linux's enable_eprobe() and
 * disable_eprobe()).
 */
static int eprobe_attach_one(struct trace_eprobe *ep, int id, bool on)
{
	struct eprobe_link *link = &ep->links[id];
	struct trace_event_file *file;
	int ret;

	if (!on) {
		list_del_rcu(&link->node);
		synchronize_kprobes();		/* no hit on another CPU still walks to it */
		ep->attached &= ~(1UL << id);
		return trace_event_enable_disable(link->file, false, true);
	}
	file = id == TRACE_ARRAY_TOP ? ep->target : ep->target->instance_files[id];
	if (!file)
		return -ENOENT;		/* Linux: find_event_file() found none */
	ret = trace_event_enable_disable(file, true, true);
	if (ret)
		return ret;
	*link = (struct eprobe_link){ .ep = ep, .file = file, .id = id };
	list_add_tail_rcu(&link->node, &file->eprobes);
	ep->attached |= 1UL << id;
	return 0;
}

/* Attached in the trace arrays of live alone: the new ones first, undone if one fails. */
static int eprobe_attach_in(struct trace_probe *tp, unsigned long live)
{
	struct trace_eprobe *ep = container_of(tp, struct trace_eprobe, tp);
	unsigned long was = ep->attached;
	int ret = 0;

	for (int id = 0; id < TRACE_ARRAY_MAX && !ret; id++)
		if ((live & ~was) & (1UL << id))
			ret = eprobe_attach_one(ep, id, true);
	for (int id = 0; id < TRACE_ARRAY_MAX; id++) {
		unsigned long bit = 1UL << id;

		if ((ep->attached & bit) && (ret ? !(was & bit) : !(live & bit)))
			eprobe_attach_one(ep, id, false);
	}
	return ret;
}

/* ---- trace: "myopen: (syscalls.sys_enter_open) file=..." ---------------------------------- */

static void eprobe_print(struct seq_buf *s, const struct trace_probe *tp,
			 const struct trace_entry *e)
{
	seq_buf_printf(s, "%s: (%s.%s)", tp->def->event, tp->def->ep_system, tp->def->ep_event);
	trace_probe_print_args(s, tp, e);
}

/* ---- defining and removing ----------------------------------------------------------------- */

static void mark_string_fields(struct trace_eprobe *ep)
{
	static struct filter_field fields[EPROBE_FIELDS_MAX];
	int n = trace_event_fields(ep->target, fields, EPROBE_FIELDS_MAX);

	for (int i = 0; i < n; i++)
		ep->string_field[i] = fields[i].is_string;
}

/*
 * The line parsed (the attached event, its fields and the filter are
 * checked): only the name may still be taken by another kind of event.
 */
static struct trace_probe *create_trace_eprobe(const struct probe_event_def *parsed,
					       const char *line, size_t len, int *err)
{
	struct trace_eprobe *ep;

	if (trace_event_file_find(parsed->group, parsed->event)) {
		trace_probe_log_error(&eprobe_type, line, len, trace_probe_word_pos(line, len, 0),
				      probe_err_msg(PROBE_ERR_EVENT_EXIST));
		*err = -EEXIST;
		return NULL;
	}
	*err = -ENOMEM;
	ep = kzalloc(sizeof(*ep));
	if (!ep)
		return NULL;
	ep->target = find_target(parsed->ep_system, parsed->ep_event);
	*err = trace_probe_init(&ep->tp, &eprobe_type, parsed);
	if (*err == 0 && parsed->ep_filter[0])
		*err = trace_event_filter_compile(ep->target, parsed->ep_filter, &ep->filter, false);
	if (*err) {
		if (*err != -ENOMEM && *err != -ENAMETOOLONG)
			*err = -EINVAL;
		kfree(ep->filter);
		trace_probe_cleanup(&ep->tp);
		kfree(ep);
		return NULL;
	}
	mark_string_fields(ep);
	return &ep->tp;
}

/* Only a disabled event probe is destroyed: it is attached to nothing. */
static void destroy_trace_eprobe(struct trace_probe *tp)
{
	struct trace_eprobe *ep = container_of(tp, struct trace_eprobe, tp);

	kfree(ep->filter);
	trace_probe_cleanup(tp);
	kfree(ep);
}

static const struct trace_probe_type eprobe_type = {
	.subsys = "event_probe",
	.events_file = "dynamic_events",	/* its only file */
	.events = &trace_eprobes,
	.parse = eprobe_line_parse,
	.create = create_trace_eprobe,
	.attach_in = eprobe_attach_in,
	.destroy = destroy_trace_eprobe,
	.no_probe_addr = true,
	.print = eprobe_print,
	.single_probe = true,
};

/* ---- dynamic_events' part -------------------------------------------------------------------- */

int trace_eprobe_command(const char *line, size_t len)
{
	return trace_probe_events_write(line, len, false, (void *)&eprobe_type);
}

void trace_eprobes_show(struct seq_buf *s)
{
	trace_probe_events_show(s, (void *)&eprobe_type);
}

int trace_eprobes_release_all(void)
{
	return trace_probe_events_write("", 0, true, (void *)&eprobe_type);
}
