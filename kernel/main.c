/*
 * main.c - kmain(), where C begins.
 *
 * boot/multiboot.S gives us a stack and calls kmain with the Multiboot
 * magic and information block.  We bring the machine up in dependency
 * order (consoles first so every later step can report), then either
 * run the test suites (command line "test" or "test=a,b"), the benchmark
 * ("bench"), or start the shell on the serial and VGA consoles.
 */
#include "kernel.h"
#include "multiboot.h"
#include "segment.h"
#include "mm.h"
#include "pic.h"
#include "timer.h"
#include "sched.h"
#include "irqflags.h"
#include "ktest.h"
#include "kprobes.h"
#include "console.h"
#include "keyboard.h"
#include "module.h"
#include "shell.h"

static void banner(void)
{
	printk("\nkprobes-i386: a teaching kernel that instruments itself\n");
	printk("==========================================================\n");
}

static void run_tests_and_exit(void)
{
	char list[128];
	int failed = ktest_run(cmdline_value("test", list, sizeof(list)));

	qemu_exit(failed ? QEMU_EXIT_FAIL : QEMU_EXIT_PASS);
}

void kmain(uint32_t magic, struct multiboot_info *mbi)
{
	char what[16];

	serial_init();
	vga_init();
	multiboot_parse(magic, mbi);
	banner();
	multiboot_print();

	gdt_init();
	idt_init();
	page_alloc_init(mbi);
	paging_init();
	heap_init();
	pic_init();
	pit_init();
	sched_init();
	keyboard_init();
	local_irq_enable();
	if (kprobes_init())
		panic("kprobes_init failed");
	load_boot_modules();	/* insmod=a,b on the command line */

	if (cmdline_value("crash", what, sizeof(what)))
		crash_run(what);
	if (cmdline_has("test"))
		run_tests_and_exit();
	if (cmdline_has("bench")) {
		bench_run();
		qemu_exit(QEMU_EXIT_PASS);
	}

	shell_run();	/* the console: never returns */
}
