/*
 * trace_uprobe.c - uprobe events: Linux's uprobe_events interface.
 *
 *   echo 'p:myup /bin/hello:0x1234 %ax' >> /sys/kernel/tracing/uprobe_events
 *   echo 1 > /sys/kernel/tracing/events/uprobes/myup/enable
 *
 * The line is kprobe_events' grammar with PATH:OFFSET[(REF_CTR)] for
 * the probe point (lib/probe_events_parse.c, uprobe_event_parse());
 * PATH is any path the file system resolves, as Linux's kern_path()
 * (/bin/busybox, a built-in program's /bin/NAME, relative to the
 * writer's working directory), naming a regular file, and REF_CTR
 * the file offset of a u16 the kernel keeps at 1 in each process while
 * the event is enabled (an SDT probe's semaphore).  A new event is checked at
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
#include "ramfs.h"
#include "fs.h"
#include "fcntl.h"

struct trace_uprobe {
	struct trace_probe tp;
	/*
	 * The file, a reference held while the event exists (Linux's
	 * tu->inode and the path it holds).  NULL: a regular file with no
	 * bytes to map - /proc, tracefs - which Linux's uprobe_register()
	 * refuses with -EIO (no read_folio).
	 */
	struct inode *inode;
	unsigned long vaddr;			/* where def->offset is loaded */
	struct uprobe_consumer uc;
};

static LIST_HEAD(trace_uprobes);
static const struct trace_probe_type uprobe_type;

/* ---- the hit ------------------------------------------------------------------ */

static const char *process_comm(void)
{
	return task_name(current);
}

/*
 * @+OFFS: file offset offs of the probed program, where the process has
 * it.  Linux's translate_user_vaddr(): the probe's own address minus its
 * file offset is where the file starts, counted as one linear mapping.
 */
static unsigned long file_offset_to_vaddr(const void *ctx, unsigned long offs)
{
	const struct trace_uprobe *tu = ctx;

	return tu->vaddr - tu->tp.def->offset + offs;
}

/*
 * Everything a uprobe's arguments point at is the process's memory;
 * @+OFFS is an offset in the probed program's file, ctx.
 */
static void uprobe_fetch_ops(struct fetch_ops *ops, const struct trace_uprobe *tu)
{
	ops->read_mem = copy_from_user_nofault;
	ops->read_user = copy_from_user_nofault;
	ops->comm = process_comm;
	ops->sprint_symbol = NULL;		/* a user address names no kernel symbol */
	ops->file_offset_to_vaddr = file_offset_to_vaddr;
	ops->ctx = tu;
}

static int uprobe_dispatcher(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, uc);
	struct fetch_ops ops;

	uprobe_fetch_ops(&ops, tu);
	trace_probe_record(&tu->tp, &ops, regs, tu->vaddr, 0);
	return 0;
}

/* regs->ip is already the caller's address the function returns to. */
static int uretprobe_dispatcher(struct uprobe_consumer *uc, unsigned long func,
				struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, uc);
	struct fetch_ops ops;

	uprobe_fetch_ops(&ops, tu);
	trace_probe_record(&tu->tp, &ops, regs, func, regs->ip);
	return 0;
}

/* Linux's format: "myup: (0x8048123)", a return "myret: (0x80481a0 <- 0x8048123)". */
bool trace_uprobe_print(struct seq_buf *s, const struct trace_entry *e)
{
	struct trace_probe *tp = trace_probe_find_id(&uprobe_type, e->event_id);

	if (!tp)
		return false;
	if (tp->def->is_return)
		seq_buf_printf(s, "%s: (0x%lx <- 0x%lx)", tp->def->event, e->ret_ip, e->ip);
	else
		seq_buf_printf(s, "%s: (0x%lx)", tp->def->event, e->ip);
	trace_probe_print_args(s, tp, e);
	return true;
}

/* As in Linux, the int3 is in only while the event is enabled. */
static int trace_uprobe_set_enabled(struct trace_probe *tp, bool on)
{
	struct trace_uprobe *tu = container_of(tp, struct trace_uprobe, tp);

	if (!tu->inode)
		return on ? -EIO : 0;
	if (!on) {
		uprobe_unregister(tu->inode, tp->def->offset, &tu->uc);
		return 0;
	}
	return uprobe_register_refctr(tu->inode, tp->def->offset, tp->def->ref_ctr_offset,
				      &tu->uc, NULL);
}

/* ---- defining and removing events ---------------------------------------------- */

/*
 * Linux's kern_path(LOOKUP_FOLLOW) and d_is_reg(): the ramfs file path
 * names (*inode, a reference), or a pseudo file (*inode NULL: tracefs,
 * /proc).  0; PROBE_FILE_NOT_REGULAR for a directory; -ENOENT, -ENOTDIR.
 */
