/*
 * test_cpio.c - lib/cpio.c, the newc reader behind the initramfs: names
 * and data of odd sizes and their padding, two archives back to back,
 * and every way a broken or truncated archive is refused.
 */
#include <stdio.h>
#include "ktest_host.h"
#include "cpio.h"
#include "errno.h"

#define ARCHIVE_MAX 4096

/* Append one newc entry to buf at *len (the layout of gen_init_cpio), inode ino with nlink names. */
static void put_linked_entry(unsigned char *buf, size_t *len, const char *name,
			     unsigned int ino, unsigned int nlink, unsigned int mode,
			     const char *data, size_t size)
{
	size_t namesize = strlen(name) + 1;

	*len += sprintf((char *)buf + *len,
			"070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
			ino, mode, 0, 0, nlink, 0, (unsigned int)size, 0, 0, 0, 0,
			(unsigned int)namesize, 0);
	memcpy(buf + *len, name, namesize);
	*len += namesize;
	while (*len % CPIO_ALIGN)
		buf[(*len)++] = 0;
	memcpy(buf + *len, data, size);
	*len += size;
	while (*len % CPIO_ALIGN)
		buf[(*len)++] = 0;
}

static void put_entry(unsigned char *buf, size_t *len, const char *name,
		      unsigned int mode, const char *data, size_t size)
{
	put_linked_entry(buf, len, name, 1, 1, mode, data, size);
}

static size_t sample(unsigned char *buf)
{
	size_t len = 0;

	memset(buf, 0, ARCHIVE_MAX);
	put_entry(buf, &len, "bin", S_IFDIR | 0755, "", 0);
	put_entry(buf, &len, "bin/a", S_IFREG | 0755, "x", 1);		/* 1 byte: 3 of padding */
	put_entry(buf, &len, "etc/motd7", S_IFREG | 0644, "hello, world\n", 13);
	put_entry(buf, &len, CPIO_TRAILER, 0, "", 0);
	return len;
}

static int read_all(const unsigned char *buf, size_t len, int *entries, const char **err)
{
	struct cpio_reader r = { .buf = buf, .len = len };
	struct cpio_entry e;
	int ret;

	*entries = 0;
	while ((ret = cpio_next(&r, &e)) > 0 || (ret == 0 && r.off < r.len))
		*entries += ret;
	*err = r.error;
	return ret;
}

static void odd_sizes_and_padding(struct ktest *t)
{
	unsigned char buf[ARCHIVE_MAX];
	struct cpio_reader r = { .buf = buf, .len = sample(buf) };
	struct cpio_entry e;

	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 1);
	KTEST_EXPECT_STREQ(t, e.name, "bin");
	KTEST_EXPECT_TRUE(t, S_ISDIR(e.mode));
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 1);
	KTEST_EXPECT_STREQ(t, e.name, "bin/a");
	KTEST_EXPECT_EQ(t, e.size, 1);
	KTEST_EXPECT_EQ(t, e.data[0], 'x');
	KTEST_EXPECT_EQ(t, e.mode, S_IFREG | 0755);
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 1);
	KTEST_EXPECT_STREQ(t, e.name, "etc/motd7");
	KTEST_EXPECT_EQ(t, e.size, 13);
	KTEST_EXPECT_TRUE(t, memcmp(e.data, "hello, world\n", 13) == 0);
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 0);	/* the trailer */
	KTEST_EXPECT_EQ(t, r.off, r.len);
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 0);	/* and nothing after it */
}

/* Linux's initramfs may be several archives, with zero padding between. */
static void archives_back_to_back(struct ktest *t)
{
	unsigned char buf[2 * ARCHIVE_MAX];
	size_t one = sample(buf), len;
	const char *err;
	int n;

	memset(buf + one, 0, 8);
	len = one + 8;
	memcpy(buf + len, buf, one);
	len += one;
	KTEST_EXPECT_EQ(t, read_all(buf, len, &n, &err), 0);
	KTEST_EXPECT_EQ(t, n, 6);
}

