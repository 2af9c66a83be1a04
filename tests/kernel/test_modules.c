/*
 * test_modules.c - the "modules" suite: load, link, probe and unload.
 *
 * The .ko files come in as Multiboot modules (tests/run_tests.py passes
 * them with QEMU's -initrd): the samples, the tests/modules sources, and the
 * broken objects tests/modules/make_broken.py derives from
 * modtest_basic.ko.  Every case loads through insmod()/rmmod(), the
 * path the shell's commands take, and checks what the user would see
 * (the messages), what the kernel must keep (text byte for byte, heap
 * and page counters), and that the probes really fire.
 */
#include "ktest.h"
#include "module.h"
#include "kprobes.h"
#include "ftrace.h"
#include "kallsyms.h"
#include "sched.h"
#include "mm.h"
#include "errno.h"
#include "string.h"
#include "vsprintf.h"
#include <asm/processor.h>
#include "multiboot.h"

#define LOAD_CYCLES 100
#define SNAPSHOT_BYTES 32	/* of a probed function, to compare after rmmod */

/* ---- helpers ------------------------------------------------------------------- */

struct counters {
	struct heap_stats heap;
	unsigned long pages;
	unsigned int probes;
	unsigned int modules;
};

static void counters_get(struct counters *c)
{
	heap_get_stats(&c->heap);
	c->pages = pages_free();
	c->probes = kprobes_nr_registered();
	c->modules = nr_modules();
}

static void expect_counters_back(struct ktest *t, const struct counters *before)
{
	struct counters now;

	counters_get(&now);
	KTEST_EXPECT_EQ(t, now.heap.live_allocs, before->heap.live_allocs);
	KTEST_EXPECT_EQ(t, now.heap.live_bytes, before->heap.live_bytes);
	KTEST_EXPECT_EQ(t, now.pages, before->pages);
	KTEST_EXPECT_EQ(t, now.probes, before->probes);
	KTEST_EXPECT_EQ(t, now.modules, before->modules);
}

/* Skip (not fail) when booted without the test objects, e.g. by hand. */
static bool have_boot_module(struct ktest *t, const char *name)
{
	size_t len;

	if (find_boot_module(name, &len))
		return true;
	ktest_skip(t, "boot without the .ko files (run via make test)");
	return false;
}

static int thread_noop(void *arg)
{
	return 0;
}

/* The routine the samples probe: create a thread and wait for it. */
static unsigned long run_kthread_create_with(void *arg, const char *name)
{
	struct task_struct *task = kthread_create(thread_noop, arg, name);

	if (task)
		kthread_join(task);
	return (unsigned long)task;
}

static void run_kthread_create(void)
{
	run_kthread_create_with(NULL, "modtest");
}

