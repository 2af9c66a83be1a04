/*
 * trace_uprobe.c - uprobe events: Linux's uprobe_events interface.
 *
 *   echo 'p:myup /bin/hello:0x1234 %ax' >> /sys/kernel/tracing/uprobe_events
 *   echo 1 > /sys/kernel/tracing/events/uprobes/myup/enable
 *
 * The line is kprobe_events' grammar with PATH:OFFSET for the probe
 * point (lib/probe_events_parse.c, uprobe_event_parse()); PATH names a
 * program of the built-in image, /bin/NAME.  A new event is checked at
 * once (the program, the offset, the instruction there) but, as in
 * Linux, its uprobe is registered - the int3 written into every copy of
 * the page - only while the event is enabled.  A hit stores a record
 * in the same buffer kprobe events use (trace_kprobe.c prints both),
 * with the process's name and pid; the arguments are fetched from the
 * process's registers and memory (copy_from_user_nofault()).
 *
 *   uprobe_events   the definitions (read) / define or remove (write)
 *   uprobe_profile  per event: the program, hits and misses
 *   events/G/E/enable, events/G/enable   as for kprobe events
 */
#include "kernel.h"
#include "uaccess.h"
#include "trace.h"
#include "trace_probe.h"
#include "probe_events.h"
#include "pseudofs.h"
#include "process.h"
#include "uprobes.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "list.h"

#define UPROBE_PATH_PREFIX "/bin/"	/* where the image's programs are named */

struct trace_uprobe {
	struct list_head list;
	unsigned int id;			/* what records carry */
	bool enabled;				/* registered: the int3 is in */
	bool recorded;				/* some record may be in the buffer */
	const struct user_program *prog;
	unsigned long vaddr;			/* where def->offset is loaded */
	struct uprobe_consumer uc;
	char enable_path[PSEUDOFS_PATH_MAX];
	struct probe_event_def *def;		/* trimmed to def->nr_args arguments */
};

static LIST_HEAD(trace_uprobes);

static void log_error(const char *line, size_t len, int pos, const char *msg)
{
	trace_probe_log_error("trace_uprobe", line, len, pos, msg);
}

static struct trace_uprobe *find_event(const char *group, const char *event)
{
	struct trace_uprobe *tu;

	list_for_each_entry(tu, &trace_uprobes, list)
		if (strcmp(tu->def->group, group) == 0 && strcmp(tu->def->event, event) == 0)
			return tu;
	return NULL;
}

/* ---- the hit ------------------------------------------------------------------ */

static const char *current_comm(void)
{
	return task_name(current);
}

/* Everything a uprobe's arguments point at is the process's memory. */
static const struct fetch_ops ufetch_ops = {
	.read_mem = copy_from_user_nofault,
	.read_user = copy_from_user_nofault,
	.comm = current_comm,
};

static int uprobe_dispatcher(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, uc);

	tu->recorded = true;
	trace_probe_record(tu->id, tu->def, &ufetch_ops, regs, tu->vaddr, 0);
	return 0;
}

/* regs->ip is already the caller's address the function returns to. */
static int uretprobe_dispatcher(struct uprobe_consumer *uc, unsigned long func,
				struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, uc);

	tu->recorded = true;
	trace_probe_record(tu->id, tu->def, &ufetch_ops, regs, func, regs->ip);
	return 0;
}

/* Linux's format: "myup: (0x8048123)", a return "myret: (0x80481a0 <- 0x8048123)". */
bool trace_uprobe_print(struct seq_buf *s, const struct trace_entry *e)
{
	static char args[1024];
	struct trace_uprobe *tu;

	list_for_each_entry(tu, &trace_uprobes, list) {
		if (tu->id != e->event_id)
			continue;
		if (tu->def->is_return)
			seq_printf(s, "%s: (0x%lx <- 0x%lx)", tu->def->event, e->ret_ip, e->ip);
		else
			seq_printf(s, "%s: (0x%lx)", tu->def->event, e->ip);
		probe_args_format(args, sizeof(args), tu->def, e->payload, e->len,
				  trace_sprint_sym);
		seq_puts(s, args);
		seq_puts(s, "\n");
		return true;
	}
	return false;
}

/* ---- enable ------------------------------------------------------------------ */

