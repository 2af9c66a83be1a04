/*
 * vsprintf.c - printf-style formatting and number parsing, no libc.
 *
 * vsnprintf walks the format once.  Each '%' directive is parsed into a
 * struct spec (flags, width, precision, length) and then converted.
 * Output goes through put(), which counts every character but stores
 * only those that fit: that gives C99's "return the length you would
 * have written" for free.
 */
#include <stdbool.h>
#include <stdint.h>
#include "vsprintf.h"
#include "string.h"
#include "errno.h"
#include "kallsyms.h"

/*
 * %pS and friends name an address through the kernel's symbol table
 * (kernel/kallsyms.c).  Weak: a program linked without one - the host
 * unit tests - prints the bare address instead, as Linux does when it
 * is built without CONFIG_KALLSYMS.
 */
#pragma weak sprint_symbol
#pragma weak sprint_symbol_no_offset
#pragma weak sprint_backtrace

#define KSYM_BUF_LEN 128	/* "name+0xoff/0xsize [module]" */

/* Where the characters go, and how many we have produced so far. */
struct sink {
	char *buf;
	size_t size;
	size_t len;
};

/* One parsed conversion: "%-08.3llx" and friends. */
struct spec {
	bool left;     /* '-': pad on the right */
	bool zero;     /* '0': pad numbers with zeros */
	bool plus;     /* '+': always print a sign */
	bool space;    /* ' ': a space where '+' would be */
	bool alt;      /* '#': 0x prefix for hex, leading 0 for octal */
	bool upper;    /* %X */
	bool ptr;      /* %p: 0x prefix even for a null pointer */
	int width;     /* minimum field width (0: none) */
	int prec;      /* precision, -1 when not given */
	char length;   /* 'H' hh, 'h', 'l', 'L' ll, 'z', 't' or 0 */
};

static void put(struct sink *o, char c)
{
	/* Keep the last byte of buf for the terminating NUL. */
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct sink *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal digits at *fmt, e.g. a width; advances *fmt. */
static int parse_decimal(const char **fmt)
{
	int n = 0;

	while (is_digit(**fmt))
		n = n * 10 + (*(*fmt)++ - '0');
	return n;
}

/* Parse flags, width, precision and length after a '%'. */
static const char *parse_spec(const char *fmt, struct spec *s, va_list *ap)
{
	*s = (struct spec){ .prec = -1 };
	for (;; fmt++) {
		if (*fmt == '-')
			s->left = true;
		else if (*fmt == '0')
			s->zero = true;
		else if (*fmt == '+')
			s->plus = true;
		else if (*fmt == ' ')
			s->space = true;
		else if (*fmt == '#')
			s->alt = true;
		else
			break;
	}

	if (*fmt == '*') {
		/* A negative '*' width means '-' flag plus that width (C99). */
		s->width = va_arg(*ap, int);
		if (s->width < 0) {
			s->left = true;
			s->width = -s->width;
		}
		fmt++;
	} else {
		s->width = parse_decimal(&fmt);
	}

	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			/* A negative '*' precision counts as "not given". */
			s->prec = va_arg(*ap, int);
			if (s->prec < 0)
				s->prec = -1;
			fmt++;
		} else {
			s->prec = parse_decimal(&fmt);
		}
	}

	if (*fmt == 'h' || *fmt == 'l') {
		s->length = *fmt++;
		if (*fmt == s->length) {        /* hh -> 'H', ll -> 'L' */
			s->length = s->length == 'h' ? 'H' : 'L';
			fmt++;
		}
	} else if (*fmt == 'z' || *fmt == 't') {
		s->length = *fmt++;
	}
	return fmt;
}

/*
 * Fetch a signed/unsigned argument of the size the length modifier
 * says.  Smaller types were promoted to int when passed through "...",
 * so hh and h read an int and cut it back down.
 */
static long long arg_signed(va_list *ap, char length)
{
	switch (length) {
	case 'H': return (signed char)va_arg(*ap, int);
	case 'h': return (short)va_arg(*ap, int);
	case 'l': return va_arg(*ap, long);
	case 'L': return va_arg(*ap, long long);
	case 'z': return (ptrdiff_t)va_arg(*ap, size_t);
	case 't': return va_arg(*ap, ptrdiff_t);
	default:  return va_arg(*ap, int);
	}
}

static unsigned long long arg_unsigned(va_list *ap, char length)
{
	switch (length) {
	case 'H': return (unsigned char)va_arg(*ap, unsigned int);
	case 'h': return (unsigned short)va_arg(*ap, unsigned int);
	case 'l': return va_arg(*ap, unsigned long);
	case 'L': return va_arg(*ap, unsigned long long);
	case 'z': return va_arg(*ap, size_t);
	case 't': return (size_t)va_arg(*ap, ptrdiff_t);
	default:  return va_arg(*ap, unsigned int);
	}
}

