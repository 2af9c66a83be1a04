/*
 * trace_syscalls.c - the syscalls/ events (Linux's
 * kernel/trace/trace_syscalls.c): sys_enter_NAME and sys_exit_NAME for
 * each system call, with the call's arguments and its return value.
 *
 *   echo 1 > events/syscalls/sys_enter_write/enable
 *   exec hello
 *   cat trace        ... sys_write(fd: 1, buf: 8049abc, count: c)
 *
 * They are the static events of this kernel, the ones an event probe
 * (trace_eprobe.c) may attach to: Linux 6.1 refuses to attach one to
 * a kprobe, uprobe or event probe event.
 *
 * Each event is a struct trace_probe whose fetch programs are fixed:
 * the call's number, then its arguments from the registers int $0x80
 * left in pt_regs (%bx, %cx, %dx, %si, %di, %bp, the i386 system call
 * convention), or its return value from %ax.  Its enable, filter,
 * trigger and hist files are every event's (trace_events.c).
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_syscalls.h"
#include "probe_events.h"
#include "syscalls.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include "kallsyms.h"
#include <asm/unistd_32.h>

#define SYSCALL_MAX_ARGS 6	/* i386 passes at most six, in registers */
#define SYSCALL_GROUP "syscalls"
/* Linux's struct trace_entry, the common fields: type, flags, preempt count, pid. */
#define TRACE_ENTRY_HEAD_SIZE 8

/*
 * A system call as its events describe it (Linux's struct
 * syscall_metadata, which SYSCALL_DEFINEn writes): the prototypes of
 * include/syscalls.h, without __user.
 */
struct syscall_metadata {
	const char *name;
	int nr;
	int nb_args;
	const char *types[SYSCALL_MAX_ARGS];
	const char *args[SYSCALL_MAX_ARGS];
};

static const struct syscall_metadata syscalls_metadata[] = {
	{ "sys_exit",      __NR_exit,      1, { "int" }, { "error_code" } },
	{ "sys_read",      __NR_read,      3, { "unsigned int", "char *", "size_t" },
	  { "fd", "buf", "count" } },
	{ "sys_write",     __NR_write,     3, { "unsigned int", "const char *", "size_t" },
	  { "fd", "buf", "count" } },
	{ "sys_open",      __NR_open,      3, { "const char *", "int", "int" },
	  { "filename", "flags", "mode" } },
	{ "sys_close",     __NR_close,     1, { "unsigned int" }, { "fd" } },
	{ "sys_waitpid",   __NR_waitpid,   3, { "int", "int *", "int" },
	  { "pid", "stat_addr", "options" } },
	{ "sys_getpid",    __NR_getpid,    0, { 0 }, { 0 } },
	{ "sys_kill",      __NR_kill,      2, { "int", "int" }, { "pid", "sig" } },
	{ "sys_nanosleep", __NR_nanosleep, 2, { "const struct timespec *", "struct timespec *" },
	  { "rqtp", "rmtp" } },
	{ "sys_spawn",     __NR_spawn,     2, { "const char *", "const char *const *" },
	  { "name", "argv" } },
	/* what a Linux program opens with (busybox's cat, glibc's fopen) */
	{ "sys_openat",    __NR_openat,    4, { "int", "const char *", "int", "umode_t" },
	  { "dfd", "filename", "flags", "mode" } },
};
#define NR_METADATA ARRAY_SIZE(syscalls_metadata)

/* Where int $0x80 leaves argument i. */
static const unsigned long arg_regs[SYSCALL_MAX_ARGS] = {
	offsetof(struct pt_regs, bx), offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, di), offsetof(struct pt_regs, bp),
};

struct syscall_event {
	struct trace_probe tp;
	const struct syscall_metadata *meta;
	bool exit;			/* sys_exit_NAME: the return value */
	bool on;			/* enabled: the dispatcher records its hits */
};

static LIST_HEAD(syscall_events);
static struct syscall_event *enter_events[NR_METADATA], *exit_events[NR_METADATA];
static int nr_enabled;			/* none: a call costs one test */
static const struct trace_probe_type syscall_type;

/* ---- a call --------------------------------------------------------------------- */

static const struct fetch_ops syscall_fetch_ops = {
	.comm = trace_current_comm,
};

