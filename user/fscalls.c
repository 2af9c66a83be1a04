/*
 * fscalls - the file system calls a Linux program makes (docs/files.md),
 * checked from ring 3 with Linux's numbers, structures and errno values:
 *
 *   fscalls cwd     chdir, fchdir, getcwd: relative paths, fork, execve
 *   fscalls at      openat and a directory fd, mkdirat, unlinkat, rmdir,
 *                   rename(at)(2), access, readlink, umask, chmod, utimensat
 *   fscalls stat    statx, fstatat64, a directory's nlink, the times
 *   fscalls fcntl   fcntl64, dup3, FD_CLOEXEC through execve, F_SETFL
 *   fscalls rw      readv, writev, pread64, pwrite64, truncate64, getdents64
 *   fscalls tracefs write(2) to tracefs: `>` truncates, `>>` appends
 *
 * One line per check, "ok NAME" or "FAIL NAME: got X want Y", then
 * "fscalls: N failed"; the suite "files" (tests/kernel/test_files.c)
 * runs each group.  The program also runs itself through execve to look
 * at what a new program inherits: "fscalls pwd DIR", "fscalls fdclosed
 * FD", "fscalls fdopen FD" exit 0 when that holds.
 */
#include "ucheck.h"

#define DIR		"/tmp/fsc"
#define SELF		"/bin/fscalls"
#define NO_FD		99
#define BIG_FD		32		/* NR_OPEN_DEFAULT: past the table */
#define S_IFMT		0170000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_IFIFO		0010000
#define STATX_BASIC_STATS 0x7ff
#define UIO_MAXIOV	1024
#define UTIME_OMIT	((1L << 30) - 2L)
#define DT_DIR		4
#define DT_REG		8

struct stat64 {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned long __st_ino;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned long st_uid, st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	unsigned long st_atime, st_atime_nsec;
	unsigned long st_mtime;
	unsigned int st_mtime_nsec;
	unsigned long st_ctime, st_ctime_nsec;
	unsigned long long st_ino;
};

struct statx_timestamp {
	long long tv_sec;
	unsigned int tv_nsec;
	int __reserved;
};

struct statx {
	unsigned int stx_mask, stx_blksize;
	unsigned long long stx_attributes;
	unsigned int stx_nlink, stx_uid, stx_gid;
	unsigned short stx_mode, __spare0;
	unsigned long long stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	unsigned int stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	unsigned long long stx_mnt_id;
	unsigned int stx_dio_mem_align, stx_dio_offset_align;
	unsigned long long __spare3[12];
};

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int cwd_is(const char *want)
{
	char buf[128];

	return getcwd(buf, sizeof(buf)) == (long)strlen(want) + 1 && strcmp(buf, want) == 0;
}

static long make_file(const char *path, const char *text)
{
	long fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0)
		return fd;
	write(fd, text, strlen(text));
	close(fd);
	return 0;
}

static long file_mode(const char *path)
{
	struct stat64 st;
	long ret = stat64(path, &st);

	return ret ? ret : (long)st.st_mode;
}

/* Run this program again in a child through execve; its exit status, or -1 if it died. */
static long run_self(const char *prog, const char *mode, const char *arg, const char *chdir_to)
{
	const char *argv[] = { "fscalls", mode, arg, NULL };
	int status;
	long pid = fork();

	if (pid == 0) {
		if (chdir_to)
			chdir(chdir_to);
		execve(prog, argv, NULL);
		exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, NULL) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Start from an empty DIR, whatever an earlier run left. */
static void fresh_dir(void)
{
	const char *names[] = { "f", "g", "h", "i", "n/a", "n/b", "n", "d/x", "d", "e", "m",
				"mv/sub", "mv", "full/x", "full", "empty", "gone", "rw" };
	char path[64];
	unsigned int i;

	chdir("/");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), DIR "/%s", names[i]);
		unlink(path);
		rmdir(path);
	}
	rmdir(DIR);
	mkdir(DIR, 0755);
}

#define EVENTS	"/sys/kernel/tracing/events"

/* A tracefs directory below the mount point as the working directory. */
static void pseudo_cwd(void)
{
	struct stat64 st;
	long fd, pid;
	int status;

	check("chdir_tracefs_dir", chdir(EVENTS "/"), 0);
	check("getcwd_tracefs_dir", cwd_is(EVENTS), 1);
	check("relative_in_tracefs", access("enable", F_OK), 0);
	fd = open("../trace", O_RDONLY);
	check("dotdot_from_tracefs", fd >= 0, 1);
	close(fd);
	check("stat_tracefs_cwd", fstatat64(AT_FDCWD, "", &st, AT_EMPTY_PATH) == 0 &&
	      (st.st_mode & S_IFMT) == S_IFDIR, 1);
	pid = fork();
	if (pid == 0)
		exit(cwd_is(EVENTS) ? 0 : 1);
	check("fork_inherits_tracefs_cwd", wait4(pid, &status, 0, NULL) == pid && status == 0, 1);
	check("chdir_up_to_mount_point", chdir("..") == 0 && cwd_is("/sys/kernel/tracing"), 1);
	check("chdir_tracefs_file", chdir("trace"), -ENOTDIR);
	chdir("/");
}