/*
 * Print |v| in base with sign/prefix, precision zeros and width
 * padding.  The field is: [spaces] sign/0x [zeros] digits [spaces].
 */
static void put_number(struct sink *o, unsigned long long v, bool negative,
		       unsigned int base, const struct spec *s)
{
	const char *set = s->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[24];          /* 2^64 in octal is 22 digits */
	char prefix[2];
	int n = 0, plen = 0;
	int prec = s->prec < 0 ? 1 : s->prec;   /* "%.0d" of 0 prints nothing */

	while (v) {
		digits[n++] = set[v % base];
		v /= base;
	}

	if (negative)
		prefix[plen++] = '-';
	else if (s->plus)
		prefix[plen++] = '+';
	else if (s->space)
		prefix[plen++] = ' ';
	if (base == 16 && s->alt && (n > 0 || s->ptr)) {
		prefix[plen++] = '0';
		prefix[plen++] = s->upper ? 'X' : 'x';
	}
	/* '#' for octal: make sure the first digit printed is a 0. */
	if (base == 8 && s->alt && prec <= n)
		prec = n + 1;

	int zeros = prec > n ? prec - n : 0;
	int spaces = s->width - (plen + zeros + n);

	/* The '0' flag is ignored once a precision is given (C99). */
	if (s->zero && !s->left && s->prec < 0 && spaces > 0) {
		zeros += spaces;
		spaces = 0;
	}
	if (!s->left)
		pad(o, ' ', spaces);
	for (int i = 0; i < plen; i++)
		put(o, prefix[i]);
	pad(o, '0', zeros);
	while (n)
		put(o, digits[--n]);
	if (s->left)
		pad(o, ' ', spaces);
}

/* Print len bytes of str, padded to the field width with spaces. */
static void put_string(struct sink *o, const char *str, size_t len,
		       const struct spec *s)
{
	int spaces = s->width > (int)len ? s->width - (int)len : 0;

	if (!s->left)
		pad(o, ' ', spaces);
	while (len--)
		put(o, *str++);
	if (s->left)
		pad(o, ' ', spaces);
}

/* Plain %p: "0x" and at least 8 hex digits, a full 32-bit address. */
static void put_address(struct sink *o, uintptr_t addr, struct spec *s)
{
	s->plus = s->space = false;
	s->alt = s->ptr = true;
	if (s->prec < 0)
		s->prec = 8;
	put_number(o, addr, false, 16, s);
}

/* The symbol extensions: what prints them (NULL without kallsyms). */
static bool symbol_extension(const char *ext, size_t len,
			     int (**printer)(char *, size_t, unsigned long))
{
	if (len != 1)
		return false;
	switch (*ext) {
	case 'S':
		*printer = sprint_symbol;		/* fib+0x1d/0x3b */
		return true;
	case 's':
		*printer = sprint_symbol_no_offset;	/* fib */
		return true;
	case 'B':
		*printer = sprint_backtrace;		/* the call before a return address */
		return true;
	default:
		return false;
	}
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* After the address: "(%pX?)" for an extension we do not know. */
static void put_unknown_extension(struct sink *o, const char *ext, const char *end)
{
	put(o, '(');
	put(o, '%');
	put(o, 'p');
	while (ext < end)
		put(o, *ext++);
	put(o, '?');
	put(o, ')');
}

/*
 * %p and Linux's extensions, the letters right after the 'p': %pS, %ps
 * and %pB name the address.  As in Linux, every letter and digit after
 * %p belongs to the directive; one we do not know prints the address and
 * then "(%pX?)", so the mistake shows instead of a stray letter.
 * Returns the format position after the directive.
 */
static const char *put_pointer(struct sink *o, const char *fmt, struct spec *s,
			       uintptr_t addr)
{
	int (*printer)(char *, size_t, unsigned long) = NULL;
	const char *ext = fmt;
	char sym[KSYM_BUF_LEN];
	int n;

	while (is_alnum(*fmt))
		fmt++;
	if (fmt - ext == 1 && *ext == 'x') {
		/* Linux's %px: the raw address, 8 hex digits, no "0x". */
		s->plus = s->space = s->alt = false;
		if (s->prec < 0)
			s->prec = 8;
		put_number(o, addr, false, 16, s);
	} else if (!symbol_extension(ext, fmt - ext, &printer)) {
		put_address(o, addr, s);
		if (fmt != ext)
			put_unknown_extension(o, ext, fmt);
	} else if (!printer) {
		put_address(o, addr, s);	/* no symbol table linked in */
	} else {
		n = printer(sym, sizeof(sym), addr);
		put_string(o, sym, n < (int)sizeof(sym) ? (size_t)n : sizeof(sym) - 1, s);
	}
	return fmt;
}

/* Do the conversion *fmt; returns the format position after it. */
static const char *convert(struct sink *o, const char *fmt, struct spec *s,
			   va_list *ap)
{
	long long sv;
	const char *str;
	char c;

	switch (*fmt) {
	case 'd':
	case 'i':
		sv = arg_signed(ap, s->length);
		/* Negate as unsigned so LLONG_MIN does not overflow. */
		put_number(o, sv < 0 ? -(unsigned long long)sv : (unsigned long long)sv,
			   sv < 0, 10, s);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		s->plus = s->space = false;     /* signs are for %d only */
		s->upper = *fmt == 'X';
		put_number(o, arg_unsigned(ap, s->length), false,
			   *fmt == 'o' ? 8 : *fmt == 'u' ? 10 : 16, s);
		break;
	case 'p':
		return put_pointer(o, fmt + 1, s, (uintptr_t)va_arg(*ap, void *));
	case 's':
		str = va_arg(*ap, const char *);
		if (!str)
			str = "(null)";
		/* strnlen: with a precision, str need not be terminated. */
		put_string(o, str, s->prec < 0 ? strlen(str) : strnlen(str, s->prec), s);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_string(o, &c, 1, s);
		break;
	case '%':
		put(o, '%');
		break;
	case '\0':
		put(o, '%');          /* a lone '%' ends the format */
		return fmt;
	default:
		put(o, '%');          /* unknown: show it, don't eat an argument */
		put(o, *fmt);
		break;
	}
	return fmt + 1;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink o = { .buf = buf, .size = size, .len = 0 };
	struct spec s;
	va_list args;

	/* A copy we can pass by address (va_list may be an array type). */
	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &s, &args);
		fmt = convert(&o, fmt, &s, &args);
	}
	va_end(args);

	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- number parsing ------------------------------------------------------- */

