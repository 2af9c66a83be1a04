/*
 * test_linux_modules.c - the "linux_modules" suite: modules written as
 * Linux modules are (tests/linux-modules/: the linux/ headers, module_param(),
 * pr_info(), module_init() without a semicolon, KUnit), built with
 * Linux's `make -C TREE M=DIR modules`, loaded with parameters.
 *
 * Each case loads one through insmod_params() - the path of the shell's
 * `insmod NAME sym=value` - and checks what the module did (its
 * variables, the probed function's results) and what it printed.
 */
#include "ktest.h"
#include "module.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include "mm.h"
#include "errno.h"
#include "string.h"
#include "vsprintf.h"
#include "shell.h"
#include "kunit/test.h"
#include "process.h"

#define LM_TEXT_LEN	160
/* Only KERN_EMERG reaches the console: an oops still shows. */
#define LM_QUIET_LOGLEVEL	(LOGLEVEL_EMERG + 1)

/* What the modules probe: a real call each time. */
noinline int lm_target(int a, int b)
{
	barrier();
	return a + b;
}

static int (*volatile call_target)(int, int) = lm_target;

/* ---- helpers ------------------------------------------------------------------ */

struct lm_counters {
	unsigned long live_allocs, pages;
	unsigned int probes, modules;
	int blacklisted;
};

static int count_range(void *data, unsigned long start, unsigned long end)
{
	(*(int *)data)++;
	return 0;
}

static void lm_counters_get(struct lm_counters *c)
{
	struct heap_stats heap;

	heap_get_stats(&heap);
	c->live_allocs = heap.live_allocs;
	c->pages = pages_free();
	c->probes = kprobes_nr_registered();
	c->modules = nr_modules();
	c->blacklisted = 0;
	kprobe_blacklist_for_each(count_range, &c->blacklisted);
}

/* Loading and unloading left nothing behind: memory, probes, blacklist. */
static void expect_nothing_left(struct ktest *t, const struct lm_counters *before)
{
	struct lm_counters now;

	lm_counters_get(&now);
	KTEST_EXPECT_EQ(t, now.live_allocs, before->live_allocs);
	KTEST_EXPECT_EQ(t, now.pages, before->pages);
	KTEST_EXPECT_EQ(t, now.probes, before->probes);
	KTEST_EXPECT_EQ(t, now.modules, before->modules);
	KTEST_EXPECT_EQ(t, now.blacklisted, before->blacklisted);
}

static bool lm_present(struct ktest *t, const char *name)
{
	size_t len;

	if (find_boot_module(name, &len))
		return true;
	ktest_skip(t, "boot without build/linux-modules (run via make test)");
	return false;
}

/* Did the captured output contain the formatted text?  Fails the case if not. */
static __printf(3, 4) void expect_output(struct ktest *t, int line, const char *fmt, ...)
{
	char text[LM_TEXT_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!strstr(ktest_captured(), text))
		ktest_fail(t, __FILE__, line, "not printed: \"%s\"", text);
}

static void *module_var(const char *mod, const char *sym)
{
	return (void *)module_symbol_address(find_module(mod), sym);
}

/* ---- kprobes, retargeted by a parameter ---------------------------------------- */

/* Linux's samples take the function to probe as symbol=; ip is past the int3. */
static void kprobe_module_takes_symbol_param(struct ktest *t)
{
	unsigned long addr = (unsigned long)lm_target;
	struct lm_counters before;

	if (!lm_present(t, "lm_kprobe"))
		return;
	lm_counters_get(&before);
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod_params("lm_kprobe", "symbol=lm_target"), 0);
	KTEST_EXPECT_EQ(t, *(unsigned char *)addr, BREAKPOINT_INSTRUCTION);
	KTEST_EXPECT_EQ(t, call_target(5, 6), 11);
	KTEST_EXPECT_EQ(t, rmmod("lm_kprobe"), 0);
	ktest_capture_stop();

	expect_output(t, __LINE__, "lm_kprobe_init: planted kprobe at 0x%08lx\n", addr);
	expect_output(t, __LINE__, "handler_pre: <lm_target> hit 1: ip - addr = 1, arg0 = 5,");
	expect_output(t, __LINE__, "lm_kprobe_exit: kprobe at 0x%08lx unregistered after 1 hits",
		      addr);
	/* pr_debug() without DEBUG prints nothing. */
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "post-handler") == NULL);
	KTEST_EXPECT_NE(t, *(unsigned char *)addr, BREAKPOINT_INSTRUCTION);
	expect_nothing_left(t, &before);
}

