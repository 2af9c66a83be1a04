/*
 * test_tracefs.c - suite "tracefs": the shell, the pseudo filesystem and
 * kprobe events, driven through the same calls the console uses
 * (shell_exec, pseudofs_read/write), with the output read back.
 */
#include "ktest.h"
#include "shell.h"
#include "pseudofs.h"
#include "console_input.h"
#include "keyboard.h"
#include "trace.h"
#include "kprobes.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "probe_events.h"
#include "narrate.h"
#include <asm/atomic.h>
#include <asm/processor.h>
#include "sched.h"
#include "smp.h"
#include "timer.h"
#include "ktime.h"
#include "pseudofs_io.h"

#define EVENTS   TRACEFS_DIR "/kprobe_events"
#define TRACE    TRACEFS_DIR "/trace"
#define PROFILE  TRACEFS_DIR "/kprobe_profile"
#define ERRLOG   TRACEFS_DIR "/error_log"
#define PIPE     TRACEFS_DIR "/trace_pipe"
#define ENABLED  KPROBES_DEBUG_DIR "/enabled"
#define LIST     KPROBES_DEBUG_DIR "/list"

unsigned long fib(unsigned long n);	/* kernel/workloads.c */

static char out[16384];

/* Read a file into out[]; returns the callback's result. */
static int read_file(const char *path)
{
	return pseudofs_read_into(path, out, sizeof(out));
}

/* Run a shell line, its output into out[]. */
static int sh(const char *line)
{
	struct seq_buf s;

	seq_buf_init(&s, out, sizeof(out));
	return shell_exec(line, &s);
}

static int count_lines_with(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* kprobe_events as the user reads it: one "p:GROUP/EVENT ..." line each. */
static char events_text[4096];

static const char *read_events(void)
{
	struct seq_buf s;

	seq_buf_init(&s, events_text, sizeof(events_text));
	pseudofs_read(EVENTS, &s);
	return events_text;
}

/* How many events are defined. */
static int events_defined(void)
{
	return count_lines_with(read_events(), "\n");
}

/*
 * Start clean the way a user would: write 0 to each event's enable
 * file, then `echo > kprobe_events` (which refuses while one is enabled).
 */
static void remove_all_events(void)
{
	char path[PSEUDOFS_PATH_MAX];
	const char *line, *name, *end, *name_end;

	for (line = read_events(); (end = strchr(line, '\n')) != NULL; line = end + 1) {
		name = strchr(line, ':');
		if (!name || name > end)
			continue;
		for (name_end = ++name; *name_end != ' ' && name_end < end; name_end++)
			;
		snprintf(path, sizeof(path), TRACEFS_DIR "/events/%.*s/enable",
			 (int)(name_end - name), name);
		pseudofs_write_str(path, "0\n", true);
	}
	pseudofs_write_str(EVENTS, "\n", true);
}

static int tracefs_case_init(struct ktest *t)
{
	tracefs_init();
	remove_all_events();
	trace_buffer_reset(TRACE_ALL_CPUS);
	arm_all_kprobes();
	return 0;
}

static void tracefs_case_exit(struct ktest *t)
{
	kprobe_narrate_set(false);
	remove_all_events();
	arm_all_kprobes();
}

/* ---- pseudofs and the shell ------------------------------------------------ */

static char last_write[64];
static bool last_trunc;

static int test_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "value=%s\n", (const char *)data);
	return 0;
}

static int test_write(const char *text, size_t len, bool trunc, void *data)
{
	if (len >= sizeof(last_write))
		return -E2BIG;
	memcpy(last_write, text, len);
	last_write[len] = '\0';
	last_trunc = trunc;
	return strcmp(last_write, "bad\n") == 0 ? -EINVAL : 0;
}

