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
/* Linux's notrace: no "call __fentry__" at the start (the function tracer skips it). */
#ifndef notrace
#define notrace         __attribute__((no_instrument_function))
#endif
/*
 * The host tests build lib/ against glibc, whose <sys/cdefs.h> already
 * defines __always_inline (the same attribute): keep its definition
 * rather than redefine it, as Linux's tools/include/linux/compiler.h does.
 */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
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
/* len bytes of text as they are, however many: a command's output. */
void printk_write(const char *text, size_t len);

/*
 * Log levels, as Linux's: a message may start with KERN_SOH and a digit,
 * 0 (KERN_EMERG) to 7 (KERN_DEBUG).  printk strips the prefix and prints
 * the message only if its level is below console_loglevel (7 unless the
 * command line says loglevel=N), so debug chatter stays off the console.
 * A message without a level gets MESSAGE_LOGLEVEL_DEFAULT.
 */
#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"	/* the system is unusable */
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_DEFAULT	KERN_SOH "d"	/* MESSAGE_LOGLEVEL_DEFAULT */
#define KERN_CONT	KERN_SOH "c"	/* continues the previous line */

#define LOGLEVEL_EMERG		0
#define LOGLEVEL_DEBUG		7
#define MESSAGE_LOGLEVEL_DEFAULT	4	/* KERN_WARNING, as Linux */
#define CONSOLE_LOGLEVEL_DEFAULT	7	/* everything but KERN_DEBUG */
extern int console_loglevel;

/*
 * Linux's console_verbose(), called first by die() and panic():
 * whoever quietened the console - a test that kills thousands of
 * processes, loglevel= on the command line - the report must reach it.
 */
static inline void console_verbose(void)
{
	if (console_loglevel < CONSOLE_LOGLEVEL_DEFAULT)
		console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
}
/* loglevel=N on the command line (from kmain). */
void console_loglevel_setup(void);

/*
 * Linux's pr_*(): printk with a level and the file's prefix.  A file
 * that wants one defines pr_fmt() before its first #include, as in Linux:
 *	#define pr_fmt(fmt) "kprobes: " fmt
 * pr_debug() compiles to nothing unless the file defines DEBUG (Linux
 * without dynamic debug), but its arguments are still type-checked.
 */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning		pr_warn		/* the name before Linux 5.x */
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
#define no_printk(fmt, ...)	({ if (0) printk(fmt, ##__VA_ARGS__); 0; })
#ifdef DEBUG
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

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
/* Reset the machine (arch/i386/reboot.c): the kernel boots again. */
void machine_restart(void) __noreturn;
/*
 * How an oops or panic starts (one CPU reports; a second one that dies
 * meanwhile halts) and ends (leave QEMU with panic_exit, else halt).
 */
void oops_begin(void);
void oops_end(void) __noreturn;

/* The kernel command line Multiboot gave us ("" when none). */
extern const char *kernel_cmdline;
bool cmdline_has(const char *word);
/*
 * "key=value" -> copies "value" into buf; NULL when key has no value,
 * and NULL (the log says so) when the value does not fit: never cut.
 */
const char *cmdline_value(const char *key, char *buf, size_t len);
/* Whether key is given with "=" (a value, fitting any buffer or not). */
bool cmdline_has_value(const char *key);


/*
 * A boot mode is another program kmain() can run in place of the shell,
 * chosen by a word on the command line ("test=traps", "bench=20000").
 * Like Linux's __setup(), a mode is a record the linker gathers into one
 * section (.boot_modes, see linker.ld), so kmain() needs no list of them:
 * the test image, which links tests/kernel/, defines "test", "bench"
 * and "bench_smp"; build/kernel.elf defines none and says so when asked
 * for one.
 */
struct boot_mode {
	const char *word;			/* the command-line word */
	void (*run)(const char *value);		/* value after '=', or NULL */
};

#define DEFINE_BOOT_MODE(word, fn)					\
	static const struct boot_mode __boot_mode_##fn			\
	__used __section(".boot_modes") __aligned(4) = { word, fn }

#endif
