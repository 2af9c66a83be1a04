/*
 * base.c - /proc/PID/ and /proc/self (Linux's fs/proc/base.c and
 * fs/proc/array.c): a directory per task, named by its pid, whose files
 * say what the task is now.
 *
 * The directories are not stored: "/proc/<*>" is a dynamic pseudofs
 * directory, and a name is there while a task has that pid (or is
 * "self": the reader's own).  A file's show() finds its task by pid with
 * the run queue locked and copies what it prints (struct pid_info), so a
 * task that exits meanwhile is either whole or absent (-ESRCH).
 * /proc/self is a symbolic link on Linux; with no links here it is the
 * reader's directory under another name.
 */
#include "kernel.h"
#include "proc_fs.h"
#include "pseudofs.h"
#include "mount.h"
#include "sched.h"
#include "process.h"
#include "mm_types.h"
#include "fs.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define PID_MAPS_MAX	16	/* areas /proc/PID/maps shows (a process here has a few) */
#define MAPS_NAME_COL	48	/* Linux pads a maps line to 25 + 6 * sizeof(long) - 1, then a space */
#define RLIM_INFINITY	(~0UL)	/* rsslim: no limit */
#define KB		1024
#define EXIT_SIGNAL	17	/* SIGCHLD: what a parent hears */
#define TASK_PRIO	20	/* priority of a nice-0 task, as Linux prints it */
#define PID_MAX_LIMIT	4194304	/* Linux's largest pid: a bigger name is no pid */

/* What the files print of one task, copied with the run queue locked. */
struct pid_info {
	int pid, ppid, pgid, cpu;
	char state;
	bool process;
	char comm[TASK_NAME_LEN];
	unsigned long min_flt;
	unsigned long long sig_pending, sig_blocked, sig_ignored, sig_caught;
	/* A process's memory (zero for a kernel thread). */
	unsigned long start_code, end_code, start_stack, start_brk, brk, nr_pages;
	int nr_maps;
	struct vm_area_struct maps[PID_MAPS_MAX];
	char exe[TASK_NAME_LEN];
	unsigned long vdso;	/* where its vDSO is, 0: none */
};

struct pid_query {
	int pid;
	bool found;
	struct pid_info *info;
};

/* Linux's task_state_array letters. */
static char pid_state_letter(const struct task_struct *t)
{
	if (t->exit_state & EXIT_ZOMBIE || t->state == TASK_DEAD)
		return 'Z';
	if (t->state == TASK_SLEEPING)
		return 'S';
	return t->state == TASK_BLOCKED ? 'D' : 'R';
}

static void pid_copy_mm(struct pid_info *p, struct mm_struct *mm)
{
	unsigned long irq;

	p->start_code = mm->start_code;
	p->end_code = mm->end_code;
	p->start_stack = mm->start_stack;
	p->start_brk = mm->start_brk;
	p->brk = mm->brk;
	p->nr_pages = mm->nr_pages;
	p->vdso = mm->vdso;
	spin_lock_irqsave(&mm->page_table_lock, irq);
	for (struct vm_area_struct *v = mm->mmap; v && p->nr_maps < PID_MAPS_MAX; v = v->vm_next)
		p->maps[p->nr_maps++] = *v;
	spin_unlock_irqrestore(&mm->page_table_lock, irq);
	if (mm->exe_file)	/* its name in /bin: the mm's reference keeps the inode */
		strlcpy(p->exe, mm->exe_file->name, sizeof(p->exe));
}

/* A signal set as the 64-bit mask /proc prints (signal n is bit n - 1). */
static unsigned long long sigset_bits(const sigset_t *set)
{
	unsigned long long bits = 0;

	for (int w = _NSIG_WORDS - 1; w >= 0; w--)
		bits = bits << _NSIG_BPW | set->sig[w];
	return bits;
}

/* Under the run queue's lock: copy, print later. */
static void pid_collect(struct task_struct *t, void *arg)
{
	struct pid_query *q = arg;
	struct pid_info *p = q->info;

	if (t->pid != q->pid || q->found)
		return;
	q->found = true;
	if (!p)
		return;
	p->pid = t->pid;
	p->ppid = t->parent ? t->parent->pid : 0;
	p->pgid = t->signal.pgid;
	p->cpu = t->cpu;
	p->state = pid_state_letter(t);
	p->process = task_is_process(t);
	strlcpy(p->comm, t->comm, sizeof(p->comm));
	p->min_flt = t->min_flt;
	p->sig_pending = sigset_bits(&t->signal.pending.signal);
	p->sig_blocked = sigset_bits(&t->signal.blocked);
	for (int sig = 1; sig <= _NSIG; sig++) {
		__sighandler_t h = t->signal.sighand.action[sig - 1].sa_handler;

		if (h == SIG_IGN)
			p->sig_ignored |= 1ULL << (sig - 1);
		else if (h != SIG_DFL)
			p->sig_caught |= 1ULL << (sig - 1);
	}
}

