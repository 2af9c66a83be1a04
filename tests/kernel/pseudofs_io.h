/*
 * pseudofs_io.h - what the tracing suites do to a file of /sys: read
 * it whole into a buffer, write a string to it.  The same two calls
 * the shell's cat and echo make (fs/pseudofs.c), without the shell.
 */
#ifndef TESTS_PSEUDOFS_IO_H
#define TESTS_PSEUDOFS_IO_H

#include "pseudofs.h"
#include "string.h"

/* Read path into buf (NUL-terminated); the file's read result. */
static inline int pseudofs_read_into(const char *path, char *buf, size_t size)
{
	struct seq_buf s;

	seq_buf_init(&s, buf, size);
	return pseudofs_read(path, &s);
}

/* Write text to path: trunc as `>`, else appended as `>>`. */
static inline int pseudofs_write_str(const char *path, const char *text, bool trunc)
{
	return pseudofs_write(path, text, strlen(text), trunc);
}

#endif
