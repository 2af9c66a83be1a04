/*
 * mounttest - mount(2), umount2(2), /proc and /dev checked from ring 3
 * (docs/procfs.md): tracefs mounted a second time elsewhere shows the
 * same files, each refusal has Linux's errno, /proc/self is the reader,
 * /proc/PID/cmdline is argv from the process's stack, /proc/kallsyms is read whole, getdents64 lists /proc, /dev and
 * tracefs directories, /dev/null and /dev/zero behave.  One
 * line per check, "ok NAME" or "FAIL NAME: got X want Y"; the suite
 * "procfs" counts them.
 */
#include "ucheck.h"

#define MS_RDONLY	1
#define MS_BIND		0x1000
#define MNT_DETACH	2
#define KERNEL_TEXT	0x00100000ul	/* mapped, supervisor-only: -EFAULT */
#define MNT		"/tmp/mnt"
#define BIG		8192

/* Read a whole file into buf (size bytes at most): its length or -errno. */
static long slurp(const char *path, char *buf, long size)
{
	long fd = open(path, O_RDONLY), n, len = 0;

	if (fd < 0)
		return fd;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fd);
	return len;
}

static void mounts(void)
{
	static char buf[BIG];

	check("mkdir_mount_point", mkdir(MNT, 0755), 0);
	check("mount_tracefs", mount("nodev", MNT, "tracefs", 0, NULL), 0);
	check("tracefs_file_there", slurp(MNT "/tracing_on", buf, sizeof(buf)), 2);
	check("tracefs_same_twice_ebusy", mount("nodev", MNT, "tracefs", 0, NULL), -EBUSY);
	slurp("/proc/mounts", buf, sizeof(buf));
	check("proc_mounts_lists_it",
	      strstr(buf, "nodev " MNT " tracefs rw,relatime 0 0\n") != NULL, 1);
	check("umount2", umount2(MNT, 0), 0);
	check("gone_after_umount", open(MNT "/tracing_on", O_RDONLY), -ENOENT);
	check("umount_not_mounted_einval", umount(MNT), -EINVAL);
	check("mount_unknown_type_enodev", mount("x", MNT, "ext9", 0, NULL), -ENODEV);
	check("mount_no_dir_enoent", mount("x", "/no/such", "proc", 0, NULL), -ENOENT);
	check("mount_on_file_enotdir", mount("x", "/proc/version", "proc", 0, NULL), -ENOTDIR);
	check("mount_bind_einval", mount("/sys", MNT, NULL, MS_BIND, NULL), -EINVAL);
	check("mount_bad_pointer_efault",
	      mount("x", (const char *)KERNEL_TEXT, "proc", 0, NULL), -EFAULT);
	check("umount_busy_ebusy", umount("/sys"), -EBUSY);
	check("umount_flags_einval", umount2("/sys", 0x100), -EINVAL);
	check("mount_proc_ro", mount("proc", MNT, "proc", MS_RDONLY, NULL), 0);
	check("proc_there", slurp(MNT "/version", buf, sizeof(buf)) > 0, 1);
	check("umount_detach", umount2(MNT, MNT_DETACH), 0);
}

static void proc(void)
{
	static char buf[BIG];
	char want[32];
	long n;

	snprintf(want, sizeof(want), "%ld (mounttest) ", getpid());
	slurp("/proc/self/stat", buf, sizeof(buf));
	check("proc_self_stat_is_mine", strncmp(buf, want, strlen(want)), 0);
	snprintf(want, sizeof(want), "/proc/%ld/comm", getpid());
	slurp(want, buf, sizeof(buf));
	check("proc_pid_comm", strcmp(buf, "mounttest\n"), 0);
	slurp("/proc/self/maps", buf, sizeof(buf));
	check("proc_maps_stack", strstr(buf, "rw-p 00000000 00:00 0") != NULL &&
	      strstr(buf, "[stack]\n") != NULL, 1);
	check("proc_no_such_pid", open("/proc/99999/stat", O_RDONLY), -ENOENT);
	check("proc_not_writable", open("/proc/meminfo", O_WRONLY), -EACCES);
	slurp("/proc/meminfo", buf, sizeof(buf));
	check("proc_meminfo", strncmp(buf, "MemTotal:  ", 11), 0);
	/* /proc/kallsyms is far bigger than BIG: read it in pieces, find fib. */
	n = open("/proc/kallsyms", O_RDONLY);
	check("proc_kallsyms_open", n >= 0, 1);
	{
		long total = 0, got, found = 0;

		while ((got = read(n, buf, sizeof(buf) - 1)) > 0) {
			buf[got] = '\0';
			total += got;
			found |= strstr(buf, " T fib\n") != NULL;
		}
		check("proc_kallsyms_big", total > 4 * BIG, 1);
		check("proc_kallsyms_fib", found, 1);
	}
	close(n);
}