static void pseudofs_files_and_dirs(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, pseudofs_create("/test/dir/a", test_show, test_write, "A"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_create("/test/dir/a", test_show, NULL, "A"), -EEXIST);
	KTEST_EXPECT_EQ(t, pseudofs_create("/test/b", test_show, NULL, "B"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/test"), 2);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/test/dir/a"), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/test/di"), 0);

	KTEST_EXPECT_EQ(t, read_file("/test/dir/a"), 0);
	KTEST_EXPECT_STREQ(t, out, "value=A\n");
	KTEST_EXPECT_EQ(t, read_file("/test/dir"), -EISDIR);
	KTEST_EXPECT_EQ(t, read_file("/test/nope"), -ENOENT);
	KTEST_EXPECT_EQ(t, pseudofs_write_str("/test/b", "x", false), -EPERM);

	KTEST_EXPECT_EQ(t, sh("ls /test"), 0);
	KTEST_EXPECT_STREQ(t, out, "b\ndir/\n");	/* sorted, as ls sorts */
	KTEST_EXPECT_EQ(t, sh("cd /test/dir"), 0);
	KTEST_EXPECT_EQ(t, sh("cat a ../b"), 0);
	KTEST_EXPECT_STREQ(t, out, "value=A\nvalue=B\n");
	KTEST_EXPECT_EQ(t, sh("cd"), 0);
	KTEST_EXPECT_EQ(t, sh("cat test/nothing"), -ENOENT);
	KTEST_EXPECT_STREQ(t, out, "cat: test/nothing: No such file or directory\n");

	KTEST_EXPECT_EQ(t, pseudofs_remove("/test/dir/a"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_remove("/test/b"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/test"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_remove("/test/b"), -ENOENT);
}

static void shell_quotes_and_redirection(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, pseudofs_create("/test/w", test_show, test_write, "W"), 0);

	KTEST_EXPECT_EQ(t, sh("echo 'p:x  fib' \"n=$arg1\" >> /test/w"), 0);
	KTEST_EXPECT_STREQ(t, last_write, "p:x  fib n=$arg1\n");
	KTEST_EXPECT_FALSE(t, last_trunc);
	KTEST_EXPECT_EQ(t, sh("echo>/test/w"), 0);	/* no blanks needed */
	KTEST_EXPECT_STREQ(t, last_write, "\n");
	KTEST_EXPECT_TRUE(t, last_trunc);
	KTEST_EXPECT_EQ(t, sh("echo hi # a comment"), 0);
	KTEST_EXPECT_STREQ(t, out, "hi\n");

	/* Errors: each says why and changes nothing. */
	KTEST_EXPECT_EQ(t, sh("echo bad > /test/w"), -EINVAL);
	KTEST_EXPECT_STREQ(t, out, "sh: echo: write error: Invalid argument\n");
	KTEST_EXPECT_EQ(t, sh("echo 'open"), -EINVAL);
	KTEST_EXPECT_STREQ(t, out, "sh: unterminated ' quote\n");
	KTEST_EXPECT_EQ(t, sh("echo x >"), -EINVAL);
	KTEST_EXPECT_EQ(t, sh("echo x > /test/new"), -ENOENT);
	KTEST_EXPECT_EQ(t, sh("frobnicate"), -ENOENT);
	KTEST_EXPECT_STREQ(t, out, "sh: frobnicate: command not found (try help)\n");
	KTEST_EXPECT_EQ(t, pseudofs_remove("/test/w"), 0);
}

static void help_lists_every_command(struct ktest *t)
{
	const char *names[] = { "help", "ls", "cat", "echo", "run", "syms", "idt",
				"regs", "meminfo", "reboot" };

	KTEST_EXPECT_EQ(t, sh("help"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char want[16];

		snprintf(want, sizeof(want), "  %s ", names[i]);
		KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	}
}

static void commands_print_real_data(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, sh("syms fib"), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, " fib\n") != NULL);
	KTEST_EXPECT_EQ(t, sh("syms no_such_symbol_anywhere"), -ENOENT);
	KTEST_EXPECT_EQ(t, sh("idt"), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "  3  interrupt") != NULL);	/* #BP */
	KTEST_EXPECT_TRUE(t, strstr(out, "  8  task") != NULL);	/* #DF */
	KTEST_EXPECT_EQ(t, sh("meminfo"), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "Pages:") != NULL);
	KTEST_EXPECT_EQ(t, sh("regs"), 0);
	KTEST_EXPECT_TRUE(t, strstr(out, "CR0: ") != NULL);
	KTEST_EXPECT_EQ(t, sh("run fib 10"), 0);
	KTEST_EXPECT_STREQ(t, out, "fib(10) = 55\n");
	KTEST_EXPECT_EQ(t, sh("run crc32"), 0);
	KTEST_EXPECT_STREQ(t, out, "crc32(\"123456789\") = cbf43926\n");
	KTEST_EXPECT_EQ(t, sh("run sort 50"), 0);
	KTEST_EXPECT_EQ(t, sh("run hash 20"), 0);
	KTEST_EXPECT_EQ(t, sh("run worker 2"), 0);
	KTEST_EXPECT_EQ(t, sh("run fib 99"), -EINVAL);
}

/* ---- SysRq ------------------------------------------------------------------- */

#define SC_LCTRL 0x1D
#define SC_P     0x19
#define BREAK(sc) ((sc) | 0x80)

static void ctrl_p_on_keyboard_is_sysrq(struct ktest *t)
{
	unsigned long before = sysrq_count;

	console_input_init();
	while (kbd_getc() != -1)
		;
	kbd_handle_scancode(SC_LCTRL);
	kbd_handle_scancode(SC_P);
	kbd_handle_scancode(BREAK(SC_P));
	kbd_handle_scancode(BREAK(SC_LCTRL));
	KTEST_EXPECT_EQ(t, sysrq_count, before + 1);
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);	/* consumed, never typed */
}

#define SC_C        0x2E
#define SC_EXTENDED 0xE0
#define SC_UP       0x48

/* The keyboard types what a serial terminal sends for the same keys. */
static void keyboard_ctrl_and_arrows(struct ktest *t)
{
	while (kbd_getc() != -1)
		;
	kbd_handle_scancode(SC_LCTRL);
	kbd_handle_scancode(SC_C);
	kbd_handle_scancode(BREAK(SC_C));
	kbd_handle_scancode(BREAK(SC_LCTRL));
	kbd_handle_scancode(SC_EXTENDED);
	kbd_handle_scancode(SC_UP);
	kbd_handle_scancode(SC_EXTENDED);
	kbd_handle_scancode(BREAK(SC_UP));
	kbd_handle_scancode(SC_C);		/* Ctrl released: a plain c */
	KTEST_EXPECT_EQ(t, kbd_getc(), KEY_CTRL_C);
	KTEST_EXPECT_EQ(t, kbd_getc(), KEY_ESC);
	KTEST_EXPECT_EQ(t, kbd_getc(), '[');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'A');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'c');
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
}

/* ---- kprobe events ------------------------------------------------------------- */