#define ULONG_MAX_ ((unsigned long)-1)
#define LONG_MAX_  ((long)(ULONG_MAX_ >> 1))

/* Value of c as a digit (0-9, a-z, A-Z), or 99 when it is none. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* Pick the base for base 0 and skip a "0x" prefix; like Linux, "0x"
 * only counts as a prefix when a hex digit follows it. */
static const char *fixup_base(const char *s, unsigned int *base)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		   digit_value(s[2]) < 16;

	if (*base == 0)
		*base = hex ? 16 : s[0] == '0' ? 8 : 10;
	if (*base == 16 && hex)
		s += 2;
	return s;
}

/*
 * Accumulate digits of base at s into *res.  Returns the position after
 * the last digit and sets *overflow if the value did not fit 64 bits.
 */
static const char *parse_digits(const char *s, unsigned int base,
				unsigned long long *res, bool *overflow)
{
	unsigned long long v = 0;
	unsigned int d;

	*overflow = false;
	for (; (d = digit_value(*s)) < base; s++) {
		if (v > (~0ULL - d) / base)
			*overflow = true;
		v = v * base + d;
	}
	*res = v;
	return s;
}

unsigned long simple_strtoul(const char *s, char **end, unsigned int base)
{
	unsigned long long v;
	bool overflow;

	s = fixup_base(s, &base);
	s = parse_digits(s, base, &v, &overflow);
	if (end)
		*end = (char *)s;
	return (unsigned long)v;
}

long simple_strtol(const char *s, char **end, unsigned int base)
{
	/* Negate as unsigned: -LONG_MIN would overflow a long. */
	if (*s == '-')
		return (long)-simple_strtoul(s + 1, end, base);
	return (long)simple_strtoul(s, end, base);
}

/* The strict core: digits, then nothing but an optional '\n'. */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	const char *end;
	bool overflow;

	s = fixup_base(s, &base);
	end = parse_digits(s, base, res, &overflow);
	if (end == s)
		return -EINVAL;                 /* no digits at all */
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;                 /* junk after the number */
	return overflow ? -ERANGE : 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err = kstrtoull(*s == '+' ? s + 1 : s, base, &v);

	if (err)
		return err;
	if (v > ULONG_MAX_)
		return -ERANGE;
	*res = (unsigned long)v;
	return 0;
}

/*
 * kstrtoul() of the first len bytes of s, which need not end in a NUL:
 * what a pseudo-file's write hands over (Linux's kstrtoul_from_user()
 * copies the user's bytes into a small buffer the same way).  Text too
 * long to be a number is -EINVAL, never cut to fit.
 */
int kstrntoul(const char *s, size_t len, unsigned int base, unsigned long *res)
{
	char buf[24];

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return kstrtoul(buf, base, res);
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	unsigned long long v;
	bool negative = *s == '-';
	int err = kstrtoull(*s == '-' || *s == '+' ? s + 1 : s, base, &v);

	if (err)
		return err;
	/* LONG_MIN's magnitude is one more than LONG_MAX. */
	if (v > (unsigned long long)LONG_MAX_ + negative)
		return -ERANGE;
	*res = negative ? (long)-v : (long)v;
	return 0;
}
