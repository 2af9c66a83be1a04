/*
 * cpio.h - the "newc" cpio archive, the format of Linux's initramfs
 * (Documentation/driver-api/early-userspace/buffer-format.rst), read by
 * lib/cpio.c.  Pure: no allocation, so the host tests feed it broken
 * archives.
 *
 * An archive is a list of entries, each
 *
 *   "070701"  then 13 fields of 8 hex digits: ino mode uid gid nlink
 *             mtime filesize devmajor devminor rdevmajor rdevminor
 *             namesize check                    (110 bytes in all)
 *   the name, namesize bytes with its NUL, padded to 4 bytes
 *   the data, filesize bytes, padded to 4 bytes
 *
 * and ends with an entry named "TRAILER!!!".  Linux accepts "070702"
 * too (the same with a checksum of the data in `check`) and zero bytes
 * between archives.
 */
#ifndef CPIO_H
#define CPIO_H

#include <stddef.h>
#include <stdint.h>

#define CPIO_NEWC_MAGIC		"070701"
#define CPIO_NEWC_CRC_MAGIC	"070702"
#define CPIO_MAGIC_LEN		6
#define CPIO_FIELD_LEN		8	/* hex digits per header field */
#define CPIO_NR_FIELDS		13
#define CPIO_HEADER_LEN		(CPIO_MAGIC_LEN + CPIO_NR_FIELDS * CPIO_FIELD_LEN)
#define CPIO_ALIGN		4	/* name and data each end on a 4-byte boundary */
#define CPIO_TRAILER		"TRAILER!!!"

/* The mode bits of an entry: Linux's S_IFMT values (include/uapi/linux/stat.h). */
#define S_IFMT		0170000
#define S_IFSOCK	0140000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFBLK		0060000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#define S_ISVTX		0001000	/* sticky: only a name's owner may remove it from the directory */

/* One entry, pointing into the archive (name is NUL-terminated there). */
struct cpio_entry {
	const char *name;
	uint32_t ino;		/* names with one ino and nlink > 1 are hard links of one file */
	uint32_t nlink;
	uint32_t mode;
	uint32_t mtime;		/* seconds since the epoch */
	const unsigned char *data;
	uint32_t size;
};

/* Where the reader is, and why it stopped. */
struct cpio_reader {
	const unsigned char *buf;
	size_t len, off;
	const char *error;	/* set with -EINVAL */
	int trailer_seen;	/* the last entry read was TRAILER!!! */
};

/*
 * The entry at r->off, and r->off moved past it: 1.  0 at a trailer,
 * and at the end of the buffer if a trailer came last.  -EINVAL if the
 * header is not newc, a number is not hex, the name or data runs past
 * the buffer, or the buffer ends with no trailer (a truncated archive):
 * r->error says which.  Start with the reader zeroed but buf and len.
 */
int cpio_next(struct cpio_reader *r, struct cpio_entry *e);

#endif
