/*
 * trace_dynevent.c - dynamic_events (Linux 5.0+'s
 * kernel/trace/trace_dynevent.c): one file for every kind of dynamic
 * event, each line handed to the kind whose syntax it is.
 *
 *   echo 'p:myfib fib n=$arg1' >> dynamic_events          a kprobe event
 *   echo 'p:up /bin/hello:0x10' >> dynamic_events         a uprobe event
 *   echo 'e:eo syscalls.sys_enter_open $flags' >> dynamic_events   an event probe
 *   echo 'f:myfn fib%return r=$retval' >> dynamic_events  an fprobe event (Linux 6.7+)
 *   echo 's:lat u64 lat; int pid' >> dynamic_events      a synthetic event (Linux 6.0+)
 *   echo '-:myfib' >> dynamic_events                      remove one
 *   echo > dynamic_events                                 remove all (EBUSY if one is enabled)
 *   cat dynamic_events                                    every one, in each kind's syntax
 *
 * Linux asks each kind in turn and the kind answers ECANCELED for a
 * line not its own; here the same question is one row of a table, and
 * the line goes to that kind's own file (kprobe_events, uprobe_events),
 * whose commands, checks and error_log are the ones a line written
 * there gets.  fprobe events have no file of their own, as in Linux:
 * their lines go straight to the commands every probe event shares
 * (trace_probe.c); event probes neither, and go to trace_eprobe.c, nor
 * synthetic events, which go to trace_events_synth.c.
 * A line no kind takes is EINVAL, as in Linux.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_synth.h"
#include "pseudofs.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

/* Does the probe point (the second word) name a file, PATH:OFFSET? */
static bool is_uprobe_line(const char *line, size_t len)
{
	size_t at = trace_probe_word_pos(line, len, 1), end = at;
	bool slash = false, colon = false;

	for (; end < len && line[end] != ' ' && line[end] != '\t'; end++) {
		slash |= line[end] == '/';
		colon |= line[end] == ':';
	}
	return slash && colon;
}

/* Linux's __trace_kprobe_create(): "Check whether uprobe event specified". */
static bool kprobe_claims(const char *line, size_t len)
{
	return !is_uprobe_line(line, len);
}

/* One kind of dynamic event: the commands it takes and where they go. */
struct dyn_event_kind {
	const char *cmds;			/* first characters of its lines */
	bool (*claims)(const char *line, size_t len);	/* NULL: all of them */
	const char *file;			/* its own *_events file, or NULL... */
	const struct trace_probe_type *type;	/* ...and its lines go to its type */
};

static const struct dyn_event_kind dyn_event_kinds[] = {
	{ "pr", kprobe_claims, TRACEFS_DIR "/kprobe_events", NULL },
	{ "pr", NULL,          TRACEFS_DIR "/uprobe_events", NULL },
	{ "f",  NULL,          NULL,                         &fprobe_type },
};

static int kind_write(const struct dyn_event_kind *k, const char *line, size_t len, bool trunc)
{
	if (k->file)
		return pseudofs_write(k->file, line, len, trunc);
	return trace_probe_events_write(line, len, trunc, (void *)k->type);
}

static int dyn_event_create(const char *line, size_t len)
{
	if (line[0] == 'e')
		return trace_eprobe_command(line, len);
	if (len > 1 && line[0] == 's' && line[1] == ':')
		return synth_dyn_create(line, len);
	for (size_t i = 0; i < ARRAY_SIZE(dyn_event_kinds); i++) {
		const struct dyn_event_kind *k = &dyn_event_kinds[i];

		if (!strchr(k->cmds, line[0]) || (k->claims && !k->claims(line, len)))
			continue;
		return kind_write(k, line, len, false);
	}
	return -EINVAL;
}

/* The kind an event belongs to: the one whose file or type it names. */
static const struct dyn_event_kind *event_kind(const struct trace_probe_type *type)
{
	char path[PSEUDOFS_PATH_MAX];

	snprintf(path, sizeof(path), TRACEFS_DIR "/%s", type->events_file);
	for (size_t i = 0; i < ARRAY_SIZE(dyn_event_kinds); i++)
		if (dyn_event_kinds[i].type == type ||
		    (dyn_event_kinds[i].file && strcmp(dyn_event_kinds[i].file, path) == 0))
			return &dyn_event_kinds[i];
	return NULL;
}

/* Is the event a dynamic one: no static event is ever removed. */
static bool is_dynamic(const struct trace_probe *tp)
{
	return tp->type->parse != NULL;
}