/* A parameter naming no function: init fails with Linux's -ENOENT. */
static void kprobe_module_unknown_symbol(struct ktest *t)
{
	struct lm_counters before;

	if (!lm_present(t, "lm_kprobe"))
		return;
	lm_counters_get(&before);
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, insmod_params("lm_kprobe", "symbol=no_such_function"), -ENOENT);
	ktest_capture_stop();
	expect_output(t, __LINE__, "register_kprobe(no_such_function) failed, returned -2");
	KTEST_EXPECT_TRUE(t, find_module("lm_kprobe") == NULL);
	expect_nothing_left(t, &before);
}

/* MODULE.param=value on the kernel command line, then the shell's own words win. */
static void params_from_command_line_and_shell(struct ktest *t)
{
	const char *saved = kernel_cmdline;
	char *argv[] = { "insmod", "lm_kprobe", "symbol=lm_target", NULL };
	struct kprobe *kp;

	if (!lm_present(t, "lm_kprobe"))
		return;
	kernel_cmdline = "insmod=lm_kprobe lm_kprobe.symbol=call_target_by_cmdline";
	KTEST_EXPECT_EQ(t, insmod("lm_kprobe"), -ENOENT);	/* the command line's name */
	kernel_cmdline = "lm_kprobe.symbol=kthread_create";
	KTEST_ASSERT_EQ(t, cmd_insmod(3, argv), 0);
	kernel_cmdline = saved;
	kp = module_var("lm_kprobe", "kp");
	KTEST_ASSERT_TRUE(t, kp != NULL);
	KTEST_EXPECT_EQ(t, (unsigned long)kp->addr, (unsigned long)lm_target);
	KTEST_EXPECT_EQ(t, rmmod("lm_kprobe"), 0);
}

/* ---- kretprobe and jprobe ------------------------------------------------------- */

static void kretprobe_module_times_and_changes_result(struct ktest *t)
{
	struct lm_counters before;

	if (!lm_present(t, "lm_kretprobe"))
		return;
	lm_counters_get(&before);
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod_params("lm_kretprobe", "func=lm_target add=100"), 0);
	KTEST_EXPECT_EQ(t, call_target(2, 3), 105);	/* regs_set_return_value() */
	KTEST_EXPECT_EQ(t, rmmod("lm_kretprobe"), 0);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, call_target(2, 3), 5);
	expect_output(t, __LINE__, "Planted return probe at lm_target: %08lx",
		      (unsigned long)lm_target);
	expect_output(t, __LINE__, "lm_target returned 5 and took ");
	expect_output(t, __LINE__, " ns to execute\n");
	expect_output(t, __LINE__, "Missed probing 0 instances of lm_target\n");
	expect_nothing_left(t, &before);
}

static void jprobe_module_sees_arguments(struct ktest *t)
{
	if (!lm_present(t, "lm_jprobe"))
		return;
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod("lm_jprobe"), 0);
	KTEST_EXPECT_EQ(t, call_target(7, 8), 15);
	KTEST_EXPECT_EQ(t, rmmod("lm_jprobe"), 0);
	ktest_capture_stop();
	expect_output(t, __LINE__, "jprobe: a = 7, b = 8\n");
}

/* ---- module parameters, two objects, log levels ------------------------------------ */