/* Did the captured printk output contain this line (printf-formatted)? */
static __printf(3, 4) void expect_printed(struct ktest *t, int line,
					   const char *fmt, ...)
{
	char want[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (!strstr(ktest_captured(), want))
		ktest_fail(t, __FILE__, line, "not printed: \"%s\"", want);
}

static unsigned long kthread_create_addr(void)
{
	return kallsyms_lookup_name("kthread_create");
}

/* ---- cases ------------------------------------------------------------------------ */

/*
 * Boot with insmod=NAME (the docs/modules.md replay does): those modules
 * are loaded when the suite starts, and each must unload cleanly.
 */
static void boot_loaded_modules_unload(struct ktest *t)
{
	if (nr_modules() == 0) {
		ktest_skip(t, "no insmod= on the command line");
		return;
	}
	run_kthread_create();		/* give their probes something to see */
	/*
	 * Boot modules are named after their files: "dir/NAME.ko".  Users
	 * go before the modules they use, so unload the unused ones first,
	 * pass after pass.
	 */
	for (int pass = 0; pass < MAX_BOOT_MODULES && nr_modules(); pass++) {
		for (int i = 0; i < nr_boot_modules; i++) {
			char name[MODULE_NAME_LEN];
			const char *base = strrchr(boot_modules[i].name, '/');
			struct module *mod;

			strlcpy(name, base ? base + 1 : boot_modules[i].name,
				sizeof(name));
			if (strchr(name, '.'))
				*strchr(name, '.') = '\0';
			mod = find_module(name);
			if (mod && mod->refcnt == 0)
				KTEST_EXPECT_EQ(t, rmmod(name), 0);
		}
	}
	KTEST_EXPECT_EQ(t, nr_modules(), 0);
}

static const struct {
	const char *name;
	const char *message;
} broken[] = {	/* the table in tests/modules/make_broken.py */
	{ "broken_truncated", "truncated" },
	{ "broken_magic", "bad ELF magic" },
	{ "broken_class", "wrong ELF class 2" },
	{ "broken_machine", "wrong machine 62" },
	{ "broken_section_past_end", "extends past the end of the file" },
	{ "broken_reloc_section", "st_shndx 32752 past the" },
	{ "broken_reloc_type", "unsupported relocation R_386_GOTPC" },
	{ "broken_undefined", "unknown symbol nosuch" },
	{ "broken_noinit", "no init function" },
	{ "broken_novermagic", "no version magic" },
	/* Built without -mregparm=3 (the Makefile): the plain i386 convention. */
	{ "broken_abi", "version magic 'kprobes-i386 686 ' should be 'kprobes-i386 686 REGPARM '" },
};

static void broken_objects_refused(struct ktest *t)
{
	struct counters before;

	if (!have_boot_module(t, "broken_magic"))
		return;
	counters_get(&before);
	for (size_t i = 0; i < ARRAY_SIZE(broken); i++) {
		int ret = insmod(broken[i].name);

		KTEST_EXPECT_TRUE(t, ret < 0);
		KTEST_EXPECT_TRUE(t, find_module(broken[i].name) == NULL);
		if (!strstr(module_last_error(), broken[i].message))
			ktest_fail(t, __FILE__, __LINE__, "%s: said \"%s\", want \"%s\"",
				   broken[i].name, module_last_error(),
				   broken[i].message);
	}
	expect_counters_back(t, &before);
}

/* init returns -EINVAL after registering a probe: unloaded, text restored. */
static void failing_init_unloads_cleanly(struct ktest *t)
{
	unsigned char snap[SNAPSHOT_BYTES];
	struct counters before;

	if (!have_boot_module(t, "modtest_initfail"))
		return;
	memcpy(snap, (void *)kthread_create_addr(), sizeof(snap));
	counters_get(&before);
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, insmod("modtest_initfail"), -EINVAL);
	ktest_capture_stop();
	/* The errno by name and in words, not a bare -22. */
	KTEST_EXPECT_TRUE(t, strstr(module_last_error(),
				    "init failed: EINVAL (Invalid argument)") != NULL);
	expect_printed(t, __LINE__, "insmod modtest_initfail: failed: EINVAL (Invalid argument)\n");
	KTEST_EXPECT_TRUE(t, find_module("modtest_initfail") == NULL);
	KTEST_EXPECT_EQ(t, memcmp(snap, (void *)kthread_create_addr(), sizeof(snap)), 0);
	run_kthread_create();		/* no int3 left pointing at freed code */
	expect_counters_back(t, &before);
}

/* How often does text occur in the captured printk output? */
static int count_printed(const char *text)
{
	int n = 0;

	for (const char *p = ktest_captured(); (p = strstr(p, text)); p++)
		n++;
	return n;
}

/*
 * A module's probes are refused (a misspelt symbol_name, a blacklisted
 * function): kprobes says why, once per refusal, and insmod names the
 * errno init returned instead of printing a bare number.
 */