static int event_set_enabled(struct trace_uprobe *tu, bool on)
{
	int ret = 0;

	if (tu->enabled == on)
		return 0;
	if (on)
		ret = uprobe_register(tu->prog, tu->def->offset, &tu->uc, NULL);
	else
		uprobe_unregister(tu->prog, tu->def->offset, &tu->uc);
	if (ret == 0)
		tu->enabled = on;
	return ret;
}

static int enable_show(struct seq_buf *s, void *data)
{
	struct trace_uprobe *tu = data;

	seq_printf(s, "%d\n", tu->enabled);
	return 0;
}

static int enable_write(const char *text, size_t len, bool trunc, void *data)
{
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	return event_set_enabled(data, on);
}

static int group_enable_show(struct seq_buf *s, void *data)
{
	struct trace_uprobe *tu;
	bool some_on = false, some_off = false;

	list_for_each_entry(tu, &trace_uprobes, list)
		if (strcmp(tu->def->group, data) == 0) {
			some_on |= tu->enabled;
			some_off |= !tu->enabled;
		}
	seq_puts(s, some_on && some_off ? "X\n" : some_on ? "1\n" : "0\n");
	return 0;
}

static int group_enable_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_uprobe *tu;
	int ret = 0;
	bool on;

	if (trace_parse_bool(text, len, &on))
		return -EINVAL;
	list_for_each_entry(tu, &trace_uprobes, list)
		if (strcmp(tu->def->group, data) == 0 && !ret)
			ret = event_set_enabled(tu, on);
	return ret;
}

static bool group_has_events(const char *group)
{
	struct trace_uprobe *tu;

	list_for_each_entry(tu, &trace_uprobes, list)
		if (strcmp(tu->def->group, group) == 0)
			return true;
	return false;
}

/* ---- defining and removing events ---------------------------------------------- */

/* "/bin/hello" -> the program "hello" of the image. */
static const struct user_program *find_program(const char *path)
{
	size_t n = strlen(UPROBE_PATH_PREFIX);

	if (strncmp(path, UPROBE_PATH_PREFIX, n) != 0)
		return NULL;
	return find_user_program(path + n);
}

/*
 * Everything uprobe_register() will check, now, so that a bad line is
 * refused when written, not when enabled.
 */
static int check_probe_point(const struct probe_event_def *parsed, const char *line,
			     size_t len, const struct user_program **progp)
{
	const struct user_program *prog = find_program(parsed->symbol);
	const char *why;
	char msg[200];
	int ret;

	if (!prog) {
		log_error(line, len, trace_probe_word_pos(line, len, 1),
			  probe_err_msg(PROBE_ERR_FILE_NOT_FOUND));
		return -ENOENT;
	}
	ret = uprobe_check(prog, parsed->offset, &why);
	if (ret) {
		snprintf(msg, sizeof(msg), "Could not probe %s:0x%lx: %s: %s", parsed->symbol,
			 parsed->offset, errno_name(ret), why);
		log_error(line, len, trace_probe_word_pos(line, len, 1), msg);
		return ret;
	}
	*progp = prog;
	return 0;
}

static int add_event(const struct probe_event_def *parsed, const char *line, size_t len)
{
	size_t def_size = offsetof(struct probe_event_def, args) +
			  parsed->nr_args * sizeof(struct probe_arg);
	const struct user_program *prog;
	struct trace_uprobe *tu;
	int ret;

	if (parsed->nr_args * sizeof(struct fetch_value) > TRACE_PAYLOAD_MAX) {
		log_error(line, len, trace_probe_word_pos(line, len, 2),
			  "Too many arguments for one trace record");
		return -E2BIG;
	}
	if (find_event(parsed->group, parsed->event)) {
		log_error(line, len, 0, "Event already exists (remove it first with -:)");
		return -EEXIST;
	}
	ret = check_probe_point(parsed, line, len, &prog);
	if (ret)
		return ret;
	tu = kzalloc(sizeof(*tu));
	if (tu)
		tu->def = kmalloc(def_size);
	if (!tu || !tu->def) {
		kfree(tu);
		return -ENOMEM;
	}
	memcpy(tu->def, parsed, def_size);
	tu->prog = prog;
	tu->vaddr = uprobe_offset_to_vaddr(prog, parsed->offset);
	if (parsed->is_return)
		tu->uc.ret_handler = uretprobe_dispatcher;
	else
		tu->uc.handler = uprobe_dispatcher;
	snprintf(tu->enable_path, sizeof(tu->enable_path), TRACEFS_DIR "/events/%s/%s/enable",
		 parsed->group, parsed->event);
	ret = trace_probe_group_get(parsed->group, group_enable_show, group_enable_write);
	if (ret == 0)
		ret = pseudofs_create(tu->enable_path, enable_show, enable_write, tu);
	if (ret) {
		if (!group_has_events(parsed->group))
			trace_probe_group_put(parsed->group);
		kfree(tu->def);
		kfree(tu);
		return ret;
	}
	tu->id = trace_probe_next_id();
	list_add_tail(&tu->list, &trace_uprobes);
	return 0;
}