static void params_of_every_type(struct ktest *t)
{
	struct lm_counters before;

	if (!lm_present(t, "lm_params"))
		return;
	lm_counters_get(&before);
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod_params("lm_params", "count=2 name=\"probe fan\" "
					 "verbose=1 mask=0x10 lvl=-3 bogus=1"), 0);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, *(int *)module_var("lm_params", "count"), 2);
	KTEST_EXPECT_STREQ(t, *(char **)module_var("lm_params", "name"), "probe fan");
	KTEST_EXPECT_EQ(t, *(bool *)module_var("lm_params", "verbose"), true);
	KTEST_EXPECT_EQ(t, *(unsigned long *)module_var("lm_params", "mask"), 0x10);
	KTEST_EXPECT_EQ(t, *(short *)module_var("lm_params", "level"), -3);
	KTEST_EXPECT_EQ(t, rmmod("lm_params"), 0);

	/* Two objects linked into one module; LM_GREETING from CFLAGS_x.o. */
	expect_output(t, __LINE__, "lm_params: hello probe fan! hello probe fan! \n");
	expect_output(t, __LINE__, "lm_params: unknown parameter 'bogus' ignored\n");
	expect_output(t, __LINE__, "Call Trace:\n");		/* dump_stack() */
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "debug line") == NULL);
	expect_nothing_left(t, &before);
}

/* Without parameters: the defaults, count from ccflags-y. */
static void params_defaults(struct ktest *t)
{
	if (!lm_present(t, "lm_params"))
		return;
	KTEST_ASSERT_EQ(t, insmod("lm_params"), 0);
	KTEST_EXPECT_EQ(t, *(int *)module_var("lm_params", "count"), 3);
	KTEST_EXPECT_STREQ(t, *(char **)module_var("lm_params", "name"), "world");
	KTEST_EXPECT_EQ(t, *(bool *)module_var("lm_params", "verbose"), false);
	KTEST_EXPECT_EQ(t, rmmod("lm_params"), 0);
}

/* A value that does not parse or fit refuses the load and leaves nothing. */
static void bad_param_value_refused(struct ktest *t)
{
	static const char *const bad[] = {
		"count=abc", "count=99999999999", "lvl=40000", "mask=-1",
		"verbose=maybe", "count=",
	};
	struct lm_counters before;

	if (!lm_present(t, "lm_params"))
		return;
	lm_counters_get(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		ktest_capture_start();
		KTEST_EXPECT_EQ(t, insmod_params("lm_params", bad[i]), -EINVAL);
		ktest_capture_stop();
		expect_output(t, __LINE__, "module lm_params: bad parameters: EINVAL");
		KTEST_EXPECT_TRUE(t, find_module("lm_params") == NULL);
	}
	expect_nothing_left(t, &before);
}

/* ---- the KUnit module ------------------------------------------------------------- */

/*
 * lm_test_kprobes prints its own KTAP, nested under this case: each of
 * its cases is counted by tests/run_tests.py.  Here: it ran them all,
 * none failed, and its blacklist entries went away with it.
 */
static void kunit_module_runs_its_suite(struct ktest *t)
{
	struct lm_counters before;

	if (!lm_present(t, "lm_test_kprobes"))
		return;
	lm_counters_get(&before);
	kunit_base_indent = KUNIT_INDENT_UNDER_KTEST_CASE;
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, insmod("lm_test_kprobes"), 0);
	ktest_capture_stop();
	kunit_base_indent = 0;
	KTEST_EXPECT_EQ(t, rmmod("lm_test_kprobes"), 0);
	expect_output(t, __LINE__, "# Subtest: lm_kprobes_test\n");
	expect_output(t, __LINE__, "ok 9 test_helpers\n");
	expect_output(t, __LINE__, "ok 1 lm_kprobes_test\n");
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "not ok") == NULL);
	expect_nothing_left(t, &before);
}

/*
 * lm_kunit_kprobes is shaped as Linux 5.14+'s lib/test_kprobes.c: four
 * includes and preemptible() asserted in each handler.  It built only
 * once <linux/kprobes.h> brought preemptible() as Linux's does; here it
 * runs, and every handler found preemption off.
 */