/* "-:GROUP/EVENT" and the words after the name, to the event's own kind. */
static int release_one(struct trace_probe *tp, const char *rest, size_t rest_len)
{
	size_t size = 2 * PROBE_NAME_LEN + 8 + PROBE_LINE_MAX;
	const struct dyn_event_kind *k;
	char *cmd;
	int n, ret;

	if (synth_event_is(tp))		/* its name alone: Linux's synth_event_match() */
		return synth_dyn_release(tp);
	cmd = kmalloc(size);		/* 4 KiB: not on a thread's stack */

	if (!cmd)
		return -ENOMEM;
	n = snprintf(cmd, size, "-:%s/%s", tp->def->group, tp->def->event);
	if (rest_len && (size_t)n + rest_len < size) {
		memcpy(cmd + n, rest, rest_len);
		n += rest_len;
	}
	k = event_kind(tp->type);
	ret = k ? kind_write(k, cmd, n, false) : trace_eprobe_command(cmd, n);	/* eprobes' */
	kfree(cmd);
	return ret;
}

/*
 * "-:[GROUP/]EVENT [ARGS]": each event of that name (in any group when
 * none is given; every event of GROUP for "-:GROUP/") is removed through its own kind, with the words after
 * the name that choose its probes, as Linux's dyn_event_release() asks
 * each kind.  ENOENT when there is none.
 */
static int dyn_event_release(const char *line, size_t len)
{
	char group[PROBE_NAME_LEN] = "", event[PROBE_NAME_LEN];
	struct trace_event_file *file, *n;
	size_t at = 2, end, slash = 0;
	int ret = -ENOENT;

	if (len < 3 || line[1] != ':')
		return -EINVAL;
	for (end = at; end < len && line[end] != ' ' && line[end] != '\t'; end++)
		if (line[end] == '/' && !slash)
			slash = end;
	if (slash && slash - at < sizeof(group)) {
		memcpy(group, line + at, slash - at);
		group[slash - at] = '\0';
		at = slash + 1;
	}
	if ((end - at == 0 && !group[0]) || end - at >= sizeof(event))
		return -EINVAL;			/* "-:GROUP/" alone: the whole group */
	memcpy(event, line + at, end - at);
	event[end - at] = '\0';
	list_for_each_entry_safe(file, n, &trace_event_files, list) {
		const struct probe_event_def *def = file->tp->def;

		if ((!is_dynamic(file->tp) && !synth_event_is(file->tp)) || (event[0] && strcmp(def->event, event) != 0) ||
		    (group[0] && strcmp(def->group, group) != 0))
			continue;
		ret = release_one(file->tp, line + end, len - end);
		if (ret)
			break;
	}
	return ret;
}

static int dyn_event_command(const char *line, size_t len)
{
	while (len && (line[0] == ' ' || line[0] == '\t')) {
		line++;
		len--;
	}
	if (len == 0 || line[0] == '#')
		return 0;
	if (line[0] == '-' || line[0] == '!')
		return dyn_event_release(line, len);
	return dyn_event_create(line, len);
}

/* `echo > dynamic_events`: every dynamic event, or none if one is enabled. */
static int dyn_events_release_all(void)
{
	struct trace_event_file *file;
	int ret = 0;

	list_for_each_entry(file, &trace_event_files, list)
		if (is_dynamic(file->tp) && file->tp->enabled)
			return -EBUSY;
	ret = synth_dyn_release_all();
	for (size_t i = 0; i < ARRAY_SIZE(dyn_event_kinds) && !ret; i++)
		ret = kind_write(&dyn_event_kinds[i], "", 0, true);
	if (!ret)
		ret = trace_eprobes_release_all();
	return ret;
}

static int dynamic_events_write(const char *text, size_t len, bool trunc, void *data)
{
	int ret = trunc ? dyn_events_release_all() : 0;

	while (len && ret == 0) {
		size_t n = 0;

		while (n < len && text[n] != '\n')
			n++;
		ret = dyn_event_command(text, n);
		if (n < len)
			n++;
		text += n;
		len -= n;
	}
	return ret;
}

/* Each kind's definitions: the kprobe events first, then the event probes, the synthetic events last. */
static int dynamic_events_show(struct seq_buf *s, void *data)
{
	const char *shown[ARRAY_SIZE(dyn_event_kinds)];
	size_t nr = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dyn_event_kinds); i++) {
		const struct dyn_event_kind *k = &dyn_event_kinds[i];
		bool seen = false;

		if (!k->file) {
			trace_probe_events_show(s, (void *)k->type);
			continue;
		}
		for (size_t j = 0; j < nr; j++)
			seen |= strcmp(shown[j], k->file) == 0;
		if (seen)
			continue;
		shown[nr++] = k->file;
		pseudofs_read(k->file, s);
	}
	trace_eprobes_show(s);
	synth_dyn_show(s);
	return 0;
}

static const struct pseudo_file_spec dynevent_files[] = {
	{ "dynamic_events", dynamic_events_show, dynamic_events_write },
};

int trace_dynevent_init(void)
{
	return pseudofs_create_files(TRACEFS_DIR, dynevent_files, ARRAY_SIZE(dynevent_files));
}