/* Cut the archive at every length: each cut is refused, none read past the end. */
static void every_truncation_is_refused(struct ktest *t)
{
	unsigned char buf[ARCHIVE_MAX];
	size_t len = sample(buf), cut;
	const char *err;
	int n, refused = 0;

	for (cut = 1; cut < len; cut++) {
		unsigned char *copy = malloc(cut);	/* ASan sees any read past cut */

		memcpy(copy, buf, cut);
		if (read_all(copy, cut, &n, &err) == -EINVAL && err)
			refused++;
		free(copy);
	}
	/* The trailer's own padding is the one cut that loses nothing. */
	KTEST_EXPECT_TRUE(t, refused >= (int)len - 1 - (CPIO_ALIGN - 1));
	KTEST_EXPECT_EQ(t, read_all(buf, len - 100, &n, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err, "truncated") != NULL);
}

static void broken_headers(struct ktest *t)
{
	unsigned char buf[ARCHIVE_MAX];
	size_t len = sample(buf);
	const char *err;
	int n;

	buf[5] = '7';		/* magic 070707: the old binary-ish "odc" format */
	KTEST_EXPECT_EQ(t, read_all(buf, len, &n, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err, "magic") != NULL);
	len = sample(buf);
	buf[6 + 1 * 8] = 'g';	/* the mode field */
	KTEST_EXPECT_EQ(t, read_all(buf, len, &n, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err, "hex") != NULL);
	len = sample(buf);
	memcpy(buf + 6 + 11 * 8, "00000003", 8);	/* namesize 3 for "bin" + NUL */
	KTEST_EXPECT_EQ(t, read_all(buf, len, &n, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err, "NUL") != NULL);
	len = sample(buf);
	memcpy(buf + 6 + 6 * 8, "7FFFFFFF", 8);		/* filesize past the buffer */
	KTEST_EXPECT_EQ(t, read_all(buf, len, &n, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err, "truncated data") != NULL);
	KTEST_EXPECT_EQ(t, read_all(buf, 0, &n, &err), -EINVAL);	/* empty: no trailer */
}

/* Hard links: one ino, nlink names, the bytes once (busybox's applets in /bin). */
/* The header's mtime (field 6): the initramfs gives it to the file, as Linux's do_utime(). */
static void mtime_is_read(struct ktest *t)
{
	unsigned char buf[ARCHIVE_MAX];
	struct cpio_reader r = { .buf = buf };
	struct cpio_entry e;
	size_t len = 0;

	memset(buf, 0, sizeof(buf));
	len = sprintf((char *)buf, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		      1, S_IFREG | 0644, 0, 0, 1, 0x6931e3c0u, 0, 0, 0, 0, 0, 2, 0);
	memcpy(buf + len, "f", 2);
	len = (len + 2 + CPIO_ALIGN - 1) / CPIO_ALIGN * CPIO_ALIGN;
	r.len = len;
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 1);
	KTEST_EXPECT_EQ(t, e.mtime, 0x6931e3c0u);	/* 2025-12-04 */
}

static void hard_links_share_an_ino(struct ktest *t)
{
	unsigned char buf[ARCHIVE_MAX];
	struct cpio_reader r = { .buf = buf };
	struct cpio_entry e;
	size_t len = 0;

	memset(buf, 0, sizeof(buf));
	put_linked_entry(buf, &len, "bin/busybox", 7, 2, S_IFREG | 0755, "ELF", 3);
	put_linked_entry(buf, &len, "bin/sh", 7, 2, S_IFREG | 0755, "", 0);
	put_entry(buf, &len, CPIO_TRAILER, 0, "", 0);
	r.len = len;
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 1);
	KTEST_EXPECT_EQ(t, e.ino, 7);
	KTEST_EXPECT_EQ(t, e.nlink, 2);
	KTEST_EXPECT_EQ(t, e.size, 3);
	KTEST_EXPECT_EQ(t, cpio_next(&r, &e), 1);
	KTEST_EXPECT_STREQ(t, e.name, "bin/sh");
	KTEST_EXPECT_EQ(t, e.ino, 7);
	KTEST_EXPECT_EQ(t, e.nlink, 2);
	KTEST_EXPECT_EQ(t, e.size, 0);
}

static struct ktest_case cases[] = {
	KTEST_CASE(hard_links_share_an_ino),
	KTEST_CASE(mtime_is_read),
	KTEST_CASE(odd_sizes_and_padding),
	KTEST_CASE(archives_back_to_back),
	KTEST_CASE(every_truncation_is_refused),
	KTEST_CASE(broken_headers),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
