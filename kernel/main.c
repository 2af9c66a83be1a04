/*
 * main.c - kmain(), where C begins.
 *
 * boot/multiboot.S gives us a stack and calls kmain with the Multiboot
 * magic and information block.  We bring the machine up in dependency
 * order (consoles first so every later step can report), fire one probe
 * of each kind as a smoke test (probes/kprobes_smoke.c), then either
 * run a crash demonstration ("crash=null"), a boot mode the image defines
 * (the test image's "test=a,b" and "bench"), or start the shell on the
 * serial and VGA consoles.
 */
#include <asm/fpu.h>
#include <asm/sysenter.h>
#include <asm/vdso.h>
#include "kernel.h"
#include "mount.h"
#include "proc_fs.h"
#include "devtmpfs.h"
#include "initramfs.h"
#include "multiboot.h"
#include <asm/segment.h>
#include "mm.h"
#include <asm/pic.h>
#include "timer.h"
#include "ktime.h"
#include "sched.h"
#include "smp.h"
#include <asm/irqflags.h>
#include "kprobes.h"
#include "kprobes_smoke.h"
#include "printk.h"
#include <asm/serial.h>
#include <asm/vga.h>
#include "keyboard.h"
#include "module.h"
/*
 * The one arrow from below console/ up into it: once the machine is up,
 * kmain hands the CPU to the shell.  Nothing else under arch/, kernel/,
 * probes/, lib/ or fs/ includes a console/ header (tests/host/check_layout.py).
 */
#include "../console/shell.h"
#include "uprobes.h"
#include "ftrace.h"

/*
 * The banner, under the name Linux gives its own (init/version.c), so
 * that a fetch written for Linux, `@linux_proc_banner:string`, reads it
 * here too.
 */
const char linux_proc_banner[] = "kprobes-i386: a teaching kernel that instruments itself\n";

static void banner(void)
{
	printk("\n%s", linux_proc_banner);
	printk("==========================================================\n");
}

extern const struct boot_mode __start_boot_modes[], __stop_boot_modes[];

/*
 * The words only the test image (build/kernel-test.elf) gives a meaning.
 * The plain kernel keeps their names, not their code, so that asking it
 * for a test run fails loudly instead of starting a shell nobody reads.
 */
#define PATH_MAX_INIT	256	/* init=PATH: the ramfs's PATH_MAX */
#define BOOT_MODE_VALUE_MAX	2048	/* test=a,b,...: Linux's COMMAND_LINE_SIZE on i386 */

static const char *const test_image_words[] = { "test", "bench", "bench_smp" };

/* Run the boot mode the command line names, if this image has it. */
static void run_boot_mode(void)
{
	static char value[BOOT_MODE_VALUE_MAX];
	const struct boot_mode *m;
	size_t i;

	for (m = __start_boot_modes; m < __stop_boot_modes; m++) {
		if (!cmdline_has(m->word))
			continue;
		if (!cmdline_value(m->word, value, sizeof(value)) && cmdline_has_value(m->word)) {
			/* Not the mode without its value: "test" alone would run every suite. */
			printk("kmain: \"%s=\" is too long: not run\n", m->word);
			qemu_exit(QEMU_EXIT_FAIL);
			return;
		}
		m->run(cmdline_has_value(m->word) ? value : NULL);
		return;		/* a mode that returns leaves us the shell */
	}

	for (i = 0; i < ARRAY_SIZE(test_image_words); i++) {
		if (!cmdline_has(test_image_words[i]))
			continue;
		printk("kmain: \"%s\": this image has no tests and no benchmark; "
		       "boot build/kernel-test.elf (make test, make bench, "
		       "make run-test)\n", test_image_words[i]);
		qemu_exit(QEMU_EXIT_FAIL);
	}
}

void kmain(uint32_t magic, struct multiboot_info *mbi)
{
	static char init_path[PATH_MAX_INIT];

	serial_init();
	vga_init();
	multiboot_parse(magic, mbi);
	console_loglevel_setup();	/* loglevel=N */
	banner();
	multiboot_print();

	gdt_init();
	setup_per_cpu_areas();	/* %fs:var is CPU 0's copy of var */
	idt_init();
	fpu_init_cpu();		/* x87 and SSE usable by processes (arch/i386/fpu.c) */
	enable_sep_cpu();	/* sysenter's MSRs (arch/i386/sysenter.c) */
	detect_cpus();		/* ACPI MADT or MP table; before paging hides them */
	page_alloc_init(mbi);
	paging_init();
	heap_init();
	init_vdso_image();	/* the page every process maps (arch/i386/vdso.c) */
	ftrace_init();	/* every "call __fentry__" a nop, before any other CPU runs */
	pic_init();
	pit_init();
	ktime_init();	/* ktime_get(): PIT ticks and the TSC */
	sched_init();
	keyboard_init();
	local_irq_enable();
	smp_boot_cpus();	/* local APICs, their timers, every AP */
	if (init_kprobes())
		panic("init_kprobes failed");
	if (uprobes_init())
		panic("uprobes_init failed");
#ifndef CONFIG_KPROBES_SANITY_TEST	/* else init_kprobes() ran it, as Linux's did */
	if (!cmdline_has("nosmoke"))
		init_test_probes();	/* one line: "Kprobe smoke test: passed" */
#endif
	populate_rootfs();	/* "/": /bin's programs, then the initramfs modules */
	mnt_init();		/* /proc, /dev: the boot mounts' directories */
	proc_root_init();	/* /proc's files */
	chr_dev_init();		/* /dev/null, /dev/zero, ... */
	tty_init();		/* /dev/console, /dev/tty */
	load_boot_modules();	/* insmod=a,b on the command line */

	run_boot_mode();	/* crash=WHAT is one (console/crash.c) */

	if (cmdline_value("init", init_path, sizeof(init_path)))
		console_run_init(init_path);	/* init=/bin/sh: a program first */
	shell_run();	/* the console: never returns */
}