static void probe_refusals_explained(struct ktest *t)
{
	struct counters before;

	if (!have_boot_module(t, "modtest_badprobe"))
		return;
	counters_get(&before);
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, insmod("modtest_badprobe"), -EINVAL);
	ktest_capture_stop();
	expect_printed(t, __LINE__, "kprobes: register_kprobe(kthread_creat+0) failed: "
		       "ENOENT (No such file or directory): no such symbol");
	expect_printed(t, __LINE__, "kprobes: register_kprobe(do_trap+0) failed: "
		       "EINVAL (Invalid argument): on the kprobes blacklist");
	KTEST_EXPECT_EQ(t, count_printed("kprobes: register_kprobe("), 2);
	expect_printed(t, __LINE__, "module modtest_badprobe: init failed: EINVAL "
		       "(Invalid argument), unloading\n");
	expect_printed(t, __LINE__, "insmod modtest_badprobe: failed: EINVAL "
		       "(Invalid argument)\n");
	KTEST_EXPECT_EQ(t, count_printed("(-22)"), 0);
	if (t->failed)
		ktest_info(t, "captured: %s", ktest_captured());
	expect_counters_back(t, &before);
}

/* Linked right (its init checks itself), visible to kallsyms, protected. */
static void basic_module_links_and_shows(struct ktest *t)
{
	unsigned long target, size, off;
	struct module *mod;
	char sym[96];
	int (*fn)(int, int);

	if (!have_boot_module(t, "modtest_basic"))
		return;
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	mod = find_module("modtest_basic");
	KTEST_ASSERT_TRUE(t, mod != NULL);

	target = kallsyms_lookup_name("modtest_target");
	KTEST_EXPECT_EQ(t, target, module_symbol_address(mod, "modtest_target"));
	KTEST_EXPECT_TRUE(t, kernel_text_address(target));
	KTEST_EXPECT_FALSE(t, kernel_text_address(kallsyms_lookup_name("modtest_value")));
	KTEST_EXPECT_STREQ(t, kallsyms_lookup(target + 1, &size, &off), "modtest_target");
	KTEST_EXPECT_EQ(t, off, 1);
	sprint_symbol(sym, sizeof(sym), target);
	KTEST_EXPECT_TRUE(t, strstr(sym, "modtest_target+0x0/") == sym);
	KTEST_EXPECT_TRUE(t, strstr(sym, " [modtest_basic]") != NULL);

	/* Text read-only (changed only by text_poke), data writable. */
	KTEST_EXPECT_FALSE(t, *lookup_pte(target) & PTE_WRITE);
	KTEST_EXPECT_TRUE(t, *lookup_pte(kallsyms_lookup_name("modtest_value")) & PTE_WRITE);

	fn = (void *)target;
	KTEST_EXPECT_EQ(t, fn(4, 2), 42);
	KTEST_EXPECT_EQ(t, insmod("modtest_basic"), -EEXIST);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
	KTEST_EXPECT_FALSE(t, kernel_text_address(target));
	KTEST_EXPECT_EQ(t, kallsyms_lookup_name("modtest_target"), 0);
}

static int module_probe_hits;
static int count_module_hit(struct kprobe *p, struct pt_regs *regs)
{
	module_probe_hits++;
	return 0;
}

/* A module's functions are probeable like the kernel's. */
static void probe_module_function(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "modtest_target",
			     .pre_handler = count_module_hit };
	int (*fn)(int, int);

	if (!have_boot_module(t, "modtest_basic"))
		return;
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	module_probe_hits = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	fn = (void *)kp.addr;
	KTEST_EXPECT_EQ(t, fn(3, 7), 37);
	KTEST_EXPECT_EQ(t, module_probe_hits, 1);
	KTEST_EXPECT_EQ(t, kp.nhit, 1);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
}

static int rmmod_in_handler_ret;
static int rmmod_from_handler(struct kprobe *p, struct pt_regs *regs)
{
	rmmod_in_handler_ret = rmmod("modtest_basic");
	return 0;
}

/* A probe on the module's code is mid-hit: rmmod from its handler is refused. */
static void rmmod_refused_mid_hit(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "modtest_target",
			     .pre_handler = rmmod_from_handler };
	int (*fn)(int, int);

	if (!have_boot_module(t, "modtest_basic"))
		return;
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	rmmod_in_handler_ret = 0;
	fn = (void *)kp.addr;
	KTEST_EXPECT_EQ(t, fn(3, 7), 37);
	KTEST_EXPECT_EQ(t, kp.nhit, 1);
	KTEST_EXPECT_EQ(t, rmmod_in_handler_ret, -EBUSY);
	KTEST_EXPECT_TRUE(t, find_module("modtest_basic") != NULL);
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
}