struct pid_mm_query {
	int pid;
	struct mm_struct *mm;
};

/* Under the run queue's lock, which keeps t from being freed: a hold on its memory. */
static void pid_mm_collect(struct task_struct *t, void *arg)
{
	struct pid_mm_query *q = arg;

	if (t->pid == q->pid && !q->mm)
		q->mm = get_task_mm(t);
}

/* The memory of /proc/PID's process, held (mmput() it); NULL for a kernel thread or zombie. */
static struct mm_struct *pid_get_mm(void *data)
{
	struct pid_mm_query q = { (int)(unsigned long)data, NULL };

	for_each_task(pid_mm_collect, &q);
	return q.mm;
}

/*
 * The task with pid, copied into *p (NULL: only whether it is there),
 * and its memory's bounds and areas, from a hold on its address space
 * taken after the run queue's lock is let go: the area lock's holder
 * may be waiting for this CPU to answer a TLB shootdown.
 */
static int pid_find(int pid, struct pid_info *p)
{
	struct pid_query q = { pid, false, p };
	struct mm_struct *mm;

	if (p)
		memset(p, 0, sizeof(*p));
	for_each_task(pid_collect, &q);
	if (!q.found)
		return -ESRCH;
	if (p && (mm = pid_get_mm((void *)(unsigned long)pid))) {
		pid_copy_mm(p, mm);
		mmput(mm);
	}
	return 0;
}

/* A name of /proc: "self" or a pid there is. */
static int proc_pid_resolve(const char *name, void **data)
{
	unsigned long pid;

	if (strcmp(name, "self") == 0) {
		*data = (void *)(unsigned long)current->pid;
		return 0;
	}
	if ((name[0] == '0' && name[1]) || kstrtoul(name, 10, &pid) || pid >= PID_MAX_LIMIT ||
	    (pid == 0 && current->pid != 0) || pid_find(pid, NULL))
		return -ENOENT;
	*data = (void *)pid;
	return 0;
}

/*
 * Pid 0 is not listed: on Linux it is the idle task, which /proc never
 * shows.  Here it is the boot thread running the kernel's shell, whose
 * own /proc/self (and /proc/0, for it alone) still resolve.
 */
static void pid_list_one(struct task_struct *t, void *arg)
{
	if (t->pid != 0)
		seq_buf_printf(arg, "%d\n", t->pid);
}

static int proc_pid_list(struct seq_buf *s)
{
	seq_buf_puts(s, "self\n");
	for_each_task(pid_list_one, s);
	return 0;
}

/* ---- the files --------------------------------------------------------------- */

/* Every show() starts here: the task's copy, on the heap (it is 400 bytes). */
static struct pid_info *pid_info_get(void *data, int *err)
{
	struct pid_info *p = kmalloc(sizeof(*p));

	*err = -ENOMEM;
	if (p && (*err = pid_find((int)(unsigned long)data, p))) {
		kfree(p);
		return NULL;
	}
	return p;
}

static unsigned long pid_vm_bytes(const struct pid_info *p)
{
	unsigned long bytes = 0;

	for (int i = 0; i < p->nr_maps; i++)
		bytes += p->maps[i].vm_end - p->maps[i].vm_start;
	return bytes;
}

/* /proc/PID/stat: Linux's 52 fields (do_task_stat()); what this kernel has no notion of is 0. */
static int proc_pid_stat(struct seq_buf *s, void *data)
{
	int err;
	struct pid_info *p = pid_info_get(data, &err);

	if (!p)
		return err;
	seq_buf_printf(s, "%d (%s) %c %d %d %d 0 -1 %u %lu 0 0 0 0 0 0 0 %d 0 1 0 0 %lu %lu %lu ",
		       p->pid, p->comm, p->state, p->ppid, p->pgid, p->pgid,
		       p->process ? 0u : 0x00200000u /* PF_KTHREAD */, p->min_flt, TASK_PRIO,
		       pid_vm_bytes(p), p->nr_pages, RLIM_INFINITY);
	seq_buf_printf(s, "%lu %lu %lu 0 0 %llu %llu 0 0 0 0 0 %d %d 0 0 0 0 0 0 0 %lu %lu 0 0 0\n",
		       p->start_code, p->end_code, p->start_stack, p->sig_pending,
		       p->sig_blocked, EXIT_SIGNAL, p->cpu, p->start_brk, p->brk);
	kfree(p);
	return 0;
}