static void kunit_generation_of_linux_self_test(struct ktest *t)
{
	struct lm_counters before;
	struct kunit_suite *suite;

	if (!lm_present(t, "lm_kunit_kprobes"))
		return;
	lm_counters_get(&before);
	kunit_base_indent = KUNIT_INDENT_UNDER_KTEST_CASE;
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, insmod("lm_kunit_kprobes"), 0);
	ktest_capture_stop();
	kunit_base_indent = 0;
	suite = module_var("lm_kunit_kprobes", "lkk_suite");
	KTEST_EXPECT_TRUE(t, suite && kunit_suite_has_succeeded(suite) == KUNIT_SUCCESS);
	KTEST_EXPECT_EQ(t, rmmod("lm_kunit_kprobes"), 0);
	expect_output(t, __LINE__, "ok 1 lkk_kprobe\n");
	expect_output(t, __LINE__, "ok 2 lkk_kretprobe\n");
	expect_output(t, __LINE__, "ok 1 lm_kunit_kprobes\n");
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "not ok") == NULL);
	expect_nothing_left(t, &before);
}

/*
 * The same module with every probe disarmed (the global switch,
 * /sys/kernel/debug/kprobes/enabled = 0): its handlers never run, so
 * its suite must fail - it tests the probes, not itself.  Its KTAP is
 * kept off the console, where a "not ok" would count against this run,
 * and the verdict is read as Linux's tooling reads it:
 * kunit_suite_has_succeeded().
 */
static void kunit_generation_fails_without_probes(struct ktest *t)
{
	struct lm_counters before;
	struct kunit_suite *suite;
	int loglevel = console_loglevel;
	int ret;

	if (!lm_present(t, "lm_kunit_kprobes"))
		return;
	lm_counters_get(&before);
	disarm_all_kprobes();
	console_loglevel = LM_QUIET_LOGLEVEL;
	ret = insmod("lm_kunit_kprobes");
	console_loglevel = loglevel;
	arm_all_kprobes();
	KTEST_EXPECT_EQ(t, ret, 0);
	suite = module_var("lm_kunit_kprobes", "lkk_suite");
	KTEST_EXPECT_TRUE(t, suite != NULL);
	if (suite)
		KTEST_EXPECT_EQ(t, kunit_suite_has_succeeded(suite), KUNIT_FAILURE);
	KTEST_EXPECT_EQ(t, rmmod("lm_kunit_kprobes"), 0);
	expect_nothing_left(t, &before);
}

/*
 * Linux's samples probe kernel_clone, the path of every new process, and
 * the kretprobe one reports only calls made for a process (current->mm).
 * A program that starts another (run hello) goes through it: one
 * "returned" line, with the child's pid.
 */
static void clone_kretprobe_sees_a_process_start_one(struct ktest *t)
{
	const char *argv[] = { "run", "hello" };
	struct lm_counters before;
	struct task_struct *p;
	unsigned int *reported;
	int err;

	if (!lm_present(t, "lm_clone_kretprobe"))
		return;
	lm_counters_get(&before);
	KTEST_ASSERT_EQ(t, insmod("lm_clone_kretprobe"), 0);
	reported = module_var("lm_clone_kretprobe", "reported");
	ktest_capture_start();
	p = process_spawn("run", argv, ARRAY_SIZE(argv), &err);
	KTEST_EXPECT_TRUE(t, p != NULL);
	if (p)
		KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, 0));
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, reported && *reported == 1);
	expect_output(t, __LINE__, "kernel_clone returned ");
	expect_output(t, __LINE__, "run: hello (pid ");
	KTEST_EXPECT_EQ(t, rmmod("lm_clone_kretprobe"), 0);
	expect_nothing_left(t, &before);
}

static struct ktest_case linux_modules_cases[] = {
	KTEST_CASE(kprobe_module_takes_symbol_param),
	KTEST_CASE(kprobe_module_unknown_symbol),
	KTEST_CASE(params_from_command_line_and_shell),
	KTEST_CASE(kretprobe_module_times_and_changes_result),
	KTEST_CASE(jprobe_module_sees_arguments),
	KTEST_CASE(params_of_every_type),
	KTEST_CASE(params_defaults),
	KTEST_CASE(bad_param_value_refused),
	KTEST_CASE(kunit_module_runs_its_suite),
	KTEST_CASE(kunit_generation_of_linux_self_test),
	KTEST_CASE(kunit_generation_fails_without_probes),
	KTEST_CASE(clone_kretprobe_sees_a_process_start_one),
	KTEST_END,
};

static struct ktest_suite linux_modules_suite = {
	.name = "linux_modules",
	.cases = linux_modules_cases,
};
KTEST_SUITE(linux_modules_suite);
