/*
 * trace_events.c - the events/ directory of tracefs (Linux's
 * kernel/trace/trace_events.c): the files through which an event,
 * once defined in kprobe_events or uprobe_events, is switched on and
 * off, alone or with its whole group.
 *
 *   echo 1 > events/kprobes/myfib/enable   arm this event's probe
 *   echo 0 > events/kprobes/enable         disarm every event of the group
 *   cat events/kprobes/enable              0, 1, or X when they differ
 *
 * The event itself (its probe, its record) is trace_probe.c's; here is
 * only the directory that names it.
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

/*
 * Every name the grammar accepts must be reachable at its full path: a
 * path cut short would make an enable file no one can name.
 */
#define EVENT_ENABLE_PATH_LEN \
	(sizeof(TRACEFS_DIR "/events/") - 1 + (PROBE_NAME_LEN - 1) + \
	 sizeof("/") - 1 + (PROBE_NAME_LEN - 1) + sizeof("/enable") - 1)
_Static_assert(EVENT_ENABLE_PATH_LEN < PSEUDOFS_PATH_MAX,
	       "the longest event's enable path must fit in a pseudofs path");

static bool group_has_events(const struct trace_probe_type *type, const char *group)
{
	struct trace_probe *tp;

	list_for_each_entry(tp, type->events, list)
		if (strcmp(tp->def->group, group) == 0)
			return true;
	return false;
}

/* ---- enable ------------------------------------------------------------------ */

static int event_set_enabled(struct trace_probe *tp, bool on)
{
	int ret;

	if (tp->enabled == on)
		return 0;
	ret = tp->type->set_enabled(tp, on);
	if (ret == 0)
		tp->enabled = on;
	return ret;
}

/* "0" or "1" and a newline, as echo writes it. */
static int parse_bool(const char *text, size_t len, bool *on)
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
	struct trace_probe *tp = data;

	seq_printf(s, "%d\n", tp->enabled);
	return 0;
}

static int enable_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (parse_bool(text, len, &on))
		return -EINVAL;
	return event_set_enabled(data, on);
}

/* ---- the group's directory ------------------------------------------------------ */

/* events/GROUP/enable: its data says which group of which type. */
struct group_file {
	const struct trace_probe_type *type;
	char name[PROBE_NAME_LEN];
};

static int group_enable_show(struct seq_buf *s, void *data)
{
	struct group_file *g = data;
	struct trace_probe *tp;
	bool some_on = false, some_off = false;

	list_for_each_entry(tp, g->type->events, list)
		if (strcmp(tp->def->group, g->name) == 0) {
			some_on |= tp->enabled;
			some_off |= !tp->enabled;
		}
	seq_puts(s, some_on && some_off ? "X\n" : some_on ? "1\n" : "0\n");
	return 0;
}

static int group_enable_write(const char *text, size_t len, bool trunc, void *data)
{
	struct group_file *g = data;
	struct trace_probe *tp;
	int ret = 0;
	bool on;

	if (parse_bool(text, len, &on))
		return -EINVAL;
	list_for_each_entry(tp, g->type->events, list)
		if (strcmp(tp->def->group, g->name) == 0 && !ret)
			ret = event_set_enabled(tp, on);
	return ret;
}

static void group_path(char *buf, const char *group)
{
	snprintf(buf, PSEUDOFS_PATH_MAX, TRACEFS_DIR "/events/%s/enable", group);
}

/*
 * The group's enable file lives while the group has events.  A group
 * belongs to the type that made it: a kprobe event cannot join a
 * uprobe group (-EEXIST), nor the other way round.
 */
static int group_file_get(const struct trace_probe_type *type, const char *group)
{
	char path[PSEUDOFS_PATH_MAX];
	struct group_file *g;
	int ret;

	group_path(path, group);
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
	group_path(path, group);
	g = pseudofs_data(path);
	if (pseudofs_remove(path) == 0)
		kfree(g);
}

/* ---- the event's directory ------------------------------------------------------ */

int trace_event_dir_add(struct trace_probe *tp)
{
	int ret = group_file_get(tp->type, tp->def->group);

	if (ret == 0)
		ret = pseudofs_create(tp->enable_path, enable_show, enable_write, tp);
	if (ret)
		group_file_put(tp->type, tp->def->group);
	return ret;
}

void trace_event_dir_remove(struct trace_probe *tp)
{
	pseudofs_remove(tp->enable_path);
	group_file_put(tp->type, tp->def->group);
}