static void define_enable_trace_remove(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:tt_fib fib n=$arg1\n", false), 0);
	read_file(EVENTS);
	KTEST_EXPECT_STREQ(t, out, "p:kprobes/tt_fib fib n=$arg1\n");
	read_file(LIST);
	KTEST_EXPECT_TRUE(t, strstr(out, "fib+0x0  [DISABLED]") != NULL);

	fib(5);			/* disabled: no records */
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_fib/enable", "1\n", true), 0);
	read_file(TRACEFS_DIR "/events/kprobes/enable");
	KTEST_EXPECT_STREQ(t, out, "1\n");
	fib(5);			/* 15 calls */
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 15);

	read_file(TRACE);
	KTEST_EXPECT_TRUE(t, strstr(out, "# tracer: nop\n") == out);
	KTEST_EXPECT_TRUE(t, strstr(out, "entries-in-buffer/entries-written: 15/15") != NULL);
	KTEST_EXPECT_EQ(t, count_lines_with(out, "tt_fib: (fib+0x0/0x"), 15);
	KTEST_EXPECT_EQ(t, count_lines_with(out, ") n=0x5\n"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(out, ") n=0x1\n"), 5);
	read_file(PROFILE);
	KTEST_EXPECT_TRUE(t, strstr(out, "tt_fib") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, " 15               0\n") != NULL);

	/* Removing an enabled event: EBUSY, as Linux. */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "-:tt_fib\n", false), -EBUSY);
	KTEST_EXPECT_EQ(t, events_defined(), 1);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(TRACEFS_DIR "/events/kprobes/enable", "0\n", true), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "-:tt_fib\n", false), 0);
	KTEST_EXPECT_EQ(t, events_defined(), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup(TRACEFS_DIR "/events/kprobes"), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
}

static void return_probe_event(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "r:tt_ret fib ret=$retval\n", false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_ret/enable", "1\n", true), 0);
	KTEST_EXPECT_EQ(t, sh("run fib 4"), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 9);
	read_file(TRACE);
	KTEST_EXPECT_EQ(t, count_lines_with(out, " <- fib) ret=0x"), 9);
	KTEST_EXPECT_EQ(t, count_lines_with(out, "tt_ret: (run_fib+"), 1);
	KTEST_EXPECT_EQ(t, count_lines_with(out, "<- fib) ret=0x3\n"), 1);	/* fib(4) */
	read_file(EVENTS);
	KTEST_EXPECT_STREQ(t, out, "r10:kprobes/tt_ret fib ret=$retval\n");
}

/* Each bad line: its errno, a line in error_log, nothing changed. */
static void expect_refused(struct ktest *t, const char *line, int err, const char *why)
{
	size_t regs = kprobes_nr_registered();
	int events = events_defined();

	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), err);
	read_file(ERRLOG);
	if (!strstr(out, why) || !strstr(out, "  Command: ") || !strstr(out, "^\n"))
		ktest_fail(t, __FILE__, __LINE__, "error_log for '%s' lacks '%s':\n%s",
			   line, why, out);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), regs);
	KTEST_EXPECT_EQ(t, events_defined(), events);
}

static void bad_lines_are_refused(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, "p:tt_ok fib\n", false), 0);
	expect_refused(t, "p:tt_bad fib x=%zz\n", -EINVAL, "Invalid register name");
	/* no probe type at all: EINVAL with nothing logged, as Linux's -ECANCELED */
	pseudofs_write_str(ERRLOG, "\n", true);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "q fib\n", false), -EINVAL);
	read_file(ERRLOG);
	KTEST_EXPECT_STREQ(t, out, "");
	expect_refused(t, "p:tt_bad no_such_function\n", -ENOENT, "Invalid probed address");
	expect_refused(t, "p:tt_bad do_trap\n", -EINVAL, "kprobes blacklist");
	/* fib starts push %ebp (1 byte), mov %esp,%ebp (2): +2 is mid-instruction */
	expect_refused(t, "p:tt_bad fib+2\n", -EILSEQ, "EILSEQ");
	expect_refused(t, "r:tt_bad fib+3\n", -EINVAL, "");
	expect_refused(t, "p:tt_ok fib\n", -EEXIST, "There is already the exact same probe event");
	expect_refused(t, "-:tt_nothing\n", -ENOENT, "Event not found");

	/* More values than one trace record holds. */
	{
		static char many[512];
		size_t n = strlcpy(many, "p:tt_bad fib", sizeof(many));

		for (unsigned int i = 0; i <= TRACE_PAYLOAD_MAX / sizeof(struct fetch_value); i++)
			n += snprintf(many + n, sizeof(many) - n, " %%ax");
		strlcat(many, "\n", sizeof(many));
		expect_refused(t, many, -E2BIG, "Too many arguments for one trace record");
	}

	/* The caret sits under the bad token. */
	pseudofs_write_str(ERRLOG, "\n", true);
	pseudofs_write_str(EVENTS, "p:tt_bad fib x=%zz\n", false);
	read_file(ERRLOG);
	KTEST_EXPECT_TRUE(t, strstr(out, "  Command: p:tt_bad fib x=%zz\n"
				    "                          ^\n") != NULL);

	/* Enabled: `echo > kprobe_events` refuses and removes nothing. */
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_ok/enable", "1\n", true);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "\n", true), -EBUSY);
	KTEST_EXPECT_EQ(t, events_defined(), 1);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_ok/enable", "2\n", true),
			-EINVAL);
}

