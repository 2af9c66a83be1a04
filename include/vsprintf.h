/*
 * vsprintf.h - formatted output and number parsing from lib/vsprintf.c.
 *
 * Supports %d %i %u %x %X %o %p %s %c %%, flags '-' '0' '+' ' ' '#',
 * width and precision (also '*'), and the hh / h / l / ll / z / t length
 * modifiers.  vsnprintf/snprintf always NUL-terminate when size > 0 and
 * return the length the full output would have had (as C99 does).
 * %p prints "0x" and at least 8 lowercase hex digits; %s of NULL
 * prints "(null)".  Linux's symbol extensions name an address through
 * kallsyms: %pS "fib+0x1d/0x3b", %ps "fib", %pB the same for a return
 * address (backtraces).  Any other letters after %p print the address and
 * "(%pX?)".
 *
 * Host build (HOST_BUILD): like include/string.h, the two names that
 * libc also has are renamed to kvsnprintf/ksnprintf so the unit tests
 * can compare ours against the C library's.
 */
#ifndef VSPRINTF_H
#define VSPRINTF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef HOST_BUILD
#define vsnprintf kvsnprintf
#define snprintf  ksnprintf
#endif

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Number parsing for the command line and (later) the console.
 * base 0 picks the base from the prefix: "0x" hex, "0" octal, else
 * decimal; base 16 also skips a "0x" prefix.
 * simple_strto*: parse as far as digits go, *end (if not NULL) points
 * past them; no error reporting, overflow wraps.
 */
unsigned long simple_strtoul(const char *s, char **end, unsigned int base);
long simple_strtol(const char *s, char **end, unsigned int base);
/* Strict: the whole string (one trailing '\n' allowed) must be a number.
 * Returns 0 and sets *res, or -EINVAL (junk) / -ERANGE (too big). */
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
/* The same of s[0..len), s not NUL-terminated (a pseudo-file write's text). */
int kstrntoul(const char *s, size_t len, unsigned int base, unsigned long *res);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtol(const char *s, unsigned int base, long *res);

#endif
