/*
 * test_trace_raw.c - suite "trace_raw": per_cpu/cpuN/trace_pipe_raw and
 * snapshot_raw hand out Linux's binary ring-buffer page, laid out as
 * events/header_page, events/header_event and the event's format file
 * say; buffer_percent takes Linux's values.  The workload is
 * `run fib 2`: 3 hits of fib (n = 2, 1, 0).  (Decoding such pages on
 * the host, as trace-cmd does: tests/host/check_trace_raw.py.)
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "trace.h"
#include "ring_buffer.h"
#include "kallsyms.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "smp.h"
#include "process.h"
#include "trace_synth.h"
#include <asm/unistd_32.h>
#include "tracefs_suite.h"

#define T(name)   TRACEFS_DIR "/" name
#define EV(name)  TRACEFS_DIR "/events/kprobes/raw_fib/" name
#define FIB2_HITS 3
#define RAW_FIB_LEN 16		/* trace_entry 8, __probe_ip 4, n 4 */
#define TYPE_LEN_BITS 5

static void run_fib2(void)
{
	static char sink[256];
	struct seq_buf s;

	seq_buf_init(&s, sink, sizeof(sink));
	shell_exec("run fib 2", &s);
}

static int raw_init(struct ktest *t)
{
	tracefs_init();
	wr(T("kprobe_events"), "\n");
	pseudofs_write_str(T("kprobe_events"), "p:raw_fib fib n=$arg1\n", false);
	return wr(EV("enable"), "1\n");
}

static void raw_exit(struct ktest *t)
{
	wr(EV("enable"), "0\n");
	wr(T("kprobe_events"), "\n");
	wr(T("buffer_percent"), "50\n");
}

static uint32_t get_u32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The records' stamps, oldest first, left in the buffer. */
struct stamps {
	uint64_t ts[8];
	int cpu[8];
	int n;
};

static int take_stamp(const struct trace_entry *e, void *data)
{
	struct stamps *st = data;

	if (st->n < (int)ARRAY_SIZE(st->ts)) {
		st->cpu[st->n] = e->cpu;
		st->ts[st->n++] = e->ts;
	}
	return 0;
}

static void buffer_percent_takes_0_to_100(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, rd(T("buffer_percent")), 0);
	KTEST_EXPECT_STREQ(t, out, "50\n");		/* Linux's default */
	KTEST_EXPECT_EQ(t, wr(T("buffer_percent"), "0\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("buffer_percent")), 0);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, wr(T("buffer_percent"), "100\n"), 0);
	KTEST_EXPECT_EQ(t, wr(T("buffer_percent"), "101\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, wr(T("buffer_percent"), "half\n"), -EINVAL);
	KTEST_EXPECT_EQ(t, rd(T("buffer_percent")), 0);
	KTEST_EXPECT_STREQ(t, out, "100\n");		/* a refusal changes nothing */
	wr(T("buffer_percent"), "50\n");
}

static void per_cpu_has_raw_files(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_lookup(T("per_cpu/cpu0/trace_pipe_raw")), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(T("per_cpu/cpu0/snapshot_raw")), 1);
}

/* Read CPU cpu's next page through the file: its length (PAGE_SIZE or 0). */
static int read_page(const char *file, int cpu)
{
	char path[PSEUDOFS_PATH_MAX];
	struct seq_buf s;

	snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/%s", cpu, file);
	seq_buf_init(&s, out, sizeof(out));
	if (pseudofs_read(path, &s))
		return -1;
	return (int)seq_buf_used(&s);
}

/* Check one page of raw_fib records against the stamps taken before. */
static void check_fib_page(struct ktest *t, const struct stamps *st, int cpu, uint32_t id,
			   int *seen)
{
	uint64_t ts;
	uint32_t commit = get_u32(out + 8);
	unsigned long fib = kallsyms_lookup_name("fib");
	int off = BUF_PAGE_HDR_SIZE;

	memcpy(&ts, out, sizeof(ts));
	KTEST_EXPECT_EQ(t, commit >> 30, 0);		/* nothing lost */
	for (int i = 0; i < st->n && off < BUF_PAGE_HDR_SIZE + (int)commit; i++) {
		uint32_t hdr = get_u32(out + off), delta = hdr >> TYPE_LEN_BITS;

		if (st->cpu[i] != cpu)
			continue;
		if (*seen == 0 || off == BUF_PAGE_HDR_SIZE)
			KTEST_EXPECT_EQ(t, ts, st->ts[i]);	/* the page's stamp: its first record's */
		KTEST_EXPECT_EQ(t, hdr & ((1 << TYPE_LEN_BITS) - 1), RAW_FIB_LEN / 4);
		KTEST_EXPECT_EQ(t, ts + delta, st->ts[i]);
		ts += delta;
		KTEST_EXPECT_EQ(t, get_u32(out + off + 4) & 0xffff, id);	/* common_type */
		KTEST_EXPECT_EQ(t, get_u32(out + off + 12), fib);		/* __probe_ip */
		KTEST_EXPECT_EQ(t, get_u32(out + off + 16), 2 - *seen);		/* n */
		off += 4 + RAW_FIB_LEN;
		(*seen)++;
	}
	KTEST_EXPECT_EQ(t, off, BUF_PAGE_HDR_SIZE + (int)commit);
}

static void pipe_raw_page_is_linux_layout(struct ktest *t)
{
	struct stamps st = { .n = 0 };
	uint32_t id;
	int seen = 0;

	KTEST_EXPECT_EQ(t, rd(EV("id")), 0);
	id = simple_strtoul(out, NULL, 10);
	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	trace_buffer_for_each(TRACE_ALL_CPUS, take_stamp, &st);
	KTEST_EXPECT_EQ(t, st.n, FIB2_HITS);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu) || read_page("trace_pipe_raw", cpu) != (int)PAGE_SIZE)
			continue;
		check_fib_page(t, &st, cpu, id, &seen);
		KTEST_EXPECT_EQ(t, read_page("trace_pipe_raw", cpu), 0);	/* consumed */
	}
	KTEST_EXPECT_EQ(t, seen, FIB2_HITS);
	KTEST_EXPECT_EQ(t, trace_buffer_entries(), 0);
}