static void global_switch_keeps_probe_state(struct ktest *t)
{
	pseudofs_write_str(EVENTS, "p:tt_a fib\np:tt_b crc32_byte\n", false);
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_a/enable", "1\n", true);
	read_file(TRACEFS_DIR "/events/kprobes/tt_a/enable");
	KTEST_ASSERT_STREQ(t, out, "1\n");
	read_file(TRACEFS_DIR "/events/kprobes/tt_b/enable");
	KTEST_ASSERT_STREQ(t, out, "0\n");

	KTEST_EXPECT_EQ(t, pseudofs_write_str(ENABLED, "0\n", true), 0);
	read_file(ENABLED);
	KTEST_EXPECT_STREQ(t, out, "0\n");
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
	fib(3);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 0);
	/* Enabling while globally off arms nothing yet. */
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_b/enable", "1\n", true);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);

	KTEST_EXPECT_EQ(t, pseudofs_write_str(ENABLED, "1\n", true), 0);
	fib(3);			/* 5 calls */
	KTEST_EXPECT_EQ(t, sh("run crc32 ab"), 0);	/* 2 bytes */
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 7);
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/enable", "0\n", true);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
}

static void ring_buffer_overwrites_oldest(struct ktest *t)
{
	unsigned long allowed = current->cpus_allowed;

	pseudofs_write_str(EVENTS, "p:tt_fib fib n=$arg1\n", false);
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_fib/enable", "1\n", true);
	/* One CPU's buffer: a thread that moved would fill two. */
	set_cpus_allowed(current, 1UL << smp_processor_id());
	fib(15);		/* 1973 calls */
	set_cpus_allowed(current, allowed);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 1973);
	KTEST_EXPECT_EQ(t, trace_buffer_entries(), TRACE_BUF_ENTRIES);
	KTEST_EXPECT_EQ(t, trace_buffer_lost(), 1973 - TRACE_BUF_ENTRIES);
	read_file(TRACE);
	KTEST_EXPECT_TRUE(t, strstr(out, "entries-in-buffer/entries-written: 256/1973") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "1717 oldest entries were overwritten") != NULL);
	/* The first call, fib(15), was the oldest: gone. */
	KTEST_EXPECT_EQ(t, count_lines_with(out, "n=0xf\n"), 0);

	KTEST_EXPECT_EQ(t, sh("echo > " TRACE), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 0);
	read_file(TRACE);
	KTEST_EXPECT_TRUE(t, strstr(out, "entries-written: 0/0") != NULL);
}

/* ---- the per-CPU buffers ------------------------------------------------------ */

#define CPU_EVENT	"p:tt_cpu tracefs_cpu_target cpu=$arg1\n"
#define CPU_ENABLE	TRACEFS_DIR "/events/kprobes/tt_cpu/enable"
#define BURST_ROUNDS	5	/* all CPUs at once, buffers checked after each */
#define PINGPONG_ROUNDS	40	/* CPU 0, 1, ..., 0, 1, ... in turn */
#define FLOOD_HITS	1000	/* one CPU overflows its buffer... */
#define QUIET_HITS	50	/* ...while another writes a few */

/* The probed function: the CPU its caller is bound to, as the argument. */
noinline int tracefs_cpu_target(int cpu)
{
	barrier();
	return cpu;
}

/* Hits wanted of each CPU: different, so a record counted twice shows. */
static int burst_hits(int cpu)
{
	return 100 + 37 * cpu;
}

static struct {
	int calls[NR_CPUS];	/* calls each CPU's thread makes */
	bool pingpong;		/* take turns, in CPU order */
	int order[NR_CPUS];	/* pingpong: the CPU whose turn follows */
	volatile int turn;	/* pingpong: the CPU whose turn it is */
	volatile bool go;
	atomic_t ready;
	atomic_t wrong_cpu;	/* a call made on a CPU it was not bound to */
} bound;

static int bound_thread(void *arg)
{
	int cpu = (int)(unsigned long)arg;

	atomic_inc(&bound.ready);
	while (!READ_ONCE(bound.go))
		cpu_relax();
	for (int i = 0; i < bound.calls[cpu]; i++) {
		while (bound.pingpong && READ_ONCE(bound.turn) != cpu)
			cpu_relax();
		if (tracefs_cpu_target(cpu) != cpu || smp_processor_id() != cpu)
			atomic_inc(&bound.wrong_cpu);
		if (bound.pingpong)
			WRITE_ONCE(bound.turn, bound.order[cpu]);
	}
	return 0;
}

/* One thread bound to each online CPU with calls, all started together. */
static void run_bound_threads(struct ktest *t)
{
	static struct task_struct *threads[NR_CPUS];
	int cpu, n = 0, first = -1, last = -1;

	atomic_set(&bound.ready, 0);
	atomic_set(&bound.wrong_cpu, 0);
	bound.go = false;
	for_each_online_cpu(cpu) {
		if (!bound.calls[cpu])
			continue;
		if (last >= 0)
			bound.order[last] = cpu;
		else
			first = cpu;
		last = cpu;
		threads[n] = kthread_create_on_cpu(bound_thread, (void *)(unsigned long)cpu,
						   cpu, "tt-cpu");
		if (threads[n])
			n++;
	}
	if (last >= 0)
		bound.order[last] = first;
	bound.turn = first;
	while (atomic_read(&bound.ready) < n)
		msleep(1);
	WRITE_ONCE(bound.go, true);
	for (int i = 0; i < n; i++)
		kthread_join(threads[i]);
	KTEST_EXPECT_EQ(t, atomic_read(&bound.wrong_cpu), 0);
}

static void set_calls(int (*hits)(int cpu))
{
	int cpu;

	memset(bound.calls, 0, sizeof(bound.calls));
	for_each_online_cpu(cpu)
		bound.calls[cpu] = hits(cpu);
}

static bool need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() >= 2)
		return true;
	ktest_skip(t, "needs two CPUs");
	return false;
}

