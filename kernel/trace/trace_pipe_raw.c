/*
 * trace_pipe_raw.c - per_cpu/cpuN/trace_pipe_raw, per_cpu/cpuN/snapshot_raw
 * and buffer_percent (Linux's tracing_buffers_read() and its files,
 * kernel/trace/trace.c).
 *
 *   read(fd, buf, 4096) on trace_pipe_raw   one page of CPU N's records, in
 *                                           Linux's binary format; they are
 *                                           gone from the buffer (consuming)
 *   the buffer empty                        read() sleeps until it is
 *                                           buffer_percent full (O_NONBLOCK:
 *                                           EAGAIN at once)
 *   snapshot_raw                            the same of CPU N's snapshot buffer
 *
 * Why binary pages: `trace` formats every record as text in the kernel,
 * a cost paid for each line.  A recorder such as trace-cmd instead
 * moves whole pages from the ring buffer to a file (Linux: splice(),
 * without copying them), and formats them later, elsewhere, using
 * events/header_page, events/header_event and the format files.
 *
 * A read returns what is left of the current page (a page is 4096
 * bytes, unused bytes zero), or less if the reader asked for less; the
 * next read goes on in the same page, as Linux's does.  The page itself
 * is built by ring_buffer_page.c.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_array.h"
#include "ring_buffer.h"
#include "pseudofs.h"
#include "fs.h"
#include "fcntl.h"
#include "uaccess.h"
#include "sched.h"
#include "signal.h"
#include "timer.h"
#include "mm.h"
#include "smp.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define RAW_FILE_MODE	(0100000 | 0440)	/* S_IFREG, read by owner and group, as Linux's */
#define RAW_POLL_MS	(1000 / HZ)		/* a sleeping reader looks again each tick */
#define BUFFER_PERCENT_MAX 100

/* One open trace_pipe_raw or snapshot_raw (Linux's struct ftrace_buffer_info). */
struct raw_reader {
	struct trace_buffer *tb;
	struct trace_array *tr;		/* its buffer_percent */
	int cpu;
	bool snapshot;
	unsigned int read;		/* bytes of page already returned; PAGE_SIZE: none held */
	unsigned char page[PAGE_SIZE];	/* a struct buffer_data_page */
};

/* A page into r, or -EAGAIN if the buffer is empty. */
static int raw_reader_fill(struct raw_reader *r)
{
	int ret = ring_buffer_read_page(r->tb, r->cpu, r->snapshot,
					(struct buffer_data_page *)r->page);

	if (ret == -ENODEV)		/* no snapshot: as empty as Linux's spare buffer */
		ret = -EAGAIN;
	if (ret >= 0)
		r->read = 0;
	return ret < 0 ? ret : 0;
}

/* Is it time to wake?  Any record for the snapshot, else buffer_percent of the buffer. */
static bool raw_reader_ready(struct raw_reader *r)
{
	unsigned int full = r->snapshot ? 0 : READ_ONCE(r->tr->buffer_percent);

	return ring_buffer_full_hit(r->tb, r->cpu, r->snapshot, full);
}

/*
 * Sleep until there is enough to read, or a signal (-EINTR).  Linux's
 * writer queues an irq_work that wakes the reader: a probe hit cannot
 * wake a task itself (the run queue's lock may be what it interrupted).
 * Here the reader looks again each tick instead.
 */
static int raw_reader_wait(struct raw_reader *r)
{
	while (!raw_reader_ready(r)) {
		if (signal_pending(current))
			return -EINTR;
		msleep(RAW_POLL_MS);
	}
	return 0;
}

static long raw_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	struct raw_reader *r = f->private_data;
	size_t n;
	int ret;

	if (!count)
		return 0;
	while (r->read >= PAGE_SIZE && (ret = raw_reader_fill(r)) < 0) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if ((ret = raw_reader_wait(r)) < 0)
			return ret;
	}
	n = PAGE_SIZE - r->read < count ? PAGE_SIZE - r->read : count;
	if (copy_to_user(buf, r->page + r->read, n))
		return -EFAULT;
	r->read += n;
	*pos += n;
	return n;
}

static void raw_release(struct file *f)
{
	struct raw_reader *r = f->private_data;

	if (r->tr != &global_trace)
		trace_array_put(r->tr);
	kfree(r);
}

static const struct file_operations raw_fops = { .read = raw_read, .release = raw_release };

/* Take a reference on instance tr, unless it went (its name now another's or none's). */
static bool raw_hold_instance(struct trace_array *tr)
{
	struct trace_array *got = trace_array_get_by_name(tr->name);

	if (got && got != tr)
		trace_array_put(got);
	return got == tr;
}

