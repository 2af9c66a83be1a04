/*
 * trace_sched_switch.c - the saved command lines (Linux's savedcmd of
 * kernel/trace/trace.c, filled by the hooks of trace_sched_switch.c):
 * which task name went with which pid, for every task that left a record.
 *
 *   cat saved_cmdlines          "PID COMM", one task a line
 *   cat saved_cmdlines_size     how many tasks it keeps (128)
 *   echo 4 > saved_cmdlines_size      a new, empty cache of 4
 *   cat saved_tgids             "PID TGID" of each task that left a record
 *                               while options/record-tgid was on
 *
 * A record made while options/record-cmd is on saves its task here
 * (trace_record_comm()).  Linux's records carry only the pid and `trace`
 * finds the name here; this kernel's records carry the name too, so the
 * cache is what Linux's is, a pid -> comm table of the tasks seen, and a
 * tool reading `trace_pipe_raw` or `saved_cmdlines` uses it as on Linux.
 *
 * The table is Linux's: slots taken round-robin (the oldest task is
 * forgotten first), and a map from pid to slot so a task seen again
 * keeps its slot.  A writer runs inside a hit, interrupts off, on any
 * CPU: it only tries the lock and saves nothing if a reader holds it.
 */
#include "kernel.h"
#include "trace.h"
#include "pseudofs.h"
#include "sched.h"
#include "spinlock.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"
#include <asm/percpu.h>
#include <asm/irqflags.h>

#define PID_MAX_DEFAULT        0x8000	/* Linux's: pids below it map to a slot */
#define SAVED_CMDLINES_DEFAULT 128	/* Linux's default size */
#define NO_CMDLINE_MAP         UINT32_MAX

struct saved_cmdlines_buffer {
	unsigned int cmdline_num;	/* slots */
	unsigned int cmdline_idx;	/* the slot taken last */
	unsigned int *map_cmdline_to_pid;
	char (*saved_cmdlines)[TASK_NAME_LEN];
};

static unsigned int map_pid_to_cmdline[PID_MAX_DEFAULT];
static struct saved_cmdlines_buffer *savedcmd;
static DEFINE_SPINLOCK(trace_cmdline_lock);

static struct saved_cmdlines_buffer *saved_cmdlines_alloc(unsigned int num)
{
	struct saved_cmdlines_buffer *s = kzalloc(sizeof(*s));

	if (!s)
		return NULL;
	s->map_cmdline_to_pid = kmalloc(num * sizeof(*s->map_cmdline_to_pid));
	s->saved_cmdlines = kzalloc(num * sizeof(*s->saved_cmdlines));
	if (!s->map_cmdline_to_pid || !s->saved_cmdlines) {
		kfree(s->map_cmdline_to_pid);
		kfree(s->saved_cmdlines);
		kfree(s);
		return NULL;
	}
	s->cmdline_num = num;
	s->cmdline_idx = num - 1;	/* so the first task takes slot 0 */
	for (unsigned int i = 0; i < num; i++)
		s->map_cmdline_to_pid[i] = NO_CMDLINE_MAP;
	return s;
}

static void saved_cmdlines_free(struct saved_cmdlines_buffer *s)
{
	if (!s)
		return;
	kfree(s->map_cmdline_to_pid);
	kfree(s->saved_cmdlines);
	kfree(s);
}

/* A new table of num slots replaces the old, empty (Linux's tracing_resize_saved_cmdlines()). */
static int saved_cmdlines_resize(unsigned int num)
{
	struct saved_cmdlines_buffer *s = saved_cmdlines_alloc(num), *old;
	unsigned long flags;

	if (!s)
		return -ENOMEM;
	flags = local_irq_save();
	spin_lock(&trace_cmdline_lock);
	old = savedcmd;
	savedcmd = s;
	for (unsigned int i = 0; i < PID_MAX_DEFAULT; i++)
		map_pid_to_cmdline[i] = NO_CMDLINE_MAP;
	spin_unlock(&trace_cmdline_lock);
	local_irq_restore(flags);
	saved_cmdlines_free(old);
	return 0;
}

/* Linux's trace_save_cmdline(): the running task's pid and name, unless pid 0 (idle). */
void tracing_record_cmdline(const char *comm)
{
	struct task_struct *t = this_cpu_read(current_task);
	unsigned int tpid, idx;
	struct saved_cmdlines_buffer *s;

	if (!t || !t->pid || !spin_trylock(&trace_cmdline_lock))
		return;
	s = savedcmd;
	tpid = t->pid & (PID_MAX_DEFAULT - 1);
	idx = s ? map_pid_to_cmdline[tpid] : NO_CMDLINE_MAP;
	if (s && idx == NO_CMDLINE_MAP) {	/* the next slot, its old task forgotten */
		idx = (s->cmdline_idx + 1) % s->cmdline_num;
		if (s->map_cmdline_to_pid[idx] != NO_CMDLINE_MAP)
			map_pid_to_cmdline[s->map_cmdline_to_pid[idx] & (PID_MAX_DEFAULT - 1)] =
				NO_CMDLINE_MAP;
		map_pid_to_cmdline[tpid] = idx;
		s->cmdline_idx = idx;
	}
	if (s) {
		s->map_cmdline_to_pid[idx] = t->pid;
		strlcpy(s->saved_cmdlines[idx], comm, TASK_NAME_LEN);
	}
	spin_unlock(&trace_cmdline_lock);
}
NOKPROBE_SYMBOL(tracing_record_cmdline);