static bool define_cpu_event(struct ktest *t)
{
	return pseudofs_write_str(EVENTS, CPU_EVENT, false) == 0 &&
	       pseudofs_write_str(CPU_ENABLE, "1\n", true) == 0;
}

/* A trace file, big enough for every CPU's full buffer. */
static char big[NR_CPUS * TRACE_BUF_ENTRIES * 128];

static void read_big(const char *path)
{
	struct seq_buf s;

	seq_buf_init(&s, big, sizeof(big));
	pseudofs_read(path, &s);
}

/* One tt_cpu line of a trace: the CPU column, the time, the argument. */
struct tt_record {
	int column;
	uint64_t ts_us;
	int arg;
};

static unsigned long parse_dec(const char **p)
{
	unsigned long v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + *(*p)++ - '0';
	return v;
}

static bool parse_record(const char *line, struct tt_record *r)
{
	const char *p = strstr(line, " [");
	const char *arg = strstr(line, "tt_cpu: (");

	if (!p || !arg || p > arg)
		return false;
	p += 2;
	r->column = parse_dec(&p);
	p += strlen("] d..1. ");		/* the five flags */
	while (*p == ' ')
		p++;
	r->ts_us = parse_dec(&p) * USEC_PER_SEC;
	p++;					/* the '.' */
	r->ts_us += parse_dec(&p);
	arg = strstr(arg, " cpu=0x");
	if (!arg)
		return false;
	r->arg = simple_strtoul(arg + strlen(" cpu=0x"), NULL, 16);
	return true;
}

/*
 * Walk the tt_cpu lines of big[]: count them per CPU column, fail on a
 * column that is not the CPU the thread was bound to, and on a time
 * earlier than the line before.  Returns the number of lines.
 */
static int check_records(struct ktest *t, int per_cpu[NR_CPUS], int cpus_seen[], int max_seen)
{
	struct tt_record r;
	uint64_t last_ts = 0;
	int n = 0, bad_column = 0, backwards = 0;

	memset(per_cpu, 0, NR_CPUS * sizeof(int));
	for (const char *p = big, *nl; *p; p = nl ? nl + 1 : "") {
		char line[256];

		nl = strchr(p, '\n');
		strlcpy(line, p, nl && (size_t)(nl - p) < sizeof(line) ? (size_t)(nl - p) + 1 : sizeof(line));
		if (!parse_record(line, &r))
			continue;
		bad_column += r.column != r.arg;
		backwards += r.ts_us < last_ts;
		last_ts = r.ts_us;
		if (r.column >= 0 && r.column < NR_CPUS)
			per_cpu[r.column]++;
		if (cpus_seen && n < max_seen)
			cpus_seen[n] = r.column;
		n++;
	}
	KTEST_EXPECT_EQ(t, bad_column, 0);
	KTEST_EXPECT_EQ(t, backwards, 0);
	return n;
}

/* Every CPU hits the probe at once: each record there once, in its CPU's column. */
static void percpu_records_exact(struct ktest *t)
{
	int lines[NR_CPUS], cpu;
	char want[96];

	if (!need_two_cpus(t) || !define_cpu_event(t))
		return;
	set_calls(burst_hits);
	for (int round = 0; round < BURST_ROUNDS; round++) {
		unsigned long total = 0;

		trace_buffer_reset(TRACE_ALL_CPUS);
		run_bound_threads(t);
		read_big(TRACE);
		KTEST_EXPECT_EQ(t, check_records(t, lines, NULL, 0), trace_buffer_entries());
		for_each_online_cpu(cpu) {
			KTEST_EXPECT_EQ(t, lines[cpu], burst_hits(cpu));
			KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(cpu), burst_hits(cpu));
			KTEST_EXPECT_EQ(t, trace_buffer_lost_cpu(cpu), 0);
			total += burst_hits(cpu);
		}
		snprintf(want, sizeof(want), "entries-in-buffer/entries-written: %lu/%lu   #P:%u\n",
			 total, total, num_online_cpus());
		KTEST_EXPECT_TRUE(t, strstr(big, want) != NULL);
	}
}

/* CPUs hit the probe in turn: the merged trace shows the turns in order. */
static void merged_trace_in_time_order(struct ktest *t)
{
	static int seen[NR_CPUS * PINGPONG_ROUNDS];
	int lines[NR_CPUS], n, cpu, i = 0, misplaced = 0;

	if (!need_two_cpus(t) || !define_cpu_event(t))
		return;
	memset(bound.calls, 0, sizeof(bound.calls));
	for_each_online_cpu(cpu)
		bound.calls[cpu] = PINGPONG_ROUNDS;
	bound.pingpong = true;
	run_bound_threads(t);
	bound.pingpong = false;

	read_big(TRACE);
	n = check_records(t, lines, seen, ARRAY_SIZE(seen));
	KTEST_EXPECT_EQ(t, n, (int)num_online_cpus() * PINGPONG_ROUNDS);
	/* The turns went round the online CPUs in order, PINGPONG_ROUNDS times. */
	for (int round = 0; round < PINGPONG_ROUNDS; round++)
		for_each_online_cpu(cpu)
			if (i < n)
				misplaced += seen[i++] != cpu;
	ktest_info(t, "%d records from %u CPUs taking turns, %d out of turn",
		   n, num_online_cpus(), misplaced);
	KTEST_EXPECT_EQ(t, misplaced, 0);
}

