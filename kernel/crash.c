/*
 * crash.c - "crash=WHAT" on the command line makes the kernel commit one
 * deliberate mistake, so a student can watch a real oops report:
 *
 *   crash=null    read through a NULL pointer         (#PF, CR2 = 0)
 *   crash=text    write to read-only kernel code      (#PF, error code 3)
 *   crash=ud2     execute an invalid opcode           (#UD)
 *   crash=div0    divide by zero                      (#DE)
 *   crash=int3    a breakpoint no one claims          (#BP)
 *
 * None of these has an exception-table entry, so each ends in die().
 * Add "panic_exit" to leave QEMU afterwards (the test harness does).
 */
#include "kernel.h"
#include "string.h"

static volatile int zero;   /* volatile: the compiler must not fold it */

static noinline void crash_null(void)
{
	printk("crash: reading *(int *)NULL = %d\n", *(volatile int *)(unsigned long)zero);
}

static noinline void crash_text(void)
{
	*(volatile unsigned char *)crash_null = 0x90;
}

static noinline void crash_ud2(void)
{
	__asm__ __volatile__("ud2");
}

/*
 * In C, 1 / x may legally compile to a compare (the answer is 0 unless x
 * is 1 or -1), so the division is written as the instruction itself.
 */
static noinline void crash_div0(void)
{
	unsigned int q = 1, r = 0, d = zero;

	__asm__ __volatile__("divl %2" : "+a"(q), "+d"(r) : "r"(d));
	printk("crash: 1 / 0 = %u\n", q);
}

static noinline void crash_int3(void)
{
	__asm__ __volatile__("int3");
}

static const struct {
	const char *name;
	void (*fn)(void);
} crashes[] = {
	{ "null", crash_null },
	{ "text", crash_text },
	{ "ud2",  crash_ud2 },
	{ "div0", crash_div0 },
	{ "int3", crash_int3 },
};

void crash_run(const char *what)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(crashes); i++) {
		if (strcmp(crashes[i].name, what) == 0) {
			printk("crash: doing '%s' on purpose\n", what);
			crashes[i].fn();
			printk("crash: '%s' did not fault?!\n", what);
			return;
		}
	}
	printk("crash: unknown '%s' (try null, text, ud2, div0, int3)\n", what);
}