/* The bytes of a /proc file (NULs and all) compared with want's len bytes. */
static long proc_bytes_are(const char *path, const char *want, long len)
{
	static char buf[BIG];
	long fd = open(path, O_RDONLY), n, got = 0;

	if (fd < 0)
		return fd;
	while ((n = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += n;
	close(fd);
	return got == len && memcmp(buf, want, len) == 0;
}

/*
 * /proc/PID/cmdline: argv's strings, NUL after each, read from the
 * process's stack - its own, and a forked child's (another address
 * space, held while it is read).  environ: what Linux gives init.
 */
static void cmdline(void)
{
	static const char want[] = "mounttest\0cmdline-arg";	/* and the final NUL */
	static const char env[] = "HOME=/\0TERM=linux";	/* Linux's init's */
	static char maps[BIG];
	char path[32], c;
	int ready[2];
	long child;

	check("proc_self_cmdline", proc_bytes_are("/proc/self/cmdline", want, sizeof(want)), 1);
	check("proc_self_environ", proc_bytes_are("/proc/self/environ", env, sizeof(env)), 1);
	pipe(ready);
	child = fork();
	if (child == 0) {
		write(ready[1], "r", 1);	/* running: its own address space in place */
		pause();
		exit(0);
	}
	read(ready[0], &c, 1);
	close(ready[0]);
	close(ready[1]);
	snprintf(path, sizeof(path), "/proc/%ld/maps", child);
	check("proc_child_maps", slurp(path, maps, sizeof(maps)) > 0 &&
	      strstr(maps, "[stack]\n") != NULL, 1);
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", child);
	check("proc_child_cmdline", proc_bytes_are(path, want, sizeof(want)), 1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	check("proc_dead_child_gone", open(path, O_RDONLY), -ENOENT);
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define DT_DIR	4
#define DT_REG	8

/* getdents64 of path: is name there, with type? (1 yes, 0 no, -errno) */
static long dir_has(const char *path, const char *name, int type)
{
	static char buf[BIG];
	long fd = open(path, O_RDONLY | O_DIRECTORY), n, found = 0;

	if (fd < 0)
		return fd;
	/* A small buffer: the listing takes several calls, each going on from the last. */
	while ((n = getdents64(fd, buf, 64)) > 0)
		for (long off = 0; off < n; ) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			found |= strcmp(d->d_name, name) == 0 && d->d_type == type;
			off += d->d_reclen;
		}
	close(fd);
	return n < 0 ? n : found;
}

static void directories(void)
{
	char buf[4];
	long fd;

	check("getdents_proc_self", dir_has("/proc", "self", DT_DIR), 1);
	check("getdents_proc_meminfo", dir_has("/proc", "meminfo", DT_REG), 1);
	check("getdents_proc_dot", dir_has("/proc", ".", DT_DIR), 1);
	check("getdents_proc_no_pid_0", dir_has("/proc", "0", DT_DIR), 0);	/* Linux's idle task */
	check("getdents_dev_null", dir_has("/dev", "null", DT_REG), 1);
	check("getdents_tracefs", dir_has("/sys/kernel/tracing", "trace", DT_REG), 1);
	check("getdents_sys_kernel", dir_has("/sys/kernel", "tracing", DT_DIR), 1);
	check("open_dir_for_writing_eisdir", open("/proc", O_WRONLY), -EISDIR);
	check("open_file_as_dir_enotdir", open("/dev/null", O_RDONLY | O_DIRECTORY), -ENOTDIR);
	fd = open("/proc/self", O_RDONLY);
	check("read_dir_eisdir", read(fd, buf, sizeof(buf)), -EISDIR);
	close(fd);
}

static void devices(void)
{
	char buf[16] = "xxxxxxxxxxxxxxx";
	long fd;

	fd = open("/dev/null", O_WRONLY);
	check("dev_null_open", fd >= 0, 1);
	check("dev_null_write", write(fd, "gone", 4), 4);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	check("dev_null_eof", read(fd, buf, sizeof(buf)), 0);
	close(fd);
	fd = open("/dev/zero", O_RDONLY);
	check("dev_zero_read", read(fd, buf, 8), 8);
	check("dev_zero_zeros", buf[0] == 0 && buf[7] == 0 && buf[8] == 'x', 1);
	close(fd);
	fd = open("/dev/full", O_WRONLY);
	check("dev_full_enospc", write(fd, "x", 1), -ENOSPC);
	close(fd);
	fd = open("/dev/console", O_WRONLY);
	check("dev_console_write", write(fd, "console says hi\n", 16), 16);
	close(fd);
	check("dev_no_such", open("/dev/nonesuch", O_RDONLY), -ENOENT);
}

int main(int argc, char **argv)
{
	mounts();
	proc();
	cmdline();
	directories();
	devices();
	printf("mounttest: %d failed\n", failures);
	return failures ? 1 : 0;
}
