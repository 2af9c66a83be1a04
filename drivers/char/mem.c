/*
 * mem.c - the memory devices of /dev (Linux's drivers/char/mem.c):
 * null, zero, full, random and urandom.  Each is a pseudofs file below
 * devtmpfs's root that opens itself: open(2) gets a struct file whose
 * read and write are the device's, with no text behind them.
 *
 *   /dev/null     reads end of file, swallows every write
 *   /dev/zero     reads zero bytes, swallows every write
 *   /dev/full     reads zero bytes, every write is -ENOSPC (a full disk)
 *   /dev/urandom  reads the kernel's random bytes (kernel/random.c);
 *   /dev/random   the same, as on Linux since 5.6, which no longer blocks
 */
#include "kernel.h"
#include "pseudofs.h"
#include "mount.h"
#include "fs.h"
#include "uaccess.h"
#include "random.h"
#include "string.h"
#include "vsprintf.h"
#include "printk.h"
#include "mm.h"
#include "devtmpfs.h"
#include "errno.h"

#define CHR_DEV_MODE	(S_IFCHR | 0666)	/* what fstat says: everyone reads and writes */
#define MEM_CHUNK	256			/* bytes handed out per copy */

static long read_null(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	return 0;
}

static long write_null(struct file *f, const char __user *buf, size_t count, loff_t *pos)
{
	return count;
}

static long write_full(struct file *f, const char __user *buf, size_t count, loff_t *pos)
{
	return -ENOSPC;
}

/* count bytes of fill(chunk) to the user, a chunk at a time. */
static long read_filled(char __user *buf, size_t count, void (*fill)(char *, size_t))
{
	char chunk[MEM_CHUNK];
	size_t done, n;

	for (done = 0; done < count; done += n) {
		n = count - done < sizeof(chunk) ? count - done : sizeof(chunk);
		fill(chunk, n);
		if (copy_to_user(buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
	}
	return count;
}

static void fill_zero(char *chunk, size_t n)
{
	memset(chunk, 0, n);
}

static long read_zero(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	return read_filled(buf, count, fill_zero);
}

static void fill_random(char *chunk, size_t n)
{
	get_random_bytes(chunk, n);
}

static long read_urandom(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	return read_filled(buf, count, fill_random);
}

static const struct file_operations null_fops = { .read = read_null, .write = write_null };
static const struct file_operations zero_fops = { .read = read_zero, .write = write_null };
static const struct file_operations full_fops = { .read = read_zero, .write = write_full };
/* Linux mixes what is written into the pool; here the pool does not take input. */
static const struct file_operations urandom_fops = { .read = read_urandom, .write = write_null };

/* open(2) of a device: a new struct file with the device's operations (data). */
static struct file *chr_dev_open(const struct pseudo_file *pf, void *data,
				 unsigned int flags, int *err)
{
	struct file *f = alloc_file(data, flags, NULL);	/* data: its operations */

	*err = -ENOMEM;
	if (f)
		f->f_mode = CHR_DEV_MODE;
	return f;
}

/* Reading a device with cat at the shell: what a read(2) of it starts with. */
static int chr_dev_show(struct seq_buf *s, void *data)
{
	return 0;
}

/* Linux's devlist: name, operations. */
static const struct {
	const char *name;
	const struct file_operations *fops;
} devlist[] = {
	{ "null", &null_fops },
	{ "zero", &zero_fops },
	{ "full", &full_fops },
	{ "random", &urandom_fops },
	{ "urandom", &urandom_fops },
};

int devtmpfs_create_opener(const char *name,
			   struct file *(*open)(const struct pseudo_file *pf, void *data,
						unsigned int flags, int *err),
			   void *data)
{
	char path[PSEUDOFS_PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", DEVTMPFS_ROOT, name) >= sizeof(path))
		return -EINVAL;
	return pseudofs_create_opener(path, chr_dev_show, open, data);
}

void chr_dev_init(void)
{
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(devlist) && !ret; i++)
		ret = devtmpfs_create_opener(devlist[i].name, chr_dev_open, (void *)devlist[i].fops);
	if (ret)
		printk("mem: cannot make /dev's devices (%d)\n", ret);
}