static void snapshot_raw_reads_the_snapshot(struct ktest *t)
{
	int pages = 0;

	trace_buffer_reset(TRACE_ALL_CPUS);
	run_fib2();
	KTEST_EXPECT_EQ(t, wr(T("snapshot"), "1\n"), 0);	/* the records move to the snapshot */
	KTEST_EXPECT_EQ(t, trace_buffer_entries(), 0);
	KTEST_EXPECT_EQ(t, trace_snapshot_entries(), FIB2_HITS);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		KTEST_EXPECT_EQ(t, read_page("trace_pipe_raw", cpu), 0);
		if (read_page("snapshot_raw", cpu) == (int)PAGE_SIZE) {
			pages++;
			KTEST_EXPECT_EQ(t, get_u32(out + 8) % (4 + RAW_FIB_LEN), 0);
		}
	}
	KTEST_EXPECT_TRUE(t, pages >= 1);
	KTEST_EXPECT_EQ(t, trace_snapshot_entries(), 0);	/* consumed */
	wr(T("snapshot"), "0\n");
	KTEST_EXPECT_EQ(t, read_page("snapshot_raw", 0), 0);	/* none: empty, as Linux's */
}

static void format_describes_arrays_as_linux(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, wr_append(T("kprobe_events"), "p:raw_arr fib a=+0($stack):x32[2]\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("events/kprobes/raw_arr/format")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "\tfield:u32[2] a;\toffset:12;\tsize:8;\tsigned:0;\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "print fmt: \"(%lx) a={0x%x,0x%x}\", REC->__probe_ip, "
				    "REC->a[0], REC->a[1]\n") != NULL);
	wr_append(T("kprobe_events"), "-:raw_arr\n");
}

/* A syscalls event's record: the common fields, then __syscall_nr as its format says. */
static void syscall_records_in_the_page(struct ktest *t)
{
	static const char *const argv[] = { "hello", NULL };
	struct task_struct *p;
	uint32_t id;
	int err, found = 0;

	KTEST_EXPECT_EQ(t, rd(T("events/syscalls/sys_enter_getpid/id")), 0);
	id = simple_strtoul(out, NULL, 10);
	KTEST_EXPECT_EQ(t, rd(T("events/syscalls/sys_enter_getpid/format")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n")
			     != NULL);
	trace_buffer_reset(TRACE_ALL_CPUS);
	wr(T("events/syscalls/sys_enter_getpid/enable"), "1\n");
	p = process_spawn("hello", argv, 1, &err);	/* calls getpid() once */
	KTEST_ASSERT_TRUE(t, p != NULL);
	process_wait(p);
	wr(T("events/syscalls/sys_enter_getpid/enable"), "0\n");
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		int off = BUF_PAGE_HDR_SIZE, end;

		if (!cpu_online(cpu) || read_page("trace_pipe_raw", cpu) != (int)PAGE_SIZE)
			continue;
		end = BUF_PAGE_HDR_SIZE + (get_u32(out + 8) & 0xfffff);
		for (; off < end; off += 4 + 4 * (get_u32(out + off) & 0x1f)) {
			if ((get_u32(out + off + 4) & 0xffff) != id)
				continue;
			found++;
			KTEST_EXPECT_EQ(t, get_u32(out + off) & 0x1f, 3);	/* 12 bytes */
			KTEST_EXPECT_EQ(t, get_u32(out + off + 4 + 8), __NR_getpid);
		}
	}
	KTEST_EXPECT_EQ(t, found, 1);
}