static void cwd(void)
{
	char buf[64];
	long fd, dfd, pid;
	int status;

	check("getcwd_starts_at_root", cwd_is("/"), 1);
	check("chdir", chdir(DIR), 0);
	check("getcwd_after_chdir", cwd_is(DIR), 1);
	check("getcwd_length_with_nul", getcwd(buf, sizeof(buf)), sizeof(DIR));
	check("getcwd_erange", getcwd(buf, sizeof(DIR) - 1), -ERANGE);
	check("open_relative", make_file("f", "hello"), 0);
	check("relative_is_in_cwd", file_mode(DIR "/f") & S_IFMT, S_IFREG);
	check("mkdir_relative", mkdir("d", 0755), 0);
	check("chdir_relative", chdir("d"), 0);
	check("getcwd_nested", cwd_is(DIR "/d"), 1);
	check("chdir_dotdot", chdir(".."), 0);
	check("getcwd_back", cwd_is(DIR), 1);
	check("stat_dot_relative", file_mode("./f") & S_IFMT, S_IFREG);
	check("chdir_file_enotdir", chdir("f"), -ENOTDIR);
	check("chdir_missing_enoent", chdir("none"), -ENOENT);
	check("chdir_empty_enoent", chdir(""), -ENOENT);
	dfd = open(DIR "/d", O_RDONLY | O_DIRECTORY);
	fd = open(DIR "/f", O_RDONLY);
	chdir("/");
	check("fchdir", fchdir(dfd), 0);
	check("getcwd_after_fchdir", cwd_is(DIR "/d"), 1);
	check("fchdir_file_enotdir", fchdir(fd), -ENOTDIR);
	check("fchdir_pipe_enotdir", fchdir(0), -ENOTDIR);
	check("fchdir_bad_fd", fchdir(NO_FD), -EBADF);
	close(fd);
	close(dfd);
	/* Renamed under us, it stays the working directory (Linux's dentry). */
	check("rename_cwd", rename(DIR "/d", DIR "/e"), 0);
	check("getcwd_follows_rename", cwd_is(DIR "/e"), 1);
	rename(DIR "/e", DIR "/d");
	pid = fork();
	if (pid == 0)
		exit(cwd_is(DIR "/d") && chdir("/") == 0 ? 0 : 1);
	check("fork_inherits_cwd", wait4(pid, &status, 0, NULL) == pid && status == 0, 1);
	check("child_chdir_not_parents", cwd_is(DIR "/d"), 1);
	check("execve_keeps_cwd", run_self(SELF, "pwd", DIR "/d", DIR "/d"), 0);
	check("execve_relative_path", run_self("./fscalls", "pwd", "/bin", "/bin"), 0);
	check("execve_relative_missing", run_self("./fscalls", "pwd", "/", "/"), 127);
	mkdir(DIR "/gone", 0755);
	chdir(DIR "/gone");
	check("rmdir_cwd", rmdir(DIR "/gone"), 0);
	check("getcwd_removed_enoent", getcwd(buf, sizeof(buf)), -ENOENT);
	check("create_in_removed_enoent", open("x", O_CREAT | O_WRONLY, 0644), -ENOENT);
	check("chdir_absolute_after", chdir("/"), 0);
	pseudo_cwd();
}