static int metadata_index(unsigned long nr)
{
	for (size_t i = 0; i < NR_METADATA; i++)
		if ((unsigned long)syscalls_metadata[i].nr == nr)
			return i;
	return -1;
}

const char *get_syscall_name(int nr)
{
	unsigned long addr = arch_syscall_addr(nr);
	unsigned long size, offset;

	return addr ? kallsyms_lookup(addr, &size, &offset) : NULL;
}

static void syscall_record(struct syscall_event *ev, struct pt_regs *regs)
{
	if (ev && READ_ONCE(ev->on))
		trace_probe_record(&ev->tp, &syscall_fetch_ops, regs, 0, 0);
}

void trace_sys_enter(struct pt_regs *regs, unsigned long nr)
{
	int i;

	if (READ_ONCE(nr_enabled) == 0 || (i = metadata_index(nr)) < 0)
		return;
	syscall_record(enter_events[i], regs);
}

void trace_sys_exit(struct pt_regs *regs, unsigned long nr)
{
	int i;

	if (READ_ONCE(nr_enabled) == 0 || (i = metadata_index(nr)) < 0)
		return;
	syscall_record(exit_events[i], regs);
}
NOKPROBE_SYMBOL(metadata_index);
NOKPROBE_SYMBOL(syscall_record);
NOKPROBE_SYMBOL(trace_sys_enter);
NOKPROBE_SYMBOL(trace_sys_exit);

static int syscall_set_enabled(struct trace_probe *tp, bool on)
{
	struct syscall_event *ev = container_of(tp, struct syscall_event, tp);

	if (ev->on != on) {
		WRITE_ONCE(ev->on, on);
		WRITE_ONCE(nr_enabled, nr_enabled + (on ? 1 : -1));
	}
	return 0;
}

static bool is_exit(const struct trace_probe *tp)
{
	return container_of(tp, struct syscall_event, tp)->exit;
}

/* ---- trace and format, Linux's ------------------------------------------------------ */

static unsigned long record_value(const struct trace_entry *e, int i)
{
	struct fetch_value v = { 0 };

	if ((i + 1) * sizeof(v) <= e->len)
		memcpy(&v, e->payload + i * sizeof(v), sizeof(v));
	return v.raw;
}

/* "sys_write(fd: 1, buf: 8049abc, count: c)", "sys_write -> 0xc" */
static void syscall_print(struct seq_buf *s, const struct trace_probe *tp,
			  const struct trace_entry *e)
{
	const struct syscall_metadata *meta = container_of(tp, struct syscall_event, tp)->meta;

	if (is_exit(tp)) {
		seq_buf_printf(s, "%s -> 0x%lx\n", meta->name, record_value(e, 1));
		return;
	}
	seq_buf_printf(s, "%s(", meta->name);
	for (int i = 0; i < meta->nb_args; i++)
		seq_buf_printf(s, "%s: %lx%s", meta->args[i], record_value(e, i + 1),
			       i == meta->nb_args - 1 ? "" : ", ");
	seq_buf_puts(s, ")\n");
}

static void format_field(struct seq_buf *s, const char *type, const char *name,
			 unsigned int offset, bool is_signed)
{
	seq_buf_printf(s, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n", type, name,
		       offset, (unsigned int)sizeof(unsigned long), is_signed);
}

/*
 * Each argument a long (4 bytes on i386) after the call's number;
 * print fmt's width is sizeof(long) too: "0x%04lx".
 */
static void syscall_show_format(struct seq_buf *s, const struct trace_probe *tp)
{
	const struct syscall_metadata *meta = container_of(tp, struct syscall_event, tp)->meta;
	unsigned int off = TRACE_ENTRY_HEAD_SIZE;

	format_field(s, "int", "__syscall_nr", off, true);
	off += sizeof(unsigned long);
	if (is_exit(tp)) {
		format_field(s, "long", "ret", off, true);
		seq_buf_puts(s, "\nprint fmt: \"0x%lx\", REC->ret\n");
		return;
	}
	for (int i = 0; i < meta->nb_args; i++, off += sizeof(unsigned long))
		format_field(s, meta->types[i], meta->args[i], off, false);
	seq_buf_puts(s, "\nprint fmt: \"");
	for (int i = 0; i < meta->nb_args; i++)
		seq_buf_printf(s, "%s: 0x%%0%ulx%s", meta->args[i],
			       (unsigned int)sizeof(unsigned long), i == meta->nb_args - 1 ? "" : ", ");
	seq_buf_puts(s, "\"");
	for (int i = 0; i < meta->nb_args; i++)
		seq_buf_printf(s, ", ((unsigned long)(REC->%s))", meta->args[i]);
	seq_buf_puts(s, "\n");
}

