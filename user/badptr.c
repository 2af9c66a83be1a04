/*
 * badptr - system calls with every kind of bad pointer; each must fail
 * with -EFAULT (14) and the kernel must keep running.  (read() needs a
 * file with text in it: with nothing to copy it copies nothing, and
 * reports end of file, as Linux's does.)  Prints one line
 * per case and exits with the number of cases that did not.
 */
#include "ulib.h"

#define PAGE		4096ul
#define KERNEL_TEXT	0x00100000ul	/* the kernel's code: mapped, supervisor-only */
#define UNMAPPED	0x30000000ul	/* user space, but nothing there */
#define TASK_SIZE	0xC0000000ul	/* the end of user space */

extern char _end[];	/* ld: the end of .bss */
static int failures;

static void expect_efault(const char *what, long ret)
{
	int ok = ret == -EFAULT;

	printf("badptr: %-40s = %ld %s\n", what, ret, ok ? "ok" : "FAIL");
	failures += !ok;
}

/* A string with no NUL that runs off the end of the last data page. */
static const char *unterminated(void)
{
	char *end = (char *)(((unsigned long)_end + PAGE - 1) & ~(PAGE - 1));

	memset(end - 8, 'A', 8);
	return end - 8;
}

/* argv[1]: a pseudo file with text in it (default: kprobes' enabled switch). */
int main(int argc, char **argv)
{
	const char *file = argc > 1 ? argv[1] : "/sys/kernel/debug/kprobes/enabled";
	const char *bad_argv[] = { (const char *)UNMAPPED, NULL };
	struct timespec ts;
	char buf[16];
	int fd;

	expect_efault("write(1, NULL, 5)", write(1, NULL, 5));
	expect_efault("write(1, kernel text, 5)", write(1, (void *)KERNEL_TEXT, 5));
	expect_efault("write(1, unmapped user page, 5)", write(1, (void *)UNMAPPED, 5));
	expect_efault("write(1, range into the kernel)", write(1, (void *)(TASK_SIZE - 8), 16));
	expect_efault("write(1, buf, wrapping count)", write(1, buf, ~0ul - 4));
	expect_efault("read(fd, unmapped user page)",
		      (fd = open(file, O_RDONLY)) < 0 ? fd :
		      read(fd, (void *)UNMAPPED, 8));
	expect_efault("read(fd, read-only code)", read(fd, (void *)main, 8));
	close(fd);
	expect_efault("open(NULL)", open(NULL, O_RDONLY));
	expect_efault("open(kernel address)", open((const char *)KERNEL_TEXT, O_RDONLY));
	expect_efault("open(string without end)", open(unterminated(), O_RDONLY));
	expect_efault("nanosleep(NULL)", nanosleep(NULL, NULL));
	expect_efault("nanosleep(kernel address)", nanosleep((void *)KERNEL_TEXT, &ts));
	expect_efault("execve(NULL, argv)", execve(NULL, bad_argv, NULL));
	expect_efault("spawn(\"hello\", bad argv string)", spawn("hello", bad_argv));
	expect_efault("spawn(\"hello\", argv unmapped)", spawn("hello", (void *)UNMAPPED));
	printf("badptr: %d failures; the kernel is still here\n", failures);
	return failures;
}