static void free_event(struct trace_uprobe *tu)
{
	pseudofs_remove(tu->enable_path);
	list_del(&tu->list);
	if (!group_has_events(tu->def->group))
		trace_probe_group_put(tu->def->group);
	if (tu->recorded)
		trace_buffer_reset(TRACE_ALL_CPUS);
	kfree(tu->def);
	kfree(tu);
}

static int delete_event(const struct probe_event_def *parsed, const char *line, size_t len)
{
	struct trace_uprobe *tu = find_event(parsed->group, parsed->event);

	if (!tu) {
		log_error(line, len, trace_probe_word_pos(line, len, 0), "Event not found");
		return -ENOENT;
	}
	if (tu->enabled) {
		log_error(line, len, trace_probe_word_pos(line, len, 0),
			  "Event is enabled: write 0 to its enable file first");
		return -EBUSY;
	}
	free_event(tu);
	return 0;
}

/* `echo > uprobe_events`: all or nothing. */
static int remove_all_events(void)
{
	struct trace_uprobe *tu, *n;

	list_for_each_entry(tu, &trace_uprobes, list)
		if (tu->enabled) {
			pseudofs_error("%s/%s is enabled: disable it before clearing uprobe_events",
				       tu->def->group, tu->def->event);
			return -EBUSY;
		}
	list_for_each_entry_safe(tu, n, &trace_uprobes, list)
		free_event(tu);
	return 0;
}

static int run_command(const char *line, size_t len)
{
	static struct probe_event_def *parsed;	/* 22 KiB: one, on the heap */
	struct probe_parse_error err;

	if (!parsed && !(parsed = kmalloc(sizeof(*parsed))))
		return -ENOMEM;
	if (uprobe_event_parse(line, len, parsed, &err) < 0) {
		log_error(line, len, err.pos, probe_err_msg(err.code));
		return -EINVAL;
	}
	switch (parsed->cmd) {
	case PROBE_CMD_ADD:
		return add_event(parsed, line, len);
	case PROBE_CMD_DELETE:
		return delete_event(parsed, line, len);
	default:
		return 0;
	}
}

static int uprobe_events_write(const char *text, size_t len, bool trunc, void *data)
{
	int ret;

	if (trunc && (ret = remove_all_events()) != 0)
		return ret;
	return trace_probe_write_lines(text, len, run_command);
}

static int uprobe_events_show(struct seq_buf *s, void *data)
{
	static char line[PROBE_LINE_MAX];
	struct trace_uprobe *tu;

	list_for_each_entry(tu, &trace_uprobes, list) {
		probe_event_show(line, sizeof(line), tu->def);
		seq_puts(s, line);
		seq_puts(s, "\n");
	}
	return 0;
}

/* Linux's columns (the file, the event, its hits) and the misses kprobe_profile has. */
static int uprobe_profile_show(struct seq_buf *s, void *data)
{
	struct trace_uprobe *tu;

	list_for_each_entry(tu, &trace_uprobes, list)
		seq_printf(s, "  %s %-44s %15lu %15lu\n", tu->def->symbol, tu->def->event,
			   tu->uc.nhit, tu->uc.nmissed);
	return 0;
}

static const struct pseudo_file_spec uprobe_files[] = {
	{ "uprobe_events",  uprobe_events_show,  uprobe_events_write },
	{ "uprobe_profile", uprobe_profile_show, NULL },
};

int trace_uprobe_init(void)
{
	return pseudofs_create_files(TRACEFS_DIR, uprobe_files, ARRAY_SIZE(uprobe_files));
}