static void at_calls(void)
{
	char buf[16];
	long dfd, fd;

	dfd = open(DIR, O_RDONLY | O_DIRECTORY);
	fd = openat(dfd, "g", O_CREAT | O_WRONLY, 0644);
	check("openat_dirfd_creates", fd >= 0 && file_mode(DIR "/g") > 0, 1);
	check("openat_file_dirfd_enotdir", openat(fd, "x", O_RDONLY), -ENOTDIR);
	close(fd);
	check("openat_bad_dirfd", openat(NO_FD, "g", O_RDONLY), -EBADF);
	fd = openat(NO_FD, DIR "/g", O_RDONLY);
	check("openat_absolute_ignores_dirfd", fd >= 0, 1);
	close(fd);
	check("openat_fdcwd", close(openat(AT_FDCWD, DIR "/g", O_RDONLY)), 0);
	check("mkdirat", mkdirat(dfd, "m", 0755), 0);
	check("mkdirat_eexist", mkdirat(dfd, "m", 0755), -EEXIST);
	check("unlinkat_dir_eisdir", unlinkat(dfd, "m", 0), -EISDIR);
	check("unlinkat_bad_flag", unlinkat(dfd, "m", 1), -EINVAL);
	check("unlinkat_removedir", unlinkat(dfd, "m", AT_REMOVEDIR), 0);
	check("unlinkat_removedir_file", unlinkat(dfd, "g", AT_REMOVEDIR), -ENOTDIR);
	check("unlinkat_file", unlinkat(dfd, "g", 0), 0);
	check("unlinkat_gone", unlinkat(dfd, "g", 0), -ENOENT);
	mkdir(DIR "/full", 0755);
	make_file(DIR "/full/x", "x");
	check("rmdir_enotempty", rmdir(DIR "/full"), -ENOTEMPTY);
	check("rmdir_root_ebusy", rmdir("/"), -EBUSY);
	check("rmdir_dot_einval", rmdir(DIR "/."), -EINVAL);
	check("rmdir_file_enotdir", rmdir(DIR "/full/x"), -ENOTDIR);
	check("rmdir_missing", rmdir(DIR "/none"), -ENOENT);

	make_file(DIR "/g", "gg");
	check("rename_file", rename(DIR "/g", DIR "/h"), 0);
	check("rename_old_gone", file_mode(DIR "/g"), -ENOENT);
	fd = open(DIR "/h", O_RDONLY);
	check("rename_keeps_bytes", read(fd, buf, sizeof(buf)), 2);
	close(fd);
	make_file(DIR "/g", "new");
	check("rename_replaces_file", rename(DIR "/g", DIR "/h"), 0);
	fd = open(DIR "/h", O_RDONLY);
	check("rename_replaced_bytes", read(fd, buf, sizeof(buf)), 3);
	close(fd);
	check("rename_missing", rename(DIR "/g", DIR "/i"), -ENOENT);
	mkdir(DIR "/mv", 0755);
	mkdir(DIR "/mv/sub", 0755);
	check("rename_into_itself", rename(DIR "/mv", DIR "/mv/sub/x"), -EINVAL);
	check("rename_file_over_dir", rename(DIR "/h", DIR "/mv"), -EISDIR);
	check("rename_dir_over_file", rename(DIR "/mv", DIR "/h"), -ENOTDIR);
	check("rename_dir_over_full_dir", rename(DIR "/mv", DIR "/full"), -ENOTEMPTY);
	mkdir(DIR "/empty", 0755);
	check("rename_dir_over_empty_dir", rename(DIR "/mv", DIR "/empty"), 0);
	check("rename_dir_moved", file_mode(DIR "/empty/sub") & S_IFMT, S_IFDIR);
	check("rename_same_file", rename(DIR "/h", DIR "/h"), 0);
	check("renameat", renameat(dfd, "empty", dfd, "mv"), 0);
	make_file(DIR "/g", "g");
	check("renameat2_noreplace", renameat2(dfd, "g", dfd, "h", RENAME_NOREPLACE), -EEXIST);
	check("renameat2_noreplace_free", renameat2(dfd, "g", dfd, "i", RENAME_NOREPLACE), 0);
	check("renameat2_bad_flags", renameat2(dfd, "i", dfd, "g", 8), -EINVAL);
	check("rename_dot_ebusy", rename(DIR "/mv/.", DIR "/x"), -EBUSY);
	rename(DIR "/i", DIR "/g");

	check("access_exec", access("/bin/hello", X_OK), 0);
	check("access_no_x_bit", access(DIR "/g", X_OK), -EACCES);
	check("access_rw", access(DIR "/g", R_OK | W_OK), 0);
	check("access_dir_search", access(DIR, X_OK), 0);
	check("access_missing", access(DIR "/none", F_OK), -ENOENT);
	check("access_bad_mode", access(DIR "/g", 8), -EINVAL);
	check("faccessat_dirfd", faccessat(dfd, "g", F_OK), 0);
	check("readlink_not_a_link", readlink(DIR "/g", buf, sizeof(buf)), -EINVAL);
	check("readlink_missing", readlink(DIR "/none", buf, sizeof(buf)), -ENOENT);
	check("readlinkat_zero_size", readlinkat(dfd, "g", buf, 0), -EINVAL);

	check("umask_initial", umask(077), 022);
	unlink(DIR "/f");
	close(open(DIR "/f", O_CREAT | O_WRONLY, 0666));
	check("umask_on_create", file_mode(DIR "/f") & 0777, 0600);
	mkdir(DIR "/m", 0777);
	check("umask_on_mkdir", file_mode(DIR "/m") & 0777, 0700);
	rmdir(DIR "/m");
	check("umask_returns_old", umask(022), 077);
	check("chmod", chmod(DIR "/f", 0751), 0);
	check("chmod_mode", file_mode(DIR "/f"), S_IFREG | 0751);
	fd = open(DIR "/f", O_RDONLY);
	check("fchmod", fchmod(fd, 0640), 0);
	check("fchmod_mode", file_mode(DIR "/f"), S_IFREG | 0640);
	close(fd);
	check("chmod_missing", chmod(DIR "/none", 0644), -ENOENT);
	close(dfd);
}

