/*
 * tracefs_suite.h - the four moves every tracefs suite makes, as a
 * user at the shell makes them: `cat FILE` (rd: the whole file into
 * out), `echo TEXT > FILE` (wr), `echo TEXT >> FILE` (wr_append), and
 * `grep -c` of what came back (count).  Include it once per suite:
 * each suite gets its own out buffer.
 */
#ifndef TESTS_TRACEFS_SUITE_H
#define TESTS_TRACEFS_SUITE_H

#include "pseudofs_io.h"

#define TRACEFS_SUITE_OUT_SIZE 16384

static char out[TRACEFS_SUITE_OUT_SIZE];

static inline int rd(const char *path)
{
	return pseudofs_read_into(path, out, sizeof(out));
}

static inline int wr(const char *path, const char *text)
{
	return pseudofs_write_str(path, text, true);
}

static inline int wr_append(const char *path, const char *text)
{
	return pseudofs_write_str(path, text, false);
}

/* How many times needle occurs in text, matches not overlapping. */
static inline int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

#endif