/* per_cpu/cpuN/trace and stats show CPU N's records alone; trace_pipe takes them. */
static void per_cpu_files_hold_their_cpu(struct ktest *t)
{
	char path[PSEUDOFS_PATH_MAX], want[64];
	int lines[NR_CPUS], cpu;

	if (!need_two_cpus(t) || !define_cpu_event(t))
		return;
	set_calls(burst_hits);
	run_bound_threads(t);
	for_each_online_cpu(cpu) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/trace", cpu);
		read_big(path);
		KTEST_EXPECT_EQ(t, check_records(t, lines, NULL, 0), burst_hits(cpu));
		KTEST_EXPECT_EQ(t, lines[cpu], burst_hits(cpu));
		snprintf(want, sizeof(want), "entries-written: %d/%d ", burst_hits(cpu),
			 burst_hits(cpu));
		KTEST_EXPECT_TRUE(t, strstr(big, want) != NULL);
		snprintf(path, sizeof(path), TRACEFS_DIR "/per_cpu/cpu%d/stats", cpu);
		read_big(path);
		snprintf(want, sizeof(want), "entries: %d\noverrun: 0\n", burst_hits(cpu));
		KTEST_EXPECT_TRUE(t, strstr(big, want) == big);
	}

	/* CPU 1's trace_pipe takes CPU 1's records and leaves CPU 0's. */
	read_big(TRACEFS_DIR "/per_cpu/cpu1/trace_pipe");
	KTEST_EXPECT_EQ(t, check_records(t, lines, NULL, 0), burst_hits(1));
	KTEST_EXPECT_EQ(t, lines[1], burst_hits(1));
	KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(1), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_read_cpu(1), burst_hits(1));
	KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(0), burst_hits(0));

	/* `echo > per_cpu/cpu0/trace` clears CPU 0 alone; `echo > trace` all. */
	run_bound_threads(t);
	KTEST_EXPECT_EQ(t, sh("echo > " TRACEFS_DIR "/per_cpu/cpu0/trace"), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(0), 0);
	KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(1), burst_hits(1));
	run_bound_threads(t);
	KTEST_EXPECT_EQ(t, sh("echo > " TRACE), 0);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, trace_buffer_written_cpu(cpu), 0);
	read_big(TRACE);
	KTEST_EXPECT_EQ(t, check_records(t, lines, NULL, 0), 0);
}

static int flood_cpu0(int cpu)
{
	return cpu == 0 ? FLOOD_HITS : 0;
}

static int quiet_cpu1(int cpu)
{
	return cpu == 1 ? QUIET_HITS : 0;
}

/* CPU 1 writes a few records, then CPU 0 overflows its buffer: CPU 1's stay. */
static void overflow_stays_on_its_cpu(struct ktest *t)
{
	int lines[NR_CPUS];
	char want[128];

	if (!need_two_cpus(t) || !define_cpu_event(t))
		return;
	set_calls(quiet_cpu1);
	run_bound_threads(t);
	set_calls(flood_cpu0);
	run_bound_threads(t);

	KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(0), TRACE_BUF_ENTRIES);
	KTEST_EXPECT_EQ(t, trace_buffer_lost_cpu(0), FLOOD_HITS - TRACE_BUF_ENTRIES);
	KTEST_EXPECT_EQ(t, trace_buffer_entries_cpu(1), QUIET_HITS);
	KTEST_EXPECT_EQ(t, trace_buffer_lost_cpu(1), 0);
	read_big(TRACE);
	check_records(t, lines, NULL, 0);
	KTEST_EXPECT_EQ(t, lines[0], TRACE_BUF_ENTRIES);
	KTEST_EXPECT_EQ(t, lines[1], QUIET_HITS);
	snprintf(want, sizeof(want), "entries-in-buffer/entries-written: %d/%d ",
		 TRACE_BUF_ENTRIES + QUIET_HITS, FLOOD_HITS + QUIET_HITS);
	KTEST_EXPECT_TRUE(t, strstr(big, want) != NULL);
	snprintf(want, sizeof(want), "# CPU 0: %d oldest entries were overwritten",
		 FLOOD_HITS - TRACE_BUF_ENTRIES);
	KTEST_EXPECT_TRUE(t, strstr(big, want) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(big, "# CPU 1:") == NULL);
}

/* trace_pipe: what is read is gone; what did not fit stays for the next read. */
static void trace_pipe_consumes(struct ktest *t)
{
	static char small[300];		/* room for a few lines only */
	struct seq_buf s;
	int first;

	pseudofs_write_str(EVENTS, "p:tt_fib fib n=$arg1\n", false);
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_fib/enable", "1\n", true);
	fib(5);			/* 15 records, n=5 first */
	seq_buf_init(&s, small, sizeof(small));
	KTEST_EXPECT_EQ(t, pseudofs_read(PIPE, &s), 0);
	first = count_lines_with(small, "tt_fib: (fib+");
	KTEST_EXPECT_TRUE(t, first > 0 && first < 15);
	KTEST_EXPECT_TRUE(t, strstr(small, "# tracer") == NULL);	/* no header */
	KTEST_EXPECT_TRUE(t, strstr(small, ") n=0x5\n") != NULL);
	KTEST_EXPECT_EQ(t, count_lines_with(small, "\n"), first);	/* no partial line */
	KTEST_EXPECT_EQ(t, trace_buffer_entries(), 15 - first);

	read_file(PIPE);
	KTEST_EXPECT_EQ(t, count_lines_with(out, "tt_fib: (fib+"), 15 - first);
	KTEST_EXPECT_TRUE(t, strstr(out, ") n=0x5\n") == NULL);
	KTEST_EXPECT_EQ(t, trace_buffer_entries(), 0);
	read_file(PIPE);
	KTEST_EXPECT_STREQ(t, out, "");
	read_file(TRACE);
	KTEST_EXPECT_TRUE(t, strstr(out, "entries-in-buffer/entries-written: 0/0") != NULL);
}