static void utimes(void)
{
	struct timespec t[2] = { { 100, 5 }, { 200, 7 } };
	struct stat64 st;

	check("utimensat", utimensat(AT_FDCWD, DIR "/f", t, 0), 0);
	stat64(DIR "/f", &st);
	check("utimensat_mtime", st.st_mtime == 200 && st.st_mtime_nsec == 7, 1);
	check("utimensat_atime", st.st_atime == 100 && st.st_atime_nsec == 5, 1);
	t[0].tv_nsec = UTIME_OMIT;
	t[1].tv_sec = 300;
	utimensat(AT_FDCWD, DIR "/f", t, 0);
	stat64(DIR "/f", &st);
	check("utimensat_omit", st.st_atime == 100 && st.st_mtime == 300, 1);
	check("utimensat_now", utimensat(AT_FDCWD, DIR "/f", NULL, 0), 0);
	stat64(DIR "/f", &st);
	check("utimensat_now_moves", st.st_mtime != 300 || st.st_mtime_nsec != 7, 1);
	t[1].tv_nsec = 1000000000;
	check("utimensat_bad_nsec", utimensat(AT_FDCWD, DIR "/f", t, 0), -EINVAL);
	check("utimensat_missing", utimensat(AT_FDCWD, DIR "/none", NULL, 0), -ENOENT);
	check("utimensat_bad_flags", utimensat(AT_FDCWD, DIR "/f", NULL, 1), -EINVAL);
}

static void stats(void)
{
	struct statx sx;
	struct stat64 st;
	long fd;
	int p[2];

	unlink(DIR "/f");
	make_file(DIR "/f", "12345");
	check("statx", statx(AT_FDCWD, DIR "/f", 0, STATX_BASIC_STATS, &sx), 0);
	check("statx_mask", sx.stx_mask, STATX_BASIC_STATS);
	check("statx_mode", sx.stx_mode, S_IFREG | 0644);
	check("statx_size", (long)sx.stx_size, 5);
	check("statx_nlink", sx.stx_nlink, 1);
	check("statx_blocks", (long)sx.stx_blocks, 8);	/* one page in 512-byte units, as tmpfs */
	stat64(DIR "/f", &st);
	check("statx_ino_is_stat64s", sx.stx_ino == st.st_ino && st.st_ino != 0, 1);
	check("statx_mtime_is_stat64s", sx.stx_mtime.tv_sec == st.st_mtime &&
	      sx.stx_mtime.tv_nsec == st.st_mtime_nsec, 1);
	check("stat64_dev_is_statx", st.st_dev == sx.stx_dev_minor && st.st_dev != 0, 1);
	fd = open(DIR "/f", O_RDONLY);
	memset(&sx, 0, sizeof(sx));
	check("statx_empty_path", statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx), 0);
	check("statx_empty_path_ino", sx.stx_ino == st.st_ino, 1);
	check("statx_empty_without_flag", statx(fd, "", 0, STATX_BASIC_STATS, &sx), -ENOENT);
	close(fd);
	check("statx_reserved_mask", statx(AT_FDCWD, DIR, 0, 0x80000000u, &sx), -EINVAL);
	check("statx_bad_flags", statx(AT_FDCWD, DIR, 1, STATX_BASIC_STATS, &sx), -EINVAL);
	check("statx_missing", statx(AT_FDCWD, DIR "/none", 0, STATX_BASIC_STATS, &sx), -ENOENT);
	check("statx_efault", statx(AT_FDCWD, DIR, 0, STATX_BASIC_STATS, (void *)0x100000), -EFAULT);
	pipe(p);
	statx(p[0], "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx);
	check("statx_pipe_fifo", sx.stx_mode & S_IFMT, S_IFIFO);
	close(p[0]);
	close(p[1]);
	fd = open(DIR, O_RDONLY | O_DIRECTORY);
	check("fstatat64_dirfd", fstatat64(fd, "f", &st, 0) == 0 && st.st_size == 5, 1);
	check("fstatat64_bad_flag", fstatat64(fd, "f", &st, 1), -EINVAL);
	close(fd);
	chdir(DIR);
	check("fstatat64_cwd_empty_path", fstatat64(AT_FDCWD, "", &st, AT_EMPTY_PATH) == 0 &&
	      (st.st_mode & S_IFMT) == S_IFDIR, 1);
	chdir("/");
	check("lstat64", lstat64(DIR "/f", &st) == 0 && st.st_size == 5, 1);
	mkdir(DIR "/n", 0755);
	mkdir(DIR "/n/a", 0755);
	mkdir(DIR "/n/b", 0755);
	check("dir_nlink_counts_subdirs", stat64(DIR "/n", &st) == 0 ? (long)st.st_nlink : -1, 4);
	check("tracefs_dir_is_dir", file_mode("/sys/kernel/tracing/events"), S_IFDIR | 0755);
	check("tracefs_file_is_file", file_mode("/sys/kernel/tracing/trace"), S_IFREG | 0644);
}