static volatile int wait_release;

static int call_module_wait(void *fn)
{
	int (*wait)(volatile int *) = fn;

	return wait(&wait_release);
}

/* A thread asleep inside module code keeps the module: rmmod says EBUSY. */
static void rmmod_refused_while_thread_inside(struct ktest *t)
{
	struct task_struct *th;
	unsigned long fn;

	if (!have_boot_module(t, "modtest_basic"))
		return;
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	fn = module_symbol_address(find_module("modtest_basic"), "modtest_wait");
	KTEST_ASSERT_TRUE(t, fn != 0);
	wait_release = 0;
	th = kthread_create(call_module_wait, (void *)fn, "modwait");
	KTEST_ASSERT_TRUE(t, th != NULL);
	msleep(30);		/* it enters modtest_wait and sleeps there */
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), -EBUSY);
	KTEST_EXPECT_TRUE(t, find_module("modtest_basic") != NULL);
	wait_release = 1;
	KTEST_EXPECT_EQ(t, kthread_join(th), 7);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
}

static int find_gone(struct kprobe *p, void *data)
{
	return p == data;
}

/*
 * The kernel (not the module) probes a module function, and the module
 * is unloaded: the int3 comes out while the text still exists, and the
 * probe stays registered as [GONE] until its owner unregisters it.  A
 * module loaded later where the old one was is never written to.
 */
static void probe_outlives_module_is_gone(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "modtest_target",
			     .pre_handler = count_module_hit };
	unsigned long target;
	struct counters before;
	char line[128], want[128];
	int (*fn)(int, int);

	if (!have_boot_module(t, "modtest_basic"))
		return;
	counters_get(&before);
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	target = (unsigned long)kp.addr;
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
	ktest_capture_stop();
	expect_printed(t, __LINE__, "kprobe at modtest_target+0x0/");
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "is gone with the module") != NULL);
	KTEST_EXPECT_TRUE(t, kprobe_gone(&kp));
	KTEST_EXPECT_TRUE(t, get_kprobe(kp.addr) == NULL);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), before.probes + 1);
	KTEST_EXPECT_EQ(t, kprobes_for_each_gone(find_gone, &kp), 1);
	sprint_kprobe(line, sizeof(line), &kp);
	snprintf(want, sizeof(want), "%08lx  k  %08lx  [GONE]", target, target);
	KTEST_EXPECT_STREQ(t, line, want);
	KTEST_EXPECT_EQ(t, enable_kprobe(&kp), -EINVAL);
	KTEST_EXPECT_EQ(t, register_kprobe(&kp), -EEXIST);	/* still registered */

	/* New code where the old was: no int3 in it, and none put back later. */
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	fn = (void *)kallsyms_lookup_name("modtest_target");
	KTEST_ASSERT_TRUE(t, fn != NULL);
	module_probe_hits = 0;
	KTEST_EXPECT_EQ(t, fn(3, 7), 37);
	KTEST_EXPECT_EQ(t, module_probe_hits, 0);
	unregister_kprobe(&kp);
	KTEST_EXPECT_FALSE(t, kprobe_gone(&kp));
	KTEST_EXPECT_EQ(t, *(unsigned char *)fn == BREAKPOINT_INSTRUCTION, false);
	KTEST_EXPECT_EQ(t, fn(3, 7), 37);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
	if (t->failed)
		ktest_info(t, "captured: %s", ktest_captured());
	expect_counters_back(t, &before);
}

/* modtest_user takes modtest_basic's exports: basic is then busy. */
static void dependency_makes_busy(struct ktest *t)
{
	struct counters before;

	if (!have_boot_module(t, "modtest_user"))
		return;
	counters_get(&before);
	KTEST_EXPECT_EQ(t, insmod("modtest_user"), -ENOENT);	/* basic not loaded */
	/* Every missing symbol is named, not only the first. */
	KTEST_EXPECT_TRUE(t, strstr(module_last_error(),
				    "unknown symbols modtest_add, modtest_value") != NULL);
	KTEST_ASSERT_EQ(t, insmod("modtest_basic"), 0);
	KTEST_ASSERT_EQ(t, insmod("modtest_user"), 0);
	KTEST_EXPECT_EQ(t, find_module("modtest_basic")->refcnt, 1);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), -EBUSY);
	KTEST_EXPECT_EQ(t, rmmod("modtest_user"), 0);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), 0);
	KTEST_EXPECT_EQ(t, rmmod("modtest_basic"), -ENOENT);
	expect_counters_back(t, &before);
}