/* Slot order, as Linux's saved_cmdlines_next() walks them. */
static int saved_cmdlines_show(struct seq_buf *seq, void *data)
{
	unsigned long flags = local_irq_save();
	struct saved_cmdlines_buffer *s;

	spin_lock(&trace_cmdline_lock);
	s = savedcmd;
	for (unsigned int i = 0; s && i < s->cmdline_num; i++)
		if (s->map_cmdline_to_pid[i] != NO_CMDLINE_MAP)
			seq_buf_printf(seq, "%u %s\n", s->map_cmdline_to_pid[i], s->saved_cmdlines[i]);
	spin_unlock(&trace_cmdline_lock);
	local_irq_restore(flags);
	return 0;
}

static int saved_cmdlines_size_show(struct seq_buf *seq, void *data)
{
	unsigned long flags = local_irq_save();
	unsigned int num;

	spin_lock(&trace_cmdline_lock);	/* a resize frees the table it replaces */
	num = savedcmd->cmdline_num;
	spin_unlock(&trace_cmdline_lock);
	local_irq_restore(flags);
	seq_buf_printf(seq, "%u\n", num);
	return 0;
}

/* 1 to PID_MAX_DEFAULT slots, as Linux; anything else is EINVAL and changes nothing. */
static int saved_cmdlines_size_write(const char *text, size_t len, bool trunc, void *data)
{
	unsigned long val;

	if (kstrntoul(text, len, 10, &val) || !val || val > PID_MAX_DEFAULT)
		return -EINVAL;
	return saved_cmdlines_resize(val);
}

/*
 * ---- saved_tgids (Linux's tgid_map): which thread group each pid that left a
 * record belongs to, saved while options/record-tgid is on.  Linux's `trace`
 * prints the tgid column from it, and a tool groups threads into processes.
 * A process here is one task (no CLONE_THREAD): its tgid is its pid.  The
 * map, one int per pid, is allocated the first time record-tgid goes on,
 * as Linux's is, and stays.
 */
static int *tgid_map;

int trace_alloc_tgid_map(void)
{
	int *map;

	if (READ_ONCE(tgid_map))
		return 0;
	map = kzalloc(PID_MAX_DEFAULT * sizeof(*map));
	if (!map)
		return -ENOMEM;
	WRITE_ONCE(tgid_map, map);
	return 0;
}

/* Linux's trace_save_tgid(): the running task's, unless pid 0 (idle's, not saved). */
void tracing_record_tgid(void)
{
	struct task_struct *t = this_cpu_read(current_task);
	int *map = READ_ONCE(tgid_map);

	if (map && t && t->pid > 0 && t->pid < PID_MAX_DEFAULT)
		map[t->pid] = t->pid;	/* tgid: the thread group is the task */
}
NOKPROBE_SYMBOL(tracing_record_tgid);

/* Linux's trace_find_tgid(): 0 for a pid never saved. */
int trace_find_tgid(int pid)
{
	int *map = READ_ONCE(tgid_map);

	return map && pid > 0 && pid < PID_MAX_DEFAULT ? READ_ONCE(map[pid]) : 0;
}

/* "PID TGID" for each pid saved, in pid order (Linux's saved_tgids_show()). */
static int saved_tgids_show(struct seq_buf *seq, void *data)
{
	for (int pid = 1; pid < PID_MAX_DEFAULT; pid++) {
		int tgid = trace_find_tgid(pid);

		if (tgid)
			seq_buf_printf(seq, "%d %d\n", pid, tgid);
	}
	return 0;
}

static const struct pseudo_file_spec saved_cmdlines_files[] = {
	{ "saved_cmdlines",      saved_cmdlines_show,      NULL },
	{ "saved_cmdlines_size", saved_cmdlines_size_show, saved_cmdlines_size_write },
	{ "saved_tgids",         saved_tgids_show,         NULL },
};

int trace_saved_cmdlines_init(void)
{
	int ret = saved_cmdlines_resize(SAVED_CMDLINES_DEFAULT);

	return ret ? ret : pseudofs_create_files(TRACEFS_DIR, saved_cmdlines_files,
						 ARRAY_SIZE(saved_cmdlines_files));
}
