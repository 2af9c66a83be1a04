/*
 * initramfs.c - the root filesystem's first files (Linux's
 * init/initramfs.c).
 *
 * The boot loader hands the kernel an archive as a Multiboot module
 * (QEMU's -initrd, GRUB's `module`): a newc cpio, the format Linux's
 * initramfs has used since 2.6.  We read it with lib/cpio.c and make
 * each directory and regular file in the ramfs.  Before it, as Linux
 * unpacks its built-in initramfs before the boot loader's, come the
 * programs built into the kernel image, as /bin/NAME: an archive's
 * file of the same name replaces the built-in one.
 *
 * An archive is read twice: once to check every header, then to make
 * the files.  A truncated archive is refused whole, and the
 * filesystem keeps what it had (Linux would stop halfway, with the
 * files before the damage made, and panic if there is no init).
 */
#include "kernel.h"
#include "initramfs.h"
#include "ramfs.h"
#include "cpio.h"
#include "multiboot.h"
#include "process.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"

#define BIN_DIR		"/bin"
#define BIN_MODE	0755
/* Where tracefs and debugfs are mounted on Linux: directories here too. */
static const char *const mount_points[] = {
	"/sys", "/sys/kernel", "/sys/kernel/tracing", "/sys/kernel/debug", "/tmp",
};

/* Pass 1: is every entry, up to a trailer, whole? */
static int check_archive(const unsigned char *buf, size_t len, const char **why)
{
	struct cpio_reader r = { .buf = buf, .len = len };
	struct cpio_entry e;
	int ret;

	while ((ret = cpio_next(&r, &e)) > 0 || (ret == 0 && r.off < r.len))
		;
	*why = r.error;
	return ret;
}

/* "./bin/a", "bin/a" and "/bin/a" are all /bin/a; "." is the root. */
static int entry_path(const char *name, char *path, size_t size)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (name[0] == '/')
		name++;
	if ((size_t)snprintf(path, size, "/%s", name) >= size)
		return -ENAMETOOLONG;
	return 0;
}

static int make_file(const char *path, const struct cpio_entry *e)
{
	struct inode *inode;
	long ret = ramfs_create(path, e->mode, false, &inode);

	if (ret)
		return ret;
	ret = ramfs_write(inode, e->data, e->size, 0);
	iput(inode);
	return ret < 0 ? ret : 0;
}

/* Pass 2: make one entry. */
static int make_entry(const struct cpio_entry *e, struct initramfs_stats *st)
{
	char path[PATH_MAX];
	int ret = entry_path(e->name, path, sizeof(path));

	if (ret)
		return ret;
	if (strcmp(path, "/") == 0 || strcmp(path, "/.") == 0)
		return 0;
	if (S_ISDIR(e->mode)) {
		ret = ramfs_mkdir(path, e->mode);
		st->dirs++;
		return ret == -EEXIST ? 0 : ret;
	}
	if (S_ISREG(e->mode)) {
		st->files++;
		return make_file(path, e);
	}
	st->skipped++;
	return 0;
}

int unpack_to_rootfs(const unsigned char *buf, size_t len,
		     struct initramfs_stats *st, const char **why)
{
	struct cpio_reader r = { .buf = buf, .len = len };
	struct cpio_entry e;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = check_archive(buf, len, why);
	if (ret)
		return ret;
	while ((ret = cpio_next(&r, &e)) > 0 || (ret == 0 && r.off < r.len)) {
		if (ret > 0 && make_entry(&e, st) < 0) {
			*why = "a file could not be made (no memory, or a name clash)";
			return -ENOMEM;
		}
	}
	return 0;
}

/* Every program of the kernel image as /bin/NAME, its bytes the image's own. */
static void populate_builtin_programs(void)
{
	char path[PATH_MAX];
	struct inode *inode;
	unsigned long i;

	for (i = 0; i < nr_user_programs; i++) {
		snprintf(path, sizeof(path), BIN_DIR "/%s", user_programs[i].name);
		if (ramfs_create(path, S_IFREG | BIN_MODE, false, &inode))
			panic("initramfs: cannot make %s", path);
		ramfs_borrow(inode, user_programs[i].elf, user_programs[i].size);
		iput(inode);
	}
}

static bool is_cpio(const struct boot_module *m)
{
	return m->end - m->start >= CPIO_MAGIC_LEN &&
	       memcmp((void *)m->start, CPIO_NEWC_MAGIC, CPIO_MAGIC_LEN - 1) == 0;
}

void populate_rootfs(void)
{
	struct initramfs_stats st;
	const char *why;
	unsigned long i;
	int m;

	ramfs_init();
	for (i = 0; i < ARRAY_SIZE(mount_points); i++)
		ramfs_mkdir(mount_points[i], BIN_MODE);
	ramfs_mkdir(BIN_DIR, BIN_MODE);
	populate_builtin_programs();
	for (m = 0; m < nr_boot_modules; m++) {
		const struct boot_module *bm = &boot_modules[m];

		if (!is_cpio(bm))
			continue;	/* a .ko for insmod */
		if (unpack_to_rootfs((void *)bm->start, bm->end - bm->start, &st, &why))
			printk("initramfs: %s refused: %s; the filesystem is unchanged\n",
			       bm->name, why);
		else
			printk("initramfs: %s: %d files, %d directories unpacked\n",
			       bm->name, st.files, st.dirs);
	}
}