/* Exit "forgets" two probes: the loader unregisters them, with a warning. */
static void forgotten_probes_unregistered(struct ktest *t)
{
	unsigned char snap[SNAPSHOT_BYTES];
	struct counters before;

	if (!have_boot_module(t, "modtest_forget"))
		return;
	memcpy(snap, (void *)kthread_create_addr(), sizeof(snap));
	counters_get(&before);
	KTEST_ASSERT_EQ(t, insmod("modtest_forget"), 0);
	KTEST_EXPECT_EQ(t, kprobes_nr_registered(), before.probes + 2);
	ktest_capture_start();
	KTEST_EXPECT_EQ(t, rmmod("modtest_forget"), 0);
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "WARNING: kprobe at kthread_create+0x0/") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "WARNING: kprobe at forget_target+0x0/") != NULL);
	KTEST_EXPECT_EQ(t, memcmp(snap, (void *)kthread_create_addr(), sizeof(snap)), 0);
	run_kthread_create();
	expect_counters_back(t, &before);
}

/* The kprobe sample prints ip and flags at each hit, and its totals on exit. */
static void kprobe_example_fires(struct ktest *t)
{
	unsigned long addr = kthread_create_addr();
	unsigned char snap[SNAPSHOT_BYTES];
	uint32_t text_sum = ktest_text_checksum();
	struct kprobe *kp;
	char want[128];

	if (!have_boot_module(t, "kprobe_example"))
		return;
	memcpy(snap, (void *)addr, sizeof(snap));
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod("kprobe_example"), 0);
	kp = (void *)module_symbol_address(find_module("kprobe_example"), "kp");
	KTEST_ASSERT_TRUE(t, kp != NULL);
	/* kthread_create's first byte is its fentry site: the probe rides on ftrace. */
	KTEST_EXPECT_TRUE(t, kprobe_ftrace(kp));
	KTEST_EXPECT_EQ(t, *(unsigned char *)addr, CALL_INSN_OPCODE);
	run_kthread_create();
	KTEST_EXPECT_EQ(t, kp->nhit, 1);
	KTEST_EXPECT_EQ(t, rmmod("kprobe_example"), 0);
	ktest_capture_stop();

	snprintf(want, sizeof(want), "Planted kprobe at %p\n", (void *)addr);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), want) != NULL);
	snprintf(want, sizeof(want), "<kthread_create> pre_handler: p->addr = %p, ip = %lx, flags = 0x",
		 (void *)addr, addr + 1);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), want) != NULL);
	snprintf(want, sizeof(want), "<kthread_create> post_handler: p->addr = %p, flags = 0x",
		 (void *)addr);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), want) != NULL);
	snprintf(want, sizeof(want), "kprobe at %p unregistered: 1 hit, 0 missed", (void *)addr);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), want) != NULL);
	if (t->failed)
		ktest_info(t, "captured: %s", ktest_captured());
	/* rmmod gave back the original bytes: the text is as it booted. */
	KTEST_EXPECT_EQ(t, memcmp(snap, (void *)addr, sizeof(snap)), 0);
	KTEST_EXPECT_EQ(t, ktest_text_checksum(), text_sum);
}