static void fcntls(void)
{
	char buf[8];
	long fd, fd2, n;
	int p[2];

	fd = open(DIR "/f", O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0644);
	check("f_dupfd_at_least", fcntl64(fd, F_DUPFD, 10), 10);
	check("f_dupfd_cloexec", fcntl64(fd, F_DUPFD_CLOEXEC, 10), 11);
	check("f_getfd_cloexec", fcntl64(11, F_GETFD), FD_CLOEXEC);
	check("f_getfd_plain", fcntl64(10, F_GETFD), 0);
	check("f_setfd", fcntl64(11, F_SETFD, 0), 0);
	check("f_setfd_cleared", fcntl64(11, F_GETFD), 0);
	close(10);
	close(11);
	check("f_dupfd_past_table", fcntl64(fd, F_DUPFD, BIG_FD), -EINVAL);
	check("fcntl_bad_fd", fcntl64(NO_FD, F_GETFD), -EBADF);
	check("fcntl_bad_cmd", fcntl64(fd, 9999), -EINVAL);
	check("f_getfl_drops_open_only", fcntl64(fd, F_GETFL), O_RDWR | O_APPEND);
	close(fd);
	fd = open(DIR "/f", O_WRONLY);
	write(fd, "ab", 2);
	lseek(fd, 0, SEEK_SET);
	check("f_setfl_append", fcntl64(fd, F_SETFL, O_APPEND | O_CREAT), 0);
	check("f_getfl_after_setfl", fcntl64(fd, F_GETFL), O_WRONLY | O_APPEND);
	write(fd, "c", 1);
	close(fd);
	check("f_setfl_append_writes_at_end", file_mode(DIR "/f") > 0 &&
	      read(fd = open(DIR "/f", O_RDONLY), buf, sizeof(buf)) == 3 && buf[2] == 'c', 1);
	close(fd);
	pipe(p);
	check("f_setfl_nonblock_pipe", fcntl64(p[0], F_SETFL, O_NONBLOCK), 0);
	check("pipe_read_eagain", read(p[0], buf, 1), -EAGAIN);
	close(p[0]);
	close(p[1]);
	check("pipe2_cloexec", pipe2(p, O_CLOEXEC) == 0 && fcntl64(p[0], F_GETFD) == FD_CLOEXEC &&
	      fcntl64(p[1], F_GETFD) == FD_CLOEXEC, 1);
	close(p[0]);
	close(p[1]);

	fd = open(DIR "/f", O_RDONLY);
	check("dup3_same_fd", dup3(fd, fd, 0), -EINVAL);
	check("dup3_bad_flags", dup3(fd, 20, O_APPEND), -EINVAL);
	check("dup3_bad_oldfd", dup3(NO_FD, 20, 0), -EBADF);
	check("dup3_cloexec", dup3(fd, 20, O_CLOEXEC), 20);
	check("dup3_cloexec_set", fcntl64(20, F_GETFD), FD_CLOEXEC);
	check("dup2_clears_cloexec", dup2(fd, 20) == 20 && fcntl64(20, F_GETFD) == 0, 1);
	close(20);
	/* Through execve: FD_CLOEXEC closes, the rest stays. */
	fd2 = dup2(fd, 21);
	snprintf(buf, sizeof(buf), "%ld", fd2);
	check("execve_keeps_plain_fd", run_self(SELF, "fdopen", buf, NULL), 0);
	fcntl64(fd2, F_SETFD, FD_CLOEXEC);
	check("execve_closes_cloexec_fd", run_self(SELF, "fdclosed", buf, NULL), 0);
	close(fd2);
	n = openat(AT_FDCWD, DIR "/f", O_RDONLY | O_CLOEXEC);
	check("open_cloexec_sets_fd_flag", fcntl64(n, F_GETFD), FD_CLOEXEC);
	close(n);
	close(fd);
	check("open_excl_eexist", open(DIR "/f", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	check("open_directory_on_file", open(DIR "/f", O_RDONLY | O_DIRECTORY), -ENOTDIR);
}

static void readdir_types(void)
{
	char buf[512];
	struct linux_dirent64 *d;
	long fd = open(DIR, O_RDONLY | O_DIRECTORY), n, off;
	int types = 0, index = 0, offs_ok = 1;

	mkdir(DIR "/d", 0755);
	make_file(DIR "/f", "");
	n = getdents64(fd, buf, sizeof(buf));
	for (off = 0; off < n; off += d->d_reclen) {
		d = (struct linux_dirent64 *)(buf + off);
		offs_ok &= d->d_off == ++index;		/* where the next one starts */
		if (strcmp(d->d_name, "d") == 0)
			types |= d->d_type == DT_DIR;
		if (strcmp(d->d_name, "f") == 0)
			types |= (d->d_type == DT_REG) << 1;
		if (strcmp(d->d_name, ".") == 0)
			types |= (d->d_type == DT_DIR) << 2;
	}
	check("getdents64_d_type", types, 7);
	check("getdents64_d_off", offs_ok && index > 2, 1);
	lseek(fd, 2, SEEK_SET);		/* a d_off back in: from the third entry on */
	d = (struct linux_dirent64 *)buf;
	check("getdents64_seek_d_off", getdents64(fd, buf, sizeof(buf)) > 0 && d->d_off == 3, 1);
	close(fd);
}

static void rw(void)
{
	char a[4], b[16], buf[16];
	struct iovec out[2] = { { "ab", 2 }, { "cde", 3 } };
	struct iovec in[2] = { { a, 2 }, { b, sizeof(b) } };
	struct iovec bad[1] = { { (void *)0x100000, 4 } };
	struct stat64 st;
	long fd = open(DIR "/rw", O_RDWR | O_CREAT | O_TRUNC, 0644), n;
	int p[2];

	check("writev", writev(fd, out, 2), 5);
	lseek(fd, 0, SEEK_SET);
	check("readv", readv(fd, in, 2), 5);
	check("readv_first", memcmp(a, "ab", 2), 0);
	check("readv_second", memcmp(b, "cde", 3), 0);
	check("writev_none", writev(fd, out, 0), 0);
	check("writev_too_many", writev(fd, out, UIO_MAXIOV + 1), -EINVAL);
	check("writev_efault", writev(fd, bad, 1), -EFAULT);
	check("readv_bad_fd", readv(NO_FD, in, 2), -EBADF);
	n = writev(STDOUT_FILENO, out, 2);
	printf("\n");
	check("writev_console", n, 5);
	check("pwrite64", pwrite64(fd, "XY", 2, 8), 2);
	check("pwrite64_keeps_position", lseek(fd, 0, SEEK_CUR), 5);
	check("pwrite64_hole_size", fstat64(fd, &st) == 0 && st.st_size == 10, 1);
	memset(buf, 'z', sizeof(buf));
	check("pread64", pread64(fd, buf, sizeof(buf), 4), 6);
	check("pread64_hole_zeros", buf[0] == 'e' && buf[1] == 0 && buf[4] == 'X', 1);
	check("pread64_keeps_position", lseek(fd, 0, SEEK_CUR), 5);
	check("pread64_negative", pread64(fd, buf, 1, -1), -EINVAL);
	pipe(p);
	check("pread64_pipe_espipe", pread64(p[0], buf, 1, 0), -ESPIPE);
	close(p[0]);
	close(p[1]);
	check("ftruncate64_shrinks", ftruncate64(fd, 3) == 0 && fstat64(fd, &st) == 0 &&
	      st.st_size == 3, 1);
	check("truncate64_grows", truncate64(DIR "/rw", 100) == 0 && stat64(DIR "/rw", &st) == 0 &&
	      st.st_size == 100, 1);
	check("truncate64_zeros", pread64(fd, buf, 2, 50) == 2 && buf[0] == 0 && buf[1] == 0, 1);
	check("truncate64_dir", truncate64(DIR, 0), -EISDIR);
	check("truncate64_negative", truncate64(DIR "/rw", -1), -EINVAL);
	close(fd);
	fd = open(DIR "/rw", O_RDONLY);
	check("ftruncate64_read_only", ftruncate64(fd, 0), -EINVAL);
	close(fd);
	readdir_types();
}

#define KPROBE_EVENTS	"/sys/kernel/tracing/kprobe_events"

/* A pseudo file's text now, NUL-terminated; its length or -errno. */
static long slurp(const char *path, char *buf, size_t size)
{
	long fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return fd;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static long write_text(const char *path, int flags, const char *text)
{
	long fd = open(path, O_WRONLY | flags), n;

	if (fd < 0)
		return fd;
	n = write(fd, text, strlen(text));
	close(fd);
	return n;
}

static void tracefs(void)
{
	char buf[256];
	long fd;

	check("trunc_write", write_text(KPROBE_EVENTS, O_TRUNC | O_CREAT, "p:fsc_one fib\n"), 14);
	slurp(KPROBE_EVENTS, buf, sizeof(buf));
	check("trunc_write_reads_back", strcmp(buf, "p:kprobes/fsc_one fib\n"), 0);
	check("append_write", write_text(KPROBE_EVENTS, O_APPEND, "p:fsc_two fib\n"), 14);
	slurp(KPROBE_EVENTS, buf, sizeof(buf));
	check("append_keeps_first", strcmp(buf, "p:kprobes/fsc_one fib\np:kprobes/fsc_two fib\n"), 0);
	check("bad_line_write_error", write_text(KPROBE_EVENTS, O_APPEND, "x:bad fib\n"), -EINVAL);
	fd = open(KPROBE_EVENTS, O_WRONLY | O_TRUNC);
	check("trunc_open_alone", close(fd), 0);
	check("trunc_at_close_removes_all", slurp(KPROBE_EVENTS, buf, sizeof(buf)), 0);
	check("create_in_tracefs_eacces",
	      open("/sys/kernel/tracing/fsc_new", O_CREAT | O_WRONLY, 0644), -EACCES);
	check("no_file_made", access("/sys/kernel/tracing/fsc_new", F_OK), -ENOENT);
	chdir("/sys/kernel/tracing");
	check("relative_tracefs_write", write_text("kprobe_events", O_TRUNC, "p:fsc_rel fib\n"), 14);
	check("relative_tracefs_read", slurp("kprobe_events", buf, sizeof(buf)), 22);
	check("relative_tracefs_trunc", write_text("kprobe_events", O_TRUNC, ""), 0);
	chdir("/");
	fd = open(KPROBE_EVENTS, O_RDONLY);
	check("read_only_open_write_ebadf", write(fd, "p:x fib\n", 8), -EBADF);
	close(fd);
}

/* What execve kept: the working directory, the descriptors. */
static int child_mode(const char *mode, const char *arg)
{
	struct stat64 st;
	long fd = simple_strtol(arg, NULL, 10);

	if (strcmp(mode, "pwd") == 0)
		return !cwd_is(arg);
	if (strcmp(mode, "fdclosed") == 0)
		return fstat64(fd, &st) != -EBADF;
	if (strcmp(mode, "fdopen") == 0)
		return fstat64(fd, &st) != 0;
	return 2;
}

#define LN		DIR "/ln"
#define S_IFLNK		0120000
#define DT_LNK		10
#define MAXSYMLINKS	40	/* Linux's: links followed in one walk */

/* A chain LN/c0 -> end, c1 -> c0, ... c<n-1> -> c<n-2>: n links to walk through. */
static long make_chain(int n)
{
	char name[32], prev[32] = "end";
	long ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		snprintf(name, sizeof(name), LN "/c%d", i);
		ret = symlink(prev, name);
		snprintf(prev, sizeof(prev), "c%d", i);
	}
	return ret;
}

/* Is name in directory path, with type? */
static long dir_has_type(const char *path, const char *name, int type)
{
	static char buf[1024];
	long fd = open(path, O_RDONLY | O_DIRECTORY), n, found = 0;

	if (fd < 0)
		return fd;
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; ) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			found |= strcmp(d->d_name, name) == 0 && d->d_type == type;
			off += d->d_reclen;
		}
	close(fd);
	return found;
}

