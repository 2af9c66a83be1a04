/*
 * kernel.h - the few things every kernel file needs: printk, panic,
 * and small helper macros.  Kept deliberately short.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define noinline        __attribute__((noinline))
#define __always_inline inline __attribute__((always_inline))
#define __noreturn      __attribute__((noreturn))
#define __packed        __attribute__((packed))
#define __aligned(x)    __attribute__((aligned(x)))
#define __used          __attribute__((used))
#define __section(s)    __attribute__((section(s)))
#define __printf(a, b)  __attribute__((format(printf, a, b)))

#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)  (((x) + ((a) - 1)) & ~((a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((a) - 1))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Stop the compiler from moving memory accesses across this point. */
#define barrier()       __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)    (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* printk: formats with lib/vsprintf.c and writes to every console. */
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

/*
 * Linux's pr_warn(): printk with the file's prefix.  A file that wants
 * one defines pr_fmt() before its first #include, as in Linux:
 *	#define pr_fmt(fmt) "kprobes: " fmt
 */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_warn(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)

void panic(const char *fmt, ...) __printf(1, 2) __noreturn;

/* Halt this CPU forever with interrupts off. */
void halt_forever(void) __noreturn;

/*
 * Exit QEMU through the isa-debug-exit device: a test run, the benchmark,
 * panic_exit or poweroff ends the emulator with a status a script can read.
 * QEMU exits with (code << 1) | 1.
 */
#define QEMU_EXIT_PASS 0x10   /* QEMU exit status 33 */
#define QEMU_EXIT_FAIL 0x11   /* QEMU exit status 35 */
void qemu_exit(int code) __noreturn;
/* Switch the machine off (ACPI S5): QEMU exits with status 0. */
void machine_power_off(void) __noreturn;
/* How an oops or panic ends: leave QEMU with panic_exit, else halt. */
void oops_end(void) __noreturn;

/* The kernel command line Multiboot gave us ("" when none). */
extern const char *kernel_cmdline;
bool cmdline_has(const char *word);
/* "key=value" -> copies "value" into buf; NULL when key has no value. */
const char *cmdline_value(const char *key, char *buf, size_t len);

/* What kmain() runs instead of the shell when the command line asks. */
void crash_run(const char *what);	/* crash=WHAT: kernel/crash.c */
const char *crash_mode_name(size_t i);	/* the i-th mode; NULL past the last */
int crash_stack_hog(void *arg);		/* a thread body that overflows its stack */

/*
 * A boot mode is another program kmain() can run in place of the shell,
 * chosen by a word on the command line ("test=traps", "bench=20000").
 * Like Linux's __setup(), a mode is a record the linker gathers into one
 * section (.boot_modes, see linker.ld), so kmain() needs no list of them:
 * the test image, which links tests/kernel/, defines "test" and "bench";
 * build/kernel.elf defines none and says so when asked for one.
 */
struct boot_mode {
	const char *word;			/* the command-line word */
	void (*run)(const char *value);		/* value after '=', or NULL */
};

#define DEFINE_BOOT_MODE(word, fn)					\
	static const struct boot_mode __boot_mode_##fn			\
	__used __section(".boot_modes") __aligned(4) = { word, fn }

#endif