/* The jprobe sample sees kthread_create()'s arguments as C parameters. */
static void jprobe_example_fires(struct ktest *t)
{
	unsigned long addr = kthread_create_addr();
	unsigned char snap[SNAPSHOT_BYTES];

	if (!have_boot_module(t, "jprobe_example"))
		return;
	memcpy(snap, (void *)addr, sizeof(snap));
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod("jprobe_example"), 0);
	run_kthread_create_with((void *)0x1234, "jtest");
	KTEST_EXPECT_EQ(t, rmmod("jprobe_example"), 0);
	ktest_capture_stop();

	expect_printed(t, __LINE__, "Planted jprobe at %p, handler addr ", (void *)addr);
	expect_printed(t, __LINE__, "jprobe: fn = %p, arg = %p, name = jtest\n",
		       (void *)thread_noop, (void *)0x1234);
	expect_printed(t, __LINE__, "jprobe at %p unregistered: 1 hit, 0 missed",
		       (void *)addr);
	KTEST_EXPECT_EQ(t, memcmp(snap, (void *)addr, sizeof(snap)), 0);
	if (t->failed)
		ktest_info(t, "captured: %s", ktest_captured());
}

/* The kretprobe sample prints each call's return value, duration and thread name. */
static void kretprobe_example_fires(struct ktest *t)
{
	unsigned long addr = kthread_create_addr(), task;
	unsigned char snap[SNAPSHOT_BYTES];

	if (!have_boot_module(t, "kretprobe_example"))
		return;
	memcpy(snap, (void *)addr, sizeof(snap));
	ktest_capture_start();
	KTEST_ASSERT_EQ(t, insmod("kretprobe_example"), 0);
	task = run_kthread_create_with(NULL, "rtest");
	KTEST_EXPECT_EQ(t, rmmod("kretprobe_example"), 0);
	ktest_capture_stop();

	expect_printed(t, __LINE__, "Planted return probe at kthread_create: %p\n",
		       (void *)addr);
	expect_printed(t, __LINE__, "kthread_create returned %#lx and took ", task);
	expect_printed(t, __LINE__, " cycles to execute (thread %s)\n", "rtest");
	expect_printed(t, __LINE__, "Missed probing 0 instances of kthread_create\n");
	KTEST_EXPECT_EQ(t, memcmp(snap, (void *)addr, sizeof(snap)), 0);
	if (t->failed)
		ktest_info(t, "captured: %s", ktest_captured());
}

static void unknown_names(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, insmod("no_such_module"), -ENOENT);
	KTEST_EXPECT_EQ(t, rmmod("no_such_module"), -ENOENT);
}

/* Load and unload from the same image again and again: nothing leaks. */
static void load_unload_cycles(struct ktest *t)
{
	const char *names[] = { "modtest_basic", "kprobe_example" };
	struct counters before;

	if (!have_boot_module(t, "modtest_basic") ||
	    !have_boot_module(t, "kprobe_example"))
		return;
	for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
		struct module *mod;
		const void *image;
		size_t len;
		int fails = 0;

		image = find_boot_module(names[n], &len);
		/* One warm-up round: the first probe may allocate a slot page. */
		for (int i = 0; i <= LOAD_CYCLES; i++) {
			if (i == 1)
				counters_get(&before);
			if (load_module(image, len, names[n], &mod) ||
			    unload_module(mod))
				fails++;
		}
		KTEST_EXPECT_EQ(t, fails, 0);
		expect_counters_back(t, &before);
	}
}

static struct ktest_case modules_cases[] = {
	KTEST_CASE(boot_loaded_modules_unload),
	KTEST_CASE(broken_objects_refused),
	KTEST_CASE(failing_init_unloads_cleanly),
	KTEST_CASE(probe_refusals_explained),
	KTEST_CASE(basic_module_links_and_shows),
	KTEST_CASE(probe_module_function),
	KTEST_CASE(rmmod_refused_mid_hit),
	KTEST_CASE(rmmod_refused_while_thread_inside),
	KTEST_CASE(probe_outlives_module_is_gone),
	KTEST_CASE(dependency_makes_busy),
	KTEST_CASE(forgotten_probes_unregistered),
	KTEST_CASE(kprobe_example_fires),
	KTEST_CASE(jprobe_example_fires),
	KTEST_CASE(kretprobe_example_fires),
	KTEST_CASE(unknown_names),
	KTEST_CASE(load_unload_cycles),
	KTEST_END,
};

static struct ktest_suite modules_suite = {
	.name = "modules",
	.cases = modules_cases,
};
KTEST_SUITE(modules_suite);