/* ---- /sys/kernel/debug/kprobes: profile, and why a probe stays an int3 --------- */

static void empty_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
}

/* profile: the list line, then the hits and misses; list: handlers keep an int3. */
static void debugfs_profile_and_handlers(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "fib", .post_handler = empty_post };
	bool optimizing = kprobes_get_optimization(), on_ftrace = kprobes_on_ftrace;
	char want[96];

	KTEST_ASSERT_EQ(t, kprobes_set_optimization(true), 0);
	kprobes_on_ftrace = false;	/* fib+0 an int3 probe, the optimizer's to judge */
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	kprobes_on_ftrace = on_ftrace;
	fib(2);			/* fib(2), fib(1), fib(0): three hits */
	read_file(KPROBES_DEBUG_DIR "/profile");
	snprintf(want, sizeof(want), "%08lx  k  fib+0x0", (unsigned long)kp.addr);
	KTEST_EXPECT_TRUE(t, strstr(out, want) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, " hit        3  missed        0") != NULL);
	read_file(LIST);
	KTEST_EXPECT_TRUE(t, strstr(out, "fib+0x0  [NOT OPTIMIZED: has a post- or break-handler]")
			  != NULL);
	kprobes_set_optimization(false);	/* the switch says it: no reason shown */
	read_file(LIST);
	KTEST_EXPECT_TRUE(t, strstr(out, "fib+0x0  [NOT OPTIMIZED") == NULL);
	unregister_kprobe(&kp);
	kprobes_set_optimization(optimizing);
	read_file(KPROBES_DEBUG_DIR "/profile");
	KTEST_EXPECT_TRUE(t, strstr(out, want) == NULL);
}

#define NARRATE KPROBES_DEBUG_DIR "/narrate"

static void narrate_tells_next_hit_once(struct ktest *t)
{
	unsigned long told = kprobe_narrate_hits;
	bool optimizing = kprobes_get_optimization(), on_ftrace = kprobes_on_ftrace;

	kprobes_on_ftrace = false;	/* narration tells int3 hits: fib+0 one */
	pseudofs_write_str(EVENTS, "p:tt_fib fib\n", false);
	kprobes_on_ftrace = on_ftrace;
	pseudofs_write_str(TRACEFS_DIR "/events/kprobes/tt_fib/enable", "1\n", true);
	/* int3s only: an optimized probe is not told.  The user's switch. */
	KTEST_ASSERT_EQ(t, pseudofs_write_str(KPROBES_DEBUG_DIR "/optimize", "0\n", true), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(NARRATE, "1\n", true), 0);
	KTEST_EXPECT_FALSE(t, kprobes_get_optimization());	/* narration left it so */
	fib(2);			/* 3 hits, the first one told */
	KTEST_EXPECT_EQ(t, kprobe_narrate_hits, told + 1);
	KTEST_EXPECT_FALSE(t, this_cpu_read(kprobe_narrate_telling));		/* the story ended */
	fib(2);
	KTEST_EXPECT_EQ(t, kprobe_narrate_hits, told + 1);
	pseudofs_write_str(NARRATE, "1\n", true);			/* once more */
	fib(1);
	KTEST_EXPECT_EQ(t, kprobe_narrate_hits, told + 2);
	KTEST_EXPECT_EQ(t, trace_buffer_written(), 7);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(NARRATE, "0\n", true), 0);
	KTEST_EXPECT_FALSE(t, kprobes_get_optimization());	/* and leaves it so */
	kprobes_set_optimization(optimizing);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(NARRATE, "yes\n", true), -EINVAL);
}

/* ---- robustness ------------------------------------------------------------------ */

static uint32_t rng = 2463534242u;

static uint32_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static const char *pick(const char *const *words, int n)
{
	return words[xorshift() % n];
}

/* A probe line from a mix of good and bad pieces, or plain noise. */
static void random_probe_line(char *buf, size_t size)
{
	static const char *const cmd[] = { "p", "r", "-", "p:", "r:", "p:g/", "-:",
		"r5:", "p:tt_r", "q", "", "p:1x", "r99999:" };
	static const char *const name[] = { "tt_r", "g/tt_r", "", "/", "a.b", "x" };
	static const char *const where[] = { "fib", "fib+1", "fib+3", "crc32_byte", "do_work",
		"nosuch", "0x0", "0x100000", "ht_hash+0", "fib+0x", "do_trap", "" };
	static const char *const arg[] = { "$arg1", "%ax", "x=%zz", "+0(%sp)", "+4($stack):u8",
		"$retval", "$comm", "s=+0(%ax):string", "@fib", "\\0x12", "\\\"hi\"",
		"a=$arg2:x16", "$stack9999", "+0(+0(+0(%bp)))", "b=", "=", ":u32", "",
		/* unbalanced parentheses */
		"+0(%sp", "+0(+4(%sp)", "+4)(%sp)", ")", "(", "+0()", "x=+0(%ax))",
		/* huge numbers */
		"+99999999999999999999(%sp)", "\\0x1234567890abcdef01", "$arg4294967297",
		"$stack18446744073709551617", "@0xffffffffffffffffff", "-2147483649(%sp)",
		/* deeper than PROBE_MAX_DEREF */
		"+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%sp))))))))))" };
	static const char *const huge_where[] = { "fib+99999999999999999999", "0xffffffffffffffffff",
		"r4294967296:x fib", "fib+-1", "fib+0x7fffffff" };
	size_t len;

	if (xorshift() % 16 == 0) {	/* overlong: past PROBE_LINE_MAX */
		len = snprintf(buf, size, "p:long fib");
		while (len + 8 < size - 1)
			len += snprintf(buf + len, size - len, " a%u=%%ax", (unsigned)len);
		return;
	}
	if (xorshift() % 16 == 0) {	/* a huge number where the address goes */
		snprintf(buf, size, "p %s", pick(huge_where, ARRAY_SIZE(huge_where)));
		return;
	}
	if (xorshift() % 8 == 0) {	/* noise */
		size = size < 300 ? size : 300;
		len = xorshift() % (size - 1);
		for (size_t i = 0; i < len; i++)
			buf[i] = 1 + xorshift() % 255;
		buf[len] = '\0';
		return;
	}
	len = snprintf(buf, size, "%s%s %s", pick(cmd, ARRAY_SIZE(cmd)),
		       pick(name, ARRAY_SIZE(name)), pick(where, ARRAY_SIZE(where)));
	for (int i = xorshift() % 4; i > 0 && len < size; i--)
		len += snprintf(buf + len, size - len, " %s", pick(arg, ARRAY_SIZE(arg)));
}

