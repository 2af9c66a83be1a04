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
 * file of the same name replaces the built-in one, and so does one in
 * another directory of the PATH (unshadow_builtin()).
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
#include "binfmts.h"	/* kbasename() */
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include "mm.h"
#include "ktime.h"

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

/*
 * Hard links: names sharing an ino (nlink > 1) are one file.  The
 * ramfs has no links, so each name is a file of its own whose bytes
 * are the first name's (the one that carries the data, as
 * scripts/gen_initramfs.py writes them): busybox's 300 applets cost
 * one copy of busybox, not 300.
 */
#define MAX_LINK_GROUPS	16

struct unpack_state {
	bool borrow;		/* the archive stays in memory: files use its bytes */
	struct initramfs_stats *st;
	int nr_groups;
	struct { uint32_t ino; const unsigned char *data; uint32_t size; } group[MAX_LINK_GROUPS];
};

/* The bytes of e's file: its own, or its link group's first name's. */
static int link_data(struct unpack_state *u, struct cpio_entry *e)
{
	int i;

	if (e->nlink < 2)
		return 0;
	for (i = 0; i < u->nr_groups; i++) {
		if (u->group[i].ino == e->ino) {
			e->data = u->group[i].data;
			e->size = u->group[i].size;
			u->st->links++;
			return 0;
		}
	}
	if (u->nr_groups == MAX_LINK_GROUPS)
		return -ENOMEM;
	u->group[u->nr_groups].ino = e->ino;
	u->group[u->nr_groups].data = e->data;
	u->group[u->nr_groups++].size = e->size;
	return 0;
}

/* Directories of a Linux shell's default PATH besides /bin (busybox's: /sbin:/usr/sbin:/bin:/usr/bin). */
static const char *const path_dirs[] = { "/sbin", "/usr/sbin", "/usr/bin" };

static int is_builtin_bytes(const unsigned char *data, size_t size, void *arg)
{
	const struct user_program *p = arg;

	return data == p->elf && size == p->size;
}

/*
 * An archive's program NAME in another directory of the PATH (busybox's
 * wc is /usr/bin/wc) would be shadowed by the built-in /bin/NAME, which
 * a shell searching /bin first runs instead: `echo a | wc -l` printed
 * the built-in wc's three counts.  No Linux system has that /bin/NAME,
 * so the built-in goes, as an archive's /bin/NAME replaces it.
 */
static void unshadow_builtin(const char *path)
{
	const char *name = kbasename(path);
	const struct user_program *p = find_user_program(name);
	char bin[PATH_MAX];
	struct inode *inode;
	bool builtin;

	for (size_t i = 0; p && i < ARRAY_SIZE(path_dirs); i++) {
		size_t n = strlen(path_dirs[i]);

		if (strncmp(path, path_dirs[i], n) || path + n + 1 != name)
			continue;
		snprintf(bin, sizeof(bin), BIN_DIR "/%s", name);
		if (ramfs_lookup(bin, &inode))
			return;
		builtin = ramfs_with_data(inode, is_builtin_bytes, (void *)p);
		iput(inode);
		if (builtin)
			ramfs_unlink(bin);
		return;
	}
}

/* The archive's mtime, as Linux's do_utime() sets it: atime and mtime both. */
static void set_entry_times(struct inode *inode, const struct cpio_entry *e)
{
	int64_t ns = (int64_t)e->mtime * NSEC_PER_SEC;

	ramfs_set_times(inode, &ns, &ns);
}

/*
 * A directory's time is set after the whole archive is unpacked (Linux's
 * dir_utime()): every name made in it meanwhile moved its mtime.
 */
static void set_dir_times(const unsigned char *buf, size_t len)
{
	struct cpio_reader r = { .buf = buf, .len = len };
	struct cpio_entry e;
	struct inode *inode;
	char path[PATH_MAX];

	while (cpio_next(&r, &e) > 0)
		if (S_ISDIR(e.mode) && entry_path(e.name, path, sizeof(path)) == 0 &&
		    ramfs_lookup(path, &inode) == 0) {
			set_entry_times(inode, &e);
			iput(inode);
		}
}

static int make_file(const char *path, struct cpio_entry *e, struct unpack_state *u)
{
	struct inode *inode;
	long ret = link_data(u, e);

	if (!ret)
		ret = ramfs_create(path, e->mode, false, &inode);
	if (ret)
		return ret;
	if (u->borrow)
		ramfs_borrow(inode, e->data, e->size);	/* copied only if written */
	else
		ret = ramfs_write(inode, e->data, e->size, 0);
	set_entry_times(inode, e);
	iput(inode);
	return ret < 0 ? ret : 0;
}

/* A symbolic link: its text is the entry's data, with no NUL (Linux's do_symlink()). */
static int make_symlink(const char *path, const struct cpio_entry *e)
{
	char *target;
	int ret;

	if (e->size == 0 || e->size >= PATH_MAX)
		return -ENAMETOOLONG;
	target = kmalloc(e->size + 1);
	if (!target)
		return -ENOMEM;
	memcpy(target, e->data, e->size);
	target[e->size] = '\0';
	ret = ramfs_symlink(path, target);
	kfree(target);
	return ret;
}

/* Pass 2: make one entry. */
static int make_entry(struct cpio_entry *e, struct unpack_state *u)
{
	struct initramfs_stats *st = u->st;
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
		unshadow_builtin(path);
		return make_file(path, e, u);
	}
	if (S_ISLNK(e->mode)) {
		st->symlinks++;
		return make_symlink(path, e);
	}
	st->skipped++;
	return 0;
}

static int unpack_entries(const unsigned char *buf, size_t len, struct unpack_state *u,
			  const char **why)
{
	struct cpio_reader r = { .buf = buf, .len = len };
	struct cpio_entry e;
	int ret = check_archive(buf, len, why);

	if (ret)
		return ret;
	while ((ret = cpio_next(&r, &e)) > 0 || (ret == 0 && r.off < r.len)) {
		if (ret > 0 && make_entry(&e, u) < 0) {
			*why = "a file could not be made (no memory, or a name clash)";
			return -ENOMEM;
		}
	}
	set_dir_times(buf, len);
	return 0;
}

/* borrow: the archive outlives the files (a boot module), which use its bytes. */
static int unpack_archive(const unsigned char *buf, size_t len, struct initramfs_stats *st,
			  const char **why, bool borrow)
{
	struct unpack_state *u = kzalloc(sizeof(*u));
	int ret;

	memset(st, 0, sizeof(*st));
	if (!u) {
		*why = "no memory";
		return -ENOMEM;
	}
	u->borrow = borrow;
	u->st = st;
	ret = unpack_entries(buf, len, u, why);
	kfree(u);
	return ret;
}

/* An archive that may go away afterwards: every file gets a copy of its bytes. */
int unpack_to_rootfs(const unsigned char *buf, size_t len,
		     struct initramfs_stats *st, const char **why)
{
	return unpack_archive(buf, len, st, why, false);
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
		/* A module's memory stays reserved: its files borrow their bytes. */
		if (unpack_archive((void *)bm->start, bm->end - bm->start, &st, &why, true))
			printk("initramfs: %s refused: %s; the filesystem is unchanged\n",
			       bm->name, why);
		else
			printk("initramfs: %s: %d files, %d directories unpacked\n",
			       bm->name, st.files, st.dirs);
		if (st.links)
			printk("initramfs: %d of those files are hard links, sharing their bytes\n",
			       st.links);
	}
}