/* A synthetic event's record: each field in a u64 slot, as its format says. */
static void synth_records_in_the_page(struct ktest *t)
{
	static const uint64_t vals[] = { 0x11223344, (uint64_t)-2 };
	struct synth_event *se;
	int found = 0;

	KTEST_ASSERT_EQ(t, wr_append(T("synthetic_events"), "raw_synth u32 a; s16 b\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("events/synthetic/raw_synth/format")), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "\tfield:u32 a;\toffset:8;\tsize:4;\tsigned:0;\n"
				    "\tfield:s16 b;\toffset:16;\tsize:2;\tsigned:1;\n") != NULL);
	wr(T("events/synthetic/raw_synth/enable"), "1\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
	se = synth_event_find("raw_synth");
	KTEST_ASSERT_TRUE(t, se != NULL);
	synth_event_trace(se, vals, NULL);
	wr(T("events/synthetic/raw_synth/enable"), "0\n");
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu) || read_page("trace_pipe_raw", cpu) != (int)PAGE_SIZE)
			continue;
		found++;
		KTEST_EXPECT_EQ(t, get_u32(out + 8), 4 + 24);		/* one record, 24 bytes */
		KTEST_EXPECT_EQ(t, get_u32(out + 12) & 0x1f, 6);
		KTEST_EXPECT_EQ(t, get_u32(out + 16 + 8), 0x11223344);	/* a */
		KTEST_EXPECT_EQ(t, get_u32(out + 16 + 16), 0xfffe);	/* b: 2 bytes, the rest 0 */
	}
	KTEST_EXPECT_EQ(t, found, 1);
	wr_append(T("synthetic_events"), "!raw_synth\n");
}

/* An instance has its own buffer_percent and raw files, reading its own buffer. */
static void instance_has_its_raw_files(struct ktest *t)
{
	char path[PSEUDOFS_PATH_MAX];
	int pages = 0;

	KTEST_ASSERT_EQ(t, pseudofs_mkdir(T("instances/rawi")), 0);
	KTEST_EXPECT_EQ(t, rd(T("instances/rawi/buffer_percent")), 0);
	KTEST_EXPECT_STREQ(t, out, "50\n");
	KTEST_EXPECT_EQ(t, wr(T("instances/rawi/buffer_percent"), "7\n"), 0);
	KTEST_EXPECT_EQ(t, rd(T("buffer_percent")), 0);
	KTEST_EXPECT_STREQ(t, out, "50\n");			/* the top level's is its own */
	KTEST_EXPECT_EQ(t, pseudofs_lookup(T("instances/rawi/per_cpu/cpu0/snapshot_raw")), 1);
	wr(EV("enable"), "0\n");
	trace_buffer_reset(TRACE_ALL_CPUS);
	KTEST_EXPECT_EQ(t, wr(T("instances/rawi/events/kprobes/raw_fib/enable"), "1\n"), 0);
	run_fib2();
	wr(T("instances/rawi/events/kprobes/raw_fib/enable"), "0\n");
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct seq_buf s;

		if (!cpu_online(cpu))
			continue;
		KTEST_EXPECT_EQ(t, read_page("trace_pipe_raw", cpu), 0);	/* the top level's: none */
		snprintf(path, sizeof(path), T("instances/rawi/per_cpu/cpu%d/trace_pipe_raw"), cpu);
		seq_buf_init(&s, out, sizeof(out));
		if (pseudofs_read(path, &s) == 0 && seq_buf_used(&s) == PAGE_SIZE) {
			pages++;
			KTEST_EXPECT_EQ(t, get_u32(out + 8), FIB2_HITS * (4 + RAW_FIB_LEN));
		}
	}
	KTEST_EXPECT_EQ(t, pages, 1);
	KTEST_EXPECT_EQ(t, pseudofs_rmdir(T("instances/rawi")), 0);
	wr(EV("enable"), "1\n");
}

static struct ktest_case raw_cases[] = {
	KTEST_CASE(buffer_percent_takes_0_to_100),
	KTEST_CASE(per_cpu_has_raw_files),
	KTEST_CASE(pipe_raw_page_is_linux_layout),
	KTEST_CASE(snapshot_raw_reads_the_snapshot),
	KTEST_CASE(format_describes_arrays_as_linux),
	KTEST_CASE(syscall_records_in_the_page),
	KTEST_CASE(synth_records_in_the_page),
	KTEST_CASE(instance_has_its_raw_files),
	KTEST_END
};

static struct ktest_suite raw_suite = {
	.name = "trace_raw",
	.cases = raw_cases,
	.init = raw_init,
	.exit = raw_exit,
};
KTEST_SUITE(raw_suite);