/* The record as format says (trace_pipe_raw): __syscall_nr, then each argument or ret, a long each. */
static int syscall_raw_record(const struct trace_probe *tp, const struct trace_entry *e,
			      unsigned char *buf, size_t size)
{
	const struct syscall_metadata *meta = container_of(tp, struct syscall_event, tp)->meta;
	int n = is_exit(tp) ? 2 : 1 + meta->nb_args;	/* the record's slots: nr first */

	if (n * sizeof(unsigned long) > size)
		return -ENOSPC;
	for (int i = 0; i < n; i++) {
		unsigned long v = record_value(e, i);

		memcpy(buf + i * sizeof(v), &v, sizeof(v));
	}
	return n * sizeof(unsigned long);
}

static const struct trace_probe_type syscall_type = {
	.subsys = "trace_syscalls",
	.events = &syscall_events,
	.set_enabled = syscall_set_enabled,
	.no_probe_addr = true,
	.show_format = syscall_show_format,
	.print = syscall_print,
	.raw_record = syscall_raw_record,
	.eprobe_target = true,
};

/* ---- the events, made once ---------------------------------------------------------- */

static void def_arg(struct probe_arg *arg, const char *name, enum fetch_type type,
		    enum fetch_op_code op, unsigned long param)
{
	memset(arg, 0, sizeof(*arg));
	strlcpy(arg->name, name, sizeof(arg->name));
	arg->type = type;
	arg->nr_ops = 1;
	arg->ops[0] = (struct fetch_op){ op, param };
}

/* The fields as fetch programs: the number, then the arguments or the return value. */
static void build_def(struct probe_event_def *def, const struct syscall_metadata *meta,
		      bool exit)
{
	def->cmd = PROBE_CMD_ADD;
	strlcpy(def->group, SYSCALL_GROUP, sizeof(def->group));
	snprintf(def->event, sizeof(def->event), "sys_%s_%s", exit ? "exit" : "enter",
		 meta->name + strlen("sys_"));
	def_arg(&def->args[0], "__syscall_nr", FETCH_TYPE_S32, FETCH_OP_IMM, meta->nr);
	if (exit) {
		def_arg(&def->args[1], "ret", FETCH_TYPE_S32, FETCH_OP_REG,
			offsetof(struct pt_regs, ax));
		def->nr_args = 2;
		return;
	}
	for (int i = 0; i < meta->nb_args; i++)
		def_arg(&def->args[i + 1], meta->args[i], FETCH_TYPE_U32, FETCH_OP_REG,
			arg_regs[i]);
	def->nr_args = 1 + meta->nb_args;
}

static struct syscall_event *make_event(const struct syscall_metadata *meta, bool exit)
{
	static struct probe_event_def def;	/* 22 KiB: not on the stack */
	struct syscall_event *ev = kzalloc(sizeof(*ev));

	if (!ev)
		return NULL;
	memset(&def, 0, sizeof(def));
	build_def(&def, meta, exit);
	ev->meta = meta;
	ev->exit = exit;
	if (trace_probe_init(&ev->tp, &syscall_type, &def) ||
	    trace_event_dir_add(&ev->tp)) {
		trace_probe_cleanup(&ev->tp);
		kfree(ev);
		return NULL;
	}
	ev->tp.id = trace_probe_alloc_id();
	list_add_tail(&ev->tp.list, &syscall_events);
	return ev;
}

int trace_syscalls_init(void)
{
	for (size_t i = 0; i < NR_METADATA; i++) {
		enter_events[i] = make_event(&syscalls_metadata[i], false);
		exit_events[i] = make_event(&syscalls_metadata[i], true);
		if (!enter_events[i] || !exit_events[i])
			return -ENOMEM;
	}
	return 0;
}
