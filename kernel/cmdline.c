/*
 * cmdline.c - look up words on the kernel command line.
 * "test" and "test=traps,kprobes" are both words; cmdline_has("test")
 * matches either; cmdline_value("test", buf, len) copies "traps,kprobes"
 * into buf.  The caller owns the buffer, so two values can be held at once.
 */
#include "kernel.h"
#include "string.h"
#include "printk.h"

/* Length of the word starting at s (up to a space or the end). */
static size_t word_len(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ')
		n++;
	return n;
}

/* Find the word whose key (before any '=') is `key`. */
static const char *find_word(const char *key)
{
	const char *s = kernel_cmdline;
	size_t klen = strlen(key);

	while (*s) {
		size_t n = word_len(s);

		if (n >= klen && strncmp(s, key, klen) == 0 &&
		    (n == klen || s[klen] == '='))
			return s;
		s += n;
		while (*s == ' ')
			s++;
	}
	return NULL;
}

bool cmdline_has(const char *word)
{
	return find_word(word) != NULL;
}

bool cmdline_has_value(const char *key)
{
	const char *w = find_word(key);

	return w && w[strlen(key)] == '=';
}

const char *cmdline_value(const char *key, char *buf, size_t len)
{
	const char *w = find_word(key);
	size_t klen = strlen(key), n;

	if (!w || w[klen] != '=' || len == 0)
		return NULL;
	n = word_len(w) - klen - 1;
	if (n >= len) {
		/* A cut value would be another value (a shorter suite list, a smaller number). */
		printk("cmdline: %s= is %u characters, more than the %u read here: ignored\n",
		       key, (unsigned int)n, (unsigned int)(len - 1));
		return NULL;
	}
	memcpy(buf, w + klen + 1, n);
	buf[n] = '\0';
	return buf;
}