static long lstat_mode(const char *path)
{
	struct stat64 st;
	long ret = lstat64(path, &st);

	return ret ? ret : (long)st.st_mode;
}

/* The text readlink gives, compared with want. */
static long link_is(const char *path, const char *want)
{
	char buf[64];
	long n = readlink(path, buf, sizeof(buf));

	return n == (long)strlen(want) && memcmp(buf, want, n) == 0;
}

/* Each of these names goes at the end, whatever a check left. */
static void links_cleanup(void)
{
	static const char *const names[] = { "t", "l", "d", "e", "nowhere", "dangling",
		"loop1", "loop2", "sub/x", "sub", "dl", "moved", "end", "at" };
	char path[64];

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), LN "/%s", names[i]);
		unlink(path);
		rmdir(path);
	}
	for (int i = 0; i <= MAXSYMLINKS; i++) {
		snprintf(path, sizeof(path), LN "/c%d", i);
		unlink(path);
	}
	rmdir(LN);
}

/* symlink, readlink, lstat and the walk through links (docs/files.md). */
static void links(void)
{
	struct stat64 st;
	char buf[64];
	long fd, dfd;

	mkdir(LN, 0755);
	make_file(LN "/t", "target");
	check("symlink", symlink("t", LN "/l"), 0);
	check("symlink_eexist", symlink("t", LN "/l"), -EEXIST);
	check("symlink_empty_enoent", symlink("", LN "/e"), -ENOENT);
	check("symlink_no_dir_enoent", symlink("t", LN "/none/l"), -ENOENT);
	check("readlink_text", link_is(LN "/l", "t"), 1);
	check("readlink_cut_to_size", readlink(LN "/l", buf, 0) == -EINVAL &&
	      symlink("target-text", LN "/d") == 0 && readlink(LN "/d", buf, 3) == 3 &&
	      memcmp(buf, "tar", 3) == 0, 1);
	check("lstat_is_link", lstat64(LN "/l", &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK &&
	      (st.st_mode & 0777) == 0777 && st.st_size == 1, 1);
	check("fstatat_nofollow", fstatat64(AT_FDCWD, LN "/l", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	      (st.st_mode & S_IFMT) == S_IFLNK, 1);
	check("stat_follows", stat64(LN "/l", &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG &&
	      st.st_size == 6, 1);
	fd = open(LN "/l", O_RDONLY);
	check("open_follows", fd >= 0 && read(fd, buf, sizeof(buf)) == 6 &&
	      memcmp(buf, "target", 6) == 0, 1);
	close(fd);
	check("open_nofollow_eloop", open(LN "/l", O_RDONLY | O_NOFOLLOW), -ELOOP);
	check("open_excl_on_link_eexist", open(LN "/l", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	check("dangling_stat_enoent", symlink("nowhere", LN "/dangling") == 0 &&
	      stat64(LN "/dangling", &st) == -ENOENT, 1);
	check("dangling_lstat", lstat_mode(LN "/dangling") & S_IFMT, S_IFLNK);
	check("creat_through_dangling", make_file(LN "/dangling", "made") == 0 &&
	      (file_mode(LN "/nowhere") & S_IFMT) == S_IFREG, 1);
	check("mkdir_on_link_eexist", mkdir(LN "/l", 0755), -EEXIST);
	symlink("loop2", LN "/loop1");
	symlink("loop1", LN "/loop2");
	check("loop_eloop", open(LN "/loop1", O_RDONLY), -ELOOP);
	make_file(LN "/end", "end");
	check("forty_links_followed", make_chain(MAXSYMLINKS + 1) == 0 &&
	      stat64(LN "/c39", &st) == 0 && st.st_size == 3, 1);
	check("forty_one_links_eloop", stat64(LN "/c40", &st), -ELOOP);
	mkdir(LN "/sub", 0755);
	check("symlink_to_dir", symlink(LN "/sub", LN "/dl"), 0);
	check("create_through_dir_link", make_file(LN "/dl/x", "x") == 0 &&
	      (file_mode(LN "/sub/x") & S_IFMT) == S_IFREG, 1);
	check("dotdot_after_link_is_targets_parent",
	      stat64(LN "/dl/..", &st) == 0 && (long)st.st_ino == (stat64(LN, &st), (long)st.st_ino), 1);
	check("chdir_through_link", chdir(LN "/dl") == 0 && cwd_is(LN "/sub"), 1);
	chdir("/");
	check("getdents_dt_lnk", dir_has_type(LN, "l", DT_LNK), 1);
	dfd = open(LN, O_RDONLY | O_DIRECTORY);
	check("symlinkat", symlinkat("t", dfd, "at"), 0);
	check("readlinkat", readlinkat(dfd, "at", buf, sizeof(buf)), 1);
	close(dfd);
	check("rename_moves_the_link", rename(LN "/l", LN "/moved") == 0 &&
	      link_is(LN "/moved", "t"), 1);
	check("unlink_takes_the_link", unlink(LN "/moved") == 0 &&
	      lstat_mode(LN "/moved") == -ENOENT && (file_mode(LN "/t") & S_IFMT) == S_IFREG, 1);
	snprintf(buf, sizeof(buf), "%ld", getpid());
	check("proc_self_is_my_pid", link_is("/proc/self", buf), 1);
	check("proc_self_lstat_link", lstat_mode("/proc/self") & S_IFMT, S_IFLNK);
	check("proc_self_exe_link", lstat_mode("/proc/self/exe") & S_IFMT, S_IFLNK);
	{
		struct stat64 prog;
		char exe[64];
		long n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		exe[n > 0 ? n : 0] = '\0';
		check("proc_self_exe_is_my_program", n > 0 && exe[0] == '/' &&
		      stat64(exe, &prog) == 0 && stat64("/proc/self/exe", &st) == 0 &&
		      prog.st_ino == st.st_ino, 1);
	}
	links_cleanup();
}

int main(int argc, char **argv)
{
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0;

	if (argc > 2)
		return child_mode(argv[1], argv[2]);
	fresh_dir();
	if (all || strcmp(group, "cwd") == 0)
		cwd();
	if (all || strcmp(group, "at") == 0) {
		at_calls();
		utimes();
	}
	if (all || strcmp(group, "stat") == 0)
		stats();
	if (all || strcmp(group, "fcntl") == 0)
		fcntls();
	if (all || strcmp(group, "rw") == 0)
		rw();
	if (all || strcmp(group, "tracefs") == 0)
		tracefs();
	if (all || strcmp(group, "links") == 0)
		links();
	chdir("/");
	printf("fscalls: %d failed\n", failures);
	return failures != 0;
}
