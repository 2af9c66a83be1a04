/*
 * glob.h - shell-style wildcard matching (lib/glob.c), Linux's glob_match().
 */
#ifndef GLOB_H
#define GLOB_H

#include <stddef.h>
#include <stdbool.h>

/* Does str match the glob pat?  * ? [set] [a-z] [!set], and \ to take the next character as it is. */
bool glob_match(const char *pat, const char *str);

/* The same for a string of len bytes that need not end in a NUL (a record's field). */
bool glob_match_len(const char *pat, const char *str, size_t len);

#endif