static const char *pid_state_name(char state)
{
	switch (state) {
	case 'R': return "R (running)";
	case 'S': return "S (sleeping)";
	case 'D': return "D (disk sleep)";
	default:  return "Z (zombie)";
	}
}

/* /proc/PID/status: Linux's lines (proc_pid_status()) for what a task here has. */
static int proc_pid_status(struct seq_buf *s, void *data)
{
	int err;
	struct pid_info *p = pid_info_get(data, &err);

	if (!p)
		return err;
	seq_buf_printf(s, "Name:\t%s\nState:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n"
		       "TracerPid:\t0\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t \n"
		       "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n",
		       p->comm, pid_state_name(p->state), p->pid, p->pid, p->ppid,
		       NR_OPEN_DEFAULT, p->pid, p->pid, p->pgid, p->pgid);
	if (p->process)
		seq_buf_printf(s, "VmSize:\t%8lu kB\nVmRSS:\t%8lu kB\nVmData:\t%8lu kB\n"
			       "VmExe:\t%8lu kB\n", pid_vm_bytes(p) / KB,
			       p->nr_pages * (PAGE_SIZE / KB), (p->brk - p->start_brk) / KB,
			       (p->end_code - p->start_code) / KB);
	seq_buf_printf(s, "Threads:\t1\nSigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n"
		       "SigIgn:\t%016llx\nSigCgt:\t%016llx\n", p->sig_pending, 0ULL,
		       p->sig_blocked, p->sig_ignored, p->sig_caught);
	kfree(p);
	return 0;
}

static int proc_pid_comm(struct seq_buf *s, void *data)
{
	int err;
	struct pid_info *p = pid_info_get(data, &err);

	if (!p)
		return err;
	seq_buf_printf(s, "%s\n", p->comm);
	kfree(p);
	return 0;
}

/* What Linux names an area after: the program's file, [heap], [stack], [vdso]. */
static void maps_name(struct seq_buf *s, const struct pid_info *p,
		      const struct vm_area_struct *v, size_t line_start)
{
	const char *name = NULL;
	char exe[TASK_NAME_LEN + sizeof("/bin/")];

	if (v->vm_flags & VM_GROWSDOWN)
		name = "[stack]";
	else if (p->vdso && v->vm_start == p->vdso)
		name = "[vdso]";
	else if (p->brk > p->start_brk && v->vm_start <= p->start_brk && v->vm_end >= p->brk)
		name = "[heap]";
	else if (p->exe[0] && v->vm_start < p->end_code && v->vm_end > p->start_code)
		name = (snprintf(exe, sizeof(exe), "/bin/%s", p->exe), exe);
	if (!name)
		return;
	while (s->len - line_start < MAPS_NAME_COL)
		seq_buf_putc(s, ' ');
	seq_buf_printf(s, " %s", name);	/* Linux's seq_pad(m, ' ') */
}

/* /proc/PID/maps: each area as Linux's show_map_vma() prints it (no file offsets here: 0). */
static int proc_pid_maps(struct seq_buf *s, void *data)
{
	int err;
	struct pid_info *p = pid_info_get(data, &err);

	if (!p)
		return err;
	for (int i = 0; i < p->nr_maps; i++) {
		const struct vm_area_struct *v = &p->maps[i];
		size_t start = s->len;

		seq_buf_printf(s, "%08lx-%08lx %c%c%cp %08x %02x:%02x %lu ", v->vm_start,
			       v->vm_end, v->vm_flags & VM_READ ? 'r' : '-',
			       v->vm_flags & VM_WRITE ? 'w' : '-',
			       v->vm_flags & VM_EXEC ? 'x' : '-', 0, 0, 0, 0UL);
		maps_name(s, p, v, start);
		seq_buf_putc(s, '\n');
	}
	kfree(p);
	return 0;
}

/* ---- cmdline and environ: the process's own pages ---------------------------- */