static int uprobe_path_lookup(const char *name, struct inode **inode)
{
	long err;
	char *path = absolute_path_at(AT_FDCWD, name, &err);
	int ret;

	*inode = NULL;
	if (!path)
		return err;
	ret = pseudofs_lookup(path);
	if (ret) {			/* mounted over the ramfs: the pseudo file wins */
		kfree(path);
		return ret == 1 ? 0 : PROBE_FILE_NOT_REGULAR;	/* 1: a file, 2: a directory */
	}
	ret = ramfs_lookup(path, inode);
	kfree(path);
	if (!ret && !S_ISREG((*inode)->i_mode)) {
		iput(*inode);
		*inode = NULL;
		ret = PROBE_FILE_NOT_REGULAR;
	}
	return ret;
}

/*
 * Everything uprobe_register() will check, now, so that a bad line is
 * refused when written, not when enabled - but an offset past the end
 * of the file, which Linux too refuses only when the event is enabled.
 */
static int check_probe_point(const struct probe_event_def *parsed, const char *line,
			     size_t len, struct inode **inodep)
{
	int pos = trace_probe_word_pos(line, len, 1);
	int ret = uprobe_path_lookup(parsed->symbol, inodep);
	const char *why;
	char msg[200];

	if (ret) {		/* the parser looked first: the file went since */
		trace_probe_log_error(&uprobe_type, line, len, pos, probe_err_msg(
			ret < 0 ? PROBE_ERR_FILE_NOT_FOUND : PROBE_ERR_NO_REGULAR_FILE));
		return ret < 0 ? ret : -EINVAL;
	}
	if (!*inodep)
		return 0;	/* no bytes: enabling fails, as Linux's does */
	ret = uprobe_check(*inodep, parsed->offset, parsed->ref_ctr_offset, &why);
	if (ret) {
		snprintf(msg, sizeof(msg), "Could not probe %s:0x%lx: %s: %s", parsed->symbol,
			 parsed->offset, errno_name(ret), why);
		trace_probe_log_error(&uprobe_type, line, len, pos, msg);
		iput(*inodep);
		return ret;
	}
	return 0;
}

static struct trace_probe *create_trace_uprobe(const struct probe_event_def *parsed,
					const char *line, size_t len, int *err)
{
	struct trace_uprobe *tu;
	struct inode *inode;

	*err = check_probe_point(parsed, line, len, &inode);
	if (*err)
		return NULL;
	tu = kzalloc(sizeof(*tu));
	*err = tu ? trace_probe_init(&tu->tp, &uprobe_type, parsed) : -ENOMEM;
	if (*err) {
		kfree(tu);
		if (inode)
			iput(inode);
		return NULL;
	}
	tu->inode = inode;
	tu->vaddr = inode ? uprobe_offset_to_vaddr(inode, parsed->offset) : 0;
	if (parsed->is_return)
		tu->uc.ret_handler = uretprobe_dispatcher;
	else
		tu->uc.handler = uprobe_dispatcher;
	return &tu->tp;
}

/* Only a disabled event is destroyed: nothing is registered. */
static void destroy_trace_uprobe(struct trace_probe *tp)
{
	struct trace_uprobe *tu = container_of(tp, struct trace_uprobe, tp);

	if (tu->inode)
		iput(tu->inode);
	trace_probe_cleanup(tp);
	kfree(tu);
}

/* For the parser, which only asks what the path names. */
static int uprobe_file_lookup(const char *path)
{
	struct inode *inode;
	int ret = uprobe_path_lookup(path, &inode);

	if (inode)
		iput(inode);
	return ret;
}

/* The file is looked up while parsing, where Linux's kern_path() is. */
static int uprobe_line_parse(const char *line, size_t len, struct probe_event_def *def,
			     struct probe_parse_error *err)
{
	static const struct probe_parse_ops ops = { .file_lookup = uprobe_file_lookup };

	return uprobe_event_parse(line, len, &ops, def, err);
}

static const struct trace_probe_type uprobe_type = {
	.subsys = "trace_uprobe",
	.events_file = "uprobe_events",
	.events = &trace_uprobes,
	.parse = uprobe_line_parse,
	.create = create_trace_uprobe,
	.set_enabled = trace_uprobe_set_enabled,
	.destroy = destroy_trace_uprobe,
};

static int uprobe_events_show(struct seq_buf *s, void *data)
{
	return trace_probe_events_show(s, (void *)&uprobe_type);
}

static int uprobe_events_write(const char *text, size_t len, bool trunc, void *data)
{
	return trace_probe_events_write(text, len, trunc, (void *)&uprobe_type);
}

/*
 * Linux's columns: the file as written, the event, its hits.  (A
 * return probe's misses - too deep - are counted in uc.nmissed but, as
 * in Linux, not shown.)
 */
static void profile_line(struct seq_buf *s, const struct trace_uprobe *tu)
{
	seq_buf_printf(s, "  %s %-44s %15lu\n", tu->tp.def->symbol, tu->tp.def->event,
		       tu->uc.nhit);
}

static int uprobe_profile_show(struct seq_buf *s, void *data)
{
	struct trace_uprobe *tu;
	struct trace_probe *sib;

	list_for_each_entry(tu, &trace_uprobes, tp.list) {
		profile_line(s, tu);
		trace_probe_for_each_sibling(sib, &tu->tp)
			profile_line(s, container_of(sib, struct trace_uprobe, tp));
	}
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
