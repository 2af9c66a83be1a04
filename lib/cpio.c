/*
 * cpio.c - read a newc cpio archive, entry by entry (the parser in
 * Linux's init/initramfs.c, as a pure function: init/initramfs.c
 * creates the files).
 *
 * Every size comes from the archive, so every size is checked against
 * the buffer before anything is read: a truncated archive ends in
 * -EINVAL, never in a read past its end.
 */
#include <stdbool.h>
#include "cpio.h"
#include "errno.h"
#include "string.h"

/* Header fields, in order (after the magic). */
enum { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_DEVMAJOR,
       F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK };

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Field i of the header at h: 8 hex digits, no sign, no spaces. */
static bool field(const unsigned char *h, int i, uint32_t *val)
{
	const unsigned char *p = h + CPIO_MAGIC_LEN + i * CPIO_FIELD_LEN;
	uint32_t v = 0;
	int k, d;

	for (k = 0; k < CPIO_FIELD_LEN; k++) {
		d = hexval(p[k]);
		if (d < 0)
			return false;
		v = v << 4 | d;
	}
	*val = v;
	return true;
}

static size_t align_up(size_t n)
{
	return (n + CPIO_ALIGN - 1) & ~(size_t)(CPIO_ALIGN - 1);
}

static int fail(struct cpio_reader *r, const char *why)
{
	r->error = why;
	return -EINVAL;
}

/* Zero bytes between archives, as Linux's unpacker skips them. */
static void skip_padding(struct cpio_reader *r)
{
	while (r->off < r->len && r->buf[r->off] == 0)
		r->off++;
}

int cpio_next(struct cpio_reader *r, struct cpio_entry *e)
{
	const unsigned char *h;
	uint32_t namesize, filesize;
	size_t name_end, data_end;

	skip_padding(r);
	if (r->off == r->len)
		return r->trailer_seen ? 0 : fail(r, "no TRAILER!!!: truncated archive");
	r->trailer_seen = 0;
	if (r->len - r->off < CPIO_HEADER_LEN)
		return fail(r, "truncated header");
	h = r->buf + r->off;
	if (memcmp(h, CPIO_NEWC_MAGIC, CPIO_MAGIC_LEN) != 0 &&
	    memcmp(h, CPIO_NEWC_CRC_MAGIC, CPIO_MAGIC_LEN) != 0)
		return fail(r, "not a newc cpio header (magic 070701)");
	if (!field(h, F_INO, &e->ino) || !field(h, F_NLINK, &e->nlink) ||
	    !field(h, F_MODE, &e->mode) || !field(h, F_MTIME, &e->mtime) ||
	    !field(h, F_FILESIZE, &filesize) ||
	    !field(h, F_NAMESIZE, &namesize))
		return fail(r, "a header field is not hex");
	if (namesize == 0 || namesize > r->len - r->off - CPIO_HEADER_LEN)
		return fail(r, "truncated name");
	name_end = align_up(r->off + CPIO_HEADER_LEN + namesize);
	if (h[CPIO_HEADER_LEN + namesize - 1] != '\0')
		return fail(r, "name not NUL-terminated");
	if (name_end > r->len || filesize > r->len - name_end)
		return fail(r, "truncated data");
	data_end = name_end + filesize;
	e->name = (const char *)h + CPIO_HEADER_LEN;
	e->data = r->buf + name_end;
	e->size = filesize;
	/* The last entry's data padding may be cut off by the buffer's end. */
	r->off = align_up(data_end) < r->len ? align_up(data_end) : r->len;
	if (strcmp(e->name, CPIO_TRAILER) == 0) {
		r->trailer_seen = 1;
		return 0;
	}
	return 1;
}