/* len bytes at user address addr of mm, copied into s: 0 or -ENOMEM. */
static int pid_put_user_bytes(struct seq_buf *s, struct mm_struct *mm,
			      unsigned long addr, unsigned long len)
{
	char *buf = kmalloc(len);
	int got;

	if (!buf)
		return -ENOMEM;
	got = access_remote_vm(mm, addr, buf, len);
	seq_buf_putmem(s, buf, got);
	kfree(buf);
	return 0;
}

/*
 * Linux's get_mm_cmdline(): argv's strings as execve laid them on the
 * stack, each with its NUL.  A program may write over them (setproctitle):
 * when the last byte is no longer a NUL, the title is the string at
 * arg_start, up to its NUL, within a page (get_mm_proctitle()).
 */
static int pid_cmdline_bytes(struct seq_buf *s, struct mm_struct *mm)
{
	unsigned long start = mm->arg_start, end = mm->arg_end;
	char last = '\0', *page;
	int got, n;

	if (start >= end)
		return 0;
	if (access_remote_vm(mm, end - 1, &last, 1) != 1 || !last)
		return pid_put_user_bytes(s, mm, start, end - start);
	page = kmalloc(PAGE_SIZE);
	if (!page)
		return -ENOMEM;
	got = access_remote_vm(mm, start, page, PAGE_SIZE);
	n = strnlen(page, got);
	seq_buf_putmem(s, page, n < got ? n + 1 : n);	/* the NUL too, if found */
	kfree(page);
	return 0;
}

/*
 * A /proc/PID file read from the process's own memory: its mm held while
 * show() copies (nothing for a kernel thread or a zombie, as Linux's).
 */
static int pid_mm_show(struct seq_buf *s, void *data,
		       int (*show)(struct seq_buf *, struct mm_struct *))
{
	struct mm_struct *mm;
	int err = pid_find((int)(unsigned long)data, NULL);

	if (err)
		return err;
	mm = pid_get_mm(data);
	if (mm) {
		err = show(s, mm);
		mmput(mm);
	}
	return err;
}

/* The environment strings execve gave (Linux's environ_read()). */
static int pid_environ_bytes(struct seq_buf *s, struct mm_struct *mm)
{
	if (mm->env_end <= mm->env_start)
		return 0;
	return pid_put_user_bytes(s, mm, mm->env_start, mm->env_end - mm->env_start);
}

static int proc_pid_cmdline(struct seq_buf *s, void *data)
{
	return pid_mm_show(s, data, pid_cmdline_bytes);
}

static int proc_pid_environ(struct seq_buf *s, void *data)
{
	return pid_mm_show(s, data, pid_environ_bytes);
}

int proc_pid_exe_link(int pid, char *buf, size_t size)
{
	struct mm_struct *mm = pid_get_mm((void *)(unsigned long)pid);
	int ret = -ENOENT;

	if (mm && mm->exe_path[0])
		ret = strlcpy(buf, mm->exe_path, size);
	mmput(mm);
	return ret < (int)size ? ret : (int)size - 1;
}

/*
 * /proc/PID/exe is a symbolic link (fs/namei_link.c): a path walk goes
 * on to the program's file.  Its own text is reached only when there
 * is no program to name - a kernel thread, a zombie - and then, as
 * Linux's proc_exe_link(), there is nothing: -ENOENT.
 */
static int proc_pid_exe(struct seq_buf *s, void *data)
{
	int err = pid_find((int)(unsigned long)data, NULL);

	return err ? err : -ENOENT;
}

/* /proc/PID/mounts: one mount table for every process, as with no namespaces. */
static int proc_pid_mounts(struct seq_buf *s, void *data)
{
	int err = pid_find((int)(unsigned long)data, NULL);

	return err ? err : mounts_proc_show(s, NULL);
}

static const struct {
	const char *name;
	int (*show)(struct seq_buf *s, void *data);
} pid_entries[] = {
	{ "cmdline", proc_pid_cmdline },
	{ "comm", proc_pid_comm },
	{ "environ", proc_pid_environ },
	{ "exe", proc_pid_exe },
	{ "maps", proc_pid_maps },
	{ "mounts", proc_pid_mounts },
	{ "stat", proc_pid_stat },
	{ "status", proc_pid_status },
};

int proc_pid_init(void)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = pseudofs_create_dynamic(PROC_ROOT "/*", proc_pid_resolve, proc_pid_list);

	for (size_t i = 0; i < ARRAY_SIZE(pid_entries) && !ret; i++) {
		snprintf(path, sizeof(path), "%s/*/%s", PROC_ROOT, pid_entries[i].name);
		ret = proc_create_at(path, pid_entries[i].show);
	}
	return ret;
}
