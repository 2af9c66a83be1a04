/*
 * glob.c - shell-style wildcard matching, Linux's lib/glob.c: the one
 * matcher behind the event filters' `~`, set_ftrace_filter and the
 * shell's `syms` (host-tested by tests/host/test_glob.c).
 *
 *   *      any run of characters, the empty one too
 *   ?      any one character
 *   [set]  one character of the set: [abc], ranges [a-z], [!set] for
 *          "not"; a ']' first is in the set; an unclosed '[' is itself
 *   \c     the character c as it is
 *
 * No recursion: a failed match after a '*' goes back to that star and
 * lets it take one more character, so a pattern costs at most
 * (pattern length x string length) steps on the kernel's small stacks.
 */
#include <stddef.h>
#include <stdbool.h>
#include "string.h"
#include "glob.h"

/* Match one [set] at *pat against c; *pat is left after the ']'. */
static bool class_match(const char **pat, unsigned char c)
{
	const char *p = *pat;
	bool inverted = *p == '!', match = false;

	p += inverted;
	do {
		unsigned char a = *p++, b = a;

		if (p[0] == '-' && p[1] != ']' && p[1]) {
			b = p[1];
			p += 2;
		}
		match |= a <= c && c <= b;
	} while (*p && *p != ']');
	*pat = *p ? p + 1 : p;
	return match != inverted;
}

/* Is [ at pat closed?  An unclosed one is an ordinary character. */
static bool class_closed(const char *pat)
{
	pat += *pat == '!';
	if (*pat)
		pat++;			/* a first ']' belongs to the set */
	while (*pat && *pat != ']')
		pat++;
	return *pat == ']';
}

bool glob_match_len(const char *pat, const char *str, size_t len)
{
	const char *back_pat = NULL, *back_str = str, *end = str + len;

	for (;;) {
		unsigned char c = str < end ? *str : '\0';
		unsigned char d = *pat++;
		bool ok;

		str++;
		switch (d) {
		case '?':
			ok = c != '\0';
			break;
		case '*':
			if (!*pat)
				return true;
			back_pat = pat;
			back_str = --str;	/* * may match nothing */
			continue;
		case '[':
			ok = class_closed(pat) ? c && class_match(&pat, c) : c == d;
			break;
		case '\\':
			if (*pat)
				d = *pat++;
			/* fall through */
		default:
			if (c == d && !d)
				return true;
			ok = c == d;
		}
		if (ok)
			continue;
		if (!c || !back_pat)
			return false;
		pat = back_pat;		/* let the last * take one more character */
		str = ++back_str;
	}
}

bool glob_match(const char *pat, const char *str)
{
	return glob_match_len(pat, str, strlen(str));
}
