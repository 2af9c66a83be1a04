/*
 * cmdline.c - look up words on the kernel command line.
 * "test" and "test=traps,kprobes" are both words; cmdline_has("test")
 * matches either, cmdline_value("test") returns "traps,kprobes".
 */
#include "kernel.h"
#include "string.h"

#define VALUE_MAX 128

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

const char *cmdline_value(const char *key)
{
	static char value[VALUE_MAX];
	const char *w = find_word(key);
	size_t klen = strlen(key), n;

	if (!w || w[klen] != '=')
		return NULL;
	n = word_len(w) - klen - 1;
	if (n >= sizeof(value))
		n = sizeof(value) - 1;
	memcpy(value, w + klen + 1, n);
	value[n] = '\0';
	return value;
}