static struct file *raw_open(const struct pseudo_file *pf, void *data, unsigned int flags,
			     int *err, bool snapshot)
{
	struct trace_cpu_file *cf = data;
	struct raw_reader *r;
	struct file *f;

	*err = -EACCES;
	if ((flags & O_ACCMODE) != O_RDONLY)
		return NULL;
	*err = -ENOMEM;
	if (!(r = kzalloc(sizeof(*r))))
		return NULL;
	/* An instance's reader holds it: rmdir is EBUSY until the file is closed, as in Linux. */
	if (cf->tr != &global_trace && !raw_hold_instance(cf->tr)) {
		*err = -ENODEV;
		kfree(r);
		return NULL;
	}
	*r = (struct raw_reader){ .tb = cf->tr->buffer, .tr = cf->tr, .cpu = cf->cpu,
				  .snapshot = snapshot, .read = PAGE_SIZE };
	if (!(f = alloc_file(&raw_fops, flags, r))) {
		if (cf->tr != &global_trace)
			trace_array_put(cf->tr);
		kfree(r);
		return NULL;
	}
	f->f_mode = RAW_FILE_MODE;
	return f;
}

static struct file *trace_pipe_raw_open(const struct pseudo_file *pf, void *data,
					unsigned int flags, int *err)
{
	return raw_open(pf, data, flags, err, false);
}

static struct file *snapshot_raw_open(const struct pseudo_file *pf, void *data,
				      unsigned int flags, int *err)
{
	return raw_open(pf, data, flags, err, true);
}

/*
 * `cat` at the kernel's shell (and a test's read of the whole file):
 * one page, consumed, as one read(2) of 4096 bytes returns it; nothing
 * if the buffer is empty (the shell does not sleep).
 */
static int raw_show(struct seq_buf *s, struct trace_cpu_file *cf, bool snapshot)
{
	struct buffer_data_page *page = kmalloc(PAGE_SIZE);
	int ret;

	if (!page)
		return -ENOMEM;
	ret = ring_buffer_read_page(cf->tr->buffer, cf->cpu, snapshot, page);
	if (ret >= 0)
		seq_buf_putmem(s, page, PAGE_SIZE);
	kfree(page);
	return ret == -EAGAIN || ret == -ENODEV ? 0 : ret < 0 ? ret : 0;
}

static int trace_pipe_raw_show(struct seq_buf *s, void *data)
{
	return raw_show(s, data, false);
}

static int snapshot_raw_show(struct seq_buf *s, void *data)
{
	return raw_show(s, data, true);
}

/* per_cpu/cpuN/trace_pipe_raw and snapshot_raw of trace array tr. */
int trace_pipe_raw_create(struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	int cpu, ret = 0;

	for_each_online_cpu(cpu) {
		tr->cpu_files[cpu] = (struct trace_cpu_file){ tr, cpu };
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", tr->dir, cpu);
		ret = pseudofs_create_opener(path, trace_pipe_raw_show, trace_pipe_raw_open,
					     &tr->cpu_files[cpu]);
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/snapshot_raw", tr->dir, cpu);
		if (!ret)
			ret = pseudofs_create_opener(path, snapshot_raw_show, snapshot_raw_open,
						     &tr->cpu_files[cpu]);
		if (ret)
			break;
	}
	return ret;
}

/* ---- buffer_percent --------------------------------------------------------------- */

static int buffer_percent_show(struct seq_buf *s, void *data)
{
	struct trace_array *tr = data ? data : &global_trace;

	seq_buf_printf(s, "%u\n", READ_ONCE(tr->buffer_percent));
	return 0;
}

/* 0..100 (0: wake at the first record); anything else is EINVAL and changes nothing. */
static int buffer_percent_write(const char *text, size_t len, bool trunc, void *data)
{
	struct trace_array *tr = data ? data : &global_trace;
	unsigned long val;
	int ret = kstrntoul(text, len, 10, &val);

	if (ret)
		return ret;
	if (val > BUFFER_PERCENT_MAX)
		return -EINVAL;
	WRITE_ONCE(tr->buffer_percent, val);
	return 0;
}

/* An instance's buffer_percent (Linux's default) and raw files: mkdir instances/NAME. */
int trace_pipe_raw_instance_create(struct trace_array *tr)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret;

	tr->buffer_percent = TRACE_BUFFER_PERCENT_DEFAULT;
	snprintf(path, sizeof(path), "%s/buffer_percent", tr->dir);
	ret = pseudofs_create(path, buffer_percent_show, buffer_percent_write, tr);
	return ret ? ret : trace_pipe_raw_create(tr);
}

static const struct pseudo_file_spec buffer_percent_files[] = {
	{ "buffer_percent", buffer_percent_show, buffer_percent_write },
};

/* The top level's buffer_percent and raw files. */
int trace_pipe_raw_init(void)
{
	int ret = pseudofs_create_files(TRACEFS_DIR, buffer_percent_files,
					ARRAY_SIZE(buffer_percent_files));

	return ret ? ret : trace_pipe_raw_create(&global_trace);
}
