/*
 * modtest_basic.c - a module that checks its own layout and linking.
 *
 * Its init returns -EINVAL unless every kind of relocation and section
 * the loader handles came out right: calls into the kernel (R_386_PC32),
 * pointers in code and data (R_386_32), strings in .rodata, a zeroed
 * .bss, and the alignment the compiler asked for.  The "modules" suite
 * (tests/kernel/test_modules.c) loads it, probes modtest_target(), and
 * make_broken.py derives the broken objects from it.
 */
#include "module.h"
#include "errno.h"
#include "string.h"
#include "sched.h"

#define BIG_ALIGN 256

static int modtest_calls;

/* A probe target in module text (noinline: it must exist as a function). */
noinline int modtest_target(int a, int b)
{
	modtest_calls++;
	return a * 10 + b;
}

/*
 * Sleeps in module code until *release is set.  The "modules" suite runs
 * it in a thread to prove rmmod refuses while a thread is inside.
 */
noinline int modtest_wait(volatile int *release)
{
	while (!*release)
		msleep(1);
	return 7;
}

static int twice(int x)
{
	return 2 * x;
}

/* .data holding pointers: each needs an R_386_32 in .rel.data. */
static int (*const ops_ro[])(int) = { twice };
static int (*ops_rw[])(int, int) = { modtest_target };
static const char *greeting = "hello from .rodata";

/* .bss: must arrive zeroed, at the alignment asked for. */
static unsigned char zeroes[512] __attribute__((aligned(BIG_ALIGN)));
static int counter __attribute__((aligned(64)));

/* Exported to other modules (modtest_user uses it). */
int modtest_value = 42;
EXPORT_SYMBOL(modtest_value);

int modtest_add(int a, int b)
{
	return a + b + modtest_value;
}
EXPORT_SYMBOL(modtest_add);

static int check_layout(void)
{
	for (unsigned int i = 0; i < sizeof(zeroes); i++)
		if (zeroes[i])
			return -EINVAL;
	if ((unsigned long)zeroes % BIG_ALIGN || (unsigned long)&counter % 64)
		return -EINVAL;
	if (ops_ro[0](21) != 42 || ops_rw[0](4, 2) != 42)
		return -EINVAL;
	if (strcmp(greeting, "hello from .rodata") != 0)
		return -EINVAL;
	return 0;
}

static int __init basic_init(void)
{
	int ret = check_layout();

	modtest_calls = 0;
	printk("modtest_basic: init, layout %s\n", ret ? "WRONG" : "ok");
	return ret;
}

static void __exit basic_exit(void)
{
	printk("modtest_basic: exit after %d calls\n", modtest_calls);
}

module_init(basic_init);
module_exit(basic_exit);
MODULE_LICENSE("GPL");