static void random_shell_line(char *buf, size_t size)
{
	static const char *const cmd[] = { "ls", "cat", "echo", "cd", "syms", "help",
		"meminfo", "idt", "nosuch", "run nosuch", "run fib 3", "'", "\"", ">", ">>", "" };
	static const char *const word[] = { "/", "..", "/sys/kernel/tracing", EVENTS, TRACE,
		PROFILE, ERRLOG, LIST, KPROBES_DEBUG_DIR "/blacklist", ">", ">>", "'a b'",
		"\"x", "'", "fib*", "0x100000", "-:tt_r", "p:tt_r fib", "1", "0", "#c", "" };
	size_t len = snprintf(buf, size, "%s", pick(cmd, ARRAY_SIZE(cmd)));

	if (xorshift() % 16 == 0) {	/* overlong: more words than SHELL_MAX_ARGS */
		while (len + 4 < size - 1)
			len += snprintf(buf + len, size - len, " %s", pick(word, ARRAY_SIZE(word)));
		return;
	}
	if (xorshift() % 16 == 0) {	/* binary bytes */
		for (len = 0; len < 200; len++)
			buf[len] = 1 + xorshift() % 255;
		buf[len] = '\0';
		return;
	}
	for (int i = xorshift() % 5; i > 0 && len < size; i--)
		len += snprintf(buf + len, size - len, " %s", pick(word, ARRAY_SIZE(word)));
}

#define FUZZ_LINES 2000

static void random_lines_leave_kernel_healthy(struct ktest *t)
{
	static char line[PROBE_LINE_MAX + 512];
	struct heap_stats h0, h1;
	int ok = 0, refused = 0, odd = 0;

	heap_get_stats(&h0);
	for (int i = 0; i < FUZZ_LINES; i++) {
		int ret;

		random_probe_line(line, sizeof(line));
		ret = pseudofs_write(EVENTS, line, strlen(line), xorshift() % 16 == 0);
		ok += ret == 0;
		refused += ret < 0;
		odd += ret > 0;
		random_shell_line(line, sizeof(line));
		ret = sh(line);
		odd += ret > 0;
	}
	ktest_info(t, "%d probe lines accepted, %d refused", ok, refused);
	KTEST_EXPECT_EQ(t, odd, 0);
	KTEST_EXPECT_TRUE(t, ok > 0 && refused > 0);

	/* Healthy: everything removable, no leak, text as at boot, still works. */
	pseudofs_write_str(ENABLED, "1\n", true);
	remove_all_events();
	KTEST_EXPECT_EQ(t, events_defined(), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), 0);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), ktest_boot_text_checksum);
	heap_get_stats(&h1);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	KTEST_EXPECT_EQ(t, sh("run fib 10"), 0);
	KTEST_EXPECT_STREQ(t, out, "fib(10) = 55\n");
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:tt_last fib\n", false), 0);
}

static struct ktest_case tracefs_cases[] = {
	KTEST_CASE(pseudofs_files_and_dirs),
	KTEST_CASE(shell_quotes_and_redirection),
	KTEST_CASE(help_lists_every_command),
	KTEST_CASE(commands_print_real_data),
	KTEST_CASE(ctrl_p_on_keyboard_is_sysrq),
	KTEST_CASE(keyboard_ctrl_and_arrows),
	KTEST_CASE(define_enable_trace_remove),
	KTEST_CASE(return_probe_event),
	KTEST_CASE(bad_lines_are_refused),
	KTEST_CASE(global_switch_keeps_probe_state),
	KTEST_CASE(ring_buffer_overwrites_oldest),
	KTEST_CASE(trace_pipe_consumes),
	KTEST_CASE(percpu_records_exact),
	KTEST_CASE(merged_trace_in_time_order),
	KTEST_CASE(per_cpu_files_hold_their_cpu),
	KTEST_CASE(overflow_stays_on_its_cpu),
	KTEST_CASE(debugfs_profile_and_handlers),
	KTEST_CASE(narrate_tells_next_hit_once),
	KTEST_CASE(random_lines_leave_kernel_healthy),
	KTEST_END
};

static struct ktest_suite tracefs_suite = {
	.name = "tracefs",
	.cases = tracefs_cases,
	.init = tracefs_case_init,
	.exit = tracefs_case_exit,
};
KTEST_SUITE(tracefs_suite);
